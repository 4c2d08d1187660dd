#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of an extracted linux-source-6.1 tree with the arbel
# sources hooked into it, extracting and hooking as needed.
#
# The tree is cached in $ARBEL_CACHE/linux-source-<version>, keyed by the
# linux-source package version; the package itself is unpacked into the
# cache by scripts/kpkg.sh, never installed.  The hook is idempotent and re-points the links at this clone
# (dropping another clone's objects from the KUnit build directories):
#   drivers/infiniband/hw/arbel        -> <clone>/drivers/infiniband/hw/arbel
#   drivers/infiniband/hw/arbel_kunit  -> <clone>/kunit
#   include/arbel                      -> <clone>/include/arbel
# plus a Kconfig source line after "endif # !UML" (the hw drivers' block
# hides everything from UML in 6.1) and two lines in hw/Makefile.
#
# With --no-hook only the extracted tree is printed (checkpatch.pl and
# kernel-doc need no links).  The hook moves links that another clone's
# build may be using: callers that hook and build hold the lock
# $ARBEL_CACHE/ktree.lock for the whole hook-build-run (scripts/kunit.sh,
# scripts/kunit-x86.sh).
set -euo pipefail
hook=1
[ "${1:-}" = --no-hook ] && hook=0
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"

"$top/scripts/setup.sh" kernel-source >&2

# linux-source-6.1 is unpacked into the cache, not installed
# (scripts/kpkg.sh); the tree is keyed by its version
ver=$("$top/scripts/kpkg.sh" version linux-source-6.1)
if [ -z "$ver" ]; then
	# apt knows nothing (no package lists): the newest tree extracted
	ver=$(find "$ARBEL_CACHE" -maxdepth 2 -path '*/linux-source-*/.arbel-extracted' |
		sed 's|.*/linux-source-||; s|/.arbel-extracted||' | sort -V | tail -n 1)
	[ -n "$ver" ] || { echo "ktree: apt knows no linux-source-6.1" >&2; exit 1; }
fi
tree=$ARBEL_CACHE/linux-source-$ver
if [ ! -f "$tree/.arbel-extracted" ]; then
	# one extraction at a time (lint, docs and the debug kernel may ask
	# at once on a cold cache)
	exec 6>"$tree.lock"
	flock 6
	if [ ! -f "$tree/.arbel-extracted" ]; then
		read -r _sver tarball < <("$top/scripts/kpkg.sh" source 6.1)
		echo "ktree: extracting linux-source $ver into $tree" >&2
		rm -rf "$tree" "$tree.tmp"
		mkdir -p "$tree.tmp"
		tar -C "$tree.tmp" -xf "$tarball"
		mv "$tree.tmp/linux-source-6.1" "$tree"
		rmdir "$tree.tmp"
		touch "$tree/.arbel-extracted"
	fi
	exec 6>&-
fi

if [ "$hook" = 0 ]; then
	echo "$tree"
	exit 0
fi

# Links that pointed at another clone (or worktree) leave that clone's
# objects in the KUnit build directories, possibly newer than this clone's
# sources, so make would not rebuild them: drop them.
if [ "$(readlink "$tree/drivers/infiniband/hw/arbel" || true)" != \
	"$top/drivers/infiniband/hw/arbel" ]; then
	for b in "$ARBEL_CACHE"/kunit-*-linux-source-"$ver"; do
		[ -d "$b" ] || continue
		echo "ktree: dropping another clone's objects from $b" >&2
		rm -rf "$b/drivers/infiniband/hw/arbel" \
			"$b/drivers/infiniband/hw/arbel_kunit"
	done
fi
ln -sfn "$top/drivers/infiniband/hw/arbel" "$tree/drivers/infiniband/hw/arbel"
ln -sfn "$top/kunit" "$tree/drivers/infiniband/hw/arbel_kunit"
ln -sfn "$top/include/arbel" "$tree/include/arbel"

kconfig=$tree/drivers/infiniband/Kconfig
if ! grep -q 'hw/arbel/Kconfig' "$kconfig"; then
	sed -i '/^endif # !UML/a source "drivers/infiniband/hw/arbel/Kconfig"' "$kconfig"
fi
mk=$tree/drivers/infiniband/hw/Makefile
if ! grep -q 'arbel/' "$mk"; then
	printf '%s\n' \
		'obj-$(CONFIG_INFINIBAND_ARBEL)		+= arbel/' \
		'obj-$(CONFIG_INFINIBAND_ARBEL_KUNIT_TEST)	+= arbel_kunit/' >>"$mk"
fi
echo "$tree"
