#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare what the arbel test VM boots, cached under $ARBEL_CACHE/vm:
#   - Debian's kernel image + modules for exactly $ARBEL_KABI
#     (scripts/kpkg.sh unpack: apt-get download linux-image-$ARBEL_KABI,
#     dpkg-deb -x; then depmod), keyed by the package version: never
#     installed on the host;
#   - a base initramfs (gzip'ed newc cpio): busybox-static + /init, ib_core,
#     ib_uverbs (+ $VM_MODULES) and their dependencies, rdma-core's ibverbs-utils
#     with libibverbs and the mthca provider only, iproute2's rdma, bash,
#     a blacklist for ib_mthca, perftest's ib_* programs (the mthca-traffic
#     stage); keyed by a hash of all its inputs;
#   - with VM_PYTHON=1: a python layer (python3 + pyverbs + rdma-core's tests
#     under /opt/rdma-core/tests), keyed the same way.
#
# Missing host packages are installed with apt-get (the host is bookworm).
#
# stdout: shell assignments for run.sh (VM_KERNEL, VM_BASE_INITRD,
#         VM_BASE_FILES, and VM_PY_INITRD when VM_PYTHON=1); logs on stderr.
#
# Environment:
#   VM_MODULES     extra kernel modules (by name) to put into the base image
#   VM_PROVIDERS   libibverbs providers (default: mthca; bench/run.sh adds rxe)
#   VM_EXTRA_BINS  extra host executables to copy with their libraries
#   VM_PYTHON=1    also build the python layer
#   VM_REBUILD=1   ignore the initramfs caches (the kernel tree stays cached)
#   VM_KERNEL_ROOT boot this kernel instead of Debian's: a directory with
#                  release, boot/vmlinuz-RELEASE and lib/modules/RELEASE
#                  (scripts/debug-kernel.sh)

set -eu

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

[ -n "${ARBEL_KABI:-}" ] || vm_die "ARBEL_KABI is unknown: apt knows no $ARBEL_HEADERS_META (apt-get update?), or set ARBEL_KABI"

BASE_MODULES="ib_core ib_uverbs ${VM_MODULES:-}"
HOST_PKGS="busybox-static ibverbs-utils ibverbs-providers perftest iproute2 bash kmod cpio gzip
	xz-utils seabios qemu-system-data"
PY_PKGS="python3 python3-pyverbs"

