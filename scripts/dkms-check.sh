#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build arbel.ko through DKMS from dkms.conf, against the Debian headers the
# tests use, in private DKMS and source trees (the system's DKMS state is
# not touched).  KTAP on stdout: the build, and the module's PCI alias.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
. "$top/scripts/ktap.sh"
"$top/scripts/setup.sh" headers dkms >&2

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/arbel-$ver" "$work/dkms"
# The module's sources only, as a package would ship them.
(cd "$top" && git ls-files -co --exclude-standard -- Kbuild dkms.conf \
	drivers include) | (cd "$top" && xargs cp --parents -t "$work/src/arbel-$ver")

ktap_start
name="dkms build of arbel $ver for $ARBEL_KABI"
if dkms build --dkmstree "$work/dkms" --sourcetree "$work/src" \
	-m arbel -v "$ver" -k "$ARBEL_KABI" >"$work/build.log" 2>&1 &&
   ko=$(find "$work/dkms/arbel/$ver/$ARBEL_KABI" -name 'arbel.ko*' | head -n 1) &&
   [ -n "$ko" ]; then
	ktap_ok "$name: $(basename "$ko")"
	alias=$(modinfo -F alias "$ko" 2>&1 || true)
	if grep -q 'v000015B3d00006282' <<<"$alias"; then
		ktap_ok "the module DKMS built has the 15b3:6282 alias"
	else
		ktap_fail "the module DKMS built has the 15b3:6282 alias" \
			"modinfo -F alias: $alias"
	fi
else
	ktap_fail "$name" "$(cat "$work/build.log"
		find "$work/dkms" -name make.log -exec cat {} + 2>/dev/null |
			tail -n 30)"
	ktap_skip "the module DKMS built has the 15b3:6282 alias" "no module built"
fi
ktap_finish
