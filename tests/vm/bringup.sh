#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# VM integration tests of arbel.ko's firmware bring-up and teardown against
# arbel-stub.  Plumbing only: build, two VM boots (scripts/vm/run.sh,
# LOAD=0, VM_PYTHON=1), each running tests/vm/bringup_guest.py with one
# phase, then tests/vm/bringup_judge.py judges what they left:
#
#   basic   load (bound, dev_info, stub state, debugfs), tracepoints over
#           unbind + bind, rmmod, $NCYCLES load/unload cycles
#           (the stub with MSI-X: event mode through MSI-X), the MSI-X
#           interrupt test failing (INTx taken), polling=1
#   faults  (the stub with msix=off: event mode through INTx) a failure
#           injected (debug window) into every bring-up command, a clean
#           load after it, the interrupt test failing (polling fallback), a
#           held go bit (cmd_timeout_ms=200) on QUERY_DEV_LIM during probe
#           and on CLOSE_HCA during rmmod
#
# The judge tests itself on hand-made traces (test_bringup_judge.py), then
# checks, on the host, each boot's stub trace (command sequence and
# statuses, step by step, cut at the guest's "stubctl mark N" lines), the
# stub's guest-error log and the kernel log for splats, and prints the
# guest's results and its own as one KTAP stream on stdout; progress goes
# to stderr.  Exit status 1 if anything failed.  The fault matrix and the
# mark numbers are in tests/vm/bringup_cases.py.
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

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$REPO" || exit 1
# shellcheck source=scripts/env.sh
. scripts/env.sh

OUT=$(realpath -m "${OUT:-$REPO/build/vm-bringup}")
NCYCLES=${NCYCLES:-20}
TIMEOUT=${TIMEOUT:-900}
phases=("$@")
[ ${#phases[@]} -gt 0 ] || phases=(basic faults)

judge=(python3 tests/vm/bringup_judge.py --out "$OUT" --ncycles "$NCYCLES"
	--timeout "$TIMEOUT")
[ "${VERBOSE:-0}" != 1 ] || judge+=(--verbose)
# setup_failed NAME DETAIL: report a failed build step (and nothing else)
setup_failed() { exec "${judge[@]}" --setup-failure "$1" "$2"; }
log() { echo "# $*" >&2; }

mkdir -p "$OUT"
for phase in "${phases[@]}"; do
	rm -f "$OUT/$phase.out" "$OUT/$phase.rc" "$OUT/$phase.err"
done
if [ "${BUILD:-0}" = 1 ]; then
	scripts/build-module.sh --test >"$OUT/build-module.log" 2>&1 ||
		setup_failed "setup: scripts/build-module.sh --test" "see $OUT/build-module.log"
fi
MODULE=${MODULE:-$REPO/build/module/arbel.ko}
[ -f "$MODULE" ] ||
	setup_failed "setup: module" "$MODULE does not exist (scripts/build-module.sh --test, or BUILD=1)"
# A private copy, named so that a concurrent "make M=$REPO clean" (which
# deletes every *.ko below the repository) does not remove it.
snap=$OUT/arbel.ko-snapshot
cp "$MODULE" "$snap"
log "module: $MODULE ($(stat -c '%y' "$MODULE" | cut -d. -f1), md5 $(md5sum <"$snap" | cut -c1-12))"

# the guest's PATH: stubctl, the guest program and the table it shares
# with the judge
gbin=$OUT/guest-bin
rm -rf "$gbin"
make -s -C tests/vm O="$gbin" "$gbin/stubctl" >"$OUT/make.log" 2>&1 ||
	setup_failed "setup: make -C tests/vm" "$(tail -n 5 "$OUT/make.log" | tr '\n' ' ')"
install -m 755 tests/vm/bringup_guest.py "$gbin/"
install -m 644 tests/vm/bringup_cases.py "$gbin/"
if [ -z "${QEMU:-}" ]; then
	QEMU=$(scripts/build-qemu.sh 2>"$OUT/build-qemu.log") ||
		setup_failed "setup: scripts/build-qemu.sh" "see $OUT/build-qemu.log"
fi
export QEMU

for phase in "${phases[@]}"; do
	case $phase in
	basic | faults) ;;
	*) continue ;; # the judge reports it
	esac
	log "boot: $phase"
	# basic: the stub with MSI-X; faults: without (the EQ uses INTx)
	stub=
	[ "$phase" != faults ] || stub=msix=off
	env VM_OUT="$OUT/$phase" GUEST_BIN="$gbin" MODULE="$snap" LOAD=0 \
		STUB="$stub" \
		VM_PYTHON=1 TIMEOUT="$TIMEOUT" VM_QUIET=1 \
		CMD="NCYCLES=$NCYCLES bringup_guest.py $phase" \
		scripts/vm/run.sh >"$OUT/$phase.out" 2>"$OUT/$phase.err"
	echo $? >"$OUT/$phase.rc"
	log "boot: $phase: run.sh exit $(cat "$OUT/$phase.rc")"
done
exec "${judge[@]}" "${phases[@]}"
