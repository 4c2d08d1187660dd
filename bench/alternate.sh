#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# arbel, ib_mthca and rdma_rxe in one VM boot, taking turns: load one,
# run cmp_bench rows (-s SIZE_KIB, 4 KiB pages), unload it, load the
# next, and so on, ALT_ROUNDS times.  bench/run.sh boots a VM per driver; this shows what
# is left of a difference when both drivers meet the same guest, and how
# much the same driver's cost moves from one turn to the next (the guest's
# memory ages: see Documentation/benchmarks.rst, "Guest instructions").
#
#   bench/alternate.sh                      4 KiB, 1 MiB, 16 MiB; 2 rounds
#   ALT_SIZES="4 64" ALT_ROUNDS=3 bench/alternate.sh
#   ALT_ORDER="arbel mthca" bench/alternate.sh   arbel first, no rxe
#
# Environment: ALT_SIZES (KiB, default "4 1024 16384"), ALT_ROUNDS
# (default 2), ALT_ORDER (default "mthca arbel rxe"), ALT_ARGS (cmp_bench's
# -t/-r, default "-t 0.3 -r 3"), BENCH_CLOCK (bench/guest-bin.sh, default
# icount).  Prints one line per turn and size: driver, round, size, the
# microseconds per cycle of each repeat, and per cycle the firmware
# commands and the stub's register accesses, DMA and interrupts
# (cmp_bench's counters).  Output: build/alternate/.

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=$REPO/build/alternate
BIN=$OUT/guest-bin
sizes=${ALT_SIZES:-4 1024 16384}
rounds=${ALT_ROUNDS:-2}
order=${ALT_ORDER:-mthca arbel rxe}
args=${ALT_ARGS:--t 0.3 -r 3}
export VM_MEM=${VM_MEM:-3G} VM_SMP=1 TIMEOUT=${TIMEOUT:-2400}
export VM_PROVIDERS="mthca rxe"
export VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-trace -arbel_*"
# rxe on a dummy netdev, as in bench/run.sh (crc32_generic: its ICRC)
export VM_MODULES="rdma_rxe dummy crc32_generic" VM_EXTRA_BINS=ip

# shellcheck source=bench/guest-bin.sh
. bench/guest-bin.sh
bench_clock
mkdir -p "$OUT"
bench_guest_bin "$BIN"
[ -n "$mthca" ] || { echo "alternate: no ib_mthca.ko for $ARBEL_KABI" >&2; exit 1; }

# shellcheck disable=SC2016 # expanded in the guest
cmd='modprobe ib_uverbs
for r in $(seq '"$rounds"'); do
	for d in '"$order"'; do
		case $d in
		mthca) insmod /opt/arbel/bin/ib_mthca.ko; m=ib_mthca;;
		arbel) insmod /opt/arbel/arbel.ko; m=arbel;;
		rxe)
			modprobe crc32_generic
			modprobe rdma_rxe
			ip link add alt0 type dummy
			ip link set alt0 up
			rdma link add rxe0 type rxe netdev alt0
			m=rdma_rxe;;
		*) echo "ALT-ERROR unknown driver $d"; exit 2;;
		esac
		sleep 2
		dev=$(ls /sys/class/infiniband | head -n 1)
		for s in '"$sizes"'; do
			row=$(/opt/arbel/bin/cmp_bench '"$args"' -s "$s" -d "$dev" |
				grep "\"kind\": \"row\"")
			echo "ALT $d round $r size_kib $s $row"
		done
		if [ "$d" = rxe ]; then
			rdma link delete rxe0
			ip link del alt0
		fi
		rmmod "$m"
		sleep 1
	done
done'
echo "alternate: $order, $rounds rounds, sizes $sizes KiB; clock: $clock_desc" >&2
GUEST_BIN=$BIN VM_OUT=$OUT/vm LOAD=0 CMD="$cmd" \
	scripts/vm/run.sh >"$OUT/out.txt" 2>"$OUT/err.txt" || {
	echo "alternate: the VM failed; see $OUT/err.txt and $OUT/vm/console.log" >&2
	exit 1
}
# per turn: the microseconds of each repeat, and what a cycle cost the
# stub (commands, register accesses, DMA, interrupts)
python3 -c '
import json, sys
sys.path.insert(0, "bench")
from traffic import STUB_WORK
for line in sys.stdin:
    head, _, row = line.partition("BENCH ")
    r = json.loads(row) if row else {}
    costs = " ".join(f"{k} {r[k]:g}" for k in STUB_WORK if k in r)
    print(head + "us " + json.dumps(r.get("us", r.get("skipped"))) +
          (" per cycle: " + costs if costs else ""))
' < <(grep "^ALT" "$OUT/out.txt")
