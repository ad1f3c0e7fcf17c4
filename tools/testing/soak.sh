#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make soak: the long selftests (selftests/long_*.sh) on the stock kernel,
# then on the debug kernel (KASAN, lockdep, kmemleak), UET_SOAK_SECS each
# (600 by default). Ends with "N passed, N failed, N skipped".
set -uo pipefail
top=$(readlink -f "$(dirname "$0")/../..")
vm=$top/tools/testing/vm
cd "$top" || exit 1
export UET_SOAK_SECS=${UET_SOAK_SECS:-600}
tests=$(cd selftests && echo long_*.sh)
# A VM's limit: every test its time, and an hour for the rest.
limit=$((UET_SOAK_SECS * $(wc -w <<<"$tests") + 3600))
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "== long selftests on the stock kernel, $UET_SOAK_SECS s each"
# shellcheck disable=SC2086 # one word per test
"$vm/run" -k stock -t "$limit" -s "$scratch" -- \
	env UET_SOAK_SECS="$UET_SOAK_SECS" selftests/run.sh -o /mnt/stock.sum $tests
echo "== long selftests on the debug kernel"
if build=$("$vm/debug-modules.sh"); then
	# shellcheck disable=SC2086
	"$vm/run" -k debug -m 3072 -t "$limit" -s "$scratch" -- \
		env UET_KO_DIR="$build" UET_SOAK_SECS="$UET_SOAK_SECS" \
		selftests/run.sh -k -o /mnt/debug.sum $tests
fi
cat "$scratch"/stock.sum "$scratch"/debug.sum 2>/dev/null | grep passed |
	awk '{ p += $1; f += $3; s += $5; n++ }
	     END { if (n < 2) f++; print p + 0 " passed, " f + 0 " failed, " s + 0 " skipped"; exit f > 0 }'
