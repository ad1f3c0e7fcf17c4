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
"$top/tools/testing/module-copy.sh" "$build" || exit 2
make -s -C "$dbg/build" M="$build" W=1 CONFIG_RDMA_UET=m CONFIG_NET_SCH_UET=m \
	-j"$(nproc)" modules >&2 || exit 2
echo "$build"
