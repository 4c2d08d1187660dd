#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest side of bench/traffic.sh (run as the VM's CMD, from
# /opt/arbel/bin): perftest between two processes on the emulated HCA
# through Debian's ib_mthca (server on port 1, client on port 2) and on
# rdma_rxe (one rxe device on a dummy netdev, loopback), the two taking
# turns: every test and size runs on one then on the other, and the order
# flips each round.
#
#   traffic_guest.sh ROUNDS "TESTS" "SIZES" BW_ITERS LAT_ITERS [DEVICES [PIN]]
#
# BW_ITERS: -n of the bandwidth tests, one number, or SIZE:N items (a size
# not listed: 1000); LAT_ITERS: -n of the latency tests.
# DEVICES: "mthca rxe" (the default, the order of odd rounds), or one of
# them alone (to profile one side); "arbel mthca": arbel.ko on one stub
# beside ib_mthca on another (driver_override picks which binds which),
# each server on port 1 and client on port 2; before every round but the
# first the two drivers swap stubs (unbound, driver_override swapped,
# probed again), so that each runs half the rounds on each PCI slot: the
# slot changes the figures (Documentation/benchmarks.rst).  Each pair's
# line names the slot its device was on.
# PIN: 1 runs the server on CPU 0 and the client on CPU 1 (busybox taskset).
# A test "reg_mr" is not perftest's: cmp_bench -s SIZE_KIB $REG_ARGS on
# the device, its "BENCH {json}" row as the client output.
#
# Prints, per pair, a "TRAFFIC {json}" line naming the device, test, size,
# round and turn, the exit statuses and seconds, the guest's interrupts
# and context switches meanwhile (/proc/stat, setup included) and what
# the device's stub counted meanwhile (stubctl: WQEs, receives, TPT
# cache hits and misses, register accesses, DMA, interrupts), then the
# client's output between "TRAFFIC-OUT-BEGIN" and "TRAFFIC-OUT-END"
# (parsed on the host by bench/traffic.py).  "TRAFFIC-NA reason" when a
# device did not come up.

set -u
REG_ARGS=${REG_ARGS:--t 1 -r 3}
rounds=$1 tests=$2 sizes=$3 bw_iters=$4 lat_iters=$5 devices=${6:-mthca rxe}
pin=${7:-0}
BIN=/opt/arbel/bin
PAIR_TIMEOUT=${PAIR_TIMEOUT:-60}
port=18600

# stubs: the sysfs directories of the arbel-stubs (15b3:6282), in slot order
stubs() {
	local d
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x15b3:0x6282 ] && echo "$d"
	done
}

modprobe ib_uverbs
case " $devices " in
*" arbel "*)
	# two stubs: the first for ib_mthca, the second for arbel
	n=0
	for d in $(stubs); do
		n=$((n + 1))
		case $n in
		1) echo ib_mthca >"$d/driver_override" ;;
		2) echo arbel >"$d/driver_override" ;;
		esac
	done
	insmod "$BIN/arbel.ko" || echo "TRAFFIC-NA arbel insmod arbel.ko failed"
	;;
esac
# Debian's ib_mthca on the stub (blacklisted at boot: insmod it as the
# mthca stages do)
insmod "$BIN/ib_mthca.ko" || echo "TRAFFIC-NA mthca insmod ib_mthca.ko failed"
# rdma_rxe on a dummy netdev; its ICRC needs crc32_generic
modprobe crc32_generic
modprobe rdma_rxe
ip link add trf0 type dummy
ip addr add 10.77.0.1/24 dev trf0
ip link set trf0 up
rdma link add rxe0 type rxe netdev trf0 || echo "TRAFFIC-NA rxe rdma link add failed"

# active DEV N: wait (up to 10 s) until DEV has N ports ACTIVE (the stub's
# SM gives port n LID n; rxe is up with its netdev)
active() {
	local a
	for _ in $(seq 100); do
		a=$(cat "/sys/class/infiniband/$1/ports/"*/state 2>/dev/null | grep -c ACTIVE)
		[ "${a:-0}" = "$2" ] && return 0
		sleep 0.1
	done
	echo "# $1: ${a:-0} of $2 ports ACTIVE after 10 s"
}
active mthca0 2
active rxe0 1
case " $devices " in *" arbel "*) active arbel0 2 ;; esac

