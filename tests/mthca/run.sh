#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mthca stage: Debian's own, unmodified ib_mthca.ko (the module of the
# VM's kernel) against arbel-stub, in one VM boot.  Plumbing only: build
# stubctl and QEMU, put ib_mthca.ko, stubctl, mthca_guest.py and the test
# modules it imports (the suites here, tests/verbs' base.py, expect.py,
# uverbs_raw.py, test_deep.py and test_tools.py, tests/vm's
# bringup_guest.py and bringup_cases.py) into one guest-bin, boot (scripts/vm/run.sh,
# VM_PYTHON=1, arbel.ko not loaded) and hand the run to tests/stub/judge.py
# --stage mthca, which prints the stage's one KTAP stream: the VM's
# status, mthca_guest.py's results nested, and the checks of ib_mthca's
# command sequence in the stub's trace.  Exit status 1 if anything failed.
#
# Environment: VM_OUT (default build/vm-mthca; the run goes to
# VM_OUT/mthca), QEMU (skips scripts/build-qemu.sh), CYCLES (default 20),
# TIMEOUT (VM, default 600 s; traffic: 900 s), NO_UNLOAD=WHY (skip rmmod and the cycles,
# reported as a skip with WHY), others for scripts/vm/run.sh.
#
# tests/mthca/run.sh traffic: the mthca-traffic stage instead, on the same
# stub: traffic_guest.py runs the real clients (ibverbs-utils' pingpongs,
# perftest, rdma-core's traffic tests, and mcast_ud.c, UD multicast through
# libibverbs, built here) on ib_mthca, judged by
# tests/stub/judge.py --stage mthca-traffic.  VM_OUT defaults to
# build/vm-mthca-traffic (the run goes to VM_OUT/traffic); TRAFFIC=WORD,...
# runs only the clients whose name holds a word (traffic_guest.py --only:
# TRAFFIC=ibv_rc_pingpong, TRAFFIC=perftest, TRAFFIC=test_atomic);
# PAIR_TIMEOUT (default 20) bounds one server/client pair, in seconds.
#
# tests/mthca/run.sh arbel: the arbel-traffic stage: the same clients on
# arbel.ko (MODULE, default build/module/arbel.ko) instead of ib_mthca,
# two ports a device (traffic_guest.py --driver arbel), judged by
# tests/stub/judge.py --stage arbel-traffic; VM_OUT defaults to
# build/vm-arbel-traffic.  Debian's ib_mthca.ko goes into the guest too:
# at the end the first stub is bound to it, to compare `ibv_devinfo -v`
# field by field (devinfo_compare.py).

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

MODE=${1:-mthca}
case $MODE in
mthca) stage=mthca run=mthca vm_timeout=600 OUT=${VM_OUT:-$REPO/build/vm-mthca} ;;
# traffic: 13 pairs and rdma-core's modules, each bounded (traffic_cases.py)
traffic) stage=mthca-traffic run=traffic vm_timeout=900 OUT=${VM_OUT:-$REPO/build/vm-mthca-traffic} ;;
arbel) stage=arbel-traffic run=traffic vm_timeout=900 OUT=${VM_OUT:-$REPO/build/vm-arbel-traffic} ;;
*) echo "usage: $0 [mthca|traffic|arbel]" >&2 && exit 2 ;;
esac
NODE_GUID=0x0002c903000b2c00
PORT_GUID=0x0002c903000b2c01
PORTS=2
judge() {
	exec python3 tests/stub/judge.py --stage "$stage" --out "$OUT" "$@"
}

mkdir -p "$OUT/$run"
gb=$OUT/guest-bin
rm -rf "$gb"
mkdir -p "$gb"
if [ "$MODE" = mthca ]; then
	make -s -C tests/vm O="$gb" >&2 || judge --setup-error "make -C tests/vm failed"
fi
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh) || judge --setup-error "scripts/build-qemu.sh failed"
fi
export QEMU
VM_PYTHON=1 scripts/vm/prepare.sh >/dev/null ||
	judge --setup-error "scripts/vm/prepare.sh failed"
