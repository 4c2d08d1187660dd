#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What bench/run.sh, bench/profile.sh and bench/alternate.sh put in the
# guest, sourced by each: bench_guest_bin BIN builds the module if missing, installs the
# verbs stage's packages, builds cmp_bench into BIN (a fresh directory)
# and copies Debian's ib_mthca.ko there if the kernel cache has it; it
# sets $mthca to that file ("" if none).  Run from the repository root.
# bench_clock sets how the guest's clock runs (BENCH_CLOCK, see below).

bench_guest_bin() {
	local bin=$1

	[ -f build/module/arbel.ko ] || scripts/build-module.sh --test >&2
	scripts/setup.sh verbs >&2
	rm -rf "$bin"
	mkdir -p "$bin"
	make -s -C bench O="$bin"
	rm -f "$bin/reg_bench"
	mthca=$(tests/mthca/find-ko.sh || true)
	[ -z "$mthca" ] || cp "$mthca" "$bin/"
}

# bench_clock: the guest's clock, from BENCH_CLOCK.  icount (the default):
# QEMU's -icount shift=0,sleep=off, the guest's clock advances 1 ns per
# guest instruction, so a "microsecond" is 1000 instructions the guest
# executed -- the same count however busy the host is, and blind to the
# host time QEMU spends in the stub's C code; wall: the guest's clock is
# the host's (TCG), as in any VM.  Appends to VM_QEMU_ARGS and sets
# $clock_desc, a line for the conditions.
# shellcheck disable=SC2034 # clock_desc: read by the scripts that source this
bench_clock() {
	case ${BENCH_CLOCK:-icount} in
	icount)
		VM_QEMU_ARGS="${VM_QEMU_ARGS:+$VM_QEMU_ARGS }-icount shift=0,sleep=off"
		clock_desc="icount (QEMU -icount shift=0,sleep=off): 1 us = 1000 guest instructions; host load and the stub's host time do not count";;
	wall)
		clock_desc="wall: the guest's clock is the host's (TCG); host load and the stub's host time count";;
	*)
		echo "BENCH_CLOCK must be icount or wall, not '$BENCH_CLOCK'" >&2
		return 2;;
	esac
	export VM_QEMU_ARGS
}
