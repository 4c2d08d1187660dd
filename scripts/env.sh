#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Shared settings for the arbel scripts; source it, do not run it.
#
# ARBEL_CACHE    where expensive, input-keyed builds live (outside the clone)
# ARBEL_KERNEL   the Debian kernel line: 6.1 (default: bookworm's own, what
#                the VM tests boot) or 6.12 (bookworm-security's linux-*-6.12)
# ARBEL_HEADERS_META  the headers metapackage of ARBEL_KERNEL (only asked
#                about, never installed)
# ARBEL_KABI     the Debian kernel ABI the tests build against and boot:
#                the one apt's candidate of ARBEL_HEADERS_META depends on
# ARBEL_KVER     the package version of linux-headers-$ARBEL_KABI
# ARBEL_KDIR     the headers directory for ARBEL_KABI: unpacked into the
#                cache by scripts/kpkg.sh headers (scripts/setup.sh headers),
#                never installed on the host

ARBEL_CACHE=${ARBEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/arbel}
export ARBEL_CACHE

ARBEL_KERNEL=${ARBEL_KERNEL:-6.1}
if [ "$ARBEL_KERNEL" = 6.1 ]; then
	ARBEL_HEADERS_META=linux-headers-amd64
else
	ARBEL_HEADERS_META=linux-headers-$ARBEL_KERNEL-amd64
fi
export ARBEL_KERNEL ARBEL_HEADERS_META

# arbel_apt_key: changes whenever apt's package lists do
arbel_apt_key() {
	stat -c '%n %s %Y' /var/lib/apt/lists/*_Packages* 2>/dev/null | sha256sum | cut -c1-16
}

# arbel_apt_field PKG[=VER] FIELD: a field of apt's candidate (or of VER)
arbel_apt_field() {
	{ apt-cache show --no-all-versions "$1" 2>/dev/null || true; } |
		sed -n "s/^$2: //p" | head -n 1
}

# arbel_memo NAME KEY CMD...: CMD's output, remembered in
# $ARBEL_CACHE/memo/NAME while KEY stays the same (apt-cache takes a second
# here, and this file is sourced by every script)
arbel_memo() {
	_m_f=$ARBEL_CACHE/memo/$1 _m_k=$2
	shift 2
	if [ -f "$_m_f" ] && [ "$(head -n 1 "$_m_f")" = "$_m_k" ]; then
		tail -n +2 "$_m_f"
		return 0
	fi
	mkdir -p "$ARBEL_CACHE/memo"
	{ printf '%s\n' "$_m_k"; "$@"; } >"$_m_f.tmp.$$" || { rm -f "$_m_f.tmp.$$"; return 1; }
	# an empty answer (apt knows nothing yet) is not remembered
	if [ "$(wc -l <"$_m_f.tmp.$$")" -gt 1 ] && [ -n "$(tail -n +2 "$_m_f.tmp.$$")" ]; then
		mv "$_m_f.tmp.$$" "$_m_f"
		tail -n +2 "$_m_f"
	else
		rm -f "$_m_f.tmp.$$"
	fi
}

# arbel_kabi_lookup: "ABI VERSION" of the headers that apt's candidate of
# ARBEL_HEADERS_META depends on (empty, not a failure, while apt knows
# nothing: callers may run with set -e -o pipefail)
arbel_kabi_lookup() {
	_k_abi=$(arbel_apt_field "$ARBEL_HEADERS_META" Depends |
		sed -n 's/.*linux-headers-\([0-9][^ ,]*-amd64\).*/\1/p')
	[ -n "$_k_abi" ] || return 0
	printf '%s %s\n' "$_k_abi" "$(arbel_apt_field "linux-headers-$_k_abi" Version)"
}

if [ -z "${ARBEL_KABI:-}" ]; then
	_k=$(arbel_memo "kabi-$ARBEL_HEADERS_META" "$(arbel_apt_key)" arbel_kabi_lookup || true)
	ARBEL_KABI=${_k%% *}
	ARBEL_KVER=${_k#* }
	[ -n "$ARBEL_KABI" ] || ARBEL_KVER=
elif [ -z "${ARBEL_KVER:-}" ]; then
	ARBEL_KVER=$(arbel_memo "version-linux-headers-$ARBEL_KABI" "$(arbel_apt_key)" \
		arbel_apt_field "linux-headers-$ARBEL_KABI" Version || true)
fi
export ARBEL_KABI ARBEL_KVER
ARBEL_KDIR=${ARBEL_KDIR:-$ARBEL_CACHE/headers/$ARBEL_KABI+$ARBEL_KVER/usr/src/linux-headers-$ARBEL_KABI}
export ARBEL_KDIR
