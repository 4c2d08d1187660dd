#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The mthca stage: Debian's own, unmodified ib_mthca.ko (the module of the
# VM's kernel) against arbel-stub, in one VM boot.  Plumbing only: build
# stubctl and QEMU, put ib_mthca.ko, stubctl, mthca_guest.py and the test
# modules it imports (the suites here, tests/verbs' base.py, expect.py,
# test_deep.py and test_tools.py, tests/vm's bringup_guest.py and
# bringup_cases.py) into one guest-bin, boot (scripts/vm/run.sh,
# VM_PYTHON=1, arbel.ko not loaded) and hand the run to tests/stub/judge.py
# --stage mthca, which prints the stage's one KTAP stream: the VM's
# status, mthca_guest.py's results nested, and the checks of ib_mthca's
# command sequence in the stub's trace.  Exit status 1 if anything failed.
#
# Environment: VM_OUT (default build/vm-mthca; the run goes to
# VM_OUT/mthca), QEMU (skips scripts/build-qemu.sh), CYCLES (default 20),
# TIMEOUT (VM, default 600 s), NO_UNLOAD=WHY (skip rmmod and the cycles,
# reported as a skip with WHY), others for scripts/vm/run.sh.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=${VM_OUT:-$REPO/build/vm-mthca}
NODE_GUID=0x0002c903000b2c00
PORT_GUID=0x0002c903000b2c01
PORTS=2
judge() {
	exec python3 tests/stub/judge.py --stage mthca --out "$OUT" "$@"
}

mkdir -p "$OUT/mthca"
gb=$OUT/guest-bin
rm -rf "$gb"
mkdir -p "$gb"
make -s -C tests/vm O="$gb" >&2 || judge --setup-error "make -C tests/vm failed"
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh) || judge --setup-error "scripts/build-qemu.sh failed"
fi
export QEMU
VM_PYTHON=1 scripts/vm/prepare.sh >/dev/null ||
	judge --setup-error "scripts/vm/prepare.sh failed"
ko=$(tests/mthca/find-ko.sh) ||
	judge --mthca-skip "no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
cp "$ko" tests/mthca/*.py tests/verbs/base.py tests/verbs/expect.py \
	tests/verbs/test_deep.py tests/verbs/test_tools.py \
	tests/vm/bringup_guest.py tests/vm/bringup_cases.py "$gb/"

dir=$OUT/mthca
rm -f "$dir/rc" "$dir/run.log"
t0=$EPOCHSECONDS
VM_OUT=$dir GUEST_BIN=$gb VM_PYTHON=1 VM_MEM=${VM_MEM:-1G} \
	TIMEOUT=${TIMEOUT:-600} \
	STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID,ports=$PORTS" \
	CMD="NODE_GUID=$NODE_GUID PORT_GUID=$PORT_GUID PORTS=$PORTS python3 /opt/arbel/bin/mthca_guest.py --cycles ${CYCLES:-20}${NO_UNLOAD:+ --no-unload $(printf %q "$NO_UNLOAD")}" \
	scripts/vm/run.sh 2> >(tee "$dir/run.log" >&2) >&2
echo $? >"$dir/rc"
echo "# VM run: exit $(cat "$dir/rc") after $((EPOCHSECONDS - t0)) s" >&2
if [ -n "${NO_UNLOAD:-}" ]; then
	judge --no-unload "$NO_UNLOAD"
fi
judge
