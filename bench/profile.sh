#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where a registration's time goes: one VM boot per driver (as
# bench/run.sh), cmp_bench under `perf record` (the host's perf, copied
# into the guest with its libraries; cpu-clock sampling, TCG has no PMU),
# then `perf report` of the kernel and user symbols, the top PROFILE_TOP
# (default 25).  See Documentation/benchmarks.rst, "Profiles".  With the
# default BENCH_CLOCK=icount (bench/guest-bin.sh) the guest's clock counts
# instructions, so the samples are shares of the instructions executed.
#
#   bench/profile.sh                         arbel and mthca, 4 KiB pages
#   PROFILE_DRIVERS="arbel" bench/profile.sh
#   PROFILE_ARGS="-t 4 -r 1 -s 1024" bench/profile.sh    one size: 1 MiB
#
# Output: build/profile/NAME.txt (each VM's output, the report at its end).

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=$REPO/build/profile
BIN=$OUT/guest-bin
DRIVERS=${PROFILE_DRIVERS:-arbel mthca}
args=${PROFILE_ARGS:--t 1 -r 1 -m 1 -L 100}
top=${PROFILE_TOP:-25}
PERF=$(command -v perf) || { echo "profile: no perf on the host (apt-get install linux-perf)" >&2; exit 1; }
export VM_MEM=${VM_MEM:-3G} VM_SMP=1 TIMEOUT=${TIMEOUT:-1800}
export VM_PROVIDERS=mthca VM_EXTRA_BINS="$PERF"
export VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-trace -arbel_*"

# shellcheck source=bench/guest-bin.sh
. bench/guest-bin.sh
bench_clock
mkdir -p "$OUT"
bench_guest_bin "$BIN"

# record, then report: the samples by symbol, children not folded in
prof="perf record -q -e cpu-clock -F 2000 -a -o /tmp/perf.data -- /opt/arbel/bin/cmp_bench $args -d \$dev >/tmp/bench.out
grep -o '\"size\": [0-9]*, .*\"us\": \[[^]]*\]' /tmp/bench.out | sed 's/^/cycle: /'
perf report -i /tmp/perf.data --stdio --no-children --sort sym --percent-limit 0.5 2>/dev/null | grep -v '^#' | grep -v '^\$' | head -n $top"
for d in $DRIVERS; do
	load=0
	case $d in
	arbel)
		load=1 cmd="dev=arbel0; $prof";;
	mthca)
		[ -n "$mthca" ] || { echo "profile: no ib_mthca.ko" >&2; continue; }
		cmd="modprobe ib_uverbs; insmod /opt/arbel/bin/ib_mthca.ko; sleep 2; dev=mthca0; $prof";;
	*)
		echo "profile: unknown driver $d" >&2
		exit 2;;
	esac
	echo "profile: $d ..." >&2
	GUEST_BIN=$BIN VM_OUT=$OUT/vm-$d LOAD=$load CMD="$cmd" \
		scripts/vm/run.sh >"$OUT/$d.txt" 2>"$OUT/$d.err" || true
	echo "== $d: cmp_bench $args, top $top symbols (% of samples, all CPUs)"
	grep '^cycle: ' "$OUT/$d.txt" || true
	sed -n '/%/p' "$OUT/$d.txt" | grep -v '^cycle: ' | tail -n "$top"
done
