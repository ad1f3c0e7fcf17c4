# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c tuning.gp DAT [PNG]: the congestion-control matrix on auto, a
# bar per incast (DAT's rows: label, N, rate, RTT, cc, util, Jain, port,
# busy, dropped, trimmed): how much of the time the senders kept the
# port sending (busy), colored by congestion control, with the packets
# the port dropped above each bar.
dat = ARG1
png = ARG2
load sprintf("%s/term.gp", system("dirname ".ARG0))
set title "Congestion control on auto, each port as uet tune prints it (tools/bench/bench.sh)"
set ylabel "busy: util. / what the port could send"
set yrange [0:1.25]
set ytics 0, 0.1, 1
set xtics rotate by -60 left
set bmargin 8
set style fill solid 0.8 border -1
set boxwidth 0.8
set arrow from graph 0, first 0.9 to graph 1, first 0.9 nohead dashtype 2
color(cc) = cc eq "nscc" ? 0x3465a4 : cc eq "dcqcn" ? 0xcc0000 : 0x888888
set label "dropped above each bar" at graph 0.01, first 1.2
# The key: a sample box per congestion control (no data of their own).
plot dat using 0:9:(color(strcol(5))):xtic(1) with boxes lc rgb variable notitle, \
	'' using 0:(($9) + 0.04):(sprintf("%d", $10)) with labels notitle, \
	NaN with boxes lc rgb color("nscc") title "nscc", \
	NaN with boxes lc rgb color("dcqcn") title "dcqcn", \
	NaN with boxes lc rgb color("capped") title "dcqcn, rate capped"
