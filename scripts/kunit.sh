#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suites in kunit/ with the kernel's own kunit.py (UML), in a
# build directory cached in $ARBEL_CACHE.  Fails on any failed, crashed or
# skipped test, on zero tests, and on kernel warnings or sanitizer reports
# in the raw log (6.1's KUnit does not fail a test for those).
# Prints "kunit: N passed, N failed" last.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"

tree=$("$top/scripts/ktree.sh")
build=$ARBEL_CACHE/kunit-uml-$(basename "$tree")
log=$top/build/kunit/uml.log
mkdir -p "$build" "$(dirname "$log")"

echo "kunit: building and running in $build (log: $log)" >&2
rc=0
(cd "$tree" && nice python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$top/kunit" --build_dir="$build" \
	--jobs="$(nproc)" --timeout=600) >"$log" 2>&1 || rc=$?
# kunit.py keeps the kernel's whole console output here.
raw=$build/test.log

# "Testing complete. Ran 100 tests: passed: 99, failed: 1, skipped: 0"
summary=$(grep -Eo 'Ran [0-9]+ tests?:.*' "$log" | tail -n 1 || true)
echo "kunit: ${summary:-no summary}" >&2
num() { [[ $summary =~ $1:\ ([0-9]+) ]] && echo "${BASH_REMATCH[1]}" || echo 0; }
pass=$(num passed)
fail=$(( $(num failed) + $(num crashed) ))
skip=$(num skipped)

status=0
if [ "$rc" != 0 ]; then
	echo "kunit: kunit.py exited $rc" >&2
	status=1
fi
if [ "$pass" = 0 ]; then
	echo "kunit: no test ran" >&2
	status=1
fi
if [ "$skip" != 0 ]; then
	echo "kunit: $skip tests skipped" >&2
	status=1
fi
if [ ! -f "$raw" ]; then
	echo "kunit: no raw log at $raw" >&2
	status=1
elif grep -E 'BUG: KASAN|UBSAN:|WARNING:|Kernel panic' "$raw" >&2; then
	echo "kunit: kernel warnings or sanitizer reports in $raw" >&2
	status=1
fi
[ "$fail" = 0 ] || status=1
# A failure outside the counted tests still counts as one failed case.
[ "$status" = 0 ] || [ "$fail" != 0 ] || fail=1
echo "kunit: $pass passed, $fail failed"
exit "$status"
