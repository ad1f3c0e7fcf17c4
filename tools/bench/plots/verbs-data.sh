#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verbs-data.sh OUTPUT DIR: from the "result k=v ..." lines of a run of
# tools/bench/verbs-guest.sh (OUTPUT, as verbs.sh keeps it), one data file
# per netdev MTU, DIR/throughput-mtuMTU.dat, for throughput.gp: a block
# per peer and QP count, its quoted title first, then "size MB/s" rows by
# size. Whatever shapes the run measured are plotted.
set -euo pipefail
out=$1 dir=$2
mkdir -p "$dir"
rm -f "$dir"/throughput-mtu*.dat
awk -v dir="$dir" '
{ sub(/\r$/, "") }
$1 == "result" {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["mtu"] SUBSEP f["peer"] SUBSEP f["qps"]
	if (!(k in n)) { series[++ns] = k; mtus[f["mtu"]] = 1 }
	# The last run of a shape counts, as in verbs.sh'"'"'s summary.
	if (!((k, f["size"]) in mbps)) size[k, ++n[k]] = f["size"]
	mbps[k, f["size"]] = f["MBps"]
}
END {
	# Peers in a fixed order, so that colours keep their meaning.
	np = split("uet-veth tcp-veth uet-lo rxe-lo", order, " ")
	split("uet veth|TCP veth|uet loopback|rxe loopback", label, "|")
	for (m in mtus) {
		file = dir "/throughput-mtu" m ".dat"
		printf "# mtu %s\n# MB/s of payload by message size (tools/bench/verbs.sh)\n", m >file
		for (p = 1; p <= np; p++)
			for (s = 1; s <= ns; s++) {
				split(series[s], id, SUBSEP)
				if (id[1] != m || id[2] != order[p]) continue
				printf "\"%s, %d QP\"\n", label[p], id[3] >file
				# Sizes ascending (a handful: insertion sort).
				c = n[series[s]]
				for (i = 1; i <= c; i++) z[i] = size[series[s], i] + 0
				for (i = 2; i <= c; i++)
					for (j = i; j > 1 && z[j - 1] > z[j]; j--) {
						t = z[j]; z[j] = z[j - 1]; z[j - 1] = t
					}
				for (i = 1; i <= c; i++)
					printf "%d %s\n", z[i], mbps[series[s], z[i]] >file
				printf "\n\n" >file
			}
		close(file)
	}
}' "$out"
