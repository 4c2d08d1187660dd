#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Debian kernel packages for the tests, fetched with `apt-get download` and
# unpacked with `dpkg-deb -x` into $ARBEL_CACHE: never installed on the
# host (installing linux-headers-X.Y-amd64 pulls in linux-image-X.Y, which
# becomes the host's default boot kernel).
#
#   kpkg.sh version PKG          the version apt would install (apt-cache's
#                                candidate; remembered in $ARBEL_CACHE/memo
#                                while the package lists stay the same)
#   kpkg.sh unpack DIR PKG=VER...  download the packages and unpack them all
#                                into DIR (once: DIR/.done); the .debs are
#                                deleted afterwards
#   kpkg.sh headers              print $ARBEL_KDIR, the headers of
#                                $ARBEL_KABI unpacked into
#                                $ARBEL_CACHE/headers/<abi>+<version>/
#                                (linux-headers-<abi>, its -common and
#                                linux-kbuild), made usable where they are
#   kpkg.sh source X.Y           print "VERSION TARBALL" of linux-source-X.Y,
#                                unpacked into
#                                $ARBEL_CACHE/kpkg/linux-source-X.Y+<version>/
#
# The headers' absolute paths are rewritten to point into the cache: the
# Makefile's `include /usr/src/linux-headers-<abi>-common/Makefile`, and
# every absolute symlink (lib/modules/<abi>/build and source) becomes a
# relative one; `make -C $ARBEL_KDIR M=...` then works as with the
# installed package.  scripts/vm/prepare.sh fetches the guests' kernel
# images through `kpkg.sh unpack` as well.  Logs on stderr.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/env.sh
. "$top/scripts/env.sh"

log() { printf 'kpkg: %s\n' "$*" >&2; }
die() { printf 'kpkg: error: %s\n' "$*" >&2; exit 1; }

# version PKG: apt-cache's candidate (empty if apt does not know it)
version() {
	local pkg=$1 v
	v=$(arbel_memo "candidate-$pkg" "$(arbel_apt_key)" arbel_apt_field "$pkg" Version)
	if [ -z "$v" ] && [ "$(id -u)" = 0 ] && [ ! -f "$ARBEL_CACHE/memo/.updated" ]; then
		# no package lists yet (a fresh container): fetch them once
		log "apt knows no $pkg: apt-get update"
		apt-get update -qq >&2 || true
		mkdir -p "$ARBEL_CACHE/memo" && touch "$ARBEL_CACHE/memo/.updated"
		v=$(arbel_memo "candidate-$pkg" "$(arbel_apt_key)" arbel_apt_field "$pkg" Version)
	fi
	printf '%s\n' "$v"
}

