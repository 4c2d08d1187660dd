#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build QEMU with arbel-stub and the conformance test, boot the test VM
# (scripts/vm/run.sh) and run arbel-conformance in it, check the stub's
# command trace, then boot once more with faults set by device properties.
# Prints the tests' lines; the last line is "conformance: N passed, N failed"
# over all runs.  Exit status: non-zero on any failure.
#
# Environment: QEMU (skips scripts/build-qemu.sh), VM_OUT (default
# build/vm-stub), anything else scripts/vm/run.sh accepts.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

make -s -C tests/stub O="$REPO/build/guest-bin" >&2 || exit 1
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh) || exit 1
fi
export QEMU
export VM_OUT=${VM_OUT:-$REPO/build/vm-stub}
trace=$VM_OUT/stub-trace.txt

pass=0 fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() { # description, then env assignments for scripts/vm/run.sh
	local what=$1 rc p f
	shift
	env "$@" scripts/vm/run.sh >"$out"
	rc=$?
	grep -v '^conformance: ' "$out"
	p=$(sed -n 's/^conformance: \([0-9]*\) passed, [0-9]* failed$/\1/p' "$out")
	f=$(sed -n 's/^conformance: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$out")
	pass=$((pass + ${p:-0}))
	fail=$((fail + ${f:-0}))
	if [ "$rc" -ne 0 ] && [ "${f:-0}" -eq 0 ]; then
		echo "not ok - $what: VM run failed (exit $rc)"
		fail=$((fail + 1))
	fi
}

check_trace() { # name, extended regex
	if grep -Eq "$2" "$trace"; then
		echo "ok - trace: $1"
		pass=$((pass + 1))
	else
		echo "not ok - trace: $1: no line matches '$2' in $trace"
		fail=$((fail + 1))
	fi
}

# 1. the full suite, then its trace
NODE_GUID=0x0002c903000a1b00
PORT_GUID=0x0002c903000a1b01
run "conformance" STUB="node-guid=$NODE_GUID,port-guid=$PORT_GUID" \
	CMD="arbel-conformance --node-guid $NODE_GUID --port-guid $PORT_GUID"
check_trace "SW2HW_MPT with its 64-byte inbox" \
	'^#[0-9]+ SW2HW_MPT op=0x00d op_mod=0 in_mod=0x00000011 in_param=0x[0-9a-f]{16} out_param=0x[0-9a-f]{16} token=0xffff status=0x00\(OK\) in\[64\]=f0000d0000000000'
check_trace "refusal with its status" \
	'^#[0-9]+ SW2HW_MPT .* status=0x0a\(BAD_INDEX\)'
check_trace "SET_ICM_SIZE immediate output" \
	'^#[0-9]+ SET_ICM_SIZE .* in_param=0x0000000000020000 .*status=0x00\(OK\) out_imm=0x0000000000000001$'
check_trace "QUERY_FW outbox" \
	'^#[0-9]+ QUERY_FW .* status=0x00\(OK\) out\[256\]=0030000500000003'
check_trace "injected failure" 'NOP .* status=0x06\(RESOURCE_BUSY\) fault=injected-failure$'
check_trace "corrupted outbox" 'QUERY_FW .* fault=corrupted-outbox out\[256\]=0030fffa'
check_trace "MAD_IFC with its MAD" '^#[0-9]+ MAD_IFC op=0x024 .* status=0x00\(OK\) in\[256\]=01010101.* out\[256\]=01010181'
check_trace "reset" '^#[0-9]+ RESET$'
check_trace "translation" '^#[0-9]+ XLATE key=0x[0-9a-f]{8} access=1 .* result=0$'

# 2. faults given as device properties
run "property faults" STUB='fail-opcode=0x31,fail-status=0x6,fail-every=2' \
	CMD='arbel-conformance --prop-fault 2 0x6'

# 3. upstream ib_mthca (Debian's own module) as a second, independent driver:
# its whole mem-free bring-up must pass, it must stop exactly at SW2HW_EQ
# (this firmware has no EQs: 0x02) and undo everything in order.
mthca=$(find "$ARBEL_CACHE/vm/kernel" -path "*/$ARBEL_KABI/*" -name ib_mthca.ko \
	2>/dev/null | head -n 1)
if [ -n "$mthca" ]; then
	gb=$(mktemp -d)
	cp "$mthca" "$gb/"
	env GUEST_BIN="$gb" CMD='modprobe ib_uverbs; insmod /opt/arbel/bin/ib_mthca.ko; true' \
		scripts/vm/run.sh >/dev/null
	rm -rf "$gb"
	ops=$(sed -n 's/^#[0-9]* \([A-Z_0-9]*\) .*status=0x\(..\).*/\1:\2/p' "$trace" | tr '\n' ' ')
	want='QUERY_FW:00 ENABLE_LAM:22 MAP_FA:00 RUN_FW:00 QUERY_DEV_LIM:00 SET_ICM_SIZE:00 MAP_ICM_AUX:00 '
	if [[ $ops == "$want"*"INIT_HCA:00 QUERY_ADAPTER:00 SW2HW_MPT:00 SW2HW_MPT:00 SW2HW_EQ:02 HW2SW_MPT:00 HW2SW_MPT:00 CLOSE_HCA:00 "*"UNMAP_ICM_AUX:00 UNMAP_FA:00 " ]] &&
		[ "$(echo "$ops" | tr ' ' '\n' | grep -v -c -E ':00$|^ENABLE_LAM:22$|^SW2HW_EQ:02$|^$')" = 0 ]; then
		echo "ok - ib_mthca: bring-up, MPTs for its EQ buffers, teardown"
		pass=$((pass + 1))
	else
		echo "not ok - ib_mthca: unexpected command sequence: $ops"
		fail=$((fail + 1))
	fi
else
	echo "ok - ib_mthca: # SKIP no ib_mthca.ko in $ARBEL_CACHE/vm/kernel"
fi

echo "conformance: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
