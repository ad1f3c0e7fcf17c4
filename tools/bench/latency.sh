#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Latency benchmark of the verbs transport (not a pass/fail test, not
# part of make check): one boot of the stock kernel runs
# tools/bench/latency-guest.sh, 2-byte ping-pongs (ibv_rc_pingpong busy
# polling and on events, ibv_ud_pingpong, ib_write_lat, ib_send_lat)
# between two uet devices in two namespaces, at their defaults and with
# "lb reps cc nscc", between two rdma_rxe devices, and between two uet
# devices on rxe's wire (uet-root); a round trip is timed by the wall
# clock as (t3N - tN) / 2N. This script prints the guest's output and
# then the summary: microseconds, context switches, packets and ACKs per
# round trip, and each uet kind over rxe.
#
#   LAT_N=2000           round trips of the short run (the long one: 3N)
#   LAT_REPS=5           runs of each length; each figure is the median
#                        over every pair of a long and a short run
#   LAT_KINDS="uet uet-roce rxe uet-root"   device kinds
#                        (tools/bench/devpair.sh); rxe runs on a wire in
#                        the root namespace, and so does uet-root: uet/rxe
#                        on the same wire
#   LAT_TESTS="rc rc-ev ud write send"   the tools
#   LAT_OUT=FILE         keep the guest's raw output there
#   UET_KO_DIR, UET_TOOLS_DIR   another build of the modules, the tools
#                        (selftests/lib.sh)
#
# "latency.sh FILE" prints the summary of such a kept output again.
#
# Emulated time is slow and noisy: only the ratios within a boot mean
# anything. The defaults take about 10 minutes on a 2-core machine.
set -euo pipefail
# shellcheck source=tools/bench/host-lib.sh
. "$(dirname "$0")/host-lib.sh"
bench_env LAT_N=2000 LAT_REPS=5 "LAT_KINDS=uet uet-roce rxe uet-root" \
	"LAT_TESTS=rc rc-ev ud write send"
bench_env_uet
bench_boot LAT_OUT 2400 tools/bench/latency-guest.sh "$@"

# The summary, from the guest's "result k=v ..." lines.
awk '
function or_dash(x) { return x == "" ? "-" : x }
function ratio(a, b) { return a != "" && b > 0 ? sprintf("%.2f", a / b) : "-" }
# cells(T, FIELD): FIELD of test T for every kind, 9 wide.
function cells(t, field,    i) {
	for (i = 1; i <= nk; i++) printf " %9s", or_dash(v[kinds[i], t, field])
}
function head(title, w,    i) {
	printf "%-6s", title
	for (i = 1; i <= nk; i++) printf " %*s", w, kinds[i]
}
{ sub(/\r$/, "") }
$1 == "result" && / test=/ {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["kind"]; t = f["test"]
	if (!(k in seen_k)) { seen_k[k] = 1; kinds[++nk] = k }
	if (!(t in seen_t)) { seen_t[t] = 1; tests[++nt] = t }
	for (x in f) v[k, t, x] = f[x]
	if (f["rt_us"] > 0 && (f["rt_q3_us"] - f["rt_q1_us"]) / f["rt_us"] > 0.2)
		spread = spread sprintf("  %s %s: %s to %s us\n", k, t, f["rt_q1_us"], f["rt_q3_us"])
	if (f["tool_us"] > 0 && (f["rt_us"] / f["tool_us"] > 1.25 || f["tool_us"] / f["rt_us"] > 1.25))
		differ = differ sprintf("  %s %s: %s against %s us\n", k, t, f["rt_us"], f["tool_us"])
	if (f["retx"] > 0)
		retx = retx sprintf("  %s %s: %s retransmits\n", k, t, f["retx"])
	n = f["n"]; reps = f["reps"]
}
END {
	if (!nk) { print "no results"; exit 1 }
	rxe = ("rxe" in seen_k)
	print ""
	printf "Summary. Microseconds per round trip of 2-byte messages (wall clock,\n"
	printf "(t3N - tN) / 2N, N = %d, median over %d x %d pairs), and each kind over rxe.\n",
		n, reps, reps
	head("test", 9)
	if (rxe) for (i = 1; i <= nk; i++) if (kinds[i] != "rxe") printf " %13s", kinds[i] "/rxe"
	print ""
	for (j = 1; j <= nt; j++) {
		t = tests[j]
		printf "%-6s", t
		cells(t, "rt_us")
		if (rxe)
			for (i = 1; i <= nk; i++)
				if (kinds[i] != "rxe")
					printf " %13s", ratio(v[kinds[i], t, "rt_us"], v["rxe", t, "rt_us"])
		print ""
	}
	print ""
	print "Cross-check: microseconds per round trip as the pingpongs time it (gettimeofday"
	print "over their loop, median of all runs):"
	head("test", 9)
	print ""
	for (j = 1; j <= nt; j++) {
		t = tests[j]
		if (v[kinds[1], t, "tool_us"] == "-") continue
		printf "%-6s", t
		cells(t, "tool_us")
		print ""
	}
	print ""
	print "Context switches per round trip (the whole machine, /proc/stat):"
	head("test", 9)
	print ""
	for (j = 1; j <= nt; j++) {
		t = tests[j]
		printf "%-6s", t
		cells(t, "ctxt")
		print ""
	}
	print ""
	print "Packets / ACKs per round trip, both devices (uet: tx_packets / acks_sent;"
	print "rxe: sent_pkts / what it sent beyond the 2 messages, marked ~):"
	head("test", 13)
	print ""
	for (j = 1; j <= nt; j++) {
		t = tests[j]
		printf "%-6s", t
		for (i = 1; i <= nk; i++) {
			k = kinds[i]
			if (v[k, t, "pkts"] == "") { printf " %13s", "-"; continue }
			printf " %13s", sprintf("%s / %s%s", v[k, t, "pkts"],
				v[k, t, "acks_est"] ? "~" : "", v[k, t, "acks"])
		}
		print ""
	}
	print ""
	if (spread != "")
		printf "Round trips whose quartiles spread over 20%% of the median:\n%s", spread
	else print "Every round trip figure had its quartiles within 20% of the median."
	if (differ != "")
		printf "Differences more than 25%% from what the pingpongs printed:\n%s", differ
	if (retx != "") printf "Retransmissions on a lossless path:\n%s", retx
}' "$out" || rc=1
exit "$rc"
