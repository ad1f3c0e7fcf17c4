#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sim/plots/draw.sh DIR: the PNGs of what series.sh wrote into DIR,
# with the gnuplot scripts here: NAME-queue.png and NAME-rates.png from
# each NAME.dat, matrix.png from matrix.txt. The data are plain columns:
# this redraws without running anything again.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
dir=$1
command -v gnuplot >/dev/null ||
	{ echo "draw.sh: gnuplot is needed (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }
n=0
for dat in "$dir"/*.dat; do
	[ -e "$dat" ] || continue
	for gp in queue rates; do
		gnuplot -c "$here/$gp.gp" "$dat" "${dat%.dat}-$gp.png"
		echo "${dat%.dat}-$gp.png"
	done
	n=$((n + 1))
done
if [ -e "$dir/matrix.txt" ]; then
	gnuplot -c "$here/matrix.gp" "$dir/matrix.txt" "$dir/matrix.png"
	echo "$dir/matrix.png"
	n=$((n + 1))
fi
[ "$n" -gt 0 ] || { echo "draw.sh: no data of series.sh in $dir" >&2; exit 1; }
