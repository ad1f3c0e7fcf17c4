# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c queue.gp DAT [PNG]: a run's queue from uet-sim --series:
# above, the largest data backlog of any focus port in each bin against
# the ports' limit and ECN ramp; below, the ECN marks and drops of those
# ports in each bin.
dat = ARG1
png = ARG2
here = system("dirname ".ARG0)
load here."/series.gp"
limit = header("limit")
# MiB for buffers of long links: KiB would run to five digits.
u = limit >= 10 * 1024 * 1024 ? 1024 * 1024 : 1024
unit = u > 1024 ? "MiB" : "KiB"
ports = header("focus_ports")
set multiplot title sprintf("Queue of %s (%d port%s): %s", hstr("focus"), ports, ports > 1 ? "s" : "", run)
set size 1, 0.6
set origin 0, 0.38
set ylabel sprintf("data backlog (%s)", unit)
set yrange [0:limit * 1.1 / u]
unset xlabel
set format x ""
set arrow from graph 0, first limit / u to graph 1, first limit / u nohead dashtype 2
set label "limit" at graph 0.01, first limit / u offset 0, 0.5
if (header("pmax") > 0) {
	set arrow from graph 0, first header("kmax") / u to graph 1, first header("kmax") / u nohead dashtype 3
	set arrow from graph 0, first header("kmin") / u to graph 1, first header("kmin") / u nohead dashtype 3
	set label "kmax" at graph 0.01, first header("kmax") / u offset 0, 0.5
	set label "kmin" at graph 0.01, first header("kmin") / u offset 0, 0.5
}
plot dat using (t($1)):($2 / u) with steps linewidth 2 title "largest backlog\nin the bin"
set size 1, 0.38
set origin 0, 0
set format x "% h"
set xlabel xlab
set ylabel "packets in the bin"
set yrange [0:*]
unset arrow
unset label
if (fail > 0) {
	set arrow from fail, graph 0 to fail, graph 1 nohead dashtype 2
}
# Drops as a bin's box: an impulse at a bin's start hides on the axis.
w = t(header("bin_ns") / 1000.0)
set style fill solid 0.6 noborder
plot dat using (t($1)):3 with steps title "ECN marks", \
	dat using (t($1) + w / 2):4:(w) with boxes title "drops"
unset multiplot
