#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the path of Debian's ib_mthca.ko for $ARBEL_KABI from the VM kernel
# cache (scripts/vm/prepare.sh fills it); exit 1 if there is none.
set -uo pipefail
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=scripts/env.sh
. "$REPO/scripts/env.sh"
ko=$(find "$ARBEL_CACHE/vm/kernel" -path "*/$ARBEL_KABI/*" -name ib_mthca.ko \
	2>/dev/null | head -n 1)
[ -n "$ko" ] || exit 1
echo "$ko"
