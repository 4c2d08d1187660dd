#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest half of tests/vm/bringup.sh: runs as CMD in the test VM
# (scripts/vm/run.sh, LOAD=0) with /opt/arbel/arbel.ko and stubctl on PATH.
#
#   bringup-guest.sh basic    load, tracepoints (unbind/bind), rmmod, 20 cycles
#   bringup-guest.sh faults   the fault matrix, held go bit on bring-up and
#                             on teardown
#
# Prints "ok - NAME" / "not ok - NAME: DETAIL" (the host numbers them) and
# "# ..." comments, some of which the host parses ("# debugfs ...").  Before
# each phase it puts a marker in the stub's trace ("stubctl mark N", an
# XLATE line with key 0x4d4bNNNN) so the host can cut the trace into phases;
# the numbers are part of the interface with bringup.sh.
#
# Always exits 0 once it reached the end ("# end PHASE"), so that the
# harness' exit status stays meaningful: 122 = kernel splat, 124 = timeout,
# 125 = the VM died.

# shellcheck disable=SC2317 # functions run through check()
set -u
KO=/opt/arbel/arbel.ko
DRV=/sys/bus/pci/drivers/arbel
DBG=/sys/kernel/debug/arbel
TR=/sys/kernel/tracing
NCYCLES=${NCYCLES:-20}
FW_VERSION_RE='5\.3\.0+([^0-9]|$)'	# QUERY_FW of arbel-stub: 5.3.0
BRINGUP_OPS="QUERY_FW ENABLE_LAM MAP_FA RUN_FW QUERY_DEV_LIM SET_ICM_SIZE MAP_ICM_AUX MAP_ICM INIT_HCA QUERY_ADAPTER"

# --- plumbing ---------------------------------------------------------------
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1: $2"; }
note() { echo "# $*"; }
# check NAME DETAIL COMMAND...: ok if COMMAND succeeds
check() {
	local name=$1 detail=$2
	shift 2
	if "$@"; then ok "$name"; else nok "$name" "$detail"; fi
}
not() { ! "$@"; }
oneline() { tr '\n' ' ' | sed 's/  */ /g; s/ $//' | cut -c1-300; }

BDF=
for d in /sys/bus/pci/devices/*; do
	if [ "$(cat "$d/vendor")" = 0x15b3 ] && [ "$(cat "$d/device")" = 0x6282 ]; then
		BDF=${d##*/}
		break
	fi
done

bound() { [ -e "$DRV/$BDF" ]; }
no_device_bound() { ! compgen -G "$DRV/0000:*" >/dev/null; }
loaded() { [ -d /sys/module/arbel ]; }

# kernel log since the last klog_mark (a line we write into the log)
KMARK=0
klog_mark() {
	KMARK=$((KMARK + 1))
	echo "bringup-test: step $KMARK" >/dev/kmsg
}
klog_new() { dmesg | sed -n "/bringup-test: step $KMARK\$/,\$p" | sed 1d; }

# insmod_t ARGS...: insmod, sets IRC (status), IERR (stderr), IMS (ms taken)
insmod_t() {
	local t0=$EPOCHREALTIME t1
	IERR=$(insmod "$KO" "$@" 2>&1 >/dev/null)
	IRC=$?
	t1=$EPOCHREALTIME
	IMS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
}
rmmod_t() {
	RERR=$(rmmod arbel 2>&1)
	RRC=$?
}

