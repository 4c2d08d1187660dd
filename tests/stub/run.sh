#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The conformance stage: arbel-stub against the firmware the PRM describes.
# Plumbing only: build the test (arbel-conformance, on tests/lib) and QEMU,
# boot the test VM (scripts/vm/run.sh) once per run below, each with its
# own output directory in OUT, and hand them to judge.py, which prints the
# stage's one KTAP stream on stdout and gives the exit status (non-zero on
# any failure).  The VMs' output goes to stderr as it comes.
#
#   OUT/conformance  arbel-conformance, every suite; its trace is checked
#   OUT/prop-faults  arbel-conformance --prop-fault: faults set as device
#                    properties
#   OUT/mthca-intx   Debian's own ib_mthca as a second, independent driver,
#                    loaded and removed on a stub with msix=off: its command
#                    sequence and its NOP interrupt test by INTx and the
#                    clear-interrupt register are checked; skipped if the
#                    kernel cache has no ib_mthca.ko.  The MSI-X path, and
#                    what ib_mthca does with the device, is the mthca
#                    stage's (tests/mthca/run.sh)
# Each holds rc (scripts/vm/run.sh's exit status), run.log (its output)
# and VM_OUT's files (output.txt, stub-trace.txt, dmesg.txt, ...).
#
# Environment: QEMU (skips scripts/build-qemu.sh), VM_OUT (OUT; default
# build/vm-stub), anything else scripts/vm/run.sh accepts.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=${VM_OUT:-$REPO/build/vm-stub}
judge() { exec python3 tests/stub/judge.py --out "$OUT" "$@"; }

mkdir -p "$OUT"
make -s -C tests/stub O="$REPO/build/guest-bin" >&2 ||
	judge --setup-error "make -C tests/stub failed (see stderr)"
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh) || judge --setup-error "scripts/build-qemu.sh failed"
fi
export QEMU

# no driver of ours: a MODULE that was not built (check.sh's "on 6.12"
# names build/module-6.12/arbel.ko) must not stop the boot
[ -f "${MODULE:-}" ] || unset MODULE

boot() { # run name, then env assignments for scripts/vm/run.sh
	local dir=$OUT/$1
	shift
	mkdir -p "$dir"
	rm -f "$dir/rc" "$dir/run.log"
	env VM_OUT="$dir" "$@" scripts/vm/run.sh 2> >(tee "$dir/run.log" >&2) >&2
	echo $? >"$dir/rc"
}

# 1. every suite, with GUIDs set as properties; its trace is judged
NODE_GUID=0x0002c903000a1b00
PORT_GUID=0x0002c903000a1b01
boot conformance STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID" \
	CMD="arbel-conformance --node-guid $NODE_GUID --port-guid $PORT_GUID"

# 2. faults given as device properties
boot prop-faults STUB='fail-opcode=0x31,fail-status=0x6,fail-every=2' \
	CMD='arbel-conformance --prop-fault 2 0x6'

# 3. upstream ib_mthca (Debian's own module) against the stub without the
# MSI-X capability: INTx and clear-interrupt
mthca=$(tests/mthca/find-ko.sh) ||
	judge --mthca-skip "no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
gb=$(mktemp -d)
trap 'rm -rf "$gb"' EXIT
cp "$mthca" "$gb/"
boot mthca-intx GUEST_BIN="$gb" STUB='msix=off' \
	CMD='modprobe ib_uverbs; insmod /opt/arbel/bin/ib_mthca.ko; rmmod ib_mthca; true'
rm -rf "$gb"
trap - EXIT
judge
