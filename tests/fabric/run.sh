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
# (MODULE, default build/module/arbel.ko; one port a device),
# judged by judge.py --stage arbel-fabric.
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
mthca | arbel) ;;
*) echo "usage: $0 [mthca|arbel]" >&2 && exit 2 ;;
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
export VM_MODULES="ib_ipoib rdma_ucm ib_umad"
# libgcc_s: glibc loads it for pthread_exit (rping's threads)
export VM_EXTRA_BINS="/usr/bin/ip /usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy /usr/bin/mckey
	/lib/x86_64-linux-gnu/libgcc_s.so.1"
VM_PYTHON=1 scripts/vm/prepare.sh >/dev/null ||
	judge --setup-error "scripts/vm/prepare.sh failed"
if [ "$DRIVER" = arbel ]; then
	ko=${MODULE:-$REPO/build/module/arbel.ko}
	[ -f "$ko" ] || judge --setup-error "module: $ko does not exist (make module-check builds it)"
else
	ko=$(tests/mthca/find-ko.sh) ||
		judge --mthca-skip "no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
fi
cp "$ko" tests/fabric/fabric_guest.py tests/fabric/fabric_cases.py \
	tests/fabric/sa_query.py tests/fabric/tcp_xfer.py "$gb/"
cmd="python3 /opt/arbel/bin/fabric_guest.py --driver $DRIVER --timeout ${CASE_TIMEOUT:-60}${FABRIC:+ --only $(printf %q "$FABRIC")}${RELOADS:+ --reloads $RELOADS}"
# the guest loads the module from its bin directory, not scripts/vm's way
unset MODULE

dir=$OUT/fabric
rm -f "$dir/rc" "$dir/run.log"
t0=$EPOCHSECONDS
VM_OUT=$dir GUEST_BIN=$gb VM_PYTHON=1 VM_MEM=${VM_MEM:-1G} \
	TIMEOUT=${TIMEOUT:-600} \
	STUB="node-guid=0x0002c903000b2c00,port-guid=0x0002c903000b2c01,ports=2,id=hca0" \
	VM_QEMU_ARGS="-device arbel-stub,ports=2,lid=3,cable=hca0,node-guid=0x0002c903000b2d00,port-guid=0x0002c903000b2d01" \
	CMD="$cmd" scripts/vm/run.sh 2> >(tee "$dir/run.log" >&2) >&2
echo $? >"$dir/rc"
echo "# VM run: exit $(cat "$dir/rc") after $((EPOCHSECONDS - t0)) s" >&2
judge