# swap_slots: the arbel mode's two stubs unbound, their drivers swapped
# (driver_override), probed again in slot order, both ports ACTIVE again
swap_slots() {
	local d was
	for d in $(stubs); do
		[ -e "$d/driver" ] && echo "${d##*/}" >"$d/driver/unbind"
		was=$(cat "$d/driver_override")
		if [ "$was" = arbel ]; then
			echo ib_mthca >"$d/driver_override"
		else
			echo arbel >"$d/driver_override"
		fi
	done
	for d in $(stubs); do
		echo "${d##*/}" >/sys/bus/pci/drivers_probe
	done
	active mthca0 2
	active arbel0 2
}

# slot IBDEV: the PCI address of IBDEV's device ("" for rxe)
slot() {
	local bdf
	bdf=$(readlink "/sys/class/infiniband/$1/device" 2>/dev/null) || return 0
	case $bdf in */0000:*) echo "${bdf##*/}" ;; esac
}
for d in mthca0 rxe0 arbel0; do
	[ -d "/sys/class/infiniband/$d" ] || continue
	for p in "/sys/class/infiniband/$d/ports/"*; do
		echo "# $d port ${p##*/}: $(cat "$p/state" 2>/dev/null) lid $(cat "$p/lid" 2>/dev/null) rate $(cat "$p/rate" 2>/dev/null)"
	done
done
# rxe's GID: the IPv4 one (RoCE v2), the index perftest is given
rxe_gid=
for g in /sys/class/infiniband/rxe0/ports/1/gids/*; do
	case $(cat "$g" 2>/dev/null) in
	0000:0000:0000:0000:0000:ffff:0a4d:0001) rxe_gid=${g##*/}; break ;;
	esac
done
echo "# rxe0 GID index ${rxe_gid:-none} (::ffff:10.77.0.1)"
[ -n "$rxe_gid" ] || echo "TRAFFIC-NA rxe no IPv4 GID on rxe0"

# bw_n SIZE: the bandwidth tests' -n at SIZE bytes
bw_n() {
	local item
	for item in $bw_iters; do
		case $item in
		"$1":*) echo "${item#*:}"; return ;;
		*:*) ;;
		*) echo "$item"; return ;;
		esac
	done
	echo 1000
}

