#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's bench stage: the benchmarks build (bench/Makefile: cmp_bench
# and reg_bench against stock libibverbs and tests/lib) and compare.py's
# arithmetic passes its unit test.  The benchmarks are not run here (see
# bench/run.sh).  KTAP on stdout.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ktap.sh"
"$top/scripts/setup.sh" verbs >&2

ktap_start
log=$(make -s -C "$top/bench" O="$top/build/bench-bin" 2>&1)
ktap_result $? "bench: cmp_bench and reg_bench build (-Wall -Wextra -Werror)" "$log"
log=$(cd "$top/bench" && python3 -m unittest test_compare 2>&1)
ktap_result $? "bench: compare.py unit test" "$log"
ktap_finish
