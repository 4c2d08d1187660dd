#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mthca-fabric stage: IPoIB, rdma_cm and the subnet administrator on
# Debian's own, unmodified ib_mthca over arbel-stub's fabric, in one VM
# boot.  Plumbing only: build QEMU, make sure the host has rdmacm-utils
# (its rping, ucmatose, udaddy and mckey go into the guest), put
# ib_mthca.ko and the guest's Python side (fabric_guest.py,
# fabric_cases.py, sa_query.py, tcp_xfer.py) into a guest-bin, boot
# (scripts/vm/run.sh, VM_PYTHON=1, two stubs joined by the "cable"
# property, ib_ipoib, rdma_ucm and ib_umad in the image) and hand the run
# to tests/stub/judge.py --stage mthca-fabric, which prints the stage's
# one KTAP stream.  Exit status 1 if anything failed.
#
# tests/fabric/run.sh arbel: the arbel-fabric stage: the same on arbel.ko
# (MODULE, default build/module/arbel.ko; two ports a device, as ib_mthca),
# judged by judge.py --stage arbel-fabric.
#
# Both run the storage group (issue 29, tests/fabric/storage.py): NVMe
# over Fabrics and NFS over RDMA through the first device, in the guest,
# with nvmet, nvme-rdma, null_blk, nfsd, rpcrdma and nfsv4 in the image
# and nfs-kernel-server's rpc.mountd and exportfs (with the libwrap
# rpc.mountd links) and nvme-cli (with the libraries the VM lacks) in the
# guest-bin: fetched with apt-get download and
# unpacked with dpkg-deb -x into $ARBEL_CACHE/kpkg, never installed on
# the host.
#
# tests/fabric/run.sh rxe: the storage group alone on rdma_rxe (a dummy
# netdev; no stub, no driver of ours): the judges on a device that does
# fast registration; judged by judge.py --stage rxe-fabric.
#
# Environment: VM_OUT (default build/vm-mthca-fabric or
# build/vm-arbel-fabric; the run goes to VM_OUT/fabric), QEMU (skips
# scripts/build-qemu.sh), TIMEOUT (VM, default 600 s), CASE_TIMEOUT
# (default 60: one case, in seconds), FABRIC=WORD,... (fabric_guest.py
# --only: FABRIC=rping, FABRIC=ipoib), RELOADS (fabric_guest.py --reloads:
# the reload cycles with IPoIB up, default the driver's: arbel 10),
# others for scripts/vm/run.sh.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh
# shellcheck source=scripts/vm/lib.sh
. scripts/vm/lib.sh

DRIVER=${1:-mthca}
case $DRIVER in
mthca | arbel | rxe) ;;
*) echo "usage: $0 [mthca|arbel|rxe]" >&2 && exit 2 ;;
esac
OUT=${VM_OUT:-$REPO/build/vm-$DRIVER-fabric}
judge() {
	exec python3 tests/stub/judge.py --stage "$DRIVER-fabric" --out "$OUT" "$@"
}

mkdir -p "$OUT/fabric"
gb=$OUT/guest-bin
rm -rf "$gb"
mkdir -p "$gb"
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh) || judge --setup-error "scripts/build-qemu.sh failed"
fi
export QEMU
(vm_need_pkgs rdmacm-utils) || judge --setup-error "installing rdmacm-utils failed"
# the storage group's, and rdma_rxe's for run.sh rxe (the same image)
export VM_MODULES="ib_ipoib rdma_ucm ib_umad nvmet_rdma nvme_rdma null_blk
	nfsd nfsv4 rpcrdma rdma_rxe dummy crc32_generic"
# libgcc_s: glibc loads it for pthread_exit (rping's threads)
export VM_EXTRA_BINS="/usr/bin/ip /usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy /usr/bin/mckey
	/lib/x86_64-linux-gnu/libgcc_s.so.1"
VM_PYTHON=1 scripts/vm/prepare.sh >/dev/null ||
	judge --setup-error "scripts/vm/prepare.sh failed"
if [ "$DRIVER" = arbel ]; then
	ko=${MODULE:-$REPO/build/module/arbel.ko}
	[ -f "$ko" ] || judge --setup-error "module: $ko does not exist (make module-check builds it)"
elif [ "$DRIVER" = mthca ]; then
	ko=$(tests/mthca/find-ko.sh) ||
		judge --mthca-skip "no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
fi

