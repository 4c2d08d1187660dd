#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared settings for the arbel scripts; source it, do not run it.
#
# ARBEL_CACHE  where expensive, input-keyed builds live (outside the clone)
# ARBEL_KABI   the Debian kernel ABI the tests build against and boot
#              (resolved from the linux-headers-amd64 metapackage)
# ARBEL_KDIR   the headers directory for ARBEL_KABI

ARBEL_CACHE=${ARBEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arbel}
export ARBEL_CACHE

arbel_kabi() {
	dpkg-query -W -f='${Depends}\n' linux-headers-amd64 2>/dev/null |
		sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p' | head -n 1
}

if [ -z "${ARBEL_KABI:-}" ]; then
	ARBEL_KABI=$(arbel_kabi)
fi
export ARBEL_KABI
ARBEL_KDIR=${ARBEL_KDIR:-/usr/src/linux-headers-$ARBEL_KABI}
export ARBEL_KDIR
