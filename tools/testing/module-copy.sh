#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/testing/module-copy.sh DIR: the module sources (Kbuild, net/,
# include/, compat/) copied into DIR, a build directory of their own, so
# that the tree's own build stays as it is (lint, the debug kernel, the
# other kernels). The build's products in DIR stay, and so does its
# compat_config.h, which belongs to DIR's kernel. By content, and a file
# copied takes the time of the copy: the objects of another checkout's
# build stay there, and a source copied with its own older time would
# look older than them to make (seen: a branch's changes run as the
# modules of the tree built before it).
set -euo pipefail

top=$(readlink -f "$(dirname "$0")/../..")
mkdir -p "$1"
cd "$top"
rsync -rl --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=Module.symvers \
	--exclude=compat_config.h Kbuild net include compat "$1/"
