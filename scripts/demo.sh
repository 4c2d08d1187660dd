#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: an emulated Arbel in a VM, the driver loaded, memory
# registered from user space with stock rdma-core, and the MPT entries the
# firmware holds.  See Documentation/demo.rst.
#
#   scripts/demo.sh
#
# Steps: build arbel.ko (scripts/build-module.sh --test), build
# examples/reg_mr_demo (with the C test library, tests/lib) into
# build/guest-bin, build QEMU with arbel-stub, boot the VM (LOAD=1,
# VM_PYTHON=1 for python3 -m arbeltest.mpt_show, which reg_mr_demo runs to
# decode the MPT entries; output in build/vm-demo), run `ibv_devinfo -v`,
# reg_mr_demo and `rdma res show`, then print the stub's trace of the MR
# commands (SW2HW_MPT, WRITE_MTT, HW2SW_MPT, QUERY_MPT) from the host.
#
# Environment: VM_OUT (default build/vm-demo), SKIP_BUILD=1 (use the
# existing build/module/arbel.ko), STUB (extra arbel-stub properties),
# TRACE_LINES (trace lines shown, default 60; 0 = all).
# Exit status: non-zero if any step fails.

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO" || exit 1
VM_OUT=${VM_OUT:-$REPO/build/vm-demo}
TRACE_LINES=${TRACE_LINES:-60}
mkdir -p "$VM_OUT"

bold=
plain=
if [ -t 1 ]; then
	bold=$(printf '\033[1m')
	plain=$(printf '\033[0m')
fi
heading() {
	printf '\n%s==== %s ====%s\n' "$bold" "$*" "$plain"
}
die() {
	printf '\ndemo: FAILED: %s\n' "$*" >&2
	exit 1
}

heading "Building arbel.ko (scripts/build-module.sh --test)"
if [ "${SKIP_BUILD:-0}" = 1 ] && [ -f build/module/arbel.ko ]; then
	echo "SKIP_BUILD=1: using build/module/arbel.ko"
else
	scripts/build-module.sh --test >"$VM_OUT/build-module.log" 2>&1 ||
		{ tail -20 "$VM_OUT/build-module.log"; die "module build (log: $VM_OUT/build-module.log)"; }
	tail -1 "$VM_OUT/build-module.log"
fi

heading "Building the example (examples/reg_mr_demo.c, stock libibverbs, tests/lib)"
if [ ! -f /usr/include/infiniband/verbs.h ]; then
	echo "installing libibverbs-dev"
	scripts/setup.sh verbs >"$VM_OUT/apt.log" 2>&1 ||
		die "installing libibverbs-dev (log: $VM_OUT/apt.log)"
fi
make -s -C examples || die "make -C examples"
echo "built build/guest-bin/reg_mr_demo"

heading "Building QEMU with arbel-stub (scripts/build-qemu.sh; cached after the first run)"
QEMU=$(scripts/build-qemu.sh 2>"$VM_OUT/build-qemu.log") ||
	{ tail -20 "$VM_OUT/build-qemu.log"; die "QEMU build (log: $VM_OUT/build-qemu.log)"; }
export QEMU
echo "$QEMU"

heading "Booting the VM: Debian's kernel, arbel-stub, insmod arbel.ko, python3 (about 20 s)"
# The guest command: each step announces itself; the exit status says
# whether all of them worked.
read -r -d '' GUEST <<'EOF'
rc=0
step() { printf '\n==== guest: %s ====\n' "$*"; "$@" || { echo "(exit $?)"; rc=1; }; }
echo 8 >/proc/sys/vm/nr_hugepages 2>/dev/null
step ibv_devices
step ibv_devinfo -v
step rdma dev
step reg_mr_demo
step rdma res show
exit $rc
EOF
VM_OUT=$VM_OUT LOAD=1 VM_PYTHON=1 CMD=$GUEST TIMEOUT=${TIMEOUT:-300} scripts/vm/run.sh
vm_rc=$?

T=$VM_OUT/stub-trace.txt
heading "The stub's command trace, MR commands only (host side: $T)"
if [ -s "$T" ]; then
	echo "(mailboxes shortened; the trace file has them whole)"
	# the stub's arbel_* trace events in QEMU's log, read by the tests' parser
	PYTHONPATH=tests/pylib python3 - "$T" "$TRACE_LINES" <<'PY'
import re
import sys
from arbeltest import trace

path, limit = sys.argv[1], int(sys.argv[2])
ops = ('SW2HW_MPT', 'WRITE_MTT', 'QUERY_MPT', 'HW2SW_MPT')
entries = trace.parse(path)
cmds = [e for e in trace.commands(entries) if e.name in ops]
lines = [re.sub(r'(in|out)\[(\d+)\]=([0-9a-f]{64})[0-9a-f]+', r'\1[\2]=\3...',
                re.sub(r' (out_param|token)=0x[0-9a-f]+', '', e.raw))
         for e in cmds]
if limit and len(lines) > limit:
    print('\n'.join(lines[:limit]))
    print(f'... ({len(lines)} lines in all)')
else:
    print('\n'.join(lines))
print('\nsummary:')
for op in ops:
    these = [e for e in cmds if e.name == op]
    print(f'  {op:<10} {len(these):4d} commands, '
          f'{sum(e.status != 0 for e in these)} not OK')
print(f'  {"XLATE":<10} {sum(e.is_xlate for e in entries):4d} '
      'translations by the debug engine')
sys.exit(min(sum(e.status != 0 for e in cmds), 255))
PY
	bad=$?
else
	echo "no trace file"
	bad=1
fi

heading "Result"
[ "$vm_rc" -eq 0 ] || die "the VM run failed (exit $vm_rc; logs in $VM_OUT)"
[ "$bad" -eq 0 ] || die "$bad MR command(s) did not return OK in the stub's trace"
echo "demo: OK (outputs in $VM_OUT: output.txt, stub-trace.txt, dmesg.txt)"
