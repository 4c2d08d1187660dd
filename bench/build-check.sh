#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's bench stage: the benchmarks build (bench/Makefile: cmp_bench
# and reg_bench against stock libibverbs and tests/lib), compare.py's
# arithmetic and traffic.py's parsing of perftest output pass their unit
# tests.  The benchmarks are not run here (see bench/run.sh and
# bench/traffic.sh).  KTAP on stdout.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ktap.sh"
"$top/scripts/setup.sh" verbs >&2

ktap_start
log=$(make -s -C "$top/bench" O="$top/build/bench-bin" 2>&1)
ktap_result $? "bench: cmp_bench and reg_bench build (-Wall -Wextra -Werror)" "$log"
log=$(cd "$top/bench" && python3 -m unittest test_compare test_traffic 2>&1)
ktap_result $? "bench: compare.py and traffic.py unit tests" "$log"
ktap_finish
