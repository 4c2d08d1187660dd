#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suites in kunit/ with the kernel's own kunit.py (UML), in a
# build directory cached in $ARBEL_CACHE.  KTAP on stdout: every KUnit case
# and the checks of scripts/kunit-ktap.py (kunit.py's exit status, cases
# ran, none skipped, a clean kernel log).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"

# The kernel tree is shared by every clone on this machine: hold its lock
# from hooking this clone's sources in until the run is over.
mkdir -p "$ARBEL_CACHE"
exec 8>"$ARBEL_CACHE/ktree.lock"
flock 8
tree=$("$top/scripts/ktree.sh")
build=$ARBEL_CACHE/kunit-uml-$(basename "$tree")
log=$top/build/kunit/uml.log
mkdir -p "$build" "$(dirname "$log")"

echo "kunit: building and running in $build (log: $log)" >&2
# kunit.py keeps the kernel's whole console output in test.log: no stale one
rm -f "$build/test.log"
rc=0
(cd "$tree" && nice python3 tools/testing/kunit/kunit.py run \
	--kunitconfig="$top/kunit" --build_dir="$build" \
	--jobs="$(nproc)" --timeout=600) >"$log" 2>&1 || rc=$?
raw=$build/test.log

"$top/scripts/kunit-ktap.py" --tree "$tree" --log "$log" --raw "$raw" --rc "$rc"
