# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c rates.gp DAT [PNG]: the rates a run delivered, from uet-sim
# --series: above, all flows' together; below, each flow's, the bytes of
# first copies its receiver got in a bin over the bin.
dat = ARG1
png = ARG2
here = system("dirname ".ARG0)
load here."/series.gp"
# Eight colours apart from the total's black, again from the ninth flow.
array colour[8] = ["#9400d3", "#009e73", "#56b4e9", "#e69f00", \
	"#0072b2", "#e51e10", "#a0522d", "#808080"]
set multiplot title sprintf("Delivered rates: %s", run)
set size 1, 0.34
set origin 0, 0.64
set ylabel "all flows (Gb/s)"
set yrange [0:*]
unset xlabel
set format x ""
plot dat using (t($1)):(sum [i = 5:4 + flows] column(i)) with steps linewidth 2 linecolor "black" title "all flows"
set size 1, 0.64
set origin 0, 0
set format x "% h"
set xlabel xlab
set ylabel "each flow (Gb/s)"
unset label
plot for [i = 1:flows] dat using (t($1)):(column(4 + i)) with steps linecolor rgb colour[(i - 1) % 8 + 1] title sprintf("flow %d", i - 1)
unset multiplot
