#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The debug kernel of the VM tests: Debian's linux-source-6.1 built for
# x86_64 with tests/vm/debug-kernel.config (KASAN, UBSAN, lockdep,
# kmemleak, DEBUG_OBJECTS, failslab and fail_page_alloc, KUnit), arbel.ko
# built against it and the KUnit suites as modules (kunit/x86_64/Kbuild;
# scripts/kunit-x86.sh loads them).  Prints the directory the VM harness
# boots from (scripts/vm/prepare.sh, VM_KERNEL_ROOT): boot/vmlinuz-RELEASE,
# lib/modules/RELEASE/ (ib_core, ib_uverbs, ... with modules.dep),
# arbel.ko and kunit/*.ko.  Logs on stderr.
#
# The kernel is cached in $ARBEL_CACHE/debug-kernel-<source>-<key>, keyed
# by the source package, the fragment and $recipe (bump it when the way
# the kernel is built below changes).  The modules are built from copies
# of the sources (in-place builds would race with other stages) and
# rebuilt only when their sources changed: root/modules.key holds the
# hash of every source file they are built from (kunit-x86 builds them,
# debug reuses them).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
frag=$top/tests/vm/debug-kernel.config
jobs=${DEBUG_KERNEL_JOBS:-2}

mkdir -p "$ARBEL_CACHE"
# ktree.sh hooks this clone into the shared tree: hold its lock while the
# tree is read
exec 8>"$ARBEL_CACHE/ktree.lock"
flock 8
tree=$("$top/scripts/ktree.sh")
recipe=2
key=$( (cat "$frag"; echo "$recipe") | sha256sum | cut -c1-12)
dir=$ARBEL_CACHE/debug-kernel-$(basename "$tree")-$key
b=$dir/build
root=$dir/root

if [ ! -f "$root/.done" ]; then
	echo "debug-kernel: building in $b (cold: a kernel build)" >&2
	rm -rf "$root"
	mkdir -p "$b"
	# the fragment on top of allnoconfig: as small as the VM allows
	make -s -C "$tree" O="$b" ARCH=x86_64 KCONFIG_ALLCONFIG="$frag" \
		allnoconfig >&2
	missing=$(grep -E '^CONFIG_[A-Z0-9_]+=[ym]$' "$frag" | while read -r want; do
		grep -qx "$want" "$b/.config" || echo "$want"
	done)
	if [ -n "$missing" ]; then
		echo "debug-kernel: the configuration dropped: $missing" >&2
		exit 1
	fi
	start=$(date +%s)
	nice make -s -C "$tree" O="$b" ARCH=x86_64 -j"$jobs" bzImage modules >&2
	rel=$(make -s -C "$tree" O="$b" ARCH=x86_64 kernelrelease)
	mkdir -p "$root/boot"
	cp "$b/arch/x86/boot/bzImage" "$root/boot/vmlinuz-$rel"
	make -s -C "$tree" O="$b" ARCH=x86_64 INSTALL_MOD_PATH="$root" \
		INSTALL_MOD_STRIP=1 modules_install >&2
	rm -f "$root/lib/modules/$rel/build" "$root/lib/modules/$rel/source"
	echo "$rel" >"$root/release"
	touch "$root/.done"
	echo "debug-kernel: $rel built in $(($(date +%s) - start)) s" >&2
fi
rel=$(cat "$root/release")

# arbel.ko for this kernel, and the KUnit suites as modules
# (kunit/x86_64/Kbuild) in kunit/, built from a copy of the sources
# unless root/modules.key says these sources were built already
mkey=$(cd "$top" && find Kbuild include drivers kunit qemu/arbel-dbgwin.h \
	-type f \( -name '*.[ch]' -o -name Kbuild -o -name Makefile \
	-o -name Kconfig \) ! -name '*.mod.c' | LC_ALL=C sort |
	xargs sha256sum | sha256sum | cut -c1-16)
if [ -f "$root/modules.key" ] && [ "$(cat "$root/modules.key")" = "$mkey" ] &&
	[ -f "$root/arbel.ko" ]; then
	echo "debug-kernel: modules of these sources built already ($mkey)" >&2
	echo "$root"
	exit 0
fi
rm -f "$root/modules.key"
src=$dir/arbel-src
rm -rf "$src"
mkdir -p "$src/kunit" "$src/qemu"
cp -a "$top/Kbuild" "$top/include" "$top/drivers" "$src/"
cp "$top"/kunit/*.c "$top"/kunit/*.h "$src/kunit/"
cp "$top/kunit/x86_64/Kbuild" "$src/kunit/Kbuild"
cp "$top/qemu/arbel-dbgwin.h" "$src/qemu/"
find "$src" \( -name '*.o' -o -name '*.ko' -o -name '.*.cmd' \) -delete
# a compiler warning in arbel.ko or a KUnit module fails the build (the
# kunit-x86 stage then fails with it)
log=$dir/modules.log
if ! make -s -C "$b" M="$src" -j"$jobs" modules >"$log" 2>&1 ||
	! make -s -C "$b" M="$src/kunit" \
		KBUILD_EXTRA_SYMBOLS="$src/Module.symvers" -j"$jobs" modules \
		>>"$log" 2>&1; then
	cat "$log" >&2
	exit 1
fi
if grep -q 'warning:' "$log"; then
	cat "$log" >&2
	echo "debug-kernel: the modules built with warnings" >&2
	exit 1
fi
cp "$src/drivers/infiniband/hw/arbel/arbel.ko" "$root/arbel.ko"
rm -rf "$root/kunit"
mkdir -p "$root/kunit"
cp "$src"/kunit/*.ko "$root/kunit/"
echo "$mkey" >"$root/modules.key"
echo "$root"
