#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark of the verbs transport (not a pass/fail test, not part of make
# check): one boot of the stock kernel runs tools/bench/verbs-guest.sh,
# which measures ib_write_bw over uet against its peers, rdma_rxe in
# loopback and iperf3 TCP over the same veth, at each netdev MTU, and
# profiles uet; this script prints its output and then the summary.
#
#   BENCH_MTU="1500 9000"  netdev MTUs (1500: path MTU 1024; 9000: 4096)
#   BENCH_WIN=10           seconds measured per run
#   BENCH_QUICK=1          3 s per run, to try the bench out
#   BENCH_RPS=1            veth: each end receives on a CPU of its own
#   BENCH_SHAPES="S:Q ..."  message sizes and QP counts (default
#                          "65536:1 1048576:1 4096:1 65536:4")
#   BENCH_LBCC="LB/CC ..."  uet veth runs in these modes too, beside the
#                          devices' defaults (e.g. "single/none")
#   BENCH_ROUNDS=1         veth runs of each shape, the modes and TCP in turn
#   BENCH_LOOP=1           0: no loopback runs (rxe, uet) and no profile
#   BENCH_PROFILE=S:Q      the shape the profile runs (default 65536:1);
#                          with BENCH_LOOP=0 the profile alone
#   BENCH_OUT=FILE         keep the guest's raw output there
#   BENCH_DIR=DIR          also write throughput-mtuMTU.dat there and draw
#                          a PNG of each (tools/bench/plots/, gnuplot)
#
# "verbs.sh FILE" prints the summary of such a kept output again.
#
# Emulated time is slow and noisy: only the ratios within a boot mean
# anything. Both MTUs take 20 to 25 minutes on a 2-core machine.
set -euo pipefail
# shellcheck source=tools/bench/host-lib.sh
. "$(dirname "$0")/host-lib.sh"
bench_env "BENCH_MTU=1500 9000" BENCH_WIN=10 BENCH_QUICK= BENCH_RPS= \
	"BENCH_SHAPES=65536:1 1048576:1 4096:1 65536:4" BENCH_LBCC= BENCH_ROUNDS=1 \
	BENCH_LOOP=1 BENCH_PROFILE=
bench_boot BENCH_OUT 2400 tools/bench/verbs-guest.sh "$@"

