#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# KTAP output for the shell stages of make check; source it.  The same
# format as tests/pylib/arbeltest/ktap.py and tests/lib/ktap.h print, on
# stdout (diagnostics as "# " lines): scripts/report.py counts it.
#
#   ktap_start                      "KTAP version 1"
#   ktap_ok NAME                    a passed test
#   ktap_fail NAME [DETAIL]         a failed test; DETAIL's lines as "# "
#   ktap_skip NAME WHY              a skipped test: neither passed nor failed
#   ktap_result STATUS NAME [DETAIL] ktap_ok if STATUS is 0, else ktap_fail
#   ktap_subtest NAME CMD...        CMD's KTAP as NAME's subtests (indented),
#                                   then NAME's own result: CMD's exit status
#   ktap_diag MSG                   MSG's lines as "# " lines
#   ktap_finish                     the plan "1..N"; exits 1 if any failed

ktap_num=0 ktap_passed=0 ktap_failed=0 ktap_skipped=0

ktap_start() {
	echo 'KTAP version 1'
}

# a result name: no '#' (it starts a directive), one line
_ktap_name() {
	local words

	read -ra words <<<"${1//[#$'\n']/ }"
	echo "${words[*]}"
}

ktap_diag() {
	local line

	while IFS= read -r line; do
		echo "# $line"
	done <<<"$1"
}

ktap_ok() {
	ktap_num=$((ktap_num + 1)) ktap_passed=$((ktap_passed + 1))
	echo "ok $ktap_num $(_ktap_name "$1")"
}

ktap_fail() {
	ktap_num=$((ktap_num + 1)) ktap_failed=$((ktap_failed + 1))
	[ -z "${2:-}" ] || ktap_diag "$(_ktap_name "$1"): $2"
	echo "not ok $ktap_num $(_ktap_name "$1")"
}

ktap_skip() {
	ktap_num=$((ktap_num + 1)) ktap_skipped=$((ktap_skipped + 1))
	echo "ok $ktap_num $(_ktap_name "$1") # SKIP $(_ktap_name "$2")"
}

ktap_result() {
	if [ "$1" = 0 ]; then
		ktap_ok "$2"
	else
		ktap_fail "$2" "${3:-exit status $1}"
	fi
}

ktap_subtest() {
	local name=$1 rc=0

	shift
	"$@" | sed 's/^/    /' || rc=${PIPESTATUS[0]}
	ktap_result "$rc" "$name"
}

ktap_finish() {
	echo "1..$ktap_num"
	echo "# passed $ktap_passed, failed $ktap_failed, skipped $ktap_skipped"
	[ "$ktap_failed" = 0 ] || exit 1
	exit 0
}
