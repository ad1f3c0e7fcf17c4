# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c matrix.gp TXT [PNG]: the incast matrix that matrix.sh
# printed into TXT, a group of bars per rate and base RTT, a bar per
# incast and congestion control: above, the receiver port's use over the
# second half; below, Jain's index of the bytes each flow delivered. Its
# lines come four to a group, 4:1 DCQCN, 4:1 NSCC, 8:1 DCQCN, 8:1 NSCC.
dat = ARG1
png = ARG2
load system("dirname ".ARG0)."/../../bench/plots/term.gp"
array what[4] = ["4:1 dcqcn", "4:1 nscc", "8:1 dcqcn", "8:1 nscc"]
array colour[4] = ["#56b4e9", "#0072b2", "#e69f00", "#d55e00"]
w = 0.2
# The group of line N (from 0), and its bar's place in the group.
x(n) = int(n / 4) + (int(n) % 4 - 1.5) * w
rtt(us) = us >= 1000 ? sprintf("%d ms", us / 1000) : sprintf("%d us", us)
set style fill solid 0.8 noborder
set xrange [-0.5:7.5]
set yrange [0:1.05]
set ytics 0.2
set grid noxtics ytics
set lmargin 10
set rmargin 16
set multiplot title "The incast matrix: ports as uet tune sizes them, windows of a BDP, the second half judged (tools/sim/matrix.sh)"
set size 1, 0.46
set origin 0, 0.5
set ylabel "receiver port used"
set format x ""
plot for [j = 1:4] dat skip 1 every 4::(j - 1) using (x($0 * 4 + j - 1)):5:(w) with boxes linecolor rgb colour[j] title what[j]
set size 1, 0.5
set origin 0, 0
set format x "%g"
set ylabel "Jain of bytes delivered"
set xlabel "port rate and base RTT" offset 0, -0.5
set bmargin 5
plot for [j = 1:4] dat skip 1 every 4::(j - 1) using (x($0 * 4 + j - 1)):6:(w) with boxes linecolor rgb colour[j] notitle, \
	dat skip 1 every 4 using ($0):(NaN):xtic(sprintf("%d Gb/s\n%s", $1, rtt($2))) notitle
unset multiplot
