# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c spines.gp DAT [PNG]: each spine's share of the bytes the
# spines carried, a bar per load balancer (a column of DAT, its header
# the title), a group per spine (the rows; the first column names them).
dat = ARG1
png = ARG2
load sprintf("%s/term.gp", system("dirname ".ARG0))
cols = header("balancers") + 1
set title sprintf("Bytes per spine: one QP from a to b over %d spines", header("spines"))
set xlabel "spine"
set ylabel "share of the bytes (%)"
set yrange [0:105]
set style data histograms
set style histogram clustered gap 1
# The dumb terminal draws a key sample only for an outlined box.
if (png eq "") { set style fill empty } else { set style fill solid 0.8 border -1 }
set boxwidth 0.9
# Nor a key sample for a box: the title names the character of its bars.
mark(i) = png eq "" ? " " . word("** ## $$ %% @@ && ==", i) : ""
plot for [i = 2:cols] dat using i:xtic(1) title columnheader(i) . mark(i - 1)
