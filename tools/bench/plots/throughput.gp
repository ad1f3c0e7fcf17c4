# SPDX-License-Identifier: GPL-2.0
#
# gnuplot -c throughput.gp DAT [PNG]: MB/s of payload against message
# size, one line per peer and QP count, from the blocks of DAT (written
# by verbs-data.sh: a quoted title, then "size MB/s" rows).
dat = ARG1
png = ARG2
load sprintf("%s/term.gp", system("dirname ".ARG0))
blocks = int(system(sprintf("grep -c '^\"' '%s'", dat)))
set title sprintf("ib_write_bw over uet, rdma_rxe and TCP, MTU %d (tools/bench/verbs.sh)", header("mtu"))
set xlabel "message size (bytes)"
set ylabel "MB/s of payload"
set logscale x 2
set format x "%.0b %BB"
set yrange [0:*]
set offsets graph 0.05, graph 0.05, graph 0.05, 0
plot for [i = 0:blocks - 1] dat index i using 1:2 with linespoints pointsize 1.5 \
	title columnheader(1)
