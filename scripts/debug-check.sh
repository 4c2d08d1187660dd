#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's debug stage: the verbs suites that stress the driver's
# failure paths -- bad inputs and the fuzzer, injected firmware faults,
# concurrency stress, allocation failures (failslab, fail_page_alloc),
# removal with users present, the failure policy, the life cycle (pulled
# card, shutdown, fatal errors against bring-up) -- on the debug kernel
# (scripts/debug-kernel.sh: KASAN, UBSAN, lockdep, kmemleak,
# DEBUG_OBJECTS, fault injection), with arbel.ko built against it.
# Any sanitizer, lockdep or DEBUG_OBJECTS report in the guest's kernel log
# fails the VM run (scripts/vm/run.sh's splat scan), and kmemleak's scan
# after the suites fails on any object leaked meanwhile
# (tests/verbs/verbs_guest.py).  KTAP on stdout (tests/verbs/judge.py).
#
# Environment: DEBUG_STRESS_CYCLES (default 50 per process: the
# sanitizers make every cycle several times slower under TCG; the verbs
# stages run 10,000; the fuzzer's first 100 registrations of its 300);
# DEBUG_SUITES (default: the seven above, in order) to
# run fewer while developing.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. scripts/ktap.sh

out=$top/build/vm-debug
mkdir -p "$out"
if ! root=$(scripts/debug-kernel.sh 2>"$out/debug-kernel.log"); then
	ktap_start
	ktap_fail "debug kernel: scripts/debug-kernel.sh" \
		"$(tail -n 20 "$out/debug-kernel.log")"
	ktap_finish
	exit 1
fi
# allocation faults first: its ICM case needs a new MTT chunk, and MTT
# chunks stay mapped once used (arbel_mtt_icm_hold()), which the
# firmware-fault suite's 63 regions of 64 MiB do for the whole table
suites=test_alloc_faults,test_bad_inputs,test_fw_faults,test_stress
suites=${DEBUG_SUITES:-$suites,test_removal,test_fail_policy,test_life_cycle}
# failslab may fail every slab cache but the xarray's node cache
# (test_alloc_faults.py: a failed node allocation in the core's restrack
# leaves the empty node that rdma_restrack_clean() warns about)
exec env VM_KERNEL_ROOT="$root" MODULE="$root/arbel.ko" OUT="$out" \
	VM_APPEND="slub_debug=A;-,radix_tree_node${VM_APPEND:+ $VM_APPEND}" \
	TIMEOUT=2400 \
	TEST_ARGS="--suites $suites --no-enomem --stress-cycles ${DEBUG_STRESS_CYCLES:-50} --fuzz-count 100" \
	tests/verbs/run.sh
