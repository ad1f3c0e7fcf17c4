# SPDX-License-Identifier: GPL-2.0
#
# Loaded by queue.gp and rates.gp once they set dat, png and here (a
# loaded file has no ARGn): tools/bench/plots' style, the run told from
# the "# KEY VALUE" lines of uet-sim --series, one time axis, and the
# fault's time marked.
load here."/../../bench/plots/term.gp"
# hstr(KEY): the word a "# KEY WORD" line of dat gives.
hstr(key) = system(sprintf("awk '$1 == \"#\" && $2 == \"%s\" { print $3; exit }' '%s'", key, dat))
flows = int(header("flows"))
run = sprintf("uet-sim %s, cc %s, lb %s, %d flows, %d Gb/s, seed %d", \
	hstr("scenario"), hstr("cc"), hstr("lb"), flows, header("rate_gbps"), header("seed"))
# Milliseconds for runs of more than 10 ms: microseconds would be wide.
stats dat using 1 nooutput
ms = STATS_max > 10000
t(us) = ms ? us / 1000.0 : us
xlab = sprintf("time (%s), bins of %g us", ms ? "ms" : "us", header("bin_ns") / 1000.0)
set xrange [0:t(STATS_max)]
set lmargin 12
set rmargin 24
fail = t(header("fail_ns") / 1000.0)
slow = header("slow_pct")
if (fail > 0) {
	set arrow from fail, graph 0 to fail, graph 1 nohead dashtype 2
	set label (slow > 0 ? sprintf("link at %d %%", slow) : "link fails") \
		at fail, graph 0.95 offset 0.5, 0
}
