#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The deb stage of make check: the Debian package round trip.
#   1. make deb (scripts/build-deb.sh): arbel-dkms_<version>_all.deb, with
#      DKMS's postinst and prerm;
#   2. installed with dpkg in a chroot that is an overlay of this host
#      (scripts/deb-chroot.sh): DKMS builds and installs arbel.ko for the
#      test kernel $ARBEL_KABI and Debian 12's 6.12 (and any other kernel
#      with headers); their headers, unpacked in the cache
#      (scripts/kpkg.sh), are copied into the overlay's upper layer, as
#      the packages would install them: never onto the host;
#   3. that arbel.ko loaded in the VM (Debian's $ARBEL_KABI, arbel-stub),
#      arbel0 listed and memory registered (examples/reg_mr_demo);
#   4. dpkg --purge: nothing of the package is left in the chroot (no file
#      named *arbel*, no modules.dep entry, no dpkg status).
# KTAP on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/ktap.sh"
"$top/scripts/setup.sh" headers dkms deb verbs >&2
. "$top/scripts/env.sh"
k612=$(env -u ARBEL_KABI -u ARBEL_KVER -u ARBEL_KDIR ARBEL_KERNEL=6.12 \
	"$top/scripts/kpkg.sh" headers)

out=$top/build/deb-check
root=$out/root
rm -rf "$out"
mkdir -p "$root/upper" "$root/work" "$root/mnt"

# place_headers KDIR: the headers unpacked in the cache (KDIR is
# <cache>/usr/src/linux-headers-<abi>) into the overlay's upper layer, at
# the paths the packages use (/usr/src, /usr/lib/linux-kbuild-*,
# /lib/modules/<abi>/build: /lib is /usr/lib on bookworm)
place_headers() {
	local c=${1%/usr/src/*} abi=${1##*/linux-headers-} up=$root/upper src
	cp -a "$c/usr" "$up/"
	mkdir -p "$up/usr/lib/modules/$abi"
	src=$(basename "$(readlink "$c/lib/modules/$abi/source")")
	ln -sfn "/usr/src/linux-headers-$abi" "$up/usr/lib/modules/$abi/build"
	ln -sfn "/usr/src/$src" "$up/usr/lib/modules/$abi/source"
	sed -i "s|^include .*/usr/src/|include /usr/src/|" \
		"$up/usr/src/linux-headers-$abi/Makefile"
	printf '%s\n' "$abi"
}
kabis=("$(place_headers "$ARBEL_KDIR")" "$(place_headers "$k612")")

ktap_start
if ! deb=$("$top/scripts/build-deb.sh" 2>"$out/build-deb.log"); then
	ktap_fail "make deb" "$(tail -n 30 "$out/build-deb.log")"
	ktap_finish
fi
name=$(basename "$deb")
ver=$(dpkg-deb -f "$deb" Version)
rc=0; [ "$name" = "arbel-dkms_${ver}_all.deb" ] || rc=1
ktap_result "$rc" "make deb: $name" "expected arbel-dkms_${ver}_all.deb"
rc=0; info=$(dpkg-deb -I "$deb")
grep -q 'Depends:.*dkms' <<<"$info" && grep -q ' postinst ' <<<"$info" &&
	grep -q ' prerm ' <<<"$info" || rc=1
ktap_result "$rc" "$name depends on dkms and has DKMS's postinst and prerm" "$info"

unshare -m "$top/scripts/deb-chroot.sh" "$deb" "$root" "$out" "${kabis[@]}" \
	>"$out/chroot.log" 2>&1 || true
ktap_result "$(cat "$out/install.rc" 2>/dev/null || echo 1)" \
	"dpkg -i $name in a chroot" \
	"$(cat "$out/chroot.log" "$out/install.log" 2>/dev/null | tail -n 30)"
ko=$(ls "$out"/arbel.ko* 2>/dev/null | head -n 1 || true)
rc=0; [ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$ARBEL_KABI" ] || rc=1
ktap_result "$rc" "DKMS built and installed arbel.ko for $ARBEL_KABI" \
	"$(cat "$out/dkms-status.txt" 2>/dev/null)"
ko612=$(ls "$out/${kabis[1]}"/arbel.ko* 2>/dev/null | head -n 1 || true)
rc612=0
[ -n "$ko612" ] && [ "$(modinfo -F vermagic "$ko612" | cut -d' ' -f1)" = "${kabis[1]}" ] || rc612=1
ktap_result "$rc612" "DKMS built and installed arbel.ko for ${kabis[1]}" \
	"$(cat "$out/dkms-status.txt" 2>/dev/null)"
# what lets udev load it for the card
alias=$([ -n "$ko" ] && modinfo -F alias "$ko" 2>&1 || true)
rc=0; grep -q 'v000015B3d00006282' <<<"$alias" || rc=1
ktap_result "$rc" "the module DKMS built has the 15b3:6282 alias" \
	"modinfo -F alias: $alias"
ktap_diag "dkms status after dpkg -i: $(grep -v readelf "$out/dkms-status.txt" 2>/dev/null)"

if [ "$rc" = 0 ]; then
	make -s -C "$top/examples" O="$out/guest-bin" >&2
	GUEST='ibv_devices | grep -q arbel0 || { echo "no arbel0"; exit 1; }; reg_mr_demo'
	rc=0
	env MODULE="$ko" LOAD=1 CMD="$GUEST" \
		GUEST_BIN="$out/guest-bin" VM_OUT="$out/vm" TIMEOUT=300 \
		"$top/scripts/vm/run.sh" >"$out/vm.log" 2>&1 || rc=$?
	ktap_result "$rc" "the package's arbel.ko loads in the VM and registers memory (reg_mr_demo)" \
		"$(tail -n 30 "$out/vm.log")"
else
	ktap_skip "the package's arbel.ko loads in the VM and registers memory (reg_mr_demo)" \
		"no module from the package"
fi

ktap_result "$(cat "$out/purge.rc" 2>/dev/null || echo 1)" "dpkg --purge arbel-dkms" \
	"$(cat "$out/purge.log" 2>/dev/null)"
left=$(cd "$root/upper" && find . -name '*arbel*' ! -type c 2>/dev/null || true)
left+=$(grep -v 'not-installed\|no packages found' "$out/after-purge.txt" 2>/dev/null || true)
rc=0; [ -z "$left" ] || rc=1
ktap_result "$rc" "nothing of arbel-dkms is left after the purge" "$left"
ktap_finish
