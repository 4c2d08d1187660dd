#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suites in kunit/ with the kernel's own kunit.py (UML), in a
# build directory cached in $ARBEL_CACHE; judged by kunit_verdict
# (scripts/kunit-lib.sh).  Prints "kunit: N passed, N failed" last.
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

. "$top/scripts/kunit-lib.sh"
kunit_verdict kunit "$log" "$raw" "$rc"
