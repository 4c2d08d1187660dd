#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of Debian's ib_mthca.ko for $ARBEL_KABI from the VM kernel
# cache (scripts/vm/prepare.sh fills it); exit 1 if there is none.  A
# compressed one (6.12: ib_mthca.ko.xz) is decompressed beside it, once.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/env.sh
. "$REPO/scripts/env.sh"
ko=$(find "$ARBEL_CACHE/vm/kernel" -path "*/$ARBEL_KABI/*" \
	\( -name ib_mthca.ko -o -name ib_mthca.ko.xz \) 2>/dev/null | sort | head -n 1)
[ -n "$ko" ] || exit 1
if [ "${ko%.xz}" != "$ko" ]; then
	xz -dc "$ko" >"${ko%.xz}.tmp" && mv "${ko%.xz}.tmp" "${ko%.xz}" || exit 1
	ko=${ko%.xz}
fi
echo "$ko"
