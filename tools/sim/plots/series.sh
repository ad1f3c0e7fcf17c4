#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sim/plots/series.sh DIR: the data make sim draws, into DIR, on
# seed 1. For each run below, NAME.dat (uet-sim --series: a row per bin)
# and NAME.json (its figures); and matrix.txt, what matrix.sh prints.
# The bins are the base RTT but longhaul's, a tenth of its 506 us: a
# DCQCN cut and a queue's climb take a few of them.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
dir=$1

runs=(
	"incast-nscc incast --cc nscc --bin-ns 25000"
	"incast-dcqcn incast --cc dcqcn --bin-ns 25000"
	"blackhole-reps blackhole --lb reps"
	"blackhole-spray blackhole --lb spray"
	"longhaul longhaul --bin-ns 50000"
)

make -s -C "$here" all
mkdir -p "$dir"
for run in "${runs[@]}"; do
	read -r name args <<<"$run"
	# shellcheck disable=SC2086 # the run's options are words
	"$here/uet-sim" $args --series "$dir/$name.dat" --json >"$dir/$name.json"
	echo "$dir/$name.dat"
done
"$here/matrix.sh" >"$dir/matrix.txt"
echo "$dir/matrix.txt"
