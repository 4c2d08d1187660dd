#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: build arbel-dkms_<version>_all.deb from debian/ with Debian's
# own tooling (dpkg-buildpackage, debhelper, dh-dkms) in build/deb/, from
# a copy of the files the package ships (Kbuild, dkms.conf, drivers/,
# include/) and debian/.  Prints the path of the .deb on stdout.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/setup.sh" deb >&2

ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
dkms_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
if [ "${ver%%-*}" != "$dkms_ver" ]; then
	echo "build-deb: debian/changelog has $ver, dkms.conf $dkms_ver" >&2
	exit 1
fi
out=$top/build/deb
src=$out/src/arbel-$ver
rm -rf "$out"
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard -- Kbuild dkms.conf \
	drivers include debian) | (cd "$top" && xargs cp --parents -t "$src")
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log" >&2; exit 1; }
deb=$out/src/arbel-dkms_${ver}_all.deb
mv "$deb" "$out/"
echo "$out/$(basename "$deb")"
