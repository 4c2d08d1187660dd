#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory-registration benchmark: build arbel.ko (if missing) and
# bench/reg_bench.c, boot the test VM with the driver loaded, run reg_bench
# in it and print its table with the host's facts. See
# Documentation/benchmarks.rst.
#
#   bench/run.sh
#   BENCH_SECONDS=1 bench/run.sh        # target seconds per row (default 2)
#   BENCH_TRACE=1 bench/run.sh          # keep the stub's command trace
#
# The stub's per-command trace (build/vm-bench/stub-trace.txt) is turned
# off by default (STUB=trace=, which overrides run.sh's trace=...): with it
# on, a run writes about 280 MB and that I/O is part of the timed loop.
#
# Environment: BENCH_SECONDS; VM_SMP, VM_MEM, TIMEOUT (default 900) and the
# other variables of scripts/vm/run.sh pass through. Output also lands in
# build/vm-bench/ (output.txt: the guest's table; bench.txt: everything).

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"

BIN=$REPO/build/bench-bin
OUT=$REPO/build/vm-bench
SECS=${BENCH_SECONDS:-2}
export TIMEOUT=${TIMEOUT:-900}
VM_SMP=${VM_SMP:-1}
VM_MEM=${VM_MEM:-1G}
if [ "${BENCH_TRACE:-0}" = 1 ]; then
	STUB=${STUB:-}
	trace=on
else
	STUB=trace=${STUB:+,$STUB}
	trace=off
fi
export STUB

if [ ! -f build/module/arbel.ko ]; then
	echo "bench: building the module (scripts/build-module.sh --test)" >&2
	scripts/build-module.sh --test >&2
fi

mkdir -p "$BIN" "$OUT"
# reg_bench links libibverbs (dynamic) and the C test library (tests/lib)
gcc -O2 -g -Wall -Wextra -Werror -Itests/lib -o "$BIN/reg_bench" \
	bench/reg_bench.c tests/lib/dev.c tests/lib/mem.c tests/lib/util.c -libverbs

busy() {
	# other heavy processes on the host (read-only look)
	local n
	# shellcheck disable=SC2009  # pgrep refuses a pattern over 15 chars
	n=$(ps -e -o comm= | grep -cxE 'cc1|cc1plus|ld|make|qemu-system-x86|ninja' || true)
	echo "loadavg $(cut -d' ' -f1-3 /proc/loadavg), compiler/make/qemu processes: $n"
}

cond="QEMU TCG-emulated guest (scripts/vm/run.sh, q35, ${VM_SMP} vCPU, ${VM_MEM}), arbel-stub device (command trace $trace)"
{
	echo "== host"
	echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "nproc: $(nproc)"
	echo "cpu:   $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//')"
	echo "host kernel: $(uname -r)"
	echo "module: build/module/arbel.ko ($(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?'))"
	echo "before: $(busy)"
	echo "== guest"
} | tee "$OUT/bench.txt"

set +e
GUEST_BIN=$BIN VM_OUT=$OUT LOAD=1 VM_SMP=$VM_SMP VM_MEM=$VM_MEM \
	CMD="reg_bench -t $SECS -c '$cond'" \
	scripts/vm/run.sh | tee -a "$OUT/bench.txt"
rc=${PIPESTATUS[0]}
set -e

echo "after:  $(busy)" | tee -a "$OUT/bench.txt"
echo "vm exit status: $rc" | tee -a "$OUT/bench.txt"
exit "$rc"
