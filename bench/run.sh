#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory registration side by side: one VM boot per driver, the same QEMU
# with arbel-stub, the same guest kernel and image, bench/cmp_bench in
# each, then bench/compare.py's tables with ratios.  See
# Documentation/benchmarks.rst.
#
#   bench/run.sh                          the full run
#   BENCH_QUICK=1 bench/run.sh            short: -t 0.2 -r 3, up to 16 MiB,
#                                         up to 10^3 live regions
#   BENCH_DRIVERS="arbel rxe" bench/run.sh  a subset
#
# Drivers: arbel (MTT entries by CPU stores, the default), arbel-wmtt
# (debugfs arbel/<bdf>/write_mtt set: WRITE_MTT commands), mthca
# (Debian's own ib_mthca.ko, unmodified, on the stub), rxe (rdma_rxe on
# a dummy netdev; the stub is present but unused).
#
# Environment: BENCH_CLOCK (icount, the default: time counts guest
# instructions; wall: host time -- bench/guest-bin.sh), BENCH_SECONDS (-t,
# default 0.5), BENCH_REPEATS (-r, default 5), BENCH_MAX_MIB (-m, default
# 1024), BENCH_MAX_LIVE (-L, default 100000), VM_MEM (default 3G), VM_SMP
# (default 1), TIMEOUT per VM (default 1800).  Output: build/bench/
# (NAME.txt: each VM's output; results.json: every raw number and the
# conditions; table.txt: what is printed).

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=$REPO/build/bench
BIN=$OUT/guest-bin
DRIVERS=${BENCH_DRIVERS:-arbel arbel-wmtt mthca rxe}
if [ "${BENCH_QUICK:-0}" = 1 ]; then
	args="-t ${BENCH_SECONDS:-0.2} -r ${BENCH_REPEATS:-3} -m ${BENCH_MAX_MIB:-16} -L ${BENCH_MAX_LIVE:-1000}"
else
	args="-t ${BENCH_SECONDS:-0.5} -r ${BENCH_REPEATS:-5} -m ${BENCH_MAX_MIB:-1024} -L ${BENCH_MAX_LIVE:-100000}"
fi
export VM_MEM=${VM_MEM:-3G} VM_SMP=${VM_SMP:-1} TIMEOUT=${TIMEOUT:-1800}
# one image for every driver: rxe's module and provider are in all of them
# (rxe computes its ICRC with the crypto API's "crc32", which it loads
# on demand: without crc32_generic in the image, adding the link fails
# with ENOENT)
export VM_MODULES="rdma_rxe dummy crc32_generic" VM_PROVIDERS="mthca rxe" VM_EXTRA_BINS=ip
# no per-command trace file: its I/O would be inside the timed loops
# (scripts/vm/run.sh enables -trace 'arbel_*'; a later pattern wins)
export VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-trace -arbel_*"

# shellcheck source=bench/guest-bin.sh
. bench/guest-bin.sh
bench_clock
mkdir -p "$OUT"
bench_guest_bin "$BIN"

busy() {
	local n
	# shellcheck disable=SC2009  # pgrep refuses a pattern over 15 chars
	n=$(ps -e -o comm= | grep -cxE 'cc1|cc1plus|ld|make|qemu-system-x86|ninja' || true)
	echo "loadavg $(cut -d' ' -f1-3 /proc/loadavg), compiler/make/qemu processes: $n"
}

# CPU time the host took from this machine (steal, /proc/stat), in ticks,
# and all ticks: a shared host's noise, as a share of the run
cpu_ticks() {
	awk '/^cpu /{t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t}' /proc/stat
}
read -r steal0 total0 < <(cpu_ticks)

{
	echo "== conditions"
	echo "date:  $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host:  nproc $(nproc), $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//'), kernel $(uname -r), $(free -g | awk '/^Mem:/ {print $2}') GiB"
	echo "guest: Debian $ARBEL_KABI under QEMU TCG (scripts/vm/run.sh, q35), $VM_SMP vCPU, $VM_MEM; arbel-stub, command trace off"
	echo "clock: $clock_desc"
	echo "arbel: $(git describe --always --dirty 2>/dev/null || echo '?'); cmp_bench $args"
	echo "before: $(busy)"
} >"$OUT/conditions.txt"

bench="/opt/arbel/bin/cmp_bench $args"
runs=()
for d in $DRIVERS; do
	load=0 margs='' cmd=''
	case $d in
	arbel)
		load=1 cmd="$bench -d arbel0";;
	arbel-wmtt)
		# MTT entries through WRITE_MTT: the device's debugfs knob
		load=1 cmd="for f in /sys/kernel/debug/arbel/*/write_mtt; do echo 1 >\$f; done; $bench -d arbel0";;
	mthca)
		if [ -z "$mthca" ]; then
			echo "BENCH-NA no ib_mthca.ko for $ARBEL_KABI in $ARBEL_CACHE/vm/kernel" >"$OUT/$d.txt"
			runs+=("$d=$OUT/$d.txt")
			continue
		fi
		cmd="modprobe ib_uverbs; insmod /opt/arbel/bin/ib_mthca.ko || echo 'BENCH-NA insmod ib_mthca.ko failed'; sleep 2
dev=\$(ls /sys/class/infiniband 2>/dev/null | head -n 1)
if [ -n \"\$dev\" ]; then $bench -d \$dev || echo \"BENCH-NA cmp_bench on \$dev exited \$?\"
else echo \"BENCH-NA ib_mthca registered no device on the stub: \$(dmesg | grep -i 'mthca.*abort' | head -n 1 | sed 's/^\[[^]]*\] //')\"; dmesg | grep -i mthca | tail -n 5; fi";;
	rxe)
		cmd="modprobe ib_uverbs; modprobe crc32_generic; modprobe rdma_rxe && ip link add bench0 type dummy && ip link set bench0 up && rdma link add rxe0 type rxe netdev bench0 && $bench -d rxe0 || echo \"BENCH-NA rxe setup or cmp_bench failed: \$?\"";;
	*)
		echo "bench/run.sh: unknown driver $d" >&2
		exit 2;;
	esac
	echo "bench: $d ..." >&2
	set +e
	GUEST_BIN=$BIN VM_OUT=$OUT/vm-$d LOAD=$load MODULE_ARGS=$margs \
		CMD="$cmd" scripts/vm/run.sh >"$OUT/$d.txt" 2>"$OUT/$d.err"
	rc=$?
	set -e
	echo "# vm exit status $rc" >>"$OUT/$d.txt"
	runs+=("$d=$OUT/$d.txt")
done
read -r steal1 total1 < <(cpu_ticks)
{
	echo "after: $(busy)"
	echo "steal: $(( (steal1 - steal0) * 100 / (total1 - total0 + 1) ))% of the host CPU time during the run went to other guests (/proc/stat)"
} >>"$OUT/conditions.txt"

python3 bench/compare.py --out "$OUT/results.json" \
	--conditions "$OUT/conditions.txt" "${runs[@]}" | tee "$OUT/table.txt"
