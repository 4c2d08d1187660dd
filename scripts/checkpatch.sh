#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict and kernel-doc (both from linux-source-6.1) on
# every kernel C file and header of the project; any ERROR, WARNING or
# CHECK from checkpatch and any kernel-doc warning fails; then every
# Documentation/*.rst must parse with docutils.
# Prints "lint: N passed, N failed" (one per file) last.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
"$top/scripts/setup.sh" lint

tree=$("$top/scripts/ktree.sh")
spelling=/usr/lib/python3/dist-packages/codespell_lib/data/dictionary.txt
opts=(--no-tree --strict --terse --show-types -f)
[ -f "$spelling" ] && opts+=(--codespell --codespellfile="$spelling")

mapfile -t files < <(cd "$top" && git ls-files --cached --others \
	--exclude-standard -- 'drivers/*.[ch]' 'include/*.h' 'kunit/*.[ch]' |
	sort -u)
[ ${#files[@]} -gt 0 ] || { echo "checkpatch: no files" >&2; exit 1; }

pass=0 fail=0
for f in "${files[@]}"; do
	[ -f "$top/$f" ] || continue
	out=$(cd "$tree/scripts" && perl ./checkpatch.pl "${opts[@]}" "$top/$f" 2>&1 |
		grep -E ': (ERROR|WARNING|CHECK):' || true)
	out+=$(perl "$tree/scripts/kernel-doc" -none "$top/$f" 2>&1 || true)
	if [ -n "$out" ]; then
		echo "$out"
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done
# The documentation parses cleanly (one case per file).
if doc=$("$top/scripts/doc-check.py"); then :; fi
echo "$doc" | grep -v ' passed, ' || true
line=$(echo "$doc" | tail -n 1)
if [[ $line =~ ([0-9]+)\ passed,\ ([0-9]+)\ failed ]]; then
	pass=$((pass + BASH_REMATCH[1]))
	fail=$((fail + BASH_REMATCH[2]))
else
	fail=$((fail + 1))
fi
echo "lint: $pass passed, $fail failed"
[ "$fail" = 0 ]
