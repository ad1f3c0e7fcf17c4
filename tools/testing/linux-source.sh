#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpacks (once) Debian's linux-source-6.1 into the cache and prints the
# tree's directory: lint takes the kernel's analysers from it (lint.sh).
# (The debug kernel is built from the newest source instead: kernels.sh
# source.)
set -euo pipefail

cache=${UET_CACHE:-$HOME/.cache/uet}
ver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
src=$cache/src/linux-source-$ver
if [ ! -e "$src/.unpacked" ]; then
	# One unpacker at a time: lint and the debug kernel's build may ask at once.
	mkdir -p "$cache/src"
	exec 8>"$cache/src/.lock"
	flock 8
	if [ ! -e "$src/.unpacked" ]; then
		echo "linux-source: unpacking $ver" >&2
		rm -rf "$src"
		mkdir -p "$src"
		tar -xJf /usr/src/linux-source-6.1.tar.xz -C "$src" --strip-components=1
		touch "$src/.unpacked"
	fi
	exec 8>&-
fi
echo "$src"
