#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict and kernel-doc (both from linux-source-6.1) on
# every kernel C file and header of the project, one result per file and
# tool: any ERROR, WARNING or CHECK from checkpatch and any kernel-doc
# warning fails.  Then every Documentation/*.rst must parse with docutils
# (scripts/doc-check.py, its results nested), and arbel-stub's files must
# call, include and touch state down its layers only (scripts/stub-layers.py,
# nested too), and the driver, the stub and the tests have no include/call
# cycle (scripts/graph_check.py, nested).  KTAP on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
. "$top/scripts/ktap.sh"
"$top/scripts/setup.sh" lint >&2

tree=$("$top/scripts/ktree.sh" --no-hook)
spelling=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
opts=(--no-tree --strict --terse --show-types -f)
[ -f "$spelling" ] && opts+=(--codespell --codespellfile="$spelling")

mapfile -t files < <(cd "$top" && git ls-files --cached --others \
	--exclude-standard -- 'drivers/*.[ch]' 'include/*.h' 'kunit/*.[ch]' \
	'bench/fr_bench.c' |
	sort -u)

# checkpatch takes about a second and a half a file: its findings are kept
# in $ARBEL_CACHE/checkpatch/, keyed by the file's path and content, the
# options, checkpatch.pl and the spelling list (paths in them relative to
# the clone).
cache=$ARBEL_CACHE/checkpatch
mkdir -p "$cache"
tool=$(cat "$tree/scripts/checkpatch.pl" "$tree/scripts/spelling.txt" \
	"$spelling" 2>/dev/null | sha256sum | cut -c1-16)
checkpatch_cached() {
	local f=$1 key out
	shift
	key=$({ printf '%s\n' "$tool" "$f" "$*"; cat "$top/$f"; } |
		sha256sum | cut -c1-32)
	if [ -f "$cache/$key" ]; then
		cat "$cache/$key"
		return
	fi
	out=$(cd "$tree/scripts" && perl ./checkpatch.pl "$@" "$top/$f" 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):' || true)
	out=${out//"$top/"/}
	printf '%s' "$out" >"$cache/$key.$$" && mv "$cache/$key.$$" "$cache/$key"
	printf '%s' "$out"
}

ktap_start
[ ${#files[@]} -gt 0 ] || ktap_fail "checkpatch: the kernel C files" "none found"
for f in "${files[@]}"; do
	[ -f "$top/$f" ] || continue
	fopts=("${opts[@]}")
	# the one place allowed to test the kernel version (its whole job);
	# checkpatch also reads LINUX_VERSION_CODE as a constant on the left
	case $f in
	*/compat.h) fopts=(--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON "${opts[@]}") ;;
	esac
	out=$(checkpatch_cached "$f" "${fopts[@]}")
	if [ -z "$out" ]; then
		ktap_ok "$f: checkpatch --strict"
	else
		ktap_fail "$f: checkpatch --strict" "$out"
	fi
	out=$(perl "$tree/scripts/kernel-doc" -none "$top/$f" 2>&1 || true)
	if [ -z "$out" ]; then
		ktap_ok "$f: kernel-doc"
	else
		ktap_fail "$f: kernel-doc" "$out"
	fi
done
ktap_subtest "Documentation/*.rst parse with docutils" "$top/scripts/doc-check.py"
ktap_subtest "qemu/: arbel-stub calls down its layers only" \
	"$top/scripts/stub-layers.py"
ktap_subtest "no include/call cycle in the driver, the stub or the tests" \
	"$top/scripts/graph_check.py"
ktap_finish
