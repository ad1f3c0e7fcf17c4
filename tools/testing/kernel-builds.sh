#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check (on the host): the modules built with W=1 against every kernel
# kernels.sh lists but the stock one (make's own build, before this), each
# in a copy of the tree under the cache. Each build must end well with no
# warning, and on the newest kernel every compat probe must hold: each
# probe tries the newest form of an API, so one that fails there is a
# broken probe or an API that moved again. Prints what each probe found,
# one column per kernel.
set -uo pipefail

top=$(readlink -f "$(dirname "$0")/../..")
cache=${UET_CACHE:-$HOME/.cache/uet}
cd "$top" || exit 1

kernels=$(tools/testing/kernels.sh list) || { echo "kernels: cannot list them"; exit 1; }
stock=$(head -n1 <<<"$kernels" | cut -d' ' -f1)
newest=$(tail -n1 <<<"$kernels" | cut -d' ' -f1)
rc=0 missing=''
configs=("$stock:net/uet/compat_config.h")

# build NAME: the W=1 build against kernel NAME in its copy, its warnings
# and errors shown; fails if it did or showed any.
build() {
	local dir=$cache/build/kernel-$1 log start=$SECONDS
	tools/testing/module-copy.sh "$dir" || return 1
	log=$(UET_KMOD_DIR=$dir tools/testing/kernels.sh build "$1" -- W=1 \
		CONFIG_RDMA_UET=m CONFIG_NET_SCH_UET=m -j"$(nproc)" modules 2>&1)
	local st=$?
	configs+=("$1:$dir/net/uet/compat_config.h")
	if [ "$st" -ne 0 ] || grep -qE "warning:|error:" <<<"$log"; then
		grep -E "warning:|error:|Error" <<<"$log" | sed "s|$dir/||; s/^/  /"
		echo "kernels: $1: the build failed or warned ($((SECONDS - start)) s)"
		return 1
	fi
	echo "kernels: $1: built with W=1, no warning ($((SECONDS - start)) s)"
}

while read -r name _; do
	[ "$name" = "$stock" ] || build "$name" || rc=1
done <<<"$kernels"

# The probes' answers: a row per probe, "yes" where the kernel has it.
printf '%-28s' probe
for c in "${configs[@]}"; do printf ' %-6s' "${c%%:*}"; done
echo
for p in compat/probes/*.c; do
	m=HAVE_$(basename "$p" .c | tr '[:lower:]' '[:upper:]')
	printf '%-28s' "$(basename "$p" .c)"
	for c in "${configs[@]}"; do
		if grep -qx "#define $m 1" "${c#*:}" 2>/dev/null; then
			printf ' %-6s' yes
		else
			printf ' %-6s' -
			if [ "${c%%:*}" = "$newest" ]; then
				missing+=" ${p##*/}"
			fi
		fi
	done
	echo
done
if [ -n "$missing" ]; then
	echo "kernels: probes that fail on the newest kernel ($newest):$missing"
	rc=1
fi
exit "$rc"
