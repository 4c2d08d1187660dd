#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build arbel.ko through DKMS from dkms.conf, against the Debian headers the
# tests use, in private DKMS and source trees (the system's DKMS state is
# not touched).  Prints "dkms: N passed, N failed".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
"$top/scripts/setup.sh" headers dkms

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/arbel-$ver" "$work/dkms"
# The module's sources only, as a package would ship them.
(cd "$top" && git ls-files -co --exclude-standard -- Kbuild dkms.conf \
	drivers include) | (cd "$top" && xargs cp --parents -t "$work/src/arbel-$ver")

pass=0 fail=0
if dkms build --dkmstree "$work/dkms" --sourcetree "$work/src" \
	-m arbel -v "$ver" -k "$ARBEL_KABI" >"$work/build.log" 2>&1 &&
   ko=$(find "$work/dkms/arbel/$ver/$ARBEL_KABI" -name 'arbel.ko*' | head -n 1) &&
   [ -n "$ko" ] && modinfo "$ko" | grep -q 'v000015B3d00006282'; then
	echo "ok 1 - dkms build of arbel $ver for $ARBEL_KABI: $(basename "$ko") with the 15b3:6282 alias"
	pass=1
else
	echo "not ok 1 - dkms build of arbel $ver for $ARBEL_KABI"
	cat "$work/build.log"
	find "$work/dkms" -name make.log -exec cat {} + 2>/dev/null | tail -n 30
	fail=1
fi
echo "dkms: $pass passed, $fail failed"
[ "$fail" = 0 ]