if [ "$MODE" = arbel ]; then
	ko=${MODULE:-$REPO/build/module/arbel.ko}
	[ -f "$ko" ] || judge --setup-error "module: $ko does not exist (make module-check builds it)"
else
	ko=$(tests/mthca/find-ko.sh) ||
		judge --mthca-skip "no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
fi
if [ "$MODE" = mthca ]; then
	cp "$ko" tests/mthca/*.py tests/verbs/base.py tests/verbs/expect.py \
		tests/verbs/uverbs_raw.py tests/verbs/test_deep.py \
		tests/verbs/test_tools.py \
		tests/vm/bringup_guest.py tests/vm/bringup_cases.py "$gb/"
	cmd="NODE_GUID=$NODE_GUID PORT_GUID=$PORT_GUID PORTS=$PORTS python3 /opt/arbel/bin/mthca_guest.py --cycles ${CYCLES:-20}${NO_UNLOAD:+ --no-unload $(printf %q "$NO_UNLOAD")}"
else
	scripts/setup.sh verbs >&2 || judge --setup-error "scripts/setup.sh verbs (libibverbs-dev) failed"
	cc -O2 -Wall -Wextra -Werror -Itests/lib -o "$gb/mcast_ud" \
		tests/mthca/mcast_ud.c tests/lib/ktap.c tests/lib/util.c \
		-libverbs >"$OUT/mcast_ud.log" 2>&1 ||
		judge --setup-error "building tests/mthca/mcast_ud.c: see $OUT/mcast_ud.log"
	cp "$ko" tests/mthca/traffic_guest.py tests/mthca/traffic_cases.py \
		tests/mthca/rdma_core_tests.py tests/mthca/devinfo_compare.py \
		tests/verbs/test_port_move.py tests/verbs/base.py \
		tests/verbs/expect.py tests/verbs/uverbs_raw.py "$gb/"
	# arbel: ib_mthca on the same stub at the end, to compare ibv_devinfo
	if [ "$MODE" = arbel ]; then
		mko=$(tests/mthca/find-ko.sh) && cp "$mko" "$gb/"
	fi
	driver=mthca
	[ "$MODE" = arbel ] && driver=arbel
	cmd="python3 /opt/arbel/bin/traffic_guest.py --driver $driver --timeout ${PAIR_TIMEOUT:-20}${TRAFFIC:+ --only $(printf %q "$TRAFFIC")}"
fi

# ib_mthca only: arbel.ko is not loaded, so a MODULE that was not built
# (check.sh's "on 6.12" names build/module-6.12/arbel.ko) must not stop
# the boot; arbel: the guest loads the copy in its bin directory
[ -f "${MODULE:-}" ] && [ "$MODE" != arbel ] || unset MODULE

# traffic: a second device, cabled to the first, its ports at LIDs 3, 4
cabled=
if [ "$MODE" != mthca ]; then
	cabled="-device arbel-stub,ports=$PORTS,lid=3,cable=hca0,node-guid=0x0002c903000b2d00,port-guid=0x0002c903000b2d01"
fi

dir=$OUT/$run
rm -f "$dir/rc" "$dir/run.log"
t0=$EPOCHSECONDS
VM_OUT=$dir GUEST_BIN=$gb VM_PYTHON=1 VM_MEM=${VM_MEM:-1G} \
	TIMEOUT=${TIMEOUT:-$vm_timeout} \
	STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID,ports=$PORTS,id=hca0" \
	VM_QEMU_ARGS="$cabled" CMD="$cmd" \
	scripts/vm/run.sh 2> >(tee "$dir/run.log" >&2) >&2
echo $? >"$dir/rc"
echo "# VM run: exit $(cat "$dir/rc") after $((EPOCHSECONDS - t0)) s" >&2
if [ "$MODE" = mthca ] && [ -n "${NO_UNLOAD:-}" ]; then
	judge --no-unload "$NO_UNLOAD"
fi
judge
