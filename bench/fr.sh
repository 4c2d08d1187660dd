#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fast-registration cycles (issue 29): arbel against rdma_rxe in one VM
# boot, taking turns.  bench/fr_bench.c, a kernel module built here
# against the VM kernel's headers, is loaded with dev=arbel0, then with
# dev=rxe0 (rxe on a dummy netdev), FR_ROUNDS times; each load runs
# FR_CYCLES cycles -- ib_map_mr_sg() of FR_PAGES pages, REG_MR and
# LOCAL_INV posted together, the LOCAL_INV's completion polled -- after
# 100 to warm up, and prints one line.  Prints one line per turn (ns a
# cycle, cycles a second) and the ratio arbel / rxe of the best turns.
#
#   bench/fr.sh
#   FR_ROUNDS=3 FR_PAGES=64 BENCH_CLOCK=wall bench/fr.sh
#
# Environment: FR_ROUNDS (default 2), FR_CYCLES (default 2000), FR_PAGES
# (default 16), BENCH_CLOCK (bench/guest-bin.sh: icount, the default, or
# wall).  Output: build/fr-bench/.

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=$REPO/build/fr-bench
BIN=$OUT/guest-bin
rounds=${FR_ROUNDS:-2}
cycles=${FR_CYCLES:-2000}
pages=${FR_PAGES:-16}
export VM_MEM=${VM_MEM:-1G} VM_SMP=1 TIMEOUT=${TIMEOUT:-1200}
# rxe on a dummy netdev, as in bench/run.sh (crc32_generic: its ICRC)
export VM_MODULES="rdma_rxe dummy crc32_generic" VM_EXTRA_BINS=ip

# shellcheck source=bench/guest-bin.sh
. bench/guest-bin.sh
bench_clock
[ -f build/module/arbel.ko ] || scripts/build-module.sh --test >&2
rm -rf "$BIN" "$OUT/mod"
mkdir -p "$BIN" "$OUT/mod"
cp bench/fr_bench.c "$OUT/mod/"
echo 'obj-m += fr_bench.o' >"$OUT/mod/Kbuild"
make -s -C "$ARBEL_KDIR" M="$OUT/mod" modules >&2
cp "$OUT/mod/fr_bench.ko" "$BIN/"

# shellcheck disable=SC2016 # expanded in the guest
cmd='modprobe ib_uverbs
insmod /opt/arbel/arbel.ko
modprobe crc32_generic
modprobe rdma_rxe
ip link add fr0 type dummy
ip link set fr0 up
rdma link add rxe0 type rxe netdev fr0
sleep 2
for r in $(seq '"$rounds"'); do
	for d in arbel0 rxe0; do
		insmod /opt/arbel/bin/fr_bench.ko dev=$d cycles='"$cycles"' pages='"$pages"' 2>/dev/null || true
		echo "FR $d round $r: $(dmesg | grep "fr_bench: $d:" | tail -n 1 | sed "s/.*fr_bench: //")"
	done
done'
echo "fr: arbel0 and rxe0 in turn, $rounds rounds of $cycles cycles of $pages pages; clock: $clock_desc" >&2
GUEST_BIN=$BIN VM_OUT=$OUT/vm LOAD=0 CMD="$cmd" \
	scripts/vm/run.sh >"$OUT/out.txt" 2>"$OUT/err.txt" || {
	echo "fr: the VM failed; see $OUT/err.txt and $OUT/vm/console.log" >&2
	exit 1
}
grep '^FR' "$OUT/out.txt"
# the best turn of each, and their ratio
grep '^FR' "$OUT/out.txt" | awk '
	{ for (i = 1; i <= NF; i++) if ($(i + 1) == "ns" && $(i + 2) == "a") {
		  d = $2; v = $i + 0
		  if (!(d in best) || v < best[d]) best[d] = v } }
	END {
		if (!("arbel0" in best) || !("rxe0" in best)) {
			print "fr: a device gave no figure"; exit 1 }
		printf "fr: best ns a cycle: arbel0 %d, rxe0 %d; arbel0 / rxe0 = %.2f\n",
		       best["arbel0"], best["rxe0"], best["arbel0"] / best["rxe0"] }'
