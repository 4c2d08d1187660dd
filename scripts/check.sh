#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, in order, each stage run even if
# an earlier one failed.  Prints one line per stage and, last,
# "check: N passed, N failed" over all test cases.  Exits non-zero if any
# stage failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mkdir -p build

total_pass=0 total_fail=0 failed_stages=()

# run_stage NAME COMMAND...: the command's last "N passed, N failed" line is
# added to the totals; a stage without one counts as one case.
run_stage() {
	local name=$1 log=build/check-$1.log rc line p f
	shift
	echo "=== $name: $*"
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	line=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
	if [ -n "$line" ]; then
		p=${line%% passed*}
		f=${line#*passed, }
		f=${f%% failed*}
	elif [ "$rc" = 0 ]; then
		p=1 f=0
	else
		p=0 f=1
	fi
	[ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
	total_pass=$((total_pass + p))
	total_fail=$((total_fail + f))
	if [ "$rc" = 0 ]; then
		echo "=== $name: PASS ($p passed, $f failed)"
	else
		echo "=== $name: FAIL ($p passed, $f failed; log: $log)"
		failed_stages+=("$name")
	fi
}

run_stage module scripts/build-module.sh --test
run_stage dkms scripts/dkms-check.sh
run_stage lint scripts/checkpatch.sh
run_stage kunit scripts/kunit.sh
run_stage kunit-x86 scripts/kunit-x86.sh
run_stage conformance tests/stub/run.sh
run_stage bringup tests/vm/bringup.sh
run_stage verbs tests/verbs/run.sh

echo
if [ ${#failed_stages[@]} -gt 0 ]; then
	echo "failed stages: ${failed_stages[*]}"
fi
echo "check: $total_pass passed, $total_fail failed"
[ ${#failed_stages[@]} -eq 0 ]
