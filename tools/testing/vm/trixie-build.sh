#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# For the Debian 13 test host (vm/run -k trixie): our modules built with
# W=1 against Debian 13's kernel and our tools against its rdma-core and
# libraries, in the trixie root (kernels.sh), in a copy of the tree: the
# directory kernel-builds.sh builds that kernel's modules in, so that one
# build serves both. Prints the copy's directory, for UET_KO_DIR and
# UET_TOOLS_DIR=DIR/tools (selftests/lib.sh); exits 1 if the modules did
# not build, 2 if the tools did not.
set -uo pipefail
top=$(readlink -f "$(dirname "$0")/../../..")
cache=${UET_CACHE:-$HOME/.cache/uet}
kernels=$top/tools/testing/kernels.sh
name=$("$kernels" list | sed -n 2p | cut -d' ' -f1)
[ -n "$name" ] || exit 1
build=$cache/build/kernel-$name
# One build at a time in the directory, which concurrent checks share.
mkdir -p "$cache/build" && exec 8>"$build.lock" && flock 8 || exit 1
"$top/tools/testing/module-copy.sh" "$build" || exit 1
# The tools' sources as git knows them, not the host's builds of them.
(cd "$top" && git ls-files -co --exclude-standard tools) |
	rsync -rl --checksum --files-from=- "$top/" "$build/" || exit 2
UET_KMOD_DIR=$build "$kernels" build "$name" -- W=1 CONFIG_RDMA_UET=m \
	CONFIG_NET_SCH_UET=m -j"$(nproc)" modules >&2 || exit 1
"$kernels" make "$build" -- -C tools -j"$(nproc)" >&2 || exit 2
echo "$build"
