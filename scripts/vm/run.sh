#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot Debian's kernel (exactly $ARBEL_KABI) in QEMU (TCG, q35) with the
# arbel-stub device, run one shell command as root in the guest, and exit
# with its status. See Documentation/vm-harness.rst.
#
#   CMD='ibv_devinfo' LOAD=1 scripts/vm/run.sh
#   scripts/vm/run.sh ibv_devinfo -v          # arguments, if any, are CMD
#
# Environment: about 25 variables, all optional (CMD, LOAD=1, MODULE,
# MODULE_ARGS, STUB, TIMEOUT, VM_OUT, VM_PYTHON=1, VM_SHELL=1, ...).  Each
# is described, with its default, in one table: Documentation/vm-harness.rst,
# "Variables" (scripts/vmknobs.py, in make check's lint stage, fails when
# that table and these scripts disagree).
#
# Exit status: CMD's; the insmod/modprobe status if LOAD=1 failed;
# 124 on timeout; 125 if the harness or the guest failed (no exit marker:
# panic, boot failure, QEMU error); 122 if CMD succeeded but the kernel log
# shows a splat (BUG/WARNING/Oops/KASAN/UBSAN/...); 123 if CMD succeeded
# but the stub reported a page the HCA owned touched (qemu/arbel-life.c).

set -eu

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ $# -gt 0 ]; then
	CMD="$*"
fi
CMD=${CMD:-true}
LOAD=${LOAD:-0}
STUB=${STUB:-}
NO_STUB=${NO_STUB:-0}
TIMEOUT=${TIMEOUT:-300}
VM_APPEND=${VM_APPEND:-}
VM_MEM=${VM_MEM:-1G}
VM_SMP=${VM_SMP:-1}
VM_PYTHON=${VM_PYTHON:-0}
VM_CONSOLE=${VM_CONSOLE:-0}
ALLOW_SPLAT=${ALLOW_SPLAT:-0}
VM_SHELL=${VM_SHELL:-0}
VM_HOTPLUG=${VM_HOTPLUG:-0}
MODULE_ARGS=${MODULE_ARGS:-}
OUT=${VM_OUT:-$REPO/build/vm}
M='@@ARBEL-VM@@'

case $TIMEOUT in
'' | *[!0-9]*) vm_die "TIMEOUT must be a number of seconds, not '$TIMEOUT'" ;;
esac
t0=$EPOCHREALTIME

# --- module ----------------------------------------------------------------
if [ -z "${MODULE:-}" ] && [ -f "$REPO/build/module/arbel.ko" ]; then
	MODULE=$REPO/build/module/arbel.ko
fi
MODULE=${MODULE:-}
if [ -n "$MODULE" ] && [ ! -f "$MODULE" ]; then
	vm_die "MODULE=$MODULE does not exist"
fi
if [ "$LOAD" = 1 ] && [ -z "$MODULE" ]; then
	vm_die "LOAD=1 but there is no build/module/arbel.ko (build the module, or set MODULE=...)"
fi

# --- images (in the background, while build-qemu.sh checks its cache) --------
mkdir -p "$OUT"
prep_out=$(mktemp "${TMPDIR:-/tmp}/arbel-vm-prep.XXXXXX")
VM_PYTHON=$VM_PYTHON "$VM_DIR/prepare.sh" >"$prep_out" &
prep_pid=$!
trap 'kill "$prep_pid" 2>/dev/null || true; rm -f "$prep_out"' EXIT

# --- QEMU ------------------------------------------------------------------
if [ -z "${QEMU:-}" ]; then
	if [ -x "$REPO/scripts/build-qemu.sh" ]; then
		QEMU=$(nice "$REPO/scripts/build-qemu.sh") || QEMU=
		[ -n "$QEMU" ] || [ "$NO_STUB" = 1 ] || vm_die "scripts/build-qemu.sh failed"
	fi
	if [ -z "$QEMU" ]; then
		[ "$NO_STUB" = 1 ] || vm_die "no scripts/build-qemu.sh: set QEMU=..., or NO_STUB=1 to boot Debian's QEMU without the stub"
		vm_need_pkgs qemu-system-x86
		QEMU=/usr/bin/qemu-system-x86_64
		vm_log "no built QEMU: using $QEMU without arbel-stub"
	fi
