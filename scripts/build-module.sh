#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build arbel.ko out of tree and copy it to build/module/arbel.ko.
#
#   build-module.sh            against $KDIR, default: the running kernel's
#                              build directory if it exists, otherwise the
#                              Debian headers for $ARBEL_KABI
#   build-module.sh --test     against the Debian headers of $ARBEL_KERNEL
#                              (default 6.1, the kernel the VM boots), with
#                              W=1 and sparse (C=1); any warning fails;
#                              KTAP on stdout, the build's output on stderr;
#                              the module goes to build/module/arbel.ko
#                              (build/module-$ARBEL_KERNEL/ for another line)
#   build-module.sh --install  build, then modules_install for $KDIR
#   build-module.sh --clean
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-build}

if [ "$mode" = --test ]; then
	# stdout is the KTAP: everything else goes to stderr
	exec 3>&1 1>&2
	"$top/scripts/setup.sh" headers lint
else
	"$top/scripts/setup.sh" headers
fi
. "$top/scripts/env.sh"

running=/lib/modules/$(uname -r)/build
if [ "$mode" = --test ]; then
	kdir=$ARBEL_KDIR
elif [ -n "${KDIR:-}" ]; then
	kdir=$KDIR
elif [ -f "$running/Makefile" ]; then
	kdir=$running
else
	kdir=$ARBEL_KDIR
fi
[ -f "$kdir/Makefile" ] || { echo "build-module: no kernel build tree at '$kdir'" >&2; exit 1; }

case $mode in
--clean)
	make -C "$kdir" M="$top" clean
	exit 0;;
--install)
	make -C "$kdir" M="$top" modules
	make -C "$kdir" M="$top" modules_install
	exit 0;;
--test)
	out=$top/build/module
	[ "$ARBEL_KERNEL" = 6.1 ] || out=$top/build/module-$ARBEL_KERNEL
	log=$out/build.log
	mkdir -p "$out"
	# Rebuild every object so that every file is compiled and checked
	# (not "make clean": it deletes every *.ko below the clone, build/ too).
	find "$top/drivers" \( -name '*.o' -o -name '.*.o.cmd' \) -delete
	. "$top/scripts/ktap.sh"
	ktap_start >&3
	rc=0
	make -C "$kdir" M="$top" W=1 C=1 modules 2>&1 | tee "$log" || rc=$?
	ktap_result "$rc" "make W=1 C=1 modules against $kdir" >&3
	warnings=$(grep -E 'warning:|error:|[^ ]+\.[ch]:[0-9]+:[0-9]+: ' "$log" || true)
	if [ -z "$warnings" ]; then
		ktap_ok "no compiler, sparse or kernel-doc warning in the build" >&3
	else
		ktap_fail "no compiler, sparse or kernel-doc warning in the build" \
			"$warnings" >&3
	fi
	if [ "$rc" = 0 ]; then
		cp "$top/drivers/infiniband/hw/arbel/arbel.ko" "$out/arbel.ko"
		echo "built $out/arbel.ko against $kdir"
	fi
	ktap_finish >&3;;
build)
	make -C "$kdir" M="$top" modules;;
*)
	echo "build-module: unknown mode $mode" >&2; exit 2;;
esac
mkdir -p "$top/build/module"
cp "$top/drivers/infiniband/hw/arbel/arbel.ko" "$top/build/module/arbel.ko"
echo "built build/module/arbel.ko against $kdir"
