#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a part of the project needs, once.  Kernel
# packages are never installed: the headers and linux-source are unpacked
# into $ARBEL_CACHE (scripts/kpkg.sh), so that neither make nor make check
# changes what the host boots.
#   setup.sh headers         build tools (make, make check), and the kernel
#                            headers of $ARBEL_KERNEL unpacked into the
#                            cache ($ARBEL_KDIR, scripts/env.sh)
#   setup.sh kernel-source   what KUnit builds need; linux-source-6.1 is
#                            unpacked into the cache by scripts/ktree.sh
#   setup.sh kernel-source-X.Y  the same for linux-source-X.Y (in-tree
#                            stages, scripts/intree.sh)
#   setup.sh lint            sparse, codespell, docutils
#   setup.sh dkms            dkms
#   setup.sh docs            Sphinx (make htmldocs)
#   setup.sh deb             debhelper and dh-dkms (make deb)
#   setup.sh verbs           libibverbs-dev (guest test programs)
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"

want=()
kheaders=0
for part in "$@"; do
	case $part in
	headers)
		# what the headers and linux-kbuild packages depend on, but
		# themselves (pahole: 6.12's BTF of modules)
		want+=(make gcc gcc-12 libelf-dev bc flex bison kmod pahole
		       libssl3 zlib1g)
		kheaders=1;;
	kernel-source | kernel-source-*)
		want+=(xz-utils flex bison bc libssl-dev libelf-dev python3 perl
		       patch);;
	dkms)
		want+=(dkms);;
	deb)
		want+=(debhelper dh-dkms dpkg-dev dkms);;
	docs)
		want+=(python3-sphinx python3-docutils);;
	verbs)
		want+=(libibverbs-dev);;
	lint)
		want+=(sparse codespell python3-docutils);;
	*)
		echo "setup.sh: unknown part '$part'" >&2; exit 2;;
	esac
done

missing=()
for p in "${want[@]}"; do
	case $p in
	linux-image* | linux-headers* | linux-source* | linux-kbuild* | linux-modules*)
		echo "setup.sh: refusing to install the kernel package $p" >&2
		exit 1;;
	esac
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "setup.sh: need root to install: ${missing[*]}" >&2
		exit 1
	fi
	echo "setup.sh: installing ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq -o DPkg::Lock::Timeout=600 >&2
	apt-get install -y -qq -o DPkg::Lock::Timeout=600 --no-install-recommends \
		"${missing[@]}" >&2
fi

if [ "$kheaders" = 1 ]; then
	if [ -z "$ARBEL_KABI" ]; then
		# apt knew no headers metapackage when env.sh asked: once more,
		# with fresh lists
		apt-get update -qq >&2 || true
		unset ARBEL_KABI ARBEL_KVER ARBEL_KDIR
		. "$(dirname "$0")/env.sh"
	fi
	"$(dirname "$0")/kpkg.sh" headers >/dev/null
fi
