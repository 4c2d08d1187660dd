#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Traffic side by side: perftest's bandwidth and latency on the emulated
# HCA (arbel-stub, through Debian's unmodified ib_mthca, server on port 1,
# client on port 2) and on rdma_rxe (one rxe device on a dummy netdev,
# loopback), in ONE VM boot, taking turns (every test and size on one then
# the other, the order flipped each round), then bench/traffic.py's table
# of ratios stub/rxe.  A benchmark: it prints figures and judges nothing.
# See Documentation/benchmarks.rst, "Traffic: the stub beside rdma_rxe".
#
#   bench/traffic.sh
#   TRAFFIC_ROUNDS=5 TRAFFIC_SIZES="64 4096" bench/traffic.sh
#
# Environment:
#   TRAFFIC_ROUNDS     rounds (default 3)
#   TRAFFIC_TESTS      perftest programs (default "ib_write_bw ib_read_bw
#                      ib_send_bw ib_write_lat ib_send_lat reg_mr"); reg_mr
#                      is the registration row: bench/cmp_bench -s of
#                      each size (ibv_reg_mr + ibv_dereg_mr of one buffer,
#                      a warm-up cycle, TRAFFIC_REG_ARGS, default "-t 1
#                      -r 3": the best of its repeats is the round's
#                      figure; sizes of 1 KiB and more), with the stub's
#                      work per cycle
#   TRAFFIC_SIZES      message sizes in bytes (default "64 4096 65536")
#   TRAFFIC_BW_ITERS   -n of the bandwidth tests: a number, or SIZE:N items
#                      (a size not listed: 1000); default "64:20000
#                      4096:5000 65536:1000", about a second of rxe's each
#   TRAFFIC_LAT_ITERS  -n of the latency tests (default 500)
#   TRAFFIC_DEVICES    "mthca rxe" (the default: the order of odd rounds),
#                      or one alone (to profile it); "arbel mthca": our
#                      driver (MODULE, default build/module/arbel.ko) on a
#                      second stub beside ib_mthca on the first, each
#                      port 1 -> port 2, swapping stubs every round (the
#                      slot changes the figures), the table's ratio
#                      arbel/mthca
#   TRAFFIC_PIN=1      server on the guest's CPU 0, client on CPU 1
#   TRAFFIC_TRACE=1    keep the stub's trace events on, as scripts/vm/run.sh
#                      has them (off by default: a log line per doorbell,
#                      WQE and CQE would be inside the measured loops)
#   TRAFFIC_OUT        the output directory (default build/traffic)
#   VM_SMP (default 2), VM_MEM (default 1G), TIMEOUT (the VM's, default
#   600 s), QEMU (skips scripts/build-qemu.sh)
# The guest's clock is the host's (no icount): the stub's work is host
# time spent in QEMU, rxe's is guest instructions, and only the wall clock
# sees both.  Output in TRAFFIC_OUT: out.txt (the VM's output),
# conditions.txt, results.json (every raw figure), table.txt (what is
# printed).

set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
cd "$REPO"
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=${TRAFFIC_OUT:-$REPO/build/traffic}
BIN=$OUT/guest-bin
rounds=${TRAFFIC_ROUNDS:-3}
tests=${TRAFFIC_TESTS:-ib_write_bw ib_read_bw ib_send_bw ib_write_lat ib_send_lat reg_mr}
sizes=${TRAFFIC_SIZES:-64 4096 65536}
bw_iters=${TRAFFIC_BW_ITERS:-64:20000 4096:5000 65536:1000}
lat_iters=${TRAFFIC_LAT_ITERS:-500}
devices=${TRAFFIC_DEVICES:-mthca rxe}
export VM_SMP=${VM_SMP:-2} VM_MEM=${VM_MEM:-1G} TIMEOUT=${TIMEOUT:-600}
export VM_MODULES="rdma_rxe dummy crc32_generic" VM_PROVIDERS="mthca rxe" \
	VM_EXTRA_BINS=ip
# two ports (port n has LID n), GUIDs as the mthca stages give them
export STUB="node-guid=0x0002c903000b2c00,port-guid=0x0002c903000b2c01,ports=2"
if [ "${TRAFFIC_TRACE:-0}" != 1 ]; then
	# scripts/vm/run.sh enables -trace 'arbel_*'; a later pattern wins
	VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-trace -arbel_*"
	export VM_QEMU_ARGS
fi
# ib_mthca only: arbel.ko is not loaded
[ -f "${MODULE:-}" ] || unset MODULE

