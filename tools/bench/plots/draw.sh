#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# draw.sh DIR [dumb]: a PNG beside each data file that tools/bench wrote
# into DIR (spines.png from spines.dat, ...), with the gnuplot script of
# the same name here; "dumb" draws them in the terminal instead. The data
# files are plain columns: this redraws without running anything again.
set -euo pipefail
here=$(dirname "$(readlink -f "$0")")
dir=$1 term=${2:-png}
command -v gnuplot >/dev/null ||
	{ echo "draw.sh: gnuplot is needed (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }
n=0
# incast-cc.dat goes with incast.dat, into one picture.
for dat in "$dir"/throughput-mtu*.dat "$dir"/spines.dat "$dir"/failover.dat \
	"$dir"/incast.dat "$dir"/tuning.dat; do
	[ -e "$dat" ] || continue
	name=$(basename "$dat" .dat)
	gp=$here/${name%%-*}.gp
	if [ "$term" = dumb ]; then
		gnuplot -c "$gp" "$dat"
	else
		gnuplot -c "$gp" "$dat" "${dat%.dat}.png"
		echo "${dat%.dat}.png"
	fi
	n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "draw.sh: no data file of tools/bench in $dir" >&2; exit 1; }
