# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c incast.gp DAT [PNG]: an incast over time. DAT (incast.dat)
# holds the port: "seconds backlog_bytes" rows, then after two blank
# lines "seconds Mbit/s" rows of what it sent, and "# KEY VALUE" headers
# (rate_mbit, bdp, limit, kmin, kmax, senders, cc). Beside it,
# incast-cc.dat holds a block per sender, a quoted title and "seconds
# value" rows of its congestion window (bytes) or rate (Mbit/s), as the
# uet:uet_cc tracepoint reported them.
dat = ARG1
png = ARG2
load sprintf("%s/term.gp", system("dirname ".ARG0))
cc = system(sprintf("dirname '%s'", dat)) . "/incast-cc.dat"
senders = int(system(sprintf("grep -c '^\"' '%s'", cc)))
bdp = header("bdp")
r = header("rate_mbit")
limit = header("limit")
kmin = header("kmin")
kmax = header("kmax")
# What the tracepoint reports: NSCC a window in bytes, DCQCN a rate.
what = system(sprintf("awk '$1 == \"#\" && $2 == \"value\" { $1 = $2 = \"\"; print substr($0, 3); exit }' '%s'", cc))
scale = what eq "cwnd (bytes)" ? 1024.0 : 1.0
unit = what eq "cwnd (bytes)" ? "cwnd (KiB)" : what
set multiplot layout 2, 1 title sprintf("Incast %d:1 into one sch_uet port of %d Mbit/s, BDP %d KiB (tools/bench/bench.sh)", senders, r, bdp / 1024)
# One time axis and one width for both panels.
stats dat index 0 using 1 nooutput
tmax = STATS_max
stats cc using 1 nooutput
tmax = STATS_max > tmax ? STATS_max : tmax
set xrange [0:tmax]
set lmargin 10
set rmargin 22
set ylabel unit
set yrange [0:*]
set key outside right top vertical
plot for [i = 0:senders - 1] cc index i using 1:($2 / scale) with steps title columnheader(1)
set ylabel "backlog, all bands (KiB)"
set y2label "port Mbit/s"
set y2range [0:r * 1.2]
set y2tics
set ytics nomirror
# The limit is the data band's: the other bands add to the backlog.
set yrange [0:limit * 1.2 / 1024 < *]
set xlabel "seconds"
set arrow from graph 0, first kmin / 1024 to graph 1, first kmin / 1024 nohead dashtype 3
set arrow from graph 0, first kmax / 1024 to graph 1, first kmax / 1024 nohead dashtype 3
set arrow from graph 0, first limit / 1024 to graph 1, first limit / 1024 nohead dashtype 2
set label "limit" at graph 0.01, first limit / 1024 offset 0, 0.5
set label "kmax" at graph 0.01, first kmax / 1024 offset 0, 0.5
set label "kmin" at graph 0.01, first kmin / 1024 offset 0, 0.5
plot dat index 0 using 1:($2 / 1024) with steps title "backlog", \
	dat index 1 using 1:2 axes x1y2 with lines title "port rate"
unset multiplot
