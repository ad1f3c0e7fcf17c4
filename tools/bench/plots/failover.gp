# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c failover.gp DAT [PNG]: the rate that reached b against the
# time since a spine failed, a line per load balancer (the blocks of DAT,
# each a quoted title and "seconds Mbit/s" rows); the spine is back at
# DAT's "# restored" seconds.
dat = ARG1
png = ARG2
load sprintf("%s/term.gp", system("dirname ".ARG0))
blocks = int(system(sprintf("grep -c '^\"' '%s'", dat)))
back = header("restored")
r = header("rate_mbit")
set title sprintf("Through a spine failure: one QP, %d spines of %d Mbit/s (tools/bench/bench.sh)", header("spines"), r)
set xlabel "seconds since the spine failed"
set ylabel "Mbit/s reaching b"
set yrange [0:*]
set autoscale xfix
set arrow from 0, graph 0 to 0, graph 1 nohead dashtype 2
set arrow from back, graph 0 to back, graph 1 nohead dashtype 2
set label "spine fails" at 0, graph 0.97 offset 0.5, 0
set label "spine back" at back, graph 0.97 offset 0.5, 0
plot for [i = 0:blocks - 1] dat index i using 1:2 with lines linewidth 2 \
	title columnheader(1)