# unpack DIR PKG=VER...: DIR holds the packages' files, DIR/.done when whole
unpack() {
	local dir=$1 spec pkg ver debs=$ARBEL_CACHE/debs f
	shift
	mkdir -p "$(dirname "$dir")" "$debs"
	exec 7>"$dir.lock"
	flock 7
	if [ -f "$dir/.done" ]; then
		exec 7>&-
		return 0
	fi
	rm -rf "$dir" "$dir.tmp"
	mkdir -p "$dir.tmp"
	for spec in "$@"; do
		pkg=${spec%%=*} ver=${spec#*=}
		# the .deb's file name has the version without its epoch
		f=$(find "$debs" -maxdepth 1 -name "${pkg}_${ver#*:}_*.deb" | head -n 1)
		if [ -z "$f" ]; then
			log "apt-get download $pkg=$ver"
			(cd "$debs" && apt-get download -qq -o APT::Sandbox::User=root \
				"$pkg=$ver" >&2) || die "apt-get download $pkg=$ver failed"
			f=$(find "$debs" -maxdepth 1 -name "${pkg}_${ver#*:}_*.deb" | head -n 1)
			[ -n "$f" ] || die "apt-get download did not produce ${pkg}_${ver}_*.deb"
		fi
		dpkg-deb -x "$f" "$dir.tmp"
		printf '%s\n' "$spec" >>"$dir.tmp/.packages"
		rm -f "$f"
	done
	touch "$dir.tmp/.done"
	mv "$dir.tmp" "$dir"
	exec 7>&-
}

# relink ROOT: every absolute symlink below ROOT that points at a path
# ROOT holds becomes a relative link to it
relink() {
	local root=$1 l t rel
	find "$root" -type l -lname '/*' -print0 |
		while IFS= read -r -d '' l; do
			t=$(readlink "$l")
			[ -e "$root$t" ] || [ -L "$root$t" ] || continue
			rel=$(realpath -m -s --relative-to="$(dirname "$l")" "$root$t")
			ln -sfn "$rel" "$l"
		done
}

# keep the N newest entries of a cache directory matching a glob
prune() {
	local n=$1 d
	shift
	# shellcheck disable=SC2012 # names are ours, without blanks
	ls -dt "$@" 2>/dev/null | grep -v '\.\(tmp\|lock\)$' | tail -n +$((n + 1)) |
		while read -r d; do rm -rf "$d" "$d.lock"; done
}

headers() {
	local abi=$ARBEL_KABI ver=$ARBEL_KVER dir deps common kbuild hdir
	[ -n "$abi" ] || die "no kernel ABI for $ARBEL_HEADERS_META (apt-cache knows none: run apt-get update, or set ARBEL_KABI)"
	[ -n "$ver" ] || die "apt knows no linux-headers-$abi (set ARBEL_KABI to an ABI it has)"
	dir=$ARBEL_CACHE/headers/$abi+$ver
	hdir=$dir/usr/src/linux-headers-$abi
	if [ ! -f "$dir/.fixed" ]; then
		deps=$(arbel_apt_field "linux-headers-$abi=$ver" Depends)
		common=$(sed -n 's/.*\(linux-headers-[^ ,]*-common\).*/\1/p' <<<"$deps")
		kbuild=$(sed -n 's/.*\(linux-kbuild-[^ ,]*\).*/\1/p' <<<"$deps")
		[ -n "$common" ] && [ -n "$kbuild" ] ||
			die "linux-headers-$abi=$ver: no -common or linux-kbuild in '$deps'"
		log "unpacking the headers of $abi ($ver) into $dir"
		unpack "$dir" "linux-headers-$abi=$ver" "$common=$ver" "$kbuild=$ver"
		exec 7>"$dir.lock"
		flock 7
		if [ ! -f "$dir/.fixed" ]; then
			relink "$dir"
			sed -i "s|^include /usr/src/|include $dir/usr/src/|" "$hdir/Makefile"
			touch "$dir/.fixed"
		fi
		exec 7>&-
		prune 4 "$ARBEL_CACHE"/headers/*+*
	fi
	[ -f "$dir/.fixed" ] || die "$dir: the headers' paths were not fixed"
	[ "$hdir" = "$ARBEL_KDIR" ] || log "note: ARBEL_KDIR=$ARBEL_KDIR, not $hdir"
	printf '%s\n' "$hdir"
}

source_tarball() {
	local k=$1 pkg ver dir
	pkg=linux-source-$k
	ver=$(version "$pkg")
	if [ -z "$ver" ]; then
		# no package lists: a cached one, if any
		dir=$(find "$ARBEL_CACHE/kpkg" -maxdepth 2 -name .done -path "*/$pkg+*" 2>/dev/null |
			sed 's|/.done$||' | sort -V | tail -n 1)
		[ -n "$dir" ] || die "apt knows no $pkg"
		ver=${dir##*/"$pkg"+}
	fi
	dir=$ARBEL_CACHE/kpkg/$pkg+$ver
	if [ ! -f "$dir/.done" ]; then
		log "unpacking $pkg $ver into $dir"
		unpack "$dir" "$pkg=$ver"
		prune 2 "$ARBEL_CACHE/kpkg/$pkg"+*
	fi
	[ -f "$dir/usr/src/$pkg.tar.xz" ] || die "no $pkg.tar.xz in $dir"
	printf '%s %s\n' "$ver" "$dir/usr/src/$pkg.tar.xz"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
version) [ $# = 1 ] || die "usage: kpkg.sh version PKG"; version "$1" ;;
unpack) [ $# -ge 2 ] || die "usage: kpkg.sh unpack DIR PKG=VER..."; unpack "$@" ;;
headers) headers ;;
source) [ $# = 1 ] || die "usage: kpkg.sh source X.Y"; source_tarball "$1" ;;
*) die "usage: kpkg.sh version|unpack|headers|source ..." ;;
esac
