#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check: every test of the project, each stage run even if an earlier
# one failed.  The stages are the table in scripts/stages.py (name,
# command, where it runs and its cost, kernel, what it needs); make check
# LIST=1 prints it, make check STAGES=verbs,mthca runs those and what they
# need.  The 'first' stages run in table order, then the others in
# ARBEL_CHECK_LANES lanes (default 2) that stages.py schedules as they
# free, then the host stage.  Every stage prints KTAP on stdout; check.sh
# keeps it in build/check-NAME.ktap, stdout and stderr together in
# build/check-NAME.log, the exit status in build/check-NAME.rc, the
# seconds it took in build/check-NAME.secs.  Last, scripts/report.py prints
# "NAME: N passed, N failed" per stage and the closing line
# "check: N passed, N failed" (", N skipped" when there are skips), and
# gives the exit status: non-zero on any failure.
#
#   check.sh                  what make check runs (STAGES, LIST, ARBEL_CHECK_LANES)
#   check.sh --stage NAME     one stage, its files in build/ (the lanes call it)
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
mkdir -p build

# run_stage NAME: the stage's command from the table, its KTAP, log,
# exit status and duration kept in build/check-NAME.*
run_stage() {
	local name=$1 out=build/check-$1 rc t0=$SECONDS cmd
	cmd=$(python3 scripts/stages.py command "$name") || return
	rm -f "$out.ktap" "$out.log" "$out.rc" "$out.secs"
	echo "=== $name: $cmd"
	eval "$cmd" 2> >(tee -a "$out.log" >&2) | tee "$out.ktap" | tee -a "$out.log"
	rc=${PIPESTATUS[0]}
	echo "$rc" >"$out.rc"
	echo "$((SECONDS - t0))" >"$out.secs"
	echo "=== $name: exit status $rc after $((SECONDS - t0)) s (log: $out.log)"
}

# on KERNEL NAME COMMAND...: run a stage's script for another Debian kernel
# line: its headers, its guest kernel, the module built for it
# (module-6.12), and output directories of its own
on() {
	local k=$1 name=$2
	shift 2
	env -u ARBEL_KABI -u ARBEL_KVER -u ARBEL_KDIR ARBEL_KERNEL="$k" \
		MODULE="$top/build/module-$k/arbel.ko" \
		OUT="$top/build/k$k/$name" VM_OUT="$top/build/k$k/$name" "$@"
}

if [ "${1:-}" = --stage ]; then
	[ $# = 2 ] || { echo "usage: check.sh --stage NAME" >&2; exit 2; }
	run_stage "$2"
	exit 0
fi

if [ -n "${LIST:-}" ] && [ "${LIST:-}" != 0 ]; then
	exec python3 scripts/stages.py list --stages "${STAGES:-}"
fi

# the stages to run, in table order, by phase (an unknown name stops here)
mapfile -t all < <(python3 scripts/stages.py select --stages "${STAGES:-}")
[ ${#all[@]} -gt 0 ] || exit 2
mapfile -t first < <(python3 scripts/stages.py select --stages "${STAGES:-}" --phase first)
mapfile -t lanes < <(python3 scripts/stages.py select --stages "${STAGES:-}" --phase lanes)
mapfile -t last < <(python3 scripts/stages.py select --stages "${STAGES:-}" --phase last)
echo "=== stages: ${all[*]}"

# the host stage compares the host with this snapshot after the stages
scripts/host-check.sh snapshot build/check-host.before

for s in "${first[@]}"; do
	run_stage "$s"
done

# The lanes: a VM stage's guest runs on one core (TCG), so two lanes fill
# a 2-core machine; each lane's output is kept in build/check-lane-N.out
# and shown when all are done.  ARBEL_CHECK_LANES=1 runs one after the other.
if [ ${#lanes[@]} -gt 0 ]; then
	rm -f build/check-lane-*.out
	python3 scripts/stages.py run --lanes "${ARBEL_CHECK_LANES:-2}" \
		--out build "${lanes[@]}"
	cat build/check-lane-*.out
fi

for s in "${last[@]}"; do
	run_stage "$s"
done

echo
exec python3 scripts/report.py --dir build "${all[@]}"
