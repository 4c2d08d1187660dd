#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make htmldocs, and the docs stage of make check: Documentation/ rendered
# by Sphinx with the kernel's kernel-doc extension (scripts/htmldocs.py)
# into build/htmldocs/.  KTAP on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/env.sh"
"$top/scripts/setup.sh" docs >&2
tree=$("$top/scripts/ktree.sh" --no-hook)
exec "$top/scripts/htmldocs.py" --ktree "$tree" --out "$top/build/htmldocs"