if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh)
fi
export QEMU
mkdir -p "$OUT"
rm -rf "$BIN"
mkdir -p "$BIN"
ko=$(tests/mthca/find-ko.sh) || {
	# the VM kernel cache is filled by prepare.sh
	scripts/vm/prepare.sh >/dev/null
	ko=$(tests/mthca/find-ko.sh)
} || { echo "traffic: no ib_mthca.ko for $ARBEL_KABI" >&2; exit 1; }
cp "$ko" bench/traffic_guest.sh "$BIN/"
# the stubs' counters per pair (tests/vm/stubctl.c)
make -s -C tests/vm O="$BIN" "$BIN/stubctl"
case " $tests " in
*" reg_mr "*)
	# the registration rows: cmp_bench -s (stock libibverbs)
	scripts/setup.sh verbs >&2
	make -s -C bench O="$BIN" "$BIN/cmp_bench"
	;;
esac
pair=mthca,rxe
case " $devices " in
*" arbel "*)
	cp "${MODULE:-$REPO/build/module/arbel.ko}" "$BIN/arbel.ko"
	pair=arbel,mthca
	VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-device arbel-stub,node-guid=0x0002c903000b2d00,port-guid=0x0002c903000b2d01"
	export VM_QEMU_ARGS
	;;
esac

cpu_ticks() {
	awk '/^cpu /{t = 0; for (i = 2; i <= NF; i++) t += $i; print $9, t}' /proc/stat
}
busy() {
	local n
	# shellcheck disable=SC2009  # pgrep refuses a pattern over 15 chars
	n=$(ps -e -o comm= | grep -cxE 'cc1|cc1plus|ld|make|qemu-system-x86|ninja' || true)
	echo "loadavg $(cut -d' ' -f1-3 /proc/loadavg), compiler/make/qemu processes: $n"
}
read -r steal0 total0 < <(cpu_ticks)
{
	echo "date:   $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "host:   nproc $(nproc), $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^model name[[:space:]]*:[[:space:]]*//'), kernel $(uname -r)"
	echo "qemu:   $("$QEMU" --version | head -n 1) + arbel-stub, TCG (no KVM), q35, $VM_SMP vCPU, $VM_MEM; stub trace events $([ "${TRAFFIC_TRACE:-0}" = 1 ] && echo on || echo off)"
	case " $devices " in
	*" arbel "*) echo "guest:  Debian $ARBEL_KABI; perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null); arbel.ko on one arbel-stub, Debian's ib_mthca on another, each port 1 -> port 2, the two swapping stubs every round" ;;
	*) echo "guest:  Debian $ARBEL_KABI; perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null); ib_mthca (Debian's) on arbel-stub ports=2, port 1 -> port 2; rdma_rxe on a dummy netdev, loopback" ;;
	esac
	echo "clock:  wall (the guest's clock is the host's)"
	echo "runs:   $rounds rounds ($devices, the order flipped each round), tests: $tests; sizes: $sizes B; -n $bw_iters (bw), -n $lat_iters (lat); -F --use_old_post_send; $([ "${TRAFFIC_PIN:-0}" = 1 ] && echo 'server pinned to CPU 0, client to CPU 1' || echo 'not pinned')"
	echo "arbel:  $(git describe --always --dirty 2>/dev/null || echo '?')"
	echo "before: $(busy)"
} >"$OUT/conditions.txt"

echo "traffic: $rounds rounds of $tests at $sizes B, one VM ($VM_SMP vCPU, TCG) ..." >&2
t0=$EPOCHSECONDS
set +e
GUEST_BIN=$BIN VM_OUT=$OUT/vm LOAD=0 \
	CMD="REG_ARGS='${TRAFFIC_REG_ARGS:--t 1 -r 3}' bash /opt/arbel/bin/traffic_guest.sh $rounds '$tests' '$sizes' '$bw_iters' $lat_iters '$devices' ${TRAFFIC_PIN:-0}" \
	scripts/vm/run.sh >"$OUT/out.txt" 2>"$OUT/err.txt"
rc=$?
set -e
t1=$EPOCHSECONDS
read -r steal1 total1 < <(cpu_ticks)
{
	echo "after:  $(busy)"
	echo "steal:  $(( (steal1 - steal0) * 100 / (total1 - total0 + 1) ))% of the host's CPU time went to other guests (/proc/stat)"
	echo "time:   $((t1 - t0)) s for the VM (boot included); $(grep -o 'vm [0-9.]* s: boot [0-9.]* s' "$OUT/err.txt" | tail -n 1)"
} >>"$OUT/conditions.txt"
if [ "$rc" != 0 ]; then
	echo "traffic: the VM exited $rc; see $OUT/err.txt, $OUT/out.txt and $OUT/vm/console.log" >&2
fi
python3 bench/traffic.py --pair "$pair" --conditions "$OUT/conditions.txt" \
	--json "$OUT/results.json" "$OUT/out.txt" | tee "$OUT/table.txt"
