#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, in order, each stage run even if
# an earlier one failed.  Every stage prints KTAP on stdout; check.sh keeps
# it in build/check-NAME.ktap, stdout and stderr together in
# build/check-NAME.log, the exit status in build/check-NAME.rc.  Last,
# scripts/report.py prints "NAME: N passed, N failed" per stage and the
# closing line "check: N passed, N failed" (", N skipped" when there are
# skips), and gives the exit status: non-zero on any failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build

stages=()

# run_stage NAME COMMAND...
run_stage() {
	local name=$1 out=build/check-$1 rc
	shift
	stages+=("$name")
	rm -f "$out.ktap" "$out.log" "$out.rc"
	echo "=== $name: $*"
	"$@" 2> >(tee -a "$out.log" >&2) | tee "$out.ktap" | tee -a "$out.log"
	rc=${PIPESTATUS[0]}
	echo "$rc" >"$out.rc"
	echo "=== $name: exit status $rc (log: $out.log)"
}

run_stage pylib python3 tests/pylib/tests
run_stage testlib make -s -C tests/lib check
run_stage bench bench/build-check.sh
run_stage module-6.12 env -u ARBEL_KABI -u ARBEL_KDIR ARBEL_KERNEL=6.12 \
	scripts/build-module.sh --test
run_stage module scripts/build-module.sh --test
run_stage dkms scripts/dkms-check.sh
run_stage lint scripts/checkpatch.sh
run_stage docs scripts/htmldocs.sh
run_stage kunit scripts/kunit.sh
run_stage kunit-x86 scripts/kunit-x86.sh
run_stage intree env -u ARBEL_KABI -u ARBEL_KDIR ARBEL_KERNEL=6.1 \
	scripts/intree.sh
run_stage conformance tests/stub/run.sh
run_stage mthca tests/mthca/run.sh
run_stage bringup tests/vm/bringup.sh
run_stage verbs tests/verbs/run.sh
run_stage deb scripts/deb-check.sh

echo
exec python3 scripts/report.py --dir build "${stages[@]}"