listening() {
	# /proc/net/tcp: local address 0100007F:PORT or 00000000:PORT, state 0A
	awk -v p=":$(printf %04X "$1")" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# reg DEV SIZE ROUND TURN: the registration row, cmp_bench -s (KiB: a
# size under 1 KiB has no row); its BENCH line is the "client output"
reg() {
	local dev=$1 size=$2 round=$3 turn=$4 kib rc t0 t1
	[ "$size" -ge 1024 ] || return 0
	kib=$((size / 1024))
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086 # word splitting wanted
	"$BIN/cmp_bench" $REG_ARGS -s "$kib" -d "${dev}0" >/tmp/reg.out 2>&1
	rc=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	echo "TRAFFIC {\"dev\": \"$dev\", \"slot\": \"$(slot "${dev}0")\", \"test\": \"reg_mr\", \"size\": $((kib * 1024)), \"iters\": 0, \"round\": $round, \"turn\": $turn, \"server_rc\": 0, \"client_rc\": $rc, \"secs\": $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')}"
	echo TRAFFIC-OUT-BEGIN
	cat /tmp/reg.out
	echo TRAFFIC-OUT-END
}

# stub_counts IBDEV: the STUB_KEYS counters of the stub under RDMA device
# IBDEV (mthca0, arbel0) as "k=v" lines, if stubctl is here (none for rxe)
STUB_KEYS="dp_wqes dp_recvs tpt_hits tpt_misses lc_accesses lc_dmas lc_irqs"
stub_counts() {
	local bdf
	[ -x "$BIN/stubctl" ] || return 0
	bdf=$(readlink "/sys/class/infiniband/$1/device" 2>/dev/null) || return 0
	"$BIN/stubctl" -d "${bdf##*/}" show 2>/dev/null |
		grep -E "^($(echo "$STUB_KEYS" | tr ' ' '|'))="
}

# "k": after - before of two stub_counts outputs, as JSON members
stub_delta() {
	awk -F= 'NR == FNR { b[$1] = $2; next }
		{ printf "%s\"%s\": %d", n++ ? ", " : "", $1, $2 - b[$1] }' "$1" "$2"
}

# the guest's interrupts and context switches so far (/proc/stat)
intr_ctxt() {
	awk '$1 == "intr" { i = $2 } $1 == "ctxt" { c = $2 } END { print i, c }' /proc/stat
}

# pair DEV TEST SIZE ROUND TURN
pair() {
	local dev=$1 test=$2 size=$3 round=$4 turn=$5
	local common srv cli iters sout cout spid cpid src crc t0 t1 i0 i1 x0 x1
	local ibdev
	case $test in
	*_lat) iters=$lat_iters ;;
	*) iters=$(bw_n "$size") ;;
	esac
	port=$((port + 1))
	common="-n $iters -s $size -p $port -F --use_old_post_send"
	case $dev in
	mthca) srv="-d mthca0 -i 1" cli="-d mthca0 -i 2" ;;
	arbel) srv="-d arbel0 -i 1" cli="-d arbel0 -i 2" ;;
	rxe) srv="-d rxe0 -i 1 -x $rxe_gid" cli=$srv ;;
	esac
	ibdev=${srv#-d } ibdev=${ibdev%% *}
	sout=/tmp/srv.$port cout=/tmp/cli.$port
	spin='' cpin=''
	if [ "$pin" = 1 ]; then
		spin="busybox taskset -c 0" cpin="busybox taskset -c 1"
	fi
	stub_counts "$ibdev" >/tmp/stub0 2>/dev/null
	read -r i0 x0 < <(intr_ctxt)
	t0=$(cut -d' ' -f1 /proc/uptime)
	# shellcheck disable=SC2086 # word splitting wanted
	timeout "$PAIR_TIMEOUT" $spin "$test" $srv $common >"$sout" 2>&1 &
	spid=$!
	for _ in $(seq 200); do
		listening $port && break
		kill -0 $spid 2>/dev/null || break
		sleep 0.02
	done
	# shellcheck disable=SC2086
	timeout "$PAIR_TIMEOUT" $cpin "$test" $cli $common 127.0.0.1 >"$cout" 2>&1 &
	cpid=$!
	wait $cpid
	crc=$?
	wait $spid
	src=$?
	t1=$(cut -d' ' -f1 /proc/uptime)
	read -r i1 x1 < <(intr_ctxt)
	stub_counts "$ibdev" >/tmp/stub1 2>/dev/null
	echo "TRAFFIC {\"dev\": \"$dev\", \"slot\": \"$(slot "$ibdev")\", \"test\": \"$test\", \"size\": $size, \"iters\": $iters, \"round\": $round, \"turn\": $turn, \"server_rc\": $src, \"client_rc\": $crc, \"secs\": $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'), \"guest_intr\": $((i1 - i0)), \"guest_ctxt\": $((x1 - x0)), \"stub\": {$(stub_delta /tmp/stub0 /tmp/stub1)}}"
	echo TRAFFIC-OUT-BEGIN
	cat "$cout"
	echo TRAFFIC-OUT-END
	if [ "$crc" != 0 ] || [ "$src" != 0 ]; then
		echo "# server output:"
		sed 's/^/#   /' "$sout"
	fi
	rm -f "$sout" "$cout"
}

for r in $(seq "$rounds"); do
	case " $devices " in
	*" arbel "*) [ "$r" = 1 ] || swap_slots ;;
	esac
	order=$devices
	if [ $((r % 2)) = 0 ]; then
		order=$(echo "$devices" | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "") }')
	fi
	for t in $tests; do
		for s in $sizes; do
			turn=0
			for d in $order; do
				turn=$((turn + 1))
				if [ "$t" = reg_mr ]; then
					reg "$d" "$s" "$r" "$turn"
				else
					pair "$d" "$t" "$s" "$r" "$turn"
				fi
			done
		done
	done
done
echo "TRAFFIC-DONE"
