#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VM integration tests of arbel.ko's firmware bring-up and teardown against
# arbel-stub.  Two VM boots (scripts/vm/run.sh, LOAD=0), each running
# tests/vm/bringup-guest.sh with one phase:
#
#   basic   load (bound, dev_info, stub state, debugfs), tracepoints over
#           unbind + bind, rmmod, $NCYCLES load/unload cycles
#   faults  a failure injected (debug window) into every bring-up command,
#           a clean load after it, a held go bit (cmd_timeout_ms=200) on
#           QUERY_DEV_LIM during probe and on CLOSE_HCA during rmmod
#
# then checks, on the host, each boot's stub trace (command sequence and
# statuses, phase by phase, cut at the guest's "stubctl mark N" lines), the
# stub's guest-error log, and the kernel log for splats.
#
# Held go bit: after a timeout the driver marks the device failed and can
# issue no command, so what was mapped before the held command stays mapped
# in the stub and the stub keeps holding it.  What is tested: probe (or
# rmmod) returns quickly with a timeout message naming the command, the
# driver never writes the HCR again (no "written while go is set" in the
# stub's log, no further command in the trace), rmmod works, and the next
# probe -- whose HCA reset drops the held command -- binds and unloads with
# nothing left mapped.  The hold is retargeted, never released: releasing
# would run the held command and DMA into a mailbox the driver freed.
#
# Prints "ok N - name" / "not ok N - name: detail", then exactly
# "bringup: N passed, N failed"; exits 1 if anything failed.
#
#   tests/vm/bringup.sh                  both boots
#   tests/vm/bringup.sh basic            one boot only (basic or faults)
#
# Environment: MODULE (default build/module/arbel.ko; copied first, so a
# rebuild during the run does not matter), BUILD=1 (run
# scripts/build-module.sh --test first), QEMU, OUT (default
# build/vm-bringup; each boot uses OUT/<phase> as its VM_OUT), TIMEOUT per
# boot (default 900 s), NCYCLES (default 20), VERBOSE=1 (also the guest's
# comment lines).  Everything else goes to scripts/vm/run.sh.

# shellcheck disable=SC2317 # functions called through check_$phase
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=${OUT:-$REPO/build/vm-bringup}
VERBOSE=${VERBOSE:-0}
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(basic faults)

# =========================================================================
# Plumbing: results, builds, boots.  Nothing about the driver in here.
# =========================================================================
# shellcheck source=../../scripts/tap.sh
. "$REPO/scripts/tap.sh"
finish() { tap_finish bringup; }

mkdir -p "$OUT"
if [ "${BUILD:-0}" = 1 ]; then
	scripts/build-module.sh --test >"$OUT/build-module.log" 2>&1 ||
		{ nok "setup: scripts/build-module.sh --test" "see $OUT/build-module.log"; finish; }
fi
MODULE=${MODULE:-$REPO/build/module/arbel.ko}
if [ ! -f "$MODULE" ]; then
	nok "setup: module" "$MODULE does not exist (scripts/build-module.sh --test, or BUILD=1)"
	finish
fi
# A private copy, named so that a concurrent "make M=$REPO clean" (which
# deletes every *.ko below the repository) does not remove it.
snap=$OUT/arbel.ko-snapshot
cp "$MODULE" "$snap"
echo "# module: $MODULE ($(stat -c '%y' "$MODULE" | cut -d. -f1), md5 $(md5sum <"$snap" | cut -c1-12))"

gbin=$OUT/guest-bin
rm -rf "$gbin"
if ! make -s -C tests/vm O="$gbin" >"$OUT/make.log" 2>&1; then
	nok "setup: make -C tests/vm" "$(tail -n 5 "$OUT/make.log" | tr '\n' ' ')"
	finish
fi
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh 2>"$OUT/build-qemu.log") ||
		{ nok "setup: scripts/build-qemu.sh" "see $OUT/build-qemu.log"; finish; }
fi
export QEMU

splat_re='(^|[] ])(BUG:|WARNING:|Oops|general protection fault|kernel BUG|UBSAN:|KASAN:|Call Trace:|INFO: task .* blocked|watchdog: BUG|RCU stall|list_(add|del) corruption)'

