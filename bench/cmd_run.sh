#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Command benchmark: firmware command latency and commands per second in
# event mode and in polling mode (polling=1), with 1, 2 and 4 processes
# registering and deregistering 4 KiB (bench/cmd_bench.c), in one VM boot.
# See Documentation/benchmarks.rst, "Firmware commands: events vs polling".
#
#   bench/cmd_run.sh
#   BENCH_SECONDS=5 bench/cmd_run.sh    # seconds per row (default 5)
#
# The stub's trace events are off (-trace -arbel_*).  VM_SMP (default 1),
# VM_MEM and the other variables of scripts/vm/run.sh pass through.  Output:
# build/vm-cmd-bench/ (bench.txt).

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"

BIN=$REPO/build/cmd-bench-bin
OUT=$REPO/build/vm-cmd-bench
SECS=${BENCH_SECONDS:-5}
export TIMEOUT=${TIMEOUT:-600}
VM_SMP=${VM_SMP:-1}
VM_MEM=${VM_MEM:-1G}
export VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-trace -arbel_*"

[ -f build/module/arbel.ko ] || scripts/build-module.sh --test >&2
mkdir -p "$BIN" "$OUT"
gcc -O2 -Wall -Wextra -Werror -o "$BIN/cmd_bench" bench/cmd_bench.c -libverbs

rows=""
for mode in event polling; do
	param=
	[ $mode = event ] || param=polling=1
	rows+="rmmod arbel; insmod /opt/arbel/arbel.ko $param; sleep 2; "
	for p in 1 2 4; do
		rows+="cmd_bench -p $p -t $SECS; "
	done
done
{
	echo "== host: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), nproc $(nproc), $(grep -m1 '^model name' /proc/cpuinfo | sed 's/.*: //')"
	echo "module: $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?')"
	echo "guest: QEMU TCG, q35, $VM_SMP vCPU, $VM_MEM, arbel-stub (trace off), 4 KiB reg+dereg loops of $SECS s"
} | tee "$OUT/bench.txt"
set +e
GUEST_BIN=$BIN VM_OUT=$OUT LOAD=1 VM_SMP=$VM_SMP VM_MEM=$VM_MEM \
	CMD="$rows" scripts/vm/run.sh | tee -a "$OUT/bench.txt"
rc=${PIPESTATUS[0]}
echo "vm exit status: $rc" | tee -a "$OUT/bench.txt"
exit "$rc"
