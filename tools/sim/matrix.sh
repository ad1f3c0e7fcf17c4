#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/sim/matrix.sh: the incast matrix. 4:1 and 8:1 incasts into host 0
# at base RTTs of 2 us, 20 us, 2 ms and 20 ms (the hop delay set for
# each), 100 and 400 Gb/s, the switch ports as uet tune sizes them for
# that rate, RTT and congestion control, for DCQCN and NSCC; each flow's
# window one BDP as far as the module's largest mpr lets it, the
# module's default rto_min_us, flows that last 12 base RTTs or 10 ms,
# whichever is longer, the second half judged. Prints one line per run:
# the receiver port's use over the second half, Jain's index of the
# bytes each flow delivered, drops, trims, and the peak queue in base
# RTTs. uet-sim's options after the script's are added to every run.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
sim=$here/uet-sim

make -s -C "$here" all
printf '%-5s %-6s %-4s %-6s %-7s %-7s %-7s %-7s %-6s\n' \
	gbps rtt_us n:1 cc util jain drops trims peak
for gbps in 100 400; do
	for rtt in 2 20 2000 20000; do
		max=$((rtt * 12 > 10000 ? rtt * 12 : 10000))
		for n in 4 8; do
			for cc in dcqcn nscc; do
				"$sim" incast --tune --rtt-us "$rtt" \
					--rate-gbps "$gbps" --senders "$n" \
					--cc "$cc" --bytes 0 --mpr 0 \
					--rto-min-us 50000 --max-us "$max" "$@" |
				awk -v g="$gbps" -v r="$rtt" -v n="$n:1" \
				    -v c="$cc" '
					{ v[$1] = $2 }
					END {
						printf "%-5s %-6s %-4s %-6s %-7.4f %-7.4f %-7d %-7d %-6.2f\n",
						       g, r, n, c, v["util_steady"],
						       v["jain_delivered"], v["drops"],
						       v["trims"], v["peak_rtts"]
					}'
			done
		done
	done
done