# klog_has RE1 [RE2]: a new kernel line matches RE1 (and RE2), extended, RE2
# case-insensitive
klog_has() {
	if [ $# -gt 1 ]; then
		klog_new | grep -E -- "$1" | grep -Eiq -- "$2"
	else
		klog_new | grep -Eq -- "$1"
	fi
}

# INIT_HCA done, FA, aux and ICM mapped, at least the 48 FA pages QUERY_FW
# asks for
hca_initialised() {
	stubctl -q expect fw_state=2 && stubctl -q expect-mapped >/dev/null &&
		[ "$(stubctl get fa_pages)" -ge 48 ]
}
unmapped() { stubctl -q expect-unmapped >/dev/null; }
mapped() { stubctl -q expect-mapped >/dev/null; }

# msg_names OP STATUS: a new kernel line names OP (as a word) and the status
# (0xNN in any width, or its PRM name)
status_name() {
	case $(($1)) in
	0) echo OK ;; 1) echo INTERNAL_ERR ;; 2) echo BAD_OP ;; 3) echo BAD_PARAM ;;
	4) echo BAD_SYS_STATE ;; 5) echo BAD_RESOURCE ;; 6) echo RESOURCE_BUSY ;;
	8) echo EXCEED_LIM ;; 9) echo BAD_RES_STATE ;; 10) echo BAD_INDEX ;;
	34) echo LAM_NOT_PRE ;; *) echo NO_NAME ;;
	esac
}
msg_names() {
	local op=$1 st hex name
	st=$(( $2 ))
	hex=$(printf '%x' "$st")
	name=$(status_name "$st")
	[ "$st" != 0 ] || name="OK|succeed(ed|s)?"
	klog_new | grep -E "(^|[^A-Z_])$op([^A-Z_]|$)" |
		grep -Eiq "0x0*$hex([^0-9a-f]|$)|(^|[^A-Z_])($name)([^A-Z_]|$)"
}

if [ -z "$BDF" ]; then
	nok "setup: arbel-stub device present" "no 15b3:6282 in /sys/bus/pci/devices"
	echo "# end $1"
	exit 0
fi
note "device $BDF"
modprobe ib_uverbs 2>/dev/null || note "modprobe ib_uverbs failed"
if ! stubctl show >/tmp/show 2>&1; then
	nok "setup: stubctl maps the debug window" "$(oneline </tmp/show)"
	echo "# end $1"
	exit 0
fi

