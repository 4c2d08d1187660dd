#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suites on x86_64 against arbel-stub, on the debug kernel
# (scripts/debug-kernel.sh: KASAN, UBSAN, lockdep, kmemleak,
# DEBUG_OBJECTS): in the test VM (scripts/vm/run.sh, q35, TCG, arbel-stub)
# arbel.ko is loaded and binds the emulated HCA, then every KUnit module
# of kunit/ (kunit/x86_64/Kbuild), one after the other: KUnit runs a
# module's suites while it loads, so the command-flow suites
# (arbel_flow_test: kunit/cmdflow_test.c, fwflow_test.c, icmflow_test.c,
# mttflow_test.c) drive the bound HCA with faults injected through the
# stub's debug window, and the pure suites run beside them.  Then every module is
# removed, arbel.ko last.
#
# The VM run goes to build/kunit-x86/ (the kernel log in dmesg.txt, the
# stub's command trace in stub-trace.txt).  KTAP on stdout
# (scripts/kunit-ktap.py --module): every KUnit case, then checks that
# fail on a failed or crashed case, on zero cases, on a skipped case, and
# on kernel warnings, lockdep or sanitizer reports in the kernel log.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. scripts/ktap.sh

out=$top/build/kunit-x86
mkdir -p "$out"
if ! root=$(scripts/debug-kernel.sh 2>"$out/debug-kernel.log") ||
	! tree=$(scripts/ktree.sh --no-hook 2>>"$out/debug-kernel.log"); then
	ktap_start
	ktap_fail "debug kernel and kunit/arbel.ko: scripts/debug-kernel.sh" \
		"$(tail -n 20 "$out/debug-kernel.log")"
	ktap_finish
	exit 1
fi

echo "kunit-x86: the KUnit modules on the debug kernel ($root)" >&2
start=$(date +%s)
rc=0
# shellcheck disable=SC2016 # expanded in the guest
cmd='set -e; cd /opt/arbel/bin; mods=$(ls ./*.ko)
for m in $mods; do insmod "$m"; done
for m in $mods; do m=${m##*/}; rmmod "${m%.ko}"; done
rmmod arbel'
# kunit.enable=1: allnoconfig leaves KUNIT_DEFAULT_ENABLED off
VM_KERNEL_ROOT=$root MODULE=$root/arbel.ko LOAD=1 GUEST_BIN=$root/kunit \
	VM_APPEND=kunit.enable=1 VM_OUT=$out TIMEOUT=${TIMEOUT:-900} CMD=$cmd \
	scripts/vm/run.sh >"$out/run.log" 2>&1 || rc=$?
echo "kunit-x86: the VM run took $(($(date +%s) - start)) s (exit $rc)" >&2

exec scripts/kunit-ktap.py --module --tree "$tree" --log "$out/run.log" \
	--raw "$out/dmesg.txt" --rc "$rc"
