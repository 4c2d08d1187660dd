# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers shared by scripts/vm/*.sh; source it, do not run it.
# Expects: set -eu, bash.

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$VM_DIR/../.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../env.sh
. "$REPO/scripts/env.sh"

# shellcheck disable=SC2034 # used by the scripts that source this
VM_CACHE=$ARBEL_CACHE/vm

vm_log() {
	printf 'vm: %s\n' "$*" >&2
}

# The stub's ownership reports in its log $1 (qemu/arbel-life.c): a
# mailbox, a data DMA or a hand-over that touched a page the HCA owned.
# Prints the first five on stderr; status 0 if there is any.  A test's
# own, provoked ones ("ownership (expected):") are not reports.
vm_stub_reports() {
	grep -aq 'arbel-stub: ownership: ' "$1" 2>/dev/null || return 1
	grep -a 'arbel-stub: ownership: ' "$1" | head -n 5 >&2 || true
	return 0
}

vm_die() {
	printf 'vm: error: %s\n' "$*" >&2
	exit "${VM_DIE_RC:-125}"
}

# Install Debian packages that are missing on the host (the host is bookworm,
# like the guest user space). Never touches the apt sources.
vm_need_pkgs() {
	local p missing=() installed
	installed=$(dpkg-query -W -f='${Status} ${Package}\n' "$@" 2>/dev/null |
		sed -n 's/^install ok installed //p')
	for p in "$@"; do
		grep -qxF "$p" <<<"$installed" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" -eq 0 ] || vm_die "missing packages (install as root): ${missing[*]}"
	vm_log "installing host packages: ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 \
		--no-install-recommends "${missing[@]}" >&2; then
		apt-get update -q >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o DPkg::Lock::Timeout=600 \
			--no-install-recommends "${missing[@]}" >&2 ||
			vm_die "apt-get install ${missing[*]} failed"
	fi
}

# Print the absolute shared-library closure of ELF files (one path a line,
# as ldd names them, plus the dynamic loader). Non-ELF files print nothing.
vm_ldd_closure() {
	local f
	for f in "$@"; do
		[ "$(head -c 4 "$f" 2>/dev/null | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		ldd "$f" 2>/dev/null | awk '
			$2 == "=>" && $3 ~ /^\// { print $3; next }
			$1 ~ /^\// { print $1 }'
	done | sort -u
}

# vm_memo NAME KEY CMD...: print CMD's output, cached in $VM_CACHE/memo under
# NAME while KEY stays the same (for slow look-ups: apt-cache, ldd).
vm_memo() {
	local name=$1 key=$2 f
	shift 2
	f=$VM_CACHE/memo/$name
	if [ -f "$f" ] && [ "$(head -n 1 "$f")" = "$key" ]; then
		tail -n +2 "$f"
		return 0
	fi
	mkdir -p "$VM_CACHE/memo"
	{ printf '%s\n' "$key"; "$@"; } >"$f.tmp.$$" || { rm -f "$f.tmp.$$"; return 1; }
	mv "$f.tmp.$$" "$f"
	tail -n +2 "$f"
}

# Copy an absolute host path into the staging root $1 at the same path,
# dereferencing symlinks (the usr-merged layout of the staging root takes
# care of /lib vs /usr/lib).
vm_stage_file() {
	local root=$1 src=$2
	mkdir -p "$root$(dirname "$src")"
	cp -L --preserve=mode "$src" "$root$src"
}

# Print the usr-merged spelling of an absolute path (/lib/x -> /usr/lib/x).
vm_usr_path() {
	case $1 in
	/bin/* | /sbin/* | /lib/* | /lib64/*) printf '/usr%s\n' "$1" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# Create an empty usr-merged root like bookworm's.
vm_stage_skeleton() {
	local root=$1 d
	mkdir -p "$root"/usr/bin "$root"/usr/sbin "$root"/usr/lib "$root"/usr/lib64
	for d in bin sbin lib lib64; do
		ln -sfn "usr/$d" "$root/$d"
	done
	mkdir -p "$root"/dev "$root"/proc "$root"/sys "$root"/tmp "$root"/run \
		"$root"/root "$root"/etc "$root"/opt/arbel/bin "$root"/mnt
	chmod 1777 "$root"/tmp
}

# Write a newc cpio of directory $1 to stdout, owned by root.
vm_cpio() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio --quiet -o -H newc -R 0:0)
}