fi
[ -x "$QEMU" ] || vm_die "QEMU=$QEMU is not executable"
if [ "$NO_STUB" != 1 ] && ! "$QEMU" -device help 2>/dev/null | grep -q '"arbel-stub"'; then
	vm_die "$QEMU has no arbel-stub device (NO_STUB=1 boots without it)"
fi

# --- images ----------------------------------------------------------------
wait "$prep_pid" || vm_die "prepare.sh failed"
VM_KERNEL='' VM_BASE_INITRD='' VM_BASE_FILES='' VM_PY_INITRD=''
eval "$(cat "$prep_out")"

# one run at a time per output directory (set VM_OUT to run several at once)
exec 8>"$OUT/.lock"
if ! flock -n 8; then
	vm_log "waiting for another run that uses $OUT"
	flock 8
fi
rm -f "$OUT/console.log" "$OUT/dmesg.txt" "$OUT/stub-trace.txt" "$OUT/qemu.log" \
	"$OUT/output.txt" "$OUT/qmp.sock" "$OUT/qmp.log"

# per-run archive: CMD, config, arbel.ko, build/guest-bin/* and their libraries
stage=$OUT/run-root
rm -rf "$stage"
mkdir -p "$stage/opt/arbel/bin"
printf '%s\n' "$CMD" >"$stage/opt/arbel/cmd"
sq() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
{
	printf 'LOAD=%s\n' "$(sq "$LOAD")"
	printf 'MODULE_ARGS=%s\n' "$(sq "$MODULE_ARGS")"
	printf 'INTERACTIVE=%s\n' "$(sq "$VM_SHELL")"
} >"$stage/opt/arbel/config"
[ -z "$MODULE" ] || cp "$MODULE" "$stage/opt/arbel/arbel.ko"
# the tests' Python library and data files (tests/pylib/arbeltest/paths.py)
cp -a "$REPO/tests/pylib" "$stage/opt/arbel/pylib"
find "$stage/opt/arbel/pylib" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$stage/opt/arbel/share"
cp "$REPO/tests/data/arbelprm_mpt_st.txt" "$REPO/qemu/arbel-dbgwin.h" \
	"$stage/opt/arbel/share/"