# boot PHASE: one VM run; guest check lines are numbered into ours.
# Sets VMO (its output directory) and BOOT_OK (1 if the guest got to the end).
boot() {
	local phase=$1 rc line
	VMO=$OUT/$phase
	BOOT_OK=0
	mkdir -p "$VMO"
	env VM_OUT="$VMO" GUEST_BIN="$gbin" MODULE="$snap" LOAD=0 \
		TIMEOUT="${TIMEOUT:-900}" VM_QUIET=1 \
		CMD="NCYCLES=${NCYCLES:-20} bringup-guest.sh $phase" \
		scripts/vm/run.sh >"$OUT/$phase.out" 2>"$OUT/$phase.err"
	rc=$?
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*)
			line=${line#not ok - }
			nok "${line%%: *}" "${line#*: }"
			;;
		"# end $phase") BOOT_OK=1 ;;
		"#"*) [ "$VERBOSE" != 1 ] || echo "$line" ;;
		esac
	done <"$OUT/$phase.out"
	case $rc in
	0) ;;
	122) ;; # reported by the splat check below
	124) nok "$phase boot: VM finished" "timeout (TIMEOUT=${TIMEOUT:-900}); see $VMO/console.log" ;;
	125) nok "$phase boot: VM finished" "harness or guest failure (125): $(tail -n 2 "$OUT/$phase.err" | tr '\n' ' ')" ;;
	*) nok "$phase boot: VM finished" "run.sh exit $rc: $(tail -n 2 "$OUT/$phase.err" | tr '\n' ' ')" ;;
	esac
	if [ "$BOOT_OK" = 1 ]; then
		ok "$phase boot: guest script ran to the end"
	else
		nok "$phase boot: guest script ran to the end" "no '# end $phase' in $OUT/$phase.out (run.sh exit $rc)"
	fi
	if [ -f "$VMO/dmesg.txt" ] && grep -aEq "$splat_re" "$VMO/dmesg.txt"; then
		nok "$phase boot: no kernel splat" "$(grep -aE "$splat_re" "$VMO/dmesg.txt" | head -n 2 | tr '\n' ' ')"
	elif [ -s "$VMO/dmesg.txt" ]; then
		ok "$phase boot: no kernel splat"
	else
		nok "$phase boot: no kernel splat" "no $VMO/dmesg.txt"
	fi
}

# ops N: the stub trace between "stubctl mark N" and the next mark, as
# tokens "NAME:SS" (SS = status in hex; "!" appended for an injected
# failure) and "RESET", space-separated, with a trailing space.
ops() {
	awk -v want="$(printf 'key=0x4d4b%04x' "$1")" '
		$2 == "XLATE" && $3 ~ /^key=0x4d4b/ { on = ($3 == want); next }
		!on { next }
		$2 == "RESET" { printf "RESET "; next }
		{
			st = "??"
			for (i = 3; i <= NF; i++)
				if ($i ~ /^status=0x/) st = substr($i, 10, 2)
			printf "%s:%s%s ", $2, st, (/fault=injected-failure/ ? "!" : "")
		}' "$VMO/stub-trace.txt"
}
has_mark() { grep -q "XLATE key=$(printf '0x4d4b%04x' "$1") " "$VMO/stub-trace.txt"; }

# trace_check NAME MARK ERE: the tokens of phase MARK match ERE
trace_check() {
	local t
	if ! has_mark "$2"; then
		nok "$1" "no mark $2 in $VMO/stub-trace.txt (the guest did not get there)"
		return
	fi
	t=$(ops "$2")
	if [[ $t =~ $3 ]]; then ok "$1"; else nok "$1" "trace: ${t:0:400}"; fi
}

# =========================================================================
# Expectations
# =========================================================================

# The bring-up, from the reset to the dev_info line, then the ib_device's
# registration: NodeInfo, NodeDescription, PortInfo, P_Keys, GUIDs.
BRINGUP='RESET (RESET )*QUERY_FW:00 ENABLE_LAM:22 (MAP_FA:00 )+RUN_FW:00 QUERY_DEV_LIM:00 SET_ICM_SIZE:00 MAP_ICM_AUX:00 (MAP_ICM:00 )+INIT_HCA:00 QUERY_ADAPTER:00 (MAD_IFC:00 )+'
# The teardown, on remove.
TEARDOWN='CLOSE_HCA:00 (UNMAP_ICM:00 )+UNMAP_ICM_AUX:00 UNMAP_FA:00 '

# undo_check NAME MARK: a probe with one injected failure, in phase MARK:
# the bring-up up to the failure has every earlier command succeed, nothing
# is issued after the failure but the undo of exactly what succeeded, in
# reverse order (a RESET anywhere in the undo is tolerated), every undo
# command succeeds.
undo_check() {
	local name=$1 t f=-1 i tok op want before after
	local fa=0 aux=0 icm=0 init=0
	if ! has_mark "$2"; then
		nok "$name" "no mark $2 in the trace"
		return
	fi
	t=$(ops "$2")
	read -ra tk <<<"$t"
	for i in "${!tk[@]}"; do
		[[ ${tk[$i]} == *! ]] && { f=$i; break; }
	done
	if [ "$f" -lt 0 ]; then
		nok "$name" "no injected failure in the trace: $t"
		return
	fi
	op=${tk[$f]%%:*}
	before=" ${tk[*]:0:f} "
	after="${tk[*]:f+1} "
	after=${after# }
	for tok in "${tk[@]:0:f}"; do
		case $tok in
		RESET | *:00 | ENABLE_LAM:22) ;;
		*) nok "$name" "a command failed before the injected one: $t"; return ;;
		esac
	done
	[[ $before == *" MAP_FA:00 "* ]] && fa=1
	[[ $before == *" MAP_ICM_AUX:00 "* ]] && aux=1
	[[ $before == *" MAP_ICM:00 "* ]] && icm=1
	[[ $before == *" INIT_HCA:00 "* ]] && init=1
	want='^(RESET )*'
	[ "$init" = 0 ] || want+='CLOSE_HCA:00 (RESET )*'
	[ "$icm" = 0 ] || want+='(UNMAP_ICM:00 )+(RESET )*'
	if [ "$aux" = 1 ]; then
		want+='UNMAP_ICM_AUX:00 (RESET )*'
	elif [ "$op" = MAP_ICM_AUX ]; then
		want+='(UNMAP_ICM_AUX:00 )?(RESET )*'	# undoing the failed step: tolerated
	fi
	if [ "$fa" = 1 ]; then
		want+='UNMAP_FA:00 (RESET )*'
	elif [ "$op" = MAP_FA ]; then
		want+='(UNMAP_FA:00 )?(RESET )*'
	fi
	want+='$'
	if [[ $after =~ $want ]]; then
		ok "$name"
	else
		nok "$name" "after ${tk[$f]}: '${after% }', expected /$want/"
	fi
}

