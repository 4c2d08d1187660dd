#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages a part of the project needs, once.
#   setup.sh headers         kernel headers of $ARBEL_KERNEL (scripts/env.sh)
#                            + build tools (make, make check)
#   setup.sh kernel-source   linux-source-6.1 and what KUnit builds need
#   setup.sh kernel-source-X.Y  the same for linux-source-X.Y (in-tree stages)
#   setup.sh lint            sparse, codespell, docutils
#   setup.sh dkms            dkms
#   setup.sh docs            Sphinx (make htmldocs)
#   setup.sh deb             debhelper and dh-dkms (make deb)
#   setup.sh verbs           libibverbs-dev (guest test programs)
set -euo pipefail
# shellcheck source=scripts/env.sh
. "$(dirname "$0")/env.sh"

want=()
for part in "$@"; do
	case $part in
	headers)
		want+=("$ARBEL_HEADERS_META" make gcc libelf-dev bc flex bison
		       kmod);;
	kernel-source)
		want+=(linux-source-6.1 xz-utils flex bison bc libssl-dev
		       libelf-dev python3 perl);;
	kernel-source-*)
		want+=("linux-source-${part#kernel-source-}" xz-utils flex bison
		       bc libssl-dev libelf-dev python3 perl patch);;
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
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "setup.sh: need root to install: ${missing[*]}" >&2
	exit 1
fi
echo "setup.sh: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