GUEST_BIN=${GUEST_BIN:-$REPO/build/guest-bin}
if [ -d "$GUEST_BIN" ]; then
	cp -a "$GUEST_BIN/." "$stage/opt/arbel/bin/"
	mapfile -t gbins < <(find "$stage/opt/arbel/bin" -type f)
	if [ ${#gbins[@]} -gt 0 ]; then
		while read -r lib; do
			dst=$(vm_usr_path "$lib")
			grep -qxF "$dst" "$VM_BASE_FILES" && continue
			mkdir -p "$stage$(dirname "$dst")"
			cp -L "$lib" "$stage$dst"
		done < <(vm_ldd_closure "${gbins[@]}")
	fi
fi
initrd=$OUT/initrd.img
{
	cat "$VM_BASE_INITRD"
	[ -z "$VM_PY_INITRD" ] || cat "$VM_PY_INITRD"
	vm_cpio "$stage" | gzip -1 -n
} >"$initrd"

# --- boot ------------------------------------------------------------------
append="console=ttyS0 iomem=relaxed panic=-1 quiet modprobe.blacklist=ib_mthca"
[ -z "$VM_APPEND" ] || append="$append $VM_APPEND"
args=(-accel tcg -machine q35 -m "$VM_MEM" -smp "$VM_SMP"
	-nodefaults -no-user-config -display none -serial stdio -no-reboot
	-L /usr/share/seabios -L /usr/share/qemu
	-d "${VM_QEMU_LOG:-guest_errors,unimp}" -D "$OUT/stub-trace.txt"
	-trace 'arbel_*'
	-kernel "$VM_KERNEL" -initrd "$initrd" -append "$append")
stubdev="arbel-stub${STUB:+,$STUB}"
if [ "$NO_STUB" != 1 ]; then
	if [ "$VM_HOTPLUG" = 1 ]; then
		stubdev="$stubdev,id=arbel0,bus=arbel-rp"
		args+=(-device pcie-root-port,id=arbel-rp,chassis=1,slot=1
			-qmp "unix:$OUT/qmp.sock,server=on,wait=off")
	fi
	args+=(-device "$stubdev")
fi
if [ -n "${VM_QEMU_ARGS:-}" ]; then
	# shellcheck disable=SC2206 # word splitting wanted
	args+=($VM_QEMU_ARGS)
fi
printf '%q ' "$QEMU" "${args[@]}" >"$OUT/qemu-cmdline.txt"
echo >>"$OUT/qemu-cmdline.txt"

if [ "$VM_SHELL" = 1 ]; then
	# interactive: the console on this terminal, no timeout, no parsing
	for i in "${!args[@]}"; do
		[ "${args[$i]}" != stdio ] || args[i]=mon:stdio
	done
	vm_log "interactive VM (after LOAD, if set); Ctrl-A X quits QEMU"
	exec "$QEMU" "${args[@]}"
fi

# VM_HOTPLUG: unplug ("del") or plug ("add") the stub as CMD asked
hotplug() {
	local hmp
	case $1 in
	del) hmp="device_del arbel0" ;;
	add) hmp="device_add $stubdev" ;;
	*)
		vm_log "hotplug: unknown request '$1'"
		return
		;;
	esac
	printf '%s\n' "$hmp" >>"$OUT/qmp.log"
	python3 "$VM_DIR/qmp.py" "$OUT/qmp.sock" "$hmp" 2>>"$OUT/qmp.log" ||
		vm_log "hotplug $1 failed: see $OUT/qmp.log"
}

fifo=$OUT/console.fifo
rm -f "$fifo"
mkfifo "$fifo"
t1=$EPOCHREALTIME
timeout -k 5 "$TIMEOUT" nice -n "${VM_NICE:-5}" "$QEMU" "${args[@]}" \
	</dev/null >"$fifo" 2>"$OUT/qemu.log" &
qpid=$!
trap 'kill -TERM "$qpid" 2>/dev/null || true' INT TERM HUP

# Show CMD's output live: the lines between the begin and the exit marker
# (all lines with VM_CONSOLE=1); keep the whole console in console.log.
state=boot held=0 tb=
exec 3>"$OUT/console.log" 4>"$OUT/output.txt"
while IFS= read -r line || [ -n "$line" ]; do
	line=${line//$'\r'/}
	printf '%s\n' "$line" >&3
	[ "$VM_CONSOLE" != 1 ] || printf '%s\n' "$line"
	if [ "$VM_HOTPLUG" = 1 ] && [[ $line == *"$M hotplug "* ]]; then
		hotplug "${line##*"$M hotplug "}"
		continue
	fi
	case $state in
	boot)
		if [[ $line == *"$M begin"* ]]; then
			state=cmd tb=$EPOCHREALTIME
		fi
		;;
	cmd)
		if [[ $line == *"$M exit="* ]] || [[ $line == *"$M load-failed="* ]]; then
			state=finished
		elif [ -z "$line" ] && [ $held = 0 ]; then
			held=1 # maybe the newline printed before the exit marker
		else
			if [ $held = 1 ]; then
				printf '\n' >&4
				[ "$VM_CONSOLE" = 1 ] || printf '\n'
				held=0
			fi
			if [ -z "$line" ]; then
				held=1
			else
				printf '%s\n' "$line" >&4
				[ "$VM_CONSOLE" = 1 ] || printf '%s\n' "$line"
			fi
		fi
		;;
	esac
