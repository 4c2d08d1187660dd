#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Numbered test results for the VM test scripts; source it.
#   ok NAME | nok NAME DETAIL | skp NAME WHY | expect NAME DETAIL CMD...
#   tap_finish SUITE   prints "SUITE: N passed, N failed" and exits (non-zero
#                      on any failure); skips are reported, never passed.

n=0 pass=0 fail=0 nskip=0
ok() {
	n=$((n + 1)) pass=$((pass + 1))
	echo "ok $n - $1"
}
nok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - $1: $2"
}
skp() {
	nskip=$((nskip + 1))
	echo "skip - $1: $2"
}
expect() {	# expect NAME DETAIL COMMAND...
	local name=$1 detail=$2
	shift 2
	if "$@"; then ok "$name"; else nok "$name" "$detail"; fi
}
tap_finish() {
	[ "$nskip" -eq 0 ] || echo "# skipped: $nskip (not counted as passed)"
	echo "$1: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit
}
