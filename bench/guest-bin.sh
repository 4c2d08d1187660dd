#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What bench/run.sh and bench/profile.sh put in the guest, sourced by
# both: bench_guest_bin BIN builds the module if missing, installs the
# verbs stage's packages, builds cmp_bench into BIN (a fresh directory)
# and copies Debian's ib_mthca.ko there if the kernel cache has it; it
# sets $mthca to that file ("" if none).  Run from the repository root.

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
