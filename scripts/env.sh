#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared settings for the arbel scripts; source it, do not run it.
#
# ARBEL_CACHE    where expensive, input-keyed builds live (outside the clone)
# ARBEL_KERNEL   the Debian kernel line: 6.1 (default: bookworm's own, what
#                the VM tests boot) or 6.12 (bookworm-security's linux-*-6.12)
# ARBEL_HEADERS_META  the headers metapackage of ARBEL_KERNEL
# ARBEL_KABI     the Debian kernel ABI the tests build against and boot
#                (resolved from ARBEL_HEADERS_META)
# ARBEL_KDIR     the headers directory for ARBEL_KABI

ARBEL_CACHE=${ARBEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arbel}
export ARBEL_CACHE

ARBEL_KERNEL=${ARBEL_KERNEL:-6.1}
if [ "$ARBEL_KERNEL" = 6.1 ]; then
	ARBEL_HEADERS_META=linux-headers-amd64
else
	ARBEL_HEADERS_META=linux-headers-$ARBEL_KERNEL-amd64
fi
export ARBEL_KERNEL ARBEL_HEADERS_META

# (empty, not a failure, while the metapackage is not installed: callers
# may run with set -e -o pipefail)
arbel_kabi() {
	{ dpkg-query -W -f='${Depends}\n' "$ARBEL_HEADERS_META" 2>/dev/null || true; } |
		sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p' | head -n 1
}

if [ -z "${ARBEL_KABI:-}" ]; then
	ARBEL_KABI=$(arbel_kabi)
fi
export ARBEL_KABI
ARBEL_KDIR=${ARBEL_KDIR:-/usr/src/linux-headers-$ARBEL_KABI}
export ARBEL_KDIR