# nfs-kernel-server's tools and libwrap0 (neither is on the host), into
# $gb/nfs: apt's candidates downloaded and unpacked into the cache once
# (not with kpkg.sh unpack: it looks for the .deb under the version
# without its epoch, apt-get download names it 1%3a2.6.2-...), else the
# newest unpacked before
nfs_tools() {
	local v w dir f lib=usr/lib/x86_64-linux-gnu/libwrap.so.0
	v=$(scripts/kpkg.sh version nfs-kernel-server)
	w=$(scripts/kpkg.sh version libwrap0)
	if [ -n "$v" ] && [ -n "$w" ]; then
		dir=$ARBEL_CACHE/kpkg/nfs-kernel-server+$v
		mkdir -p "$ARBEL_CACHE/kpkg"
		(
			flock 7
			[ ! -f "$dir/.done" ] || exit 0
			rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || exit 1
			(cd "$dir.tmp" && apt-get download -qq -o APT::Sandbox::User=root \
				"nfs-kernel-server=$v" "libwrap0=$w" >&2) || exit 1
			for f in "$dir.tmp"/*.deb; do
				dpkg-deb -x "$f" "$dir.tmp" && rm -f "$f" || exit 1
			done
			touch "$dir.tmp/.done" && mv "$dir.tmp" "$dir"
		) 7>"$dir.lock" || return 1
	else
		dir=$(find "$ARBEL_CACHE/kpkg" -maxdepth 2 -name .done \
			-path '*/nfs-kernel-server+*' 2>/dev/null | sed 's|/.done$||' | sort -V | tail -n 1)
		[ -n "$dir" ] || return 1
	fi
	mkdir -p "$gb/nfs"
	cp "$dir/usr/sbin/rpc.mountd" "$dir/usr/sbin/exportfs" "$dir/$lib" "$gb/nfs/"
}
nfs_tools || judge --setup-error "nfs-kernel-server's tools: apt-get download or unpack failed"

# Debian's nvme-cli, unmodified, and the libraries it needs that the VM
# lacks (libnvme-mi links D-Bus, hence libsystemd and its compressors),
# into $gb/nvme the same way: the storage group's nvme connect and
# disconnect (LD_LIBRARY_PATH=$gb/nvme in the guest)
NVME_PKGS="nvme-cli libnvme1 libjson-c5 libssl3 libdbus-1-3 libsystemd0
	libgcrypt20 libgpg-error0 libzstd1 liblz4-1"
NVME_LIBS="libnvme.so.1 libnvme-mi.so.1 libjson-c.so.5 libcrypto.so.3
	libdbus-1.so.3 libsystemd.so.0 libgcrypt.so.20 libgpg-error.so.0
	libzstd.so.1 liblz4.so.1"
nvme_tools() {
	local p v want=() dir f
	for p in $NVME_PKGS; do
		v=$(scripts/kpkg.sh version "$p")
		[ -n "$v" ] || { want=() && break; }
		want+=("$p=$v")
	done
	if [ ${#want[@]} -gt 0 ]; then
		dir=$ARBEL_CACHE/kpkg/${want[0]/=/+}
		mkdir -p "$ARBEL_CACHE/kpkg"
		(
			flock 7
			[ ! -f "$dir/.done" ] || exit 0
			rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || exit 1
			(cd "$dir.tmp" && apt-get download -qq -o APT::Sandbox::User=root \
				"${want[@]}" >&2) || exit 1
			for f in "$dir.tmp"/*.deb; do
				dpkg-deb -x "$f" "$dir.tmp" && rm -f "$f" || exit 1
			done
			touch "$dir.tmp/.done" && mv "$dir.tmp" "$dir"
		) 7>"$dir.lock" || return 1
	else
		dir=$(find "$ARBEL_CACHE/kpkg" -maxdepth 2 -name .done \
			-path '*/nvme-cli+*' 2>/dev/null | sed 's|/.done$||' | sort -V | tail -n 1)
		[ -n "$dir" ] || return 1
	fi
	mkdir -p "$gb/nvme"
	cp "$dir/usr/sbin/nvme" "$gb/nvme/" || return 1
	for p in $NVME_LIBS; do
		f=$(find "$dir/lib" "$dir/usr/lib" -name "$p" 2>/dev/null | head -n 1)
		[ -n "$f" ] && cp -L "$f" "$gb/nvme/" || return 1
	done
}
nvme_tools || judge --setup-error "nvme-cli: apt-get download or unpack failed"
cp ${ko:+"$ko"} tests/fabric/fabric_guest.py tests/fabric/fabric_cases.py \
	tests/fabric/sa_query.py tests/fabric/tcp_xfer.py tests/fabric/storage.py "$gb/"
if [ "$DRIVER" = rxe ]; then
	cmd="python3 /opt/arbel/bin/fabric_guest.py --rxe"
	export NO_STUB=1
else
	cmd="python3 /opt/arbel/bin/fabric_guest.py --driver $DRIVER"
	export STUB="node-guid=0x0002c903000b2c00,port-guid=0x0002c903000b2c01,ports=2,id=hca0"
	export VM_QEMU_ARGS="-device arbel-stub,ports=2,lid=3,cable=hca0,node-guid=0x0002c903000b2d00,port-guid=0x0002c903000b2d01"
fi
cmd="$cmd --timeout ${CASE_TIMEOUT:-60}${FABRIC:+ --only $(printf %q "$FABRIC")}${RELOADS:+ --reloads $RELOADS}"
# the guest loads the module from its bin directory, not scripts/vm's way
unset MODULE

dir=$OUT/fabric
rm -f "$dir/rc" "$dir/run.log"
t0=$EPOCHSECONDS
VM_OUT=$dir GUEST_BIN=$gb VM_PYTHON=1 VM_MEM=${VM_MEM:-1G} \
	TIMEOUT=${TIMEOUT:-600} CMD="$cmd" scripts/vm/run.sh 2> >(tee "$dir/run.log" >&2) >&2
echo $? >"$dir/rc"
echo "# VM run: exit $(cat "$dir/rc") after $((EPOCHSECONDS - t0)) s" >&2
judge