# --- basic: load, tracepoints, unbind/bind, rmmod, cycles -------------------
phase_basic() {
	local op n f v dir bad tf start done_ i fails_bound fails_rm fails_map fails_unmap

	check "setup: stub idle before the first load" "$(stubctl expect-unmapped)" unmapped

	# 1: the first load
	stubctl mark 1
	klog_mark
	insmod_t
	check "load: insmod exits 0" "status $IRC: $IERR" [ "$IRC" = 0 ]
	check "load: device bound" "$DRV has no $BDF; kernel: $(klog_new | tail -n 3 | oneline)" bound
	check "load: dev_info line with the firmware version" \
		"no line with 'firmware' and 5.3.0 for $BDF: $(klog_new | oneline)" \
		klog_has "$BDF.*[Ff]irmware|$BDF.*FIRMWARE" "$FW_VERSION_RE"
	check "load: stub has the HCA initialised (INIT_HCA done, >= 48 FA pages)" \
		"$(stubctl show | grep -E '^(fw_state|icm_pages|fa_pages|aux_pages)=' | oneline)" \
		hca_initialised
	note "stub after load: $(stubctl show | grep -Ev '^(id|version|device|fi_|xl_)' | oneline)"

	# debugfs
	dir=$DBG/$BDF/commands
	if [ -d "$dir" ]; then
		ok "load: debugfs $dir exists"
		bad=
		for op in $BRINGUP_OPS; do
			if [ ! -d "$dir/$op" ]; then
				bad+=" $op:missing"
				continue
			fi
			n=$(cat "$dir/$op/n" 2>/dev/null)
			f=$(cat "$dir/$op/failed" 2>/dev/null)
			note "debugfs $op n=$n failed=$f average_ns=$(cat "$dir/$op/average_ns" 2>/dev/null) last_failed_status=$(cat "$dir/$op/last_failed_status" 2>/dev/null) last_failed_errno=$(cat "$dir/$op/last_failed_errno" 2>/dev/null)"
			[[ $n =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || bad+=" $op:n=$n"
			# ENABLE_LAM's 0x22 is the expected answer; whether it
			# counts as "failed" is the driver's choice
			if [ "$op" != ENABLE_LAM ] && [ "$f" != 0 ]; then
				bad+=" $op:failed=$f"
			fi
		done
		for v in n failed average_ns last_failed_status last_failed_errno; do
			[ -e "$dir/QUERY_FW/$v" ] || bad+=" QUERY_FW/$v:missing"
		done
		check "load: debugfs n >= 1 and failed = 0 for every bring-up command" "${bad# }" [ -z "$bad" ]
	else
		nok "load: debugfs $dir exists" "$(find "$DBG" -maxdepth 3 2>&1 | head -n 5 | oneline)"
	fi

	# 2-3: tracepoints over unbind (teardown) and bind (bring-up)
	if [ -d "$TR/events/arbel/arbel_cmd_start" ] && [ -d "$TR/events/arbel/arbel_cmd_done" ]; then
		ok "tracepoints: events/arbel/arbel_cmd_{start,done} exist"
	else
		nok "tracepoints: events/arbel/arbel_cmd_{start,done} exist" \
			"events/arbel: $(find "$TR/events/arbel" -maxdepth 1 2>&1 | oneline)"
	fi
	echo 0 >"$TR/tracing_on" 2>/dev/null
	echo >"$TR/trace" 2>/dev/null
	echo 1 >"$TR/events/arbel/enable" 2>/dev/null
	echo 1 >"$TR/tracing_on" 2>/dev/null
	stubctl mark 2
	echo "$BDF" >"$DRV/unbind" 2>/tmp/err
	check "unbind: device unbound" "$(oneline </tmp/err)" bash -c "! [ -e '$DRV/$BDF' ]"
	check "unbind: stub reports nothing mapped" "$(stubctl expect-unmapped)" unmapped
	stubctl mark 3
	klog_mark
	echo "$BDF" >"$DRV/bind" 2>/tmp/err
	check "bind: device bound again" "$(oneline </tmp/err); kernel: $(klog_new | tail -n 3 | oneline)" bound
	check "bind: stub has the HCA initialised" "$(stubctl expect-mapped)" mapped
	echo 0 >"$TR/events/arbel/enable" 2>/dev/null
	tf=/tmp/arbel-trace.txt
	cat "$TR/trace" >"$tf" 2>/dev/null
	start=$(grep -c 'arbel_cmd_start:' "$tf")
	done_=$(grep -c 'arbel_cmd_done:' "$tf")
	note "tracepoints: $start arbel_cmd_start, $done_ arbel_cmd_done over unbind + bind"
	grep -m 2 'arbel_cmd_start:' "$tf" | sed 's/^/# trace: /'
	grep -m 2 'arbel_cmd_done:' "$tf" | sed 's/^/# trace: /'
	check "tracepoints: arbel_cmd_start and arbel_cmd_done fire, as often as each other" \
		"start=$start done=$done_" bash -c "[ $start -ge 10 ] && [ $start = $done_ ]"
	check "tracepoints: events name the opcodes (QUERY_FW, CLOSE_HCA)" \
		"no QUERY_FW/CLOSE_HCA in the events" \
		bash -c "grep -q 'QUERY_FW' $tf && grep -q 'CLOSE_HCA' $tf"

	# 4: rmmod
	stubctl mark 4
	klog_mark
	rmmod_t
	check "rmmod: exits 0" "status $RRC: $RERR" [ "$RRC" = 0 ]
	check "rmmod: module gone" "/sys/module/arbel still there" bash -c '! [ -d /sys/module/arbel ]'
	check "rmmod: stub reports nothing mapped" "$(stubctl expect-unmapped)" unmapped
	check "rmmod: debugfs arbel/ removed" "$DBG still exists" not test -e "$DBG"
	check "rmmod: firmware stopped (fw_state RESET after UNMAP_FA)" \
		"$(stubctl expect fw_state=0)" stubctl -q expect fw_state=0
	check "rmmod: no error messages" "$(klog_new | grep -Ei 'error|fail' | oneline)" \
		not klog_has "." "error|fail"

	# 5: load/unload cycles
	stubctl mark 5
	fails_bound='' fails_rm='' fails_map='' fails_unmap=''
	for i in $(seq 1 "$NCYCLES"); do
		insmod_t
		[ "$IRC" = 0 ] && bound || fails_bound+=" $i(rc=$IRC)"
		mapped || fails_map+=" $i"
		rmmod_t
		[ "$RRC" = 0 ] && ! loaded || fails_rm+=" $i(rc=$RRC:$RERR)"
		unmapped || fails_unmap+=" $i"
	done
	check "cycles: $NCYCLES loads, bound every time" "failed at${fails_bound}" [ -z "$fails_bound" ]
	check "cycles: HCA initialised in the stub every time" "not at${fails_map}" [ -z "$fails_map" ]
	check "cycles: $NCYCLES rmmods succeed" "failed at${fails_rm}" [ -z "$fails_rm" ]
	check "cycles: nothing mapped after every rmmod" "mapped after${fails_unmap}" [ -z "$fails_unmap" ]
	check "cycles: nothing mapped at the end" "$(stubctl expect-unmapped)" unmapped
	note "stub after cycles: $(stubctl show | grep -E '^(fw_state|cmd_count)=' | oneline)"
	stubctl mark 6
}

# --- faults: the matrix, then held go bits ----------------------------------
# OP STATUS [EVERY] per case; EVERY 2 = the second command of that opcode
FAULT_CASES=(
	"QUERY_FW 0x01"
	"ENABLE_LAM 0x01"
	"ENABLE_LAM 0x00"
	"MAP_FA 0x05"
	"RUN_FW 0x06"
	"QUERY_DEV_LIM 0x03"
	"SET_ICM_SIZE 0x08"
	"MAP_ICM_AUX 0x05"
	"MAP_ICM 0x0a"
	"MAP_ICM 0x03 2"
	"INIT_HCA 0x03"
	"QUERY_ADAPTER 0x01"
)

fault_case() { # index, "OP STATUS [EVERY]"
	local idx=$1 op st every name failed0 failed1
	read -r op st every <<<"$2"
	every=${every:-0}
	name="fault $op=$st"
	[ "$every" = 0 ] || name+=" (command #$every)"

	stubctl clear
	failed0=$(stubctl get fi_failed)
	stubctl mark $((100 + idx))
	klog_mark
	stubctl fail "$op" "$st" "$every"
	insmod_t
	failed1=$(stubctl get fi_failed)
	check "$name: the driver issued the command (fault hit once)" \
		"stub fi_failed $failed0 -> $failed1" [ "$((failed1 - failed0))" = 1 ]
	check "$name: insmod exits 0, device not bound" \
		"insmod status $IRC ($IERR), bound=$(bound && echo yes || echo no)" \
		eval "[ $IRC = 0 ] && no_device_bound"
	check "$name: no debugfs directory left for the failed probe" \
		"$DBG/$BDF exists" not test -e "$DBG/$BDF"
	check "$name: error names $op and status $st" \
		"kernel: $(klog_new | oneline)" msg_names "$op" "$st"
	stubctl clear
	rmmod_t
	check "$name: rmmod exits 0 and nothing is mapped" \
		"rmmod status $RRC ($RERR); $(stubctl expect-unmapped)" \
		bash -c "[ $RRC = 0 ] && stubctl -q expect-unmapped"
}

# a clean load in the middle of the faults: bound, mapped, then unloaded clean
clean_load() { # name, mark, [module args]
	local name=$1
	stubctl mark "$2"
	shift 2
	klog_mark
	insmod_t "$@"
	check "$name: clean load binds" \
		"insmod $IRC ($IERR); kernel: $(klog_new | tail -n 3 | oneline)" \
		bash -c "[ $IRC = 0 ] && [ -e '$DRV/$BDF' ] && stubctl -q expect-mapped"
	rmmod_t
	check "$name: rmmod exits 0 and nothing is mapped" \
		"rmmod $RRC ($RERR); $(stubctl expect-unmapped)" \
		bash -c "[ $RRC = 0 ] && stubctl -q expect-unmapped"
}

phase_faults() {
	local i
	check "setup: stub idle" "$(stubctl expect-unmapped)" unmapped
	clean_load "faults: before the matrix" 99

	for i in "${!FAULT_CASES[@]}"; do
		fault_case "$i" "${FAULT_CASES[$i]}"
	done
	stubctl clear
	clean_load "faults: after the matrix" 150

	# Held go bit during bring-up.  After the timeout the driver marks the
	# device failed and can no longer unmap anything: what QUERY_FW..RUN_FW
	# mapped (the FA) stays mapped in the stub, and the stub keeps holding
	# QUERY_DEV_LIM, until the next reset.  Expectation tested: probe fails
	# quickly with a timeout naming the command and saying the device is
	# marked failed, rmmod works, the driver never touches the HCR again
	# (host: no "written while go is set" in qemu-debug.log), and the next
	# probe -- whose reset drops the held command -- binds and unloads
	# clean.  The hold is retargeted to SYS_EN (never used) rather than
	# released: releasing would run the held QUERY_DEV_LIM, whose DMA would
	# hit a mailbox the driver has freed.
	stubctl clear
	stubctl mark 160
	klog_mark
	stubctl hold QUERY_DEV_LIM forever
	insmod_t cmd_timeout_ms=200
	note "hold QUERY_DEV_LIM: insmod took $IMS ms"
	check "hold QUERY_DEV_LIM: module parameter cmd_timeout_ms=200 taken" \
		"parameters/cmd_timeout_ms: $(cat /sys/module/arbel/parameters/cmd_timeout_ms 2>&1)" \
		grep -qx 200 /sys/module/arbel/parameters/cmd_timeout_ms
	note "stub after the timeout: $(stubctl show | grep -E '^(fw_state|fa_pages|aux_pages|icm_pages|hcr_go)=' | oneline)"
	check "hold QUERY_DEV_LIM: insmod exits 0 within 20 s, device not bound" \
		"insmod $IRC ($IERR) after $IMS ms, bound=$(bound && echo yes || echo no)" \
		bash -c "[ $IRC = 0 ] && [ $IMS -lt 20000 ] && ! [ -e '$DRV/$BDF' ]"
	check "hold QUERY_DEV_LIM: timeout message names QUERY_DEV_LIM" \
		"kernel: $(klog_new | oneline)" \
		klog_has "QUERY_DEV_LIM" "time[d]? ?out|ETIMEDOUT"
	check "hold QUERY_DEV_LIM: message says the device is marked failed" \
		"kernel: $(klog_new | oneline)" \
		klog_has "." "mark(ed|ing)?[^.]*fail"
	rmmod_t
	check "hold QUERY_DEV_LIM: rmmod exits 0" "status $RRC: $RERR" \
		bash -c "[ $RRC = 0 ] && ! [ -d /sys/module/arbel ]"
	stubctl hold-opcode SYS_EN
	clean_load "hold QUERY_DEV_LIM: next load" 161
	check "hold QUERY_DEV_LIM: the next probe's reset dropped the held command" \
		"$(stubctl expect hcr_go=0)" stubctl -q expect hcr_go=0
	stubctl clear

	# Held go bit during teardown: CLOSE_HCA times out on rmmod; rmmod must
	# still work and not hang.  Same expectation for the leftovers (the ICM
	# stays mapped until the next reset).
	stubctl mark 170
	klog_mark
	insmod_t cmd_timeout_ms=200
	check "hold CLOSE_HCA: load with cmd_timeout_ms=200 binds" \
		"insmod $IRC ($IERR)" bash -c "[ $IRC = 0 ] && [ -e '$DRV/$BDF' ]"
	stubctl mark 171
	stubctl hold CLOSE_HCA forever
	klog_mark
	local t0=$EPOCHREALTIME
	rmmod_t
	local ms
	ms=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%d", (b - a) * 1000 }')
	note "hold CLOSE_HCA: rmmod took $ms ms"
	note "stub after the timeout: $(stubctl show | grep -E '^(fw_state|fa_pages|aux_pages|icm_pages|hcr_go)=' | oneline)"
	check "hold CLOSE_HCA: rmmod exits 0 within 20 s" "rmmod $RRC ($RERR) after $ms ms" \
		bash -c "[ $RRC = 0 ] && [ $ms -lt 20000 ] && ! [ -d /sys/module/arbel ]"
	check "hold CLOSE_HCA: timeout message names CLOSE_HCA" \
		"kernel: $(klog_new | oneline)" \
		klog_has "CLOSE_HCA" "time[d]? ?out|ETIMEDOUT"
	stubctl hold-opcode SYS_EN
	clean_load "hold CLOSE_HCA: next load" 172
	stubctl clear
	stubctl mark 180
}

case ${1:-} in
basic) phase_basic ;;
faults) phase_faults ;;
*) nok "setup: phase" "unknown phase '${1:-}'" ;;
esac
echo "# end ${1:-}"
exit 0
