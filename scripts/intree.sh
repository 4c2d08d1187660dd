#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The driver's in-tree form, as kernel CI would take it (make check stages
# intree and intree-6.12): write the patch series (scripts/make-patch.py)
# against a pristine Debian linux-source-$ARBEL_KERNEL tree, check every
# patch with checkpatch.pl --strict, apply the series to a copy of the tree
# and run, in that copy,
#   ./tools/testing/kunit/kunit.py run --kunitconfig=drivers/infiniband/hw/arbel
# (UML), then scripts/kunit-ktap.py's checks.  KTAP on stdout.
#
# Cached in $ARBEL_CACHE, keyed by the linux-source package version (the
# package is unpacked into kpkg/linux-source-<k>+<ver>/ by scripts/kpkg.sh,
# never installed):
#   linux-pristine-<ver>/   the extracted tree, never written after
#   intree-<ver>/src/       a hard-linked copy (cp -al) the series goes into,
#                           made anew each run (patch replaces the files it
#                           changes, so the pristine tree is not touched)
#   intree-<ver>/build/     kunit.py's build directory
#
# With --no-kunit it stops after applying the series (a quick look at the
# series; make check always runs KUnit).
set -euo pipefail
kunit=1
[ "${1:-}" = --no-kunit ] && kunit=0
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
. "$top/scripts/ktap.sh"

k=$ARBEL_KERNEL
"$top/scripts/setup.sh" "kernel-source-$k" lint >&2
# linux-source-$k unpacked into the cache (scripts/kpkg.sh), not installed
ver=$("$top/scripts/kpkg.sh" version "linux-source-$k")
[ -n "$ver" ] || { echo "intree: apt knows no linux-source-$k" >&2; exit 1; }
pristine=$ARBEL_CACHE/linux-pristine-$ver
work=$ARBEL_CACHE/intree-$ver
out=$top/build/intree-$k
mkdir -p "$ARBEL_CACHE" "$work" "$out"

# one run at a time per kernel version (the copy and build dir are shared)
exec 9>"$work.lock"
flock 9

if [ ! -f "$pristine/.arbel-extracted" ]; then
	read -r sver tarball < <("$top/scripts/kpkg.sh" source "$k")
	[ "$sver" = "$ver" ] || { echo "intree: linux-source-$k is $sver, not $ver" >&2; exit 1; }
	echo "intree: extracting linux-source $ver into $pristine" >&2
	rm -rf "$pristine" "$pristine.tmp"
	mkdir -p "$pristine.tmp"
	tar -C "$pristine.tmp" -xf "$tarball"
	mv "$pristine.tmp/linux-source-$k" "$pristine"
	rmdir "$pristine.tmp"
	touch "$pristine/.arbel-extracted"
fi

ktap_start
if ! "$top/scripts/make-patch.py" --ksrc "$pristine" --out "$out/patches" \
	>"$out/make-patch.log" 2>&1; then
	ktap_fail "make patch KSRC=linux-source-$ver" "$(cat "$out/make-patch.log")"
	ktap_finish
fi
mapfile -t patches <"$out/make-patch.log"
ktap_result $((${#patches[@]} >= 2 ? 0 : 1)) \
	"make patch KSRC=linux-source-$ver: a series" \
	"${#patches[@]} patches: $(cat "$out/make-patch.log")"

spelling=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
opts=(--strict --terse --show-types)
[ -f "$spelling" ] && opts+=(--codespell --codespellfile="$spelling")
# a clean verdict is kept, keyed by the patch's and checkpatch's contents
# (--codespell makes a run take ~40 s)
mkdir -p "$work/checkpatch-clean"
for p in "${patches[@]}"; do
	key=$(cat "$p" "$pristine/scripts/checkpatch.pl" | sha256sum | cut -c1-32)
	if [ -f "$work/checkpatch-clean/$key" ]; then
		ktap_ok "$(basename "$p"): checkpatch --strict (clean before)"
		continue
	fi
	rc=0
	res=$(cd "$pristine" && perl scripts/checkpatch.pl "${opts[@]}" "$p" 2>&1) || rc=$?
	bad=$(grep -E ': (ERROR|WARNING|CHECK):' <<<"$res" || true)
	if [ "$rc" = 0 ] && [ -z "$bad" ]; then
		ktap_ok "$(basename "$p"): checkpatch --strict"
		touch "$work/checkpatch-clean/$key"
	else
		ktap_fail "$(basename "$p"): checkpatch --strict" "${bad:-$res}"
	fi
done

rm -rf "$work/src"
cp -al "$pristine" "$work/src"
for p in "${patches[@]}"; do
	rc=0
	res=$(cd "$work/src" && patch -p1 -s --no-backup-if-mismatch <"$p" 2>&1) || rc=$?
	ktap_result "$rc" "$(basename "$p"): applies to linux-source-$ver" "$res"
done
# the copy shares its files with the pristine tree: it must still be pristine
rc=0
res=$(grep -l arbel "$pristine/drivers/infiniband/Kconfig" \
	"$pristine/drivers/infiniband/hw/Makefile" "$pristine/MAINTAINERS" 2>&1) && rc=1
ktap_result "$rc" "the pristine tree is untouched" "$res"
[ "$kunit" = 1 ] || ktap_finish

build=$work/build
log=$out/kunit.log
mkdir -p "$build"
rm -f "$build/test.log"
echo "intree: kunit.py in $work/src, build dir $build (log: $log)" >&2
rc=0
(cd "$work/src" && nice python3 tools/testing/kunit/kunit.py run \
	--kunitconfig=drivers/infiniband/hw/arbel --build_dir="$build" \
	--jobs="$(nproc)" --timeout=600) >"$log" 2>&1 || rc=$?
ktap_subtest "kunit.py run --kunitconfig=drivers/infiniband/hw/arbel" \
	"$top/scripts/kunit-ktap.py" --tree "$work/src" --log "$log" \
	--raw "$build/test.log" --rc "$rc"
ktap_finish
