#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds our modules for the debug kernel (built first if need be, by
# debug-kernel.sh) in a copy of the tree, so that the stock build in the
# tree stays as it is. Prints the copy's directory (UET_KO_DIR for
# selftests/lib.sh); exits 1 if the kernel did not build, 2 if the modules
# did not.
set -uo pipefail
top=$(readlink -f "$(dirname "$0")/../../..")
cache=${UET_CACHE:-$HOME/.cache/uet}
dbg=$("$top/tools/testing/vm/debug-kernel.sh") || exit 1
build=$cache/build/debug
mkdir -p "$build"
cd "$top" || exit 1
# By content, and a file copied takes the time of the copy: the objects
# of another checkout's build stay here, and a source copied with its own
# older time would look older than them to make (seen: a branch's changes
# run as the modules of the tree built before it).
rsync -rl --checksum --delete --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
	--exclude='*.mod*' --exclude=modules.order --exclude=Module.symvers \
	--exclude=compat_config.h Kbuild net include compat "$build/" || exit 2
make -s -C "$dbg/build" M="$build" W=1 CONFIG_RDMA_UET=m CONFIG_NET_SCH_UET=m \
	-j"$(nproc)" modules >&2 || exit 2
echo "$build"
