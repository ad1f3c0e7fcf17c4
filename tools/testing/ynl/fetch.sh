#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack the netlink spec schemas (Documentation/netlink/) and the YNL
# library and cli (tools/net/ynl/) of Linux 6.12 from Debian's
# linux-source-6.12 package into the cache, without installing the package.
# Idempotent: prints nothing but the directory when all is in place.
#
# Prints the directory (holding Documentation/netlink and tools/net/ynl) on
# the last line of stdout: ynl=$(tools/testing/ynl/fetch.sh | tail -n1)
set -euo pipefail

cache=${UET_CACHE:-$HOME/.cache/uet}
pkg=linux-source-6.12
dir=$cache/src/ynl-6.12

if [ ! -e "$dir/.unpacked" ]; then
	echo "ynl: unpacking Documentation/netlink and tools/net/ynl of $pkg into $dir" >&2
	rm -rf "$dir"
	mkdir -p "$dir"
	# apt's sandbox user must be able to write the download directory.
	dl=$(mktemp -d)
	trap 'rm -rf "$dl"' EXIT
	chmod 777 "$dl"
	if ! (cd "$dl" && apt-get download -qq "$pkg" >&2); then
		apt-get update -qq >&2
		(cd "$dl" && apt-get download -qq "$pkg" >&2)
	fi
	dpkg-deb --fsys-tarfile "$dl"/"$pkg"_*.deb |
		tar -xf - -C "$dl" --wildcards './usr/src/linux-source-6.12.tar.xz'
	# The tarball's top directory is linux-source-6.12/.
	nice tar -xJf "$dl/usr/src/linux-source-6.12.tar.xz" -C "$dir" \
		--strip-components=1 --wildcards \
		'linux-source-6.12/Documentation/netlink/*' \
		'linux-source-6.12/tools/net/ynl/*'
	[ -e "$dir/Documentation/netlink/genetlink.yaml" ] ||
		{ echo "ynl: no genetlink.yaml in $pkg" >&2; exit 1; }
	touch "$dir/.unpacked"
fi

echo "$dir"