# The summary, from the guest's "result k=v ..." lines.
want=${BENCH_WIN:-10}
[ -z "${BENCH_QUICK:-}" ] || want=3
awk -v want="$want" '
function v(peer, f) { return val[key "|" peer "|" f] }
function ratio(a, b) { return a != "" && b > 0 ? sprintf("%.2f", a / b) : "-" }
function or_dash(x) { return x == "" ? "-" : x }
function shape(s, q) {
	return sprintf("%6s %d QP", s >= 1048576 ? s / 1048576 " MiB" : s / 1024 " KiB", q)
}
{ sub(/\r$/, "") }
$1 == "result" {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["mtu"] "|" f["size"] "|" f["qps"]
	if (!(k in seen)) { seen[k] = 1; keys[++n] = k }
	for (x in f) val[k "|" f["peer"] "|" x] = f[x]
	run = sprintf("  %-8s MTU %s %s:", f["peer"], f["mtu"], shape(f["size"], f["qps"]))
	if (f["peer"] ~ /veth$|^uet-veth-/) {
		r = k "|" (f["round"] ? f["round"] : 1)
		if (!(r in rseen)) { rseen[r] = 1; rounds[++nr] = r }
		if (!(f["peer"] in pseen) && f["peer"] != "uet-veth" && f["peer"] != "tcp-veth") {
			pseen[f["peer"]] = 1; modes[++nm] = f["peer"]
		}
		rv[r "|" f["peer"]] = f["MBps"]
	}
	if (f["peer"] ~ /^uet/ && f["retx"] + f["probes"] > 0)
		retx = retx run " " f["retx"] " retransmits, " f["dup"] " duplicates, " f["probes"] " probes\n"
	if (f["secs"] < want) short = short run " " f["secs"] " s\n"
}
/^perf profile:/ { prof = 1 }
prof { profile = profile $0 "\n" }
/^$/ { prof = 0 }
END {
	if (!n) { print "no results"; exit 1 }
	print ""
	print "Summary. MB/s of payload over the window of each run; lo: one device writing"
	print "to itself; veth: two namespaces. Ratios: uet/rxe in loopback, uet/TCP on veth."
	printf "%-5s %-14s %8s %8s %7s %9s %9s %7s\n", "MTU", "message", "uet lo", "rxe lo",
		"uet/rxe", "uet veth", "TCP veth", "uet/TCP"
	for (i = 1; i <= n; i++) {
		key = keys[i]; split(key, p, "|")
		printf "%-5s %-14s %8s %8s %7s %9s %9s %7s\n", p[1], shape(p[2], p[3]),
			or_dash(v("uet-lo", "MBps")), or_dash(v("rxe-lo", "MBps")),
			ratio(v("uet-lo", "MBps"), v("rxe-lo", "MBps")),
			or_dash(v("uet-veth", "MBps")), or_dash(v("tcp-veth", "MBps")),
			ratio(v("uet-veth", "MBps"), v("tcp-veth", "MBps"))
	}
	print ""
	print "Per data packet: ACKs per data packet (rxe: estimated, what it sent beyond"
	print "the data and its duplicates; TCP: veth frames, GSO) and thousands of data"
	print "packets/s; CPU: sys + softirq of both vCPUs, microseconds per KiB of payload."
	printf "%-5s %-14s %-30s | %-20s | %s\n", "", "", "ACKs per data packet", "kpps", "CPU us/KiB"
	printf "%-5s %-14s %6s %8s %7s %6s | %6s %6s %6s | %6s %6s %6s %6s\n", "MTU", "message",
		"uet lo", "uet veth", "rxe lo", "TCP", "uet lo", "veth", "rxe lo",
		"uet lo", "rxe lo", "veth", "TCP"
	for (i = 1; i <= n; i++) {
		key = keys[i]; split(key, p, "|")
		printf "%-5s %-14s %6s %8s %7s %6s | %6s %6s %6s | %6s %6s %6s %6s\n", p[1],
			shape(p[2], p[3]),
			or_dash(v("uet-lo", "ack")), or_dash(v("uet-veth", "ack")),
			or_dash(v("rxe-lo", "ack")), or_dash(v("tcp-veth", "ack")),
			or_dash(v("uet-lo", "kpps")), or_dash(v("uet-veth", "kpps")),
			or_dash(v("rxe-lo", "kpps")),
			or_dash(v("uet-lo", "cpu")), or_dash(v("rxe-lo", "cpu")),
			or_dash(v("uet-veth", "cpu")), or_dash(v("tcp-veth", "cpu"))
	}
	print "(kpps and CPU \"veth\": uet over veth.)"
	print ""
	print "Data skbs the uet sender handed to IP per message (a train is one skb):"
	printf "%-5s %-14s %8s %8s\n", "MTU", "message", "uet lo", "uet veth"
	for (i = 1; i <= n; i++) {
		key = keys[i]; split(key, p, "|")
		printf "%-5s %-14s %8s %8s\n", p[1], shape(p[2], p[3]),
			or_dash(v("uet-lo", "skbs")), or_dash(v("uet-veth", "skbs"))
	}
	print ""
	if (nm) {
		print "uet veth by mode, round by round: MB/s of each mode and the run at the"
		print "defaults over it; the defaults over TCP of the same round:"
		printf "%-5s %-14s %5s %9s %9s", "MTU", "message", "round", "defaults", "TCP"
		for (j = 1; j <= nm; j++) printf " %15s", modes[j]
		print ""
		for (i = 1; i <= nr; i++) {
			split(rounds[i], p, "|"); r = rounds[i]
			printf "%-5s %-14s %5s %9s %9s", p[1], shape(p[2], p[3]), p[4],
				or_dash(rv[r "|uet-veth"]), or_dash(rv[r "|tcp-veth"])
			for (j = 1; j <= nm; j++)
				printf " %8s %6s", or_dash(rv[r "|" modes[j]]),
					ratio(rv[r "|uet-veth"], rv[r "|" modes[j]])
			printf "   defaults/TCP %s\n", ratio(rv[r "|uet-veth"], rv[r "|tcp-veth"])
		}
		print ""
	}
	if (retx != "") printf "uet runs that retransmitted on a lossless path (in the window):\n%s", retx
	if (short != "") printf "windows under %s s:\n%s", want, short
	else print "every window lasted at least " want " s"
	printf "\n%s", profile
}' "$out"
if [ -n "${BENCH_DIR:-}" ]; then
	"$top/tools/bench/plots/verbs-data.sh" "$out" "$BENCH_DIR" &&
		"$top/tools/bench/plots/draw.sh" "$BENCH_DIR" || rc=1
fi
exit "$rc"
