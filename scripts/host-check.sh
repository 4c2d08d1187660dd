#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make check's host stage: a test run must not change what the machine
# boots.  scripts/check.sh takes a snapshot before its stages and compares
# it after them:
#   host-check.sh snapshot FILE   write the snapshot to FILE
#   host-check.sh compare FILE    KTAP on stdout, one result per part:
#     /boot            every entry's name, type, link target and, for a
#                      file, its sha256
#     the default boot entry  `grub-editenv list` (if GRUB is installed),
#                      /boot/grub/grub.cfg's `set default=` lines and
#                      /etc/default/grub's GRUB_DEFAULT
#     kernel packages  the installed linux-image, -headers, -source,
#                      -kbuild and -modules packages with their versions
# Any difference fails its result, with the diff as diagnostics.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

part_boot() {
	[ -d /boot ] || { echo "(no /boot)"; return; }
	(cd /boot && find . -xdev -printf '%p %y %l\n' | LC_ALL=C sort)
	(cd /boot && find . -xdev -type f -print0 | LC_ALL=C sort -z |
		xargs -0r sha256sum)
}

part_default() {
	if command -v grub-editenv >/dev/null; then
		echo "grub-editenv list:"
		grub-editenv list 2>&1
	else
		echo "(no grub-editenv)"
	fi
	if [ -f /boot/grub/grub.cfg ]; then
		echo "grub.cfg:"
		grep -E '^[[:space:]]*set (default|saved_entry)=' /boot/grub/grub.cfg
	else
		echo "(no /boot/grub/grub.cfg)"
	fi
	grep -E '^GRUB_DEFAULT=' /etc/default/grub 2>/dev/null || echo "(no GRUB_DEFAULT)"
}

part_packages() {
	# (dpkg-query fails when a pattern matches no package)
	{ dpkg-query -W -f='${db:Status-Abbrev} ${Package} ${Version}\n' \
		'linux-image*' 'linux-headers*' 'linux-source*' 'linux-kbuild*' \
		'linux-modules*' 2>/dev/null || true; } | grep -v '^un ' | LC_ALL=C sort
}

parts=(boot default packages)
titles=("/boot is unchanged (names, types, links, sha256)"
	"the default boot entry is unchanged (GRUB)"
	"no kernel package was installed, upgraded or removed")

case ${1:-} in
snapshot)
	[ $# = 2 ] || { echo "usage: host-check.sh snapshot FILE" >&2; exit 2; }
	mkdir -p "$(dirname "$2")"
	for p in "${parts[@]}"; do
		echo "@@ $p"
		"part_$p"
	done >"$2"
	exit 0
	;;
compare)
	[ $# = 2 ] || { echo "usage: host-check.sh compare FILE" >&2; exit 2; }
	. "$top/scripts/ktap.sh"
	ktap_start
	if [ ! -s "$2" ]; then
		ktap_fail "a snapshot of the host before the stages" "no $2"
		ktap_finish
	fi
	for i in "${!parts[@]}"; do
		p=${parts[$i]}
		before=$(sed -n "/^@@ $p\$/,/^@@ /p" "$2" | sed '/^@@ /d')
		now=$("part_$p")
		d=$(diff <(printf '%s\n' "$before") <(printf '%s\n' "$now"))
		n=$(printf '%s\n' "$now" | grep -c .)
		ktap_result "$([ -z "$d" ] && echo 0 || echo 1)" "${titles[$i]}" \
			"before (<) and after (>) the stages: $d"
		ktap_diag "$p: $n lines"
	done
	ktap_finish
	;;
*)
	echo "usage: host-check.sh snapshot|compare FILE" >&2
	exit 2
	;;
esac
