#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build Debian bookworm's QEMU 7.2 (qemu-system-x86_64 only, TCG only) with
# the arbel-stub device from qemu/ compiled in.
#
# Contract:
#   stdout  exactly one line: the absolute path of the built qemu-system-x86_64
#   stderr  all logs
#   exit    non-zero on failure
#
# Layout under $ARBEL_CACHE (see scripts/env.sh):
#   qemu-src/qemu-<ver>/       Debian's source, patches applied, plus hw/arbel
#   qemu-build/<ver>/          one fixed build dir per QEMU version (ccache and
#                              ninja stay warm across edits of qemu/)
#   qemu-bin/<ver>-<hash>/     the result, keyed by QEMU version and a hash of
#                              qemu/ and this script; a hit returns at once
#   ccache/                    CCACHE_DIR
#
# The binary is configured with --firmwarepath=/usr/share/qemu:/usr/share/seabios
# and a prefix outside /usr (so QEMU does not "relocate" those absolute paths
# next to the executable): SeaBIOS (package seabios) and the option ROMs such
# as linuxboot_dma.bin (package qemu-system-data) are found without -L.
# Passing "-L /usr/share/seabios -L /usr/share/qemu" does no harm.

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/env.sh
. "$ROOT/scripts/env.sh"

# Everything below logs to stderr; fd 3 is the real stdout.
exec 3>&1 1>&2

log() { printf 'build-qemu: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

JOBS=${ARBEL_QEMU_JOBS:-2}
CACHE=$ARBEL_CACHE
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
SAFE_PATH=/usr/sbin:/usr/bin:/sbin:/bin
DEVNAME=arbel

# ---------------------------------------------------------------------------
# Source hash: everything that changes the binary besides Debian's source.
# ---------------------------------------------------------------------------
src_hash() {
	(
		cd "$ROOT"
		find qemu -type f ! -name '*~' ! -name '.*' | LC_ALL=C sort |
			while read -r f; do
				printf '%s\n' "$f"
				cat "$f"
			done
		cat scripts/build-qemu.sh
	) | sha256sum | cut -c1-16
}

[ -d "$ROOT/qemu" ] || die "no qemu/ directory in $ROOT"
HASH=$(src_hash)

# The version to build: the source of the binary qemu-system-x86 that apt
# would install, else the newest source known.
want_version() {
	local cand v
	cand=$(apt-cache policy qemu-system-x86 2>/dev/null |
		sed -n 's/^ *Candidate: *//p')
	case $cand in "" | "(none)") return 0 ;; esac
	v=$(apt-cache show "qemu-system-x86=$cand" 2>/dev/null |
		sed -n 's/^Source: qemu (\(.*\))$/\1/p' | head -n 1)
	echo "${v:-$cand}"
}

# apt-cache takes seconds: remember the answer until the apt lists change.
lists_stamp=$(stat -c %Y /var/lib/apt/lists 2>/dev/null || echo 0)
VERSION=
if [ -f "$CACHE/qemu-version" ]; then
	read -r stamp ver <"$CACHE/qemu-version" || true
	[ "${stamp:-}" = "$lists_stamp" ] && VERSION=${ver:-}
fi
if [ -z "$VERSION" ]; then
	VERSION=$(want_version)
	[ -z "$VERSION" ] || echo "$lists_stamp $VERSION" >"$CACHE/qemu-version"
fi