# debugfs_vs_trace: the guest's "# debugfs OP n=N" lines (first load) equal
# the number of OP commands in the stub's trace of that load.
debugfs_vs_trace() {
	local t op cnt dn bad=''
	has_mark 1 || { nok "debugfs: n matches the stub's trace" "no mark 1"; return; }
	t=" $(ops 1)"
	while read -r op dn; do
		cnt=$(grep -o " $op:" <<<"$t" | wc -l)
		[ "$cnt" = "$dn" ] || bad+=" $op:debugfs=$dn,trace=$cnt"
	done < <(sed -n 's/^# debugfs \([A-Z_]*\) n=\([0-9]*\) .*/\1 \2/p' "$OUT/basic.out")
	if ! grep -q '^# debugfs ' "$OUT/basic.out"; then
		nok "debugfs: n matches the stub's trace" "no debugfs values from the guest"
	elif [ -z "$bad" ]; then
		ok "debugfs: n matches the stub's trace"
	else
		nok "debugfs: n matches the stub's trace" "${bad# }"
	fi
}

# no_stub_complaints NAME: the stub logged no guest error (a protocol error
# of the driver: HCR written while go is set, bad access width, ...)
no_stub_complaints() {
	local log=$VMO/qemu-debug.log
	if [ ! -f "$log" ]; then
		nok "$1" "no $log"
	elif grep -q 'arbel-stub' "$log"; then
		nok "$1" "$(grep 'arbel-stub' "$log" | sort | uniq -c | sort -rn | head -n 3 | tr '\n' ' ')"
	else
		ok "$1"
	fi
}

check_basic() {
	trace_check "trace load: the bring-up sequence in order, statuses as expected" 1 "^${BRINGUP}\$"
	debugfs_vs_trace
	trace_check "trace unbind: CLOSE_HCA, UNMAP_ICM..., UNMAP_ICM_AUX, UNMAP_FA" 2 "^${TEARDOWN}\$"
	trace_check "trace bind: the bring-up sequence again" 3 "^${BRINGUP}\$"
	trace_check "trace rmmod: CLOSE_HCA, UNMAP_ICM..., UNMAP_ICM_AUX, UNMAP_FA" 4 "^${TEARDOWN}\$"
	trace_check "trace cycles: ${NCYCLES:-20} x (bring-up, teardown)" 5 \
		"^(${BRINGUP}${TEARDOWN}){${NCYCLES:-20}}\$"
	no_stub_complaints "basic: the stub logged no protocol error"
}

check_faults() {
	local i op st every name
	trace_check "trace faults: clean load before the matrix" 99 "^${BRINGUP}${TEARDOWN}\$"
	i=0
	while read -r op st every; do
		name="trace fault $op=$st"
		[ -z "$every" ] || name+=" (command #$every)"
		undo_check "$name: stops there, undoes what succeeded in reverse" $((100 + i))
		i=$((i + 1))
	done < <(sed -n '/^FAULT_CASES=(/,/^)/{s/^\t"\(.*\)"$/\1/p}' tests/vm/bringup-guest.sh)
	trace_check "trace faults: clean load after the matrix" 150 "^${BRINGUP}${TEARDOWN}\$"
	trace_check "trace hold QUERY_DEV_LIM: nothing runs after the held command" 160 \
		'^RESET (RESET )*QUERY_FW:00 ENABLE_LAM:22 (MAP_FA:00 )+RUN_FW:00 (RESET )?$'
	trace_check "trace hold QUERY_DEV_LIM: the next load resets and brings up" 161 "^${BRINGUP}${TEARDOWN}\$"
	trace_check "trace hold CLOSE_HCA: load with cmd_timeout_ms=200" 170 "^${BRINGUP}\$"
	trace_check "trace hold CLOSE_HCA: nothing runs after the held command" 171 '^(RESET )?$'
	trace_check "trace hold CLOSE_HCA: the next load resets and brings up" 172 "^${BRINGUP}${TEARDOWN}\$"
	no_stub_complaints "faults: the stub logged no protocol error (no HCR write while go was held)"
}

for phase in "${phases[@]}"; do
	case $phase in
	basic | faults) ;;
	*) nok "setup: phase" "unknown phase '$phase' (basic, faults)"; continue ;;
	esac
	echo "# boot: $phase"
	boot "$phase"
	"check_$phase"
done
finish
