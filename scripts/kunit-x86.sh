#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run the KUnit suites of kunit/x86_64/.kunitconfig with the kernel's own
# kunit.py on x86_64, under the QEMU that scripts/build-qemu.sh builds
# (q35, TCG, with an arbel-stub device; kunit/x86_64/qemu_arbel.py).  The
# driver is built in and binds the emulated HCA at boot; the command-flow
# suites (kunit/cmdflow_test.c) then drive it, the pure suites run too.
#
# Build directory cached in $ARBEL_CACHE; kunit.py's output in
# build/kunit/x86_64.log, the kernel's raw console in
# build/kunit/x86_64-raw.log, the stub's command trace in
# build/kunit/x86_64-stub-trace.txt.
# KTAP on stdout (scripts/kunit-ktap.py): every KUnit case, then checks
# that fail on a failed or crashed case (kunit.py's exit status), on zero
# cases, on a skipped case, and on kernel warnings, lockdep or sanitizer
# reports in the raw log (6.1's KUnit does not fail a case for those).
#
# Extra arguments are passed to kunit.py run (e.g. a filter glob such as
# 'arbel_*_flow').  KUNIT_X86_JOBS sets make's -j (default 2).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"

# The kernel tree is shared by every clone on this machine: hold its lock
# from hooking this clone's sources in until the run is over.
mkdir -p "$ARBEL_CACHE"
exec 8>"$ARBEL_CACHE/ktree.lock"
flock 8
tree=$("$top/scripts/ktree.sh")
qemu=$("$top/scripts/build-qemu.sh")
build=$ARBEL_CACHE/kunit-x86_64-$(basename "$tree")
out=$top/build/kunit
log=$out/x86_64.log
mkdir -p "$build" "$out"
export ARBEL_STUB_TRACE=$out/x86_64-stub-trace.txt
rm -f "$ARBEL_STUB_TRACE" "$build/test.log"

echo "kunit-x86: building and running in $build (log: $log, QEMU: $qemu)" >&2
start=$(date +%s)
rc=0
(cd "$tree" && PATH="$(dirname "$qemu"):$PATH" nice python3 \
	tools/testing/kunit/kunit.py run --arch=x86_64 \
	--qemu_config="$top/kunit/x86_64/qemu_arbel.py" \
	--kunitconfig="$top/kunit/x86_64" --build_dir="$build" \
	--jobs="${KUNIT_X86_JOBS:-2}" --timeout=600 "$@") \
	>"$log" 2>&1 || rc=$?
echo "kunit-x86: kunit.py took $(($(date +%s) - start)) s" >&2
# kunit.py keeps the kernel's whole console output in the build directory;
# keep a copy beside the parsed log.
raw=$out/x86_64-raw.log
rm -f "$raw"
[ ! -f "$build/test.log" ] || cp "$build/test.log" "$raw"

"$top/scripts/kunit-ktap.py" --tree "$tree" --log "$log" --raw "$raw" --rc "$rc"
