#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VM integration test of memory registration with stock rdma-core
# (libibverbs + libmthca, through pyverbs) on arbel.ko against arbel-stub.
# Plumbing only: it boots one VM (scripts/vm/run.sh, LOAD=1, VM_PYTHON=1,
# VM_HOTPLUG=1: test_removal unplugs the stub)
# that runs verbs_guest.py (the Python suites test_*.py here and
# rdma-core's pyverbs test_device and test_pd, as KTAP; its exit status is
# only a '#' line, so that the VM's status stays the harness's), then
# hands the run's files to judge.py, which prints the stage's one KTAP
# stream: the host-side unit tests, the VM's status, the guest's KTAP
# nested, the stub's trace and error-log checks.  Exit status 1 if
# anything failed.
#
# Environment: OUT (default build/vm-verbs; the VM's output goes to
# OUT/vm, the guest's files to OUT/guest-bin), MODULE (default
# build/module/arbel.ko, copied first), BUILD=1 (scripts/build-module.sh
# --test first), NODE_GUID / PORT_GUID (the stub properties, and what
# ibv_devinfo must show), TEST_ARGS (for verbs_guest.py, default
# "--enomem-secs 240"; also --no-enomem, -v), TIMEOUT (VM, default 1200 s),
# VM_MEM (default 2G), MODULE_ARGS (arbel.ko's parameters for the whole
# run, e.g. polling=1: every reload in the suites keeps them).  Others go
# to scripts/vm/run.sh.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1

OUT=${OUT:-$REPO/build/vm-verbs}
NODE_GUID=${NODE_GUID:-0x0002c90300feed10}
PORT_GUID=${PORT_GUID:-0x0002c90300feed11}
TEST_ARGS=${TEST_ARGS:---enomem-secs 240}
V=$OUT/vm
judge() { exec python3 tests/verbs/judge.py --vm-dir "$V" "$@"; }

mkdir -p "$OUT" "$V"
if [ "${BUILD:-0}" = 1 ]; then
	scripts/build-module.sh --test >"$OUT/build-module.log" 2>&1 ||
		judge --setup-error "scripts/build-module.sh --test: see $OUT/build-module.log"
fi
MODULE=${MODULE:-$REPO/build/module/arbel.ko}
[ -f "$MODULE" ] || judge --setup-error "module: $MODULE does not exist (BUILD=1 builds it)"
cp "$MODULE" "$OUT/arbel.ko"
rm -rf "$OUT/guest-bin"
mkdir -p "$OUT/guest-bin"
cp tests/verbs/*.py "$OUT/guest-bin/"
# test_events.py's user: a C program, so that waiting for an async event
# can time out (non-blocking fd, poll())
cc -O2 -Wall -o "$OUT/guest-bin/async_events" tests/verbs/async_events.c \
	-libverbs >"$OUT/async_events.log" 2>&1 ||
	judge --setup-error "building tests/verbs/async_events.c: see $OUT/async_events.log"

t0=$EPOCHSECONDS
# shellcheck disable=SC2086 # TEST_ARGS is a list of options
VM_OUT=$V GUEST_BIN=$OUT/guest-bin MODULE=$OUT/arbel.ko LOAD=1 VM_PYTHON=1 VM_HOTPLUG=1 \
	VM_MEM=${VM_MEM:-2G} TIMEOUT=${TIMEOUT:-1200} \
	STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID${STUB:+,$STUB}" \
	CMD="ARBEL_MODULE_ARGS=$(printf %q "${MODULE_ARGS:-}") NODE_GUID=$NODE_GUID PORT_GUID=$PORT_GUID python3 /opt/arbel/bin/verbs_guest.py $TEST_ARGS; echo \"# verbs_guest.py: exit \$?\"" \
	scripts/vm/run.sh >"$OUT/output.txt" 2>"$OUT/run.err"
rc=$?
echo "# VM run: exit $rc after $((EPOCHSECONDS - t0)) s; output in $V/output.txt"
case $TEST_ARGS in
*--suites*) judge --vm-rc "$rc" --subset ;;
*) judge --vm-rc "$rc" ;;
esac
