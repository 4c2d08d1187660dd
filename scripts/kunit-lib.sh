#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Shared by scripts/kunit.sh and scripts/kunit-x86.sh; source it.
#
# kunit_verdict NAME LOG RAW RC: judge one kunit.py run from its parsed
# output LOG, the kernel's raw console log RAW and its exit code RC.  Fails
# on a non-zero exit, on failed, crashed or skipped tests, on zero tests,
# and on kernel warnings, lockdep or sanitizer reports in RAW (6.1's KUnit
# does not fail a test for those).  Prints "NAME: N passed, N failed" last
# and returns 0 only if everything passed.
kunit_verdict() {
	local name=$1 log=$2 raw=$3 rc=$4 summary pass fail skip status=0

	# "Testing complete. Ran 100 tests: passed: 99, failed: 1, skipped: 0"
	summary=$(grep -Eo 'Ran [0-9]+ tests?:.*' "$log" | tail -n 1 || true)
	echo "$name: ${summary:-no summary}" >&2
	_kunit_num() {
		if [[ $summary =~ $1:\ ([0-9]+) ]]; then
			echo "${BASH_REMATCH[1]}"
		else
			echo 0
		fi
	}
	pass=$(_kunit_num passed)
	fail=$(($(_kunit_num failed) + $(_kunit_num crashed)))
	skip=$(_kunit_num skipped)

	if [ "$rc" != 0 ]; then
		echo "$name: kunit.py exited $rc" >&2
		status=1
	fi
	if [ "$pass" = 0 ]; then
		echo "$name: no test ran" >&2
		status=1
	fi
	if [ "$skip" != 0 ]; then
		echo "$name: $skip tests skipped" >&2
		status=1
	fi
	if [ ! -f "$raw" ]; then
		echo "$name: no raw log at $raw" >&2
		status=1
	elif grep -E 'BUG: KASAN|UBSAN:|WARNING:|BUG:|Kernel panic|possible recursive locking|circular locking' "$raw" >&2; then
		echo "$name: kernel warnings or sanitizer reports in $raw" >&2
		status=1
	fi
	if [ -z "$summary" ]; then
		grep -E 'not ok|ERROR|Error|error:' "$log" | tail -n 20 >&2 || true
	fi
	[ "$fail" = 0 ] || status=1
	# A failure outside the counted tests still counts as one failed case.
	[ "$status" = 0 ] || [ "$fail" != 0 ] || fail=1
	echo "$name: $pass passed, $fail failed"
	return "$status"
}