mkdir -p "$VM_CACHE"
exec 9>"$VM_CACHE/.lock"
flock 9
# leftovers of an interrupted run (we hold the lock: nobody else is building)
rm -rf "$VM_CACHE"/initramfs/stage*.* "$VM_CACHE"/initramfs/*.tmp

# shellcheck disable=SC2086
vm_need_pkgs $HOST_PKGS
if [ "${VM_PYTHON:-0}" = 1 ]; then
	# shellcheck disable=SC2086
	vm_need_pkgs $PY_PKGS
fi

# --- kernel ----------------------------------------------------------------
if [ -n "${VM_KERNEL_ROOT:-}" ]; then
	# a kernel of our own (scripts/debug-kernel.sh): boot/, lib/modules/
	kdir=$VM_KERNEL_ROOT
	[ -f "$kdir/.done" ] || vm_die "VM_KERNEL_ROOT=$kdir is not a built kernel"
	ARBEL_KABI=$(cat "$kdir/release")
	kver=own-$(stat -c %Y "$kdir/.done")
else
	kpkg=linux-image-$ARBEL_KABI
	# apt-cache's candidate, remembered while the package lists stay the same
	kver=$("$REPO/scripts/kpkg.sh" version "$kpkg")
	if [ -z "$kver" ]; then
		# no apt lists: fall back to a cached extraction of this ABI, if any
		kver=$(find "$VM_CACHE/kernel" -maxdepth 2 -name .done -path "*/$ARBEL_KABI+*" 2>/dev/null |
			sed "s|.*/$ARBEL_KABI+||; s|/.done||" | sort -V | tail -n 1)
		[ -n "$kver" ] || vm_die "apt knows no $kpkg (run apt-get update?)"
		vm_log "apt knows no $kpkg; using cached $kver"
	fi
	kdir=$VM_CACHE/kernel/$ARBEL_KABI+$kver
	if [ ! -f "$kdir/.done" ]; then
		vm_log "fetching $kpkg=$kver"
		rm -rf "$kdir" "$kdir.tmp"
		# downloaded and unpacked, never installed (scripts/kpkg.sh)
		"$REPO/scripts/kpkg.sh" unpack "$kdir.tmp" "$kpkg=$kver" ||
			vm_die "apt-get download $kpkg=$kver failed"
		rm -f "$kdir.tmp/.done"
		depmod -b "$kdir.tmp" "$ARBEL_KABI"
		[ -f "$kdir.tmp/boot/vmlinuz-$ARBEL_KABI" ] || vm_die "no vmlinuz in $kpkg=$kver"
		touch "$kdir.tmp/.done"
		mv "$kdir.tmp" "$kdir"
		rm -f "$kdir.tmp.lock"
		# keep the 3 newest kernel trees (about 400 MB each)
		# shellcheck disable=SC2010,SC2012 # names are ours, without blanks
		ls -dt "$VM_CACHE"/kernel/*+* | grep -v '\.tmp$' | tail -n +4 | xargs -r rm -rf
	fi
fi
mdir=$kdir/lib/modules/$ARBEL_KABI

# --- base initramfs ----------------------------------------------------------
# Modules: the requested ones plus their modules.dep closure; never ib_mthca.
modlist=$(
	for m in $BASE_MODULES; do
		line=$(grep -E "(^|/)${m//_/[_-]}\.ko(\.xz)?:" "$mdir/modules.dep") ||
			vm_die "module $m not found in $ARBEL_KABI"
		printf '%s\n' "$line" | tr -d ':' | tr ' ' '\n'
	done | grep -v '^$' | grep -Ev '/ib_mthca\.ko(\.xz)?$' | sort -u
)

bins="/bin/busybox /bin/bash /usr/bin/rdma
	$(dpkg -L ibverbs-utils | grep '^/usr/bin/' | tr '\n' ' ')
	$(dpkg -L perftest | grep '^/usr/bin/ib_' | tr '\n' ' ')
	${VM_EXTRA_BINS:-}"
providers=() provider_files=()
for p in ${VM_PROVIDERS:-mthca}; do
	providers+=("/usr/lib/x86_64-linux-gnu/libibverbs/lib$p-rdmav34.so")
	provider_files+=("/etc/libibverbs.d/$p.driver")
done
for b in $bins; do
	[ -f "$b" ] || b=$(command -v "$b") || vm_die "VM_EXTRA_BINS: no $b"
	printf '%s\n' "$b"
done >"$VM_CACHE/.bins"
mapfile -t elfs <"$VM_CACHE/.bins"
elfs+=("${providers[@]}")
ldd_key=$(stat -L -c '%n %s %Y' "${elfs[@]}" /etc/ld.so.cache | sha256sum)
mapfile -t libs < <(vm_memo base-libs "$ldd_key" vm_ldd_closure "${elfs[@]}")
files=("${elfs[@]}" "${libs[@]}" "${provider_files[@]}")

# The key: this script, lib.sh, init, the kernel, the module list, and the
# name/size/mtime of every host file that goes in.
base_key=$(
	{
		cat "$VM_DIR/prepare.sh" "$VM_DIR/lib.sh" "$VM_DIR/init"
		echo "$ARBEL_KABI $kver"
		echo "$modlist"
		stat -L -c '%n %s %Y' "${files[@]}"
	} | sha256sum | cut -c1-16
)
base=$VM_CACHE/initramfs/base-$base_key.cpio.gz
if [ "${VM_REBUILD:-0}" = 1 ] || [ ! -f "$base" ]; then
	vm_log "building base initramfs $base"
	stage=$VM_CACHE/initramfs/stage.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	vm_stage_skeleton "$stage"
	for f in "${files[@]}"; do
		vm_stage_file "$stage" "$f"
	done
	# busybox applets (do not shadow bash or the copied tools)
	for a in $(/bin/busybox --list-full); do
		[ -e "$stage/$a" ] || [ -L "$stage/$a" ] || ln -s /bin/busybox "$stage/$a"
	done
	# /bin/sh is bash: busybox's ash prefers its applets to PATH, which
	# would shadow same-named programs in /opt/arbel/bin
	ln -sfn bash "$stage/usr/bin/sh"
	install -m 0755 "$VM_DIR/init" "$stage/init"
	# kernel modules
	mkdir -p "$stage/lib/modules/$ARBEL_KABI"
	cp "$mdir"/modules.builtin "$mdir"/modules.builtin.modinfo "$mdir"/modules.order \
		"$stage/lib/modules/$ARBEL_KABI/"
	for m in $modlist; do
		mkdir -p "$stage/lib/modules/$ARBEL_KABI/$(dirname "$m")"
		# 6.12 ships its modules xz-compressed; the guest's busybox
		# modprobe and insmod load plain ones
		case $m in
		*.xz) xz -dc "$mdir/$m" >"$stage/lib/modules/$ARBEL_KABI/${m%.xz}" ;;
		*) cp "$mdir/$m" "$stage/lib/modules/$ARBEL_KABI/$m" ;;
		esac
	done
	depmod -b "$stage" "$ARBEL_KABI"
	mkdir -p "$stage/etc/modprobe.d"
	cat >"$stage/etc/modprobe.d/arbel-vm.conf" <<-'EOF'
		# ib_mthca claims 15b3:6282 too; arbel must get the device
		blacklist ib_mthca
		install ib_mthca /bin/false
	EOF
	printf 'root:x:0:0:root:/root:/bin/sh\n' >"$stage/etc/passwd"
	printf 'root:x:0:\n' >"$stage/etc/group"
	printf 'arbel-vm\n' >"$stage/etc/hostname"
	: >"$stage/etc/fstab"
	mkdir -p "$stage/etc/ld.so.conf.d"
	(cd "$stage" && find . -mindepth 1 ! -type d | sed 's|^\.||' | LC_ALL=C sort) \
		>"$base.files.tmp"
	vm_cpio "$stage" | gzip -6 -n >"$base.tmp"
	rm -rf "$stage"
	mv "$base.files.tmp" "$base.files"
	mv "$base.tmp" "$base"
fi

# keep the 4 newest base images
# shellcheck disable=SC2012 # names are ours, without blanks
ls -t "$VM_CACHE"/initramfs/base-*.cpio.gz | tail -n +5 |
	while read -r f; do rm -f "$f" "$f.files"; done

printf 'VM_KERNEL=%q\n' "$kdir/boot/vmlinuz-$ARBEL_KABI"
printf 'VM_KVER=%q\n' "$kver"
printf 'VM_BASE_INITRD=%q\n' "$base"
printf 'VM_BASE_FILES=%q\n' "$base.files"

# --- python layer (optional) ---------------------------------------------------
[ "${VM_PYTHON:-0}" = 1 ] || exit 0

pyver=$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
pylib=/usr/lib/python$pyver
pyverbs=/usr/lib/python3/dist-packages/pyverbs
tests=/usr/share/doc/rdma-core/tests
# stdlib parts no test needs
prune='config-.*|idlelib|tkinter|turtledemo|lib2to3|pydoc_data|ensurepip|distutils|test|site-packages|dist-packages'
# extension modules that only pull in big libraries (OpenSSL, sqlite, db, curses, krb5)
prune_so='_dbm|_gdbm|_sqlite3|_ssl|_hashlib|_curses|_curses_panel|nis|readline|_crypt|_test.*|xx.*|_ctypes_test|ossaudiodev|audioop|_tkinter'
py_key=$(
	{
		cat "$VM_DIR/prepare.sh" "$VM_DIR/lib.sh"
		readlink -f /usr/bin/python3
		find "$pylib" "$pyverbs" "$tests" -printf '%p %s %T@\n' 2>/dev/null | LC_ALL=C sort
	} | sha256sum | cut -c1-16
)
py=$VM_CACHE/initramfs/python-$py_key.cpio.gz
if [ "${VM_REBUILD:-0}" = 1 ] || [ ! -f "$py" ]; then
	vm_log "building python layer $py"
	stage=$VM_CACHE/initramfs/stage-py.$$
	rm -rf "$stage"
	mkdir -p "$stage"
	vm_stage_skeleton "$stage"
	mkdir -p "$stage$pylib" "$stage/usr/lib/python3/dist-packages"
	(cd "$pylib" && find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' |
		grep -Ev "^($prune)\$" | while read -r e; do cp -a "$e" "$stage$pylib/"; done)
	find "$stage$pylib/lib-dynload" -regextype posix-extended \
		-regex ".*/($prune_so)\.cpython-[^/]*\.so" -delete
	find "$stage$pylib" -depth -type d \( -name test -o -name tests -o -name idle_test \) \
		-exec rm -rf {} +
	cp -a "$pyverbs" "$stage/usr/lib/python3/dist-packages/"
	vm_stage_file "$stage" "$(readlink -f /usr/bin/python3)"
	ln -sfn "$(basename "$(readlink -f /usr/bin/python3)")" "$stage/usr/bin/python3"
	mapfile -t pyelfs < <(find "$stage$pylib/lib-dynload" "$stage/usr/lib/python3/dist-packages" \
		-name '*.so' | sed "s|^$stage||")
	pyelfs+=(/usr/bin/python3)
	mapfile -t pylibs < <(vm_ldd_closure "${pyelfs[@]/#/$stage}" /usr/bin/python3 |
		grep -v "^$stage")
	for f in "${pylibs[@]}"; do
		grep -qxF "$(vm_usr_path "$f")" "$base.files" || vm_stage_file "$stage" "$f"
	done
	# rdma-core's own pyverbs tests (Debian ships some of them gzip'ed)
	mkdir -p "$stage/opt/rdma-core/tests"
	cp -a "$tests"/. "$stage/opt/rdma-core/tests/"
	find "$stage/opt/rdma-core/tests" -name '*.gz' -exec gunzip -f {} +
	# drop the links and dirs the base image already has
	for d in bin sbin lib lib64; do rm -f "${stage:?}/$d"; done
	vm_cpio "$stage" | gzip -6 -n >"$py.tmp"
	rm -rf "$stage"
	mv "$py.tmp" "$py"
fi
# shellcheck disable=SC2012
ls -t "$VM_CACHE"/initramfs/python-*.cpio.gz | tail -n +3 | xargs -r rm -f
printf 'VM_PY_INITRD=%q\n' "$py"
