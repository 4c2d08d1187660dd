#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The package half of scripts/deb-check.sh, run by it inside a private
# mount namespace (unshare -m): an overlay of this host's / (writes go to
# ROOT/upper, the host is not touched) is the chroot in which
#   dpkg -i DEB     installs arbel-dkms; its postinst has DKMS build and
#                   install arbel.ko for every kernel with headers in
#                   /lib/modules (this host's own kernel has none: a chroot)
#   then            the first KABI's arbel.ko to OUT, every other one's to
#                   OUT/KABI/, and `dkms status` are copied
#   dpkg --purge    removes it again.
# Each step's log and exit status go to OUT (install.log/.rc,
# purge.log/.rc); deb-check.sh judges them and ROOT/upper (where it put
# the kernels' headers before).
#   deb-chroot.sh DEB ROOT OUT KABI [KABI...]
set -uo pipefail
deb=$1 root=$2 out=$3 kabi=$4
shift 3
mnt=$root/mnt

mount --make-rprivate / || exit 1
mount -t overlay overlay \
	-o "lowerdir=/,upperdir=$root/upper,workdir=$root/work" "$mnt" || exit 1
mount -t proc proc "$mnt/proc" || exit 1
mount --rbind /dev "$mnt/dev" || exit 1
mount -t tmpfs tmpfs "$mnt/tmp" || exit 1
cp "$deb" "$mnt/tmp/"
pkg=/tmp/$(basename "$deb")

in_root() {
	chroot "$mnt" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		DEBIAN_FRONTEND=noninteractive "$@"
}

in_root dpkg -i "$pkg" >"$out/install.log" 2>&1
echo $? >"$out/install.rc"
in_root dkms status >"$out/dkms-status.txt" 2>&1
for k in "$@"; do
	ko=$(find "$mnt/lib/modules/$k/updates" -name 'arbel.ko*' 2>/dev/null | head -n 1)
	dest=$out
	[ "$k" = "$kabi" ] || dest=$out/$k
	mkdir -p "$dest"
	[ -z "$ko" ] || cp "$ko" "$dest/"
done
in_root dpkg --purge arbel-dkms >"$out/purge.log" 2>&1
echo $? >"$out/purge.rc"
in_root dpkg-query -W -f='${Status}\n' arbel-dkms >"$out/after-purge.txt" 2>&1
grep -rl arbel "$mnt/lib/modules"/*/modules.dep >>"$out/after-purge.txt" 2>/dev/null
exit 0
