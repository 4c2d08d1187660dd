#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build arbel.ko through DKMS from dkms.conf, against the Debian headers the
# tests use (unpacked into the cache, $ARBEL_KDIR: --kernelsourcedir), in
# private DKMS and source trees, with a throw-away signing key (the
# system's DKMS state and /var/lib/dkms are not touched).  KTAP on stdout:
# the build, and the module's PCI alias.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" headers dkms >&2
. "$top/scripts/env.sh"
. "$top/scripts/ktap.sh"

ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src/arbel-$ver" "$work/dkms"
# The module's sources only, as a package would ship them.
(cd "$top" && git ls-files -co --exclude-standard -- Kbuild dkms.conf \
	drivers include) | (cd "$top" && xargs cp --parents -t "$work/src/arbel-$ver")

ktap_start
name="dkms build of arbel $ver for $ARBEL_KABI"
# DKMS signs what it builds, creating /var/lib/dkms/mok.key if there is
# none: sign with the cached headers' sign-file and a key of our own
if env sign_file="$ARBEL_KDIR/scripts/sign-file" \
	mok_signing_key="$work/mok.key" mok_certificate="$work/mok.pub" \
	dkms build --dkmstree "$work/dkms" --sourcetree "$work/src" \
	--kernelsourcedir "$ARBEL_KDIR" \
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