done <"$fifo"
exec 3>&- 4>&-
qrc=0
wait "$qpid" || qrc=$?
trap - INT TERM HUP
rm -f "$fifo"
t2=$EPOCHREALTIME

# --- verdict ---------------------------------------------------------------
sed -n "/$M dmesg-begin/,/$M dmesg-end/{/$M/d;p}" "$OUT/console.log" >"$OUT/dmesg.txt"
marker=$(grep -ao "$M exit=[0-9]*" "$OUT/console.log" | tail -n 1 || true)
loadfail=$(grep -ao "$M load-failed=[0-9]*" "$OUT/console.log" | tail -n 1 || true)
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
timing="prepare $(elapsed "$t0" "$t1") s, vm $(elapsed "$t1" "$t2") s"
[ -z "$tb" ] || timing="$timing: boot $(elapsed "$t1" "$tb") s + CMD $(elapsed "$tb" "$t2") s"

tail_console() {
	echo "---- last lines of $OUT/console.log ----" >&2
	tail -n 30 "$OUT/console.log" >&2
	if [ -s "$OUT/qemu.log" ]; then
		echo "---- $OUT/qemu.log ----" >&2
		tail -n 10 "$OUT/qemu.log" >&2
	fi
	echo "----" >&2
}

if [ -z "$marker" ]; then
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		tail_console
		vm_log "TIMEOUT: the VM did not finish within ${TIMEOUT}s and was killed ($timing)"
		exit 124
	fi
	tail_console
	if [ ! -s "$OUT/console.log" ] && [ "$qrc" != 0 ]; then
		vm_log "FAILED: QEMU did not start (exit $qrc): $(head -n 1 "$OUT/qemu.log")"
	elif grep -aq 'Kernel panic' "$OUT/console.log"; then
		vm_log "FAILED: the guest kernel panicked (qemu exit $qrc, $timing)"
	elif [ "$state" = boot ]; then
		vm_log "FAILED: the guest never reached CMD (qemu exit $qrc, $timing)"
	else
		vm_log "FAILED: CMD did not finish: no exit marker (qemu exit $qrc, $timing)"
	fi
	exit 125
fi
rc=${marker##*=}

if [ -n "$loadfail" ]; then
	vm_log "FAILED: loading ib_uverbs/arbel.ko failed in the guest (status $rc); see $OUT/console.log"
	exit "$rc"
fi

splat_re='(^|[] ])(BUG:|WARNING:|Oops|general protection fault|kernel BUG|UBSAN:|KASAN:|Call Trace:|INFO: task .* blocked|watchdog: BUG|RCU stall|list_(add|del) corruption)'
if grep -aEq "$splat_re" "$OUT/dmesg.txt"; then
	grep -aE "$splat_re" "$OUT/dmesg.txt" | head -n 5 >&2
	if [ "$rc" = 0 ] && [ "$ALLOW_SPLAT" != 1 ]; then
		vm_log "FAILED: CMD exited 0 but the kernel log shows a splat; see $OUT/dmesg.txt (ALLOW_SPLAT=1 to ignore)"
		exit 122
	fi
	vm_log "warning: the kernel log shows a splat; see $OUT/dmesg.txt"
fi
# memory the driver freed while the HCA still owned it (the stub's
# guest errors, which VM_QEMU_LOG's default logs)
if vm_stub_reports "$OUT/stub-trace.txt"; then
	if [ "$rc" = 0 ]; then
		vm_log "FAILED: CMD exited 0 but the stub saw the HCA's memory touched (freed while the HCA owned it?); see $OUT/stub-trace.txt"
		exit 123
	fi
	vm_log "warning: the stub saw the HCA's memory touched; see $OUT/stub-trace.txt"
fi
[ "$rc" = 0 ] || vm_log "CMD exited $rc ($timing)"
[ "$rc" != 0 ] || [ "${VM_QUIET:-0}" = 1 ] || vm_log "ok ($timing)"
exit "$rc"