# Fast path: nothing to do if this exact build already exists.
cached() {
	local d
	if [ -n "$VERSION" ]; then
		set -- "$CACHE/qemu-bin/${VERSION#*:}-$HASH"
	else
		set -- "$CACHE"/qemu-bin/*-"$HASH"
	fi
	for d in "$@"; do
		if [ -x "$d/qemu-system-x86_64" ]; then
			log "cached: $d/qemu-system-x86_64"
			echo "$d/qemu-system-x86_64" >&3
			exit 0
		fi
	done
}
cached

# Serialise concurrent builds (the lead, CI and helpers share the cache).
mkdir -p "$CACHE/qemu-bin"
exec 9>"$CACHE/qemu.lock"
flock 9
cached

# ---------------------------------------------------------------------------
# Packages
# ---------------------------------------------------------------------------
PKGS="libglib2.0-dev libpixman-1-dev meson ninja-build libfdt-dev zlib1g-dev
pkg-config ccache dpkg-dev seabios qemu-system-data python3 gcc make flex
bison bzip2 xz-utils"
missing=
for p in $PKGS; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
if [ -n "$missing" ]; then
	log "installing:$missing"
	[ "$(id -u)" = 0 ] || die "need root to install:$missing"
	export DEBIAN_FRONTEND=noninteractive
	# shellcheck disable=SC2086
	if ! apt-get install -y -q -o DPkg::Lock::Timeout=600 $missing >&2; then
		apt-get update -q >&2
		# shellcheck disable=SC2086
		apt-get install -y -q -o DPkg::Lock::Timeout=600 $missing >&2 || die "apt-get install failed"
	fi
fi

# ---------------------------------------------------------------------------
# Debian's QEMU source, through a private apt configuration (the system's
# sources are never touched).
# ---------------------------------------------------------------------------
APTDIR=$CACHE/apt
mkdir -p "$APTDIR/lists/partial" "$APTDIR/archives/partial"
mirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*\/debian\)[[:space:]]*$/\1/p' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
mirror=${mirror:-http://deb.debian.org/debian}
secmirror=$(sed -n 's/^URIs:[[:space:]]*\(http[^ ]*\/debian-security\)[[:space:]]*$/\1/p' \
	/etc/apt/sources.list.d/*.sources 2>/dev/null | head -n 1)
secmirror=${secmirror:-http://deb.debian.org/debian-security}
cat >"$APTDIR/sources.list.new" <<EOF
deb-src $mirror bookworm main
deb-src $mirror bookworm-updates main
deb-src $secmirror bookworm-security main
EOF
mv "$APTDIR/sources.list.new" "$APTDIR/sources.list"
APTOPTS=(-o "Dir::Etc::SourceList=$APTDIR/sources.list"
	-o "APT::Sandbox::User=root"
	-o "Dir::Etc::SourceParts=/dev/null"
	-o "Dir::State::Lists=$APTDIR/lists"
	-o "Dir::Cache::Archives=$APTDIR/archives"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=")

SRCROOT=$CACHE/qemu-src
mkdir -p "$SRCROOT"

find_src() { # $1 = full version (with epoch)
	local d="$SRCROOT/qemu-${1#*:}"
	[ -f "$d/.arbel-unpacked" ] && echo "$d"
	true
}

SRC=
[ -n "$VERSION" ] && SRC=$(find_src "$VERSION")
if [ -z "$SRC" ]; then
	log "fetching Debian's qemu source ${VERSION:-(newest)}"
	apt-get "${APTOPTS[@]}" update -q >&2 ||
		die "apt-get update (private deb-src) failed"
	srcver=$(apt-cache "${APTOPTS[@]}" showsrc qemu 2>/dev/null |
		sed -n 's/^Version: //p' | sort -V | tail -n 1)
	if [ -n "$VERSION" ] && apt-cache "${APTOPTS[@]}" showsrc qemu |
		grep -qx "Version: $VERSION"; then
		srcver=$VERSION
	fi
	[ -n "$srcver" ] || die "no qemu source package found"
	VERSION=$srcver
	SRC=$(find_src "$VERSION")
fi
if [ -z "$SRC" ]; then
	dl=$SRCROOT/.dl-$$
	rm -rf "$dl"
	mkdir -p "$dl"
	(cd "$dl" && apt-get "${APTOPTS[@]}" source -q --download-only \
		"qemu=$VERSION" >&2) || die "apt-get source qemu=$VERSION failed"
	dscs=("$dl"/*.dsc)
	dsc=${dscs[0]}
	[ -f "$dsc" ] || die "no .dsc downloaded"
	log "unpacking $(basename "$dsc")"
	(cd "$dl" && dpkg-source --no-check -x "$dsc" tree >&2) ||
		die "dpkg-source -x failed"
	SRC=$SRCROOT/qemu-${VERSION#*:}
	rm -rf "$SRC"
	mv "$dl/tree" "$SRC"
	touch "$SRC/.arbel-unpacked"
	rm -rf "$dl"
fi
log "QEMU source $VERSION at $SRC"

# ---------------------------------------------------------------------------
# Wire the device into the tree (idempotent; files copied only when changed,
# so ninja rebuilds only what changed).
# ---------------------------------------------------------------------------
sync_file() { # src dst
	if ! cmp -s "$1" "$2"; then
		mkdir -p "$(dirname "$2")"
		cp "$1" "$2"
	fi
}

HWDIR=$SRC/hw/arbel
mkdir -p "$HWDIR"
# Remove files that no longer exist in qemu/.
for f in "$HWDIR"/*; do
	[ -e "$f" ] || continue
	b=$(basename "$f")
	case $b in
	meson.build | Kconfig) continue ;;
	esac
	[ -e "$ROOT/qemu/$b" ] || rm -f "$f"
done
csrcs=
for f in "$ROOT"/qemu/*.c "$ROOT"/qemu/*.h "$ROOT"/qemu/trace-events; do
	[ -e "$f" ] || continue
	sync_file "$f" "$HWDIR/$(basename "$f")"
	case $f in *.c) csrcs="$csrcs '$(basename "$f")'," ;; esac
done
[ -n "$csrcs" ] || die "no device sources in qemu/"

tmp=$(mktemp)
cat >"$tmp" <<EOF
# Generated by arbel scripts/build-qemu.sh
softmmu_ss.add(when: 'CONFIG_ARBEL_STUB', if_true: files(${csrcs%,}))
EOF
sync_file "$tmp" "$HWDIR/meson.build"
cat >"$tmp" <<'EOF'
# Generated by arbel scripts/build-qemu.sh
config ARBEL_STUB
    bool
    default y if TEST_DEVICES
    depends on PCI
EOF
sync_file "$tmp" "$HWDIR/Kconfig"
cat >"$tmp" <<'EOF'
# Generated by arbel scripts/build-qemu.sh: q35 plus arbel-stub, and the
# PCIe root port it sits in to be hot-plugged (scripts/vm/run.sh VM_HOTPLUG)
CONFIG_Q35=y
CONFIG_PCIE_PORT=y
CONFIG_ARBEL_STUB=y
EOF
sync_file "$tmp" "$SRC/configs/devices/x86_64-softmmu/$DEVNAME.mak"
rm -f "$tmp"

grep -q "^subdir('arbel')" "$SRC/hw/meson.build" ||
	echo "subdir('arbel')" >>"$SRC/hw/meson.build"
grep -q '^source arbel/Kconfig' "$SRC/hw/Kconfig" ||
	echo 'source arbel/Kconfig' >>"$SRC/hw/Kconfig"
# The trace events (qemu/trace-events, trace_arbel_*()): hw/arbel joins
# the top-level list of trace-events directories, as every device's does.
grep -q "^ *'hw/arbel',\$" "$SRC/meson.build" ||
	sed -i "s|^\( *\)'hw/alpha',\$|&\n\1'hw/arbel',|" "$SRC/meson.build"
grep -q "^ *'hw/arbel',\$" "$SRC/meson.build" ||
	die "cannot add hw/arbel to trace_events_subdirs in $SRC/meson.build"

# ---------------------------------------------------------------------------
# Configure (once per version and flag set) and build.
# ---------------------------------------------------------------------------
BUILD=$CACHE/qemu-build/${VERSION#*:}
CONF_FLAGS=(--target-list=x86_64-softmmu --without-default-features
	--enable-tcg --without-default-devices "--with-devices-x86_64=$DEVNAME"
	--disable-docs --disable-werror --prefix=/opt/arbel-qemu
	--firmwarepath=/usr/share/qemu:/usr/share/seabios)
conf_stamp=$(printf '%s\n' "${CONF_FLAGS[@]}" | sha256sum | cut -c1-16)

export CCACHE_DIR=$CACHE/ccache
export CCACHE_BASEDIR=$CACHE
export CCACHE_NOHASHDIR=1
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-2G}
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"

if [ ! -f "$BUILD/build.ninja" ] ||
	[ "$(cat "$BUILD/.arbel-conf" 2>/dev/null)" != "$conf_stamp" ]; then
	log "configuring in $BUILD"
	rm -rf "$BUILD"
	mkdir -p "$BUILD"
	(cd "$BUILD" && env PATH="$SAFE_PATH" nice "$SRC/configure" \
		--cc="$cc" "${CONF_FLAGS[@]}" >&2) || die "configure failed"
	echo "$conf_stamp" >"$BUILD/.arbel-conf"
fi

log "building qemu-system-x86_64 (ninja -j$JOBS)"
start=$(date +%s)
(cd "$BUILD" && env PATH="$SAFE_PATH" CCACHE_DIR="$CCACHE_DIR" \
	nice ninja -j"$JOBS" qemu-system-x86_64 >&2) || die "build failed"
log "built in $(($(date +%s) - start)) s"

OUT=$CACHE/qemu-bin/${VERSION#*:}-$HASH
mkdir -p "$OUT.tmp"
cp "$BUILD/qemu-system-x86_64" "$OUT.tmp/qemu-system-x86_64"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"

# Keep the newest few results only.
find "$CACHE/qemu-bin" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
	sort -rn | tail -n +6 | cut -d' ' -f2- | while read -r d; do
	rm -rf "$d"
done

log "firmware: found via --firmwarepath; equivalently -L /usr/share/seabios -L /usr/share/qemu"
echo "$OUT/qemu-system-x86_64" >&3
