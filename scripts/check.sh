#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, in order, each stage run even if
# an earlier one failed.  Every stage prints KTAP on stdout; check.sh keeps
# it in build/check-NAME.ktap, stdout and stderr together in
# build/check-NAME.log, the exit status in build/check-NAME.rc.  Last,
# scripts/report.py prints "NAME: N passed, N failed" per stage and the
# closing line "check: N passed, N failed" (", N skipped" when there are
# skips), and gives the exit status: non-zero on any failure.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build

stages=()

# run_stage NAME COMMAND...
run_stage() {
	local name=$1 out=build/check-$1 rc t0=$SECONDS
	shift
	stages+=("$name")
	rm -f "$out.ktap" "$out.log" "$out.rc"
	echo "=== $name: $*"
	"$@" 2> >(tee -a "$out.log" >&2) | tee "$out.ktap" | tee -a "$out.log"
	rc=${PIPESTATUS[0]}
	echo "$rc" >"$out.rc"
	echo "=== $name: exit status $rc after $((SECONDS - t0)) s (log: $out.log)"
}

# on KERNEL COMMAND...: run a stage's script for another Debian kernel
# line: its headers, its guest kernel, the module built for it
# (module-6.12), and output directories of its own
on() {
	local k=$1 name=$2
	shift 2
	env -u ARBEL_KABI -u ARBEL_KDIR ARBEL_KERNEL="$k" \
		MODULE="$top/build/module-$k/arbel.ko" \
		OUT="$top/build/k$k/$name" VM_OUT="$top/build/k$k/$name" "$@"
}

run_stage pylib python3 tests/pylib/tests
run_stage testlib make -s -C tests/lib check
run_stage bench bench/build-check.sh
run_stage module-6.12 env -u ARBEL_KABI -u ARBEL_KDIR ARBEL_KERNEL=6.12 \
	scripts/build-module.sh --test
run_stage module scripts/build-module.sh --test
run_stage dkms scripts/dkms-check.sh

# Two lanes, balanced for a 2-core machine: the guest of a VM stage runs
# on one core (TCG), so the host-side stages and some VM stages share the
# other.  Each lane runs its stages in order; a lane's output is kept in
# build/check-lane-N.out and shown when both are done.
# ARBEL_CHECK_LANES=1 runs them one after the other.
lane1() {
	run_stage lint scripts/checkpatch.sh
	run_stage docs scripts/htmldocs.sh
	# the UML suites run in-tree, as kernel CI would (scripts/kunit.sh
	# runs the same suites hooked in out of tree, for development)
	run_stage intree env -u ARBEL_KABI -u ARBEL_KDIR ARBEL_KERNEL=6.1 \
		scripts/intree.sh
	run_stage intree-6.12 env -u ARBEL_KABI -u ARBEL_KDIR \
		ARBEL_KERNEL=6.12 scripts/intree.sh
	run_stage kunit-x86 scripts/kunit-x86.sh
	# every verbs suite in polling mode too (event mode: verbs), but the
	# exhaustion, which verbs runs
	run_stage verbs-6.12 on 6.12 verbs env MODULE_ARGS=polling=1 \
		TEST_ARGS=--no-enomem tests/verbs/run.sh
	# Debian's 6.12 ib_mthca comes up, registers memory on the stub, sees
	# a port bounce (its SA client's MAD completes) and goes away
	run_stage mthca-6.12 on 6.12 mthca tests/mthca/run.sh
	run_stage conformance-6.12 on 6.12 conformance tests/stub/run.sh
	run_stage bringup-6.12 on 6.12 bringup tests/vm/bringup.sh
	# in event mode; the failure-path suites run on the debug kernel
	# (same 6.1 source) in the debug stage, and on 6.12 in verbs-6.12
	run_stage verbs env TEST_ARGS="--enomem-secs 240 --skip-suites \
test_bad_inputs,test_fw_faults,test_stress,test_removal,test_fail_policy" \
		tests/verbs/run.sh
	run_stage mthca tests/mthca/run.sh
}
lane2() {
	run_stage conformance tests/stub/run.sh
	run_stage bringup tests/vm/bringup.sh
	run_stage deb scripts/deb-check.sh
	# the failure-path verbs suites on the debug kernel (its build is
	# shared with kunit-x86, whichever stage comes first)
	run_stage debug scripts/debug-check.sh
}
lane_stages() { # the stage names of lane function $1, in order
	declare -f "$1" | sed -n 's/^ *run_stage \([^ ]*\) .*/\1/p'
}

if [ "${ARBEL_CHECK_LANES:-2}" = 1 ]; then
	lane1
	lane2
else
	stages_before=("${stages[@]}")
	(
		renice -n 2 "$BASHPID" >/dev/null
		lane1
	) >build/check-lane-1.out 2>&1 &
	lane1_pid=$!
	lane2 >build/check-lane-2.out 2>&1 &
	lane2_pid=$!
	echo "=== lanes: lane1 (build/check-lane-1.out): $(lane_stages lane1 | xargs)"
	echo "=== lanes: lane2 (build/check-lane-2.out): $(lane_stages lane2 | xargs)"
	wait "$lane1_pid" "$lane2_pid"
	cat build/check-lane-1.out build/check-lane-2.out
	mapfile -t l1 < <(lane_stages lane1)
	mapfile -t l2 < <(lane_stages lane2)
	stages=("${stages_before[@]}" "${l1[@]}" "${l2[@]}")
fi

echo
exec python3 scripts/report.py --dir build "${stages[@]}"
