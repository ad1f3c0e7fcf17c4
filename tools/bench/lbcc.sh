#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Load balancing x congestion control at speed (not a pass/fail test, not
# part of make check): one boot of the stock kernel runs
# tools/bench/lbcc-guest.sh, which times verified 64 KiB RDMA WRITEs
# (tools/verify/uet-verify) from uet0 to uet1 under every lb x cc
# combination, both devices set alike, on a veth pair (beside iperf3 TCP
# over the same veth) and on an unshaped leaf-spine fabric of 4 spines,
# by the wall clock as (4N - N) / (t4N - tN). This script prints the
# guest's output and then the summary: MB/s of each combination, its
# ratio to lb single cc none on the same fabric and to TCP on the veth,
# each spine's share of the bytes towards b, and the sender's congestion
# state sampled mid-run.
#
#   LBCC_FABRICS="veth spines"   the fabrics
#   LBCC_LB="single spray reps"  load balancers
#   LBCC_CC="none nscc dcqcn"    congestion controls
#   LBCC_MTU="1500"       netdev MTUs (9000: both veth ends and every link
#                         of the leaf-spine fabric; path MTU 4096)
#   LBCC_QPS="1"          QP counts (uet-verify -q; TCP: that many streams)
#   LBCC_FLOWLET=0        the devices' flowlet_pkts (0: flowcells; 1: per packet)
#   LBCC_BYTES=64M        N, the bytes of the short run (the long one: 4N)
#   LBCC_TIMEOUT=120      seconds a run may last; a slower run counts what
#                         it did by then
#   LBCC_OUT=FILE         keep the guest's raw output there
#   UET_KO_DIR, UET_TOOLS_DIR   another build of the modules, the tools
#                         (selftests/lib.sh)
#
# "lbcc.sh FILE" prints the summary of such a kept output again.
#
# Emulated time is slow and noisy: only the ratios within a boot mean
# anything. The defaults take about 5 minutes on a 2-core machine, boot
# included; each MTU or QP count more about as long again.
set -euo pipefail
# shellcheck source=tools/bench/host-lib.sh
. "$(dirname "$0")/host-lib.sh"
bench_env "LBCC_FABRICS=veth spines" "LBCC_LB=single spray reps" \
	"LBCC_CC=none nscc dcqcn" LBCC_MTU=1500 LBCC_QPS=1 LBCC_FLOWLET=0 \
	LBCC_BYTES=64M LBCC_TIMEOUT=120
bench_env_uet
# A minute and a half a combination (a default one takes 15 to 25 s),
# the boot and the fabrics' setup besides.
combos=0
for _ in ${LBCC_FABRICS:-veth spines}; do
	for _ in ${LBCC_MTU:-1500}; do
		for _ in ${LBCC_QPS:-1}; do
			for _ in ${LBCC_LB:-single spray reps}; do
				for _ in ${LBCC_CC:-none nscc dcqcn}; do
					combos=$((combos + 1))
				done
			done
		done
	done
done
bench_boot LBCC_OUT $((600 + combos * 90)) tools/bench/lbcc-guest.sh "$@"

# The summary, from the guest's "result fabric=F mtu=M qps=Q lb=L cc=C
# MBps=R ..." lines (lb=tcp: iperf3).
awk '
function ratio(a, b) { return a != "" && b > 0 ? sprintf("%.2f", a / b) : "-" }
# The rate as measured: ~ when a run timed out, < when nothing was done.
function rate(k) {
	if (est[k] == "none") return "<" mbps[k]
	if (est[k] == "whole" || rc4[k] != 0) return "~" mbps[k]
	return mbps[k]
}
# The first QP'"'"'s congestion state mid-run, short.
function ccshort(s,    n, i, kv, v) {
	if (s == "" || s == "-") return "-"
	n = split(s, kv, ",")
	for (i = 1; i <= n; i++) { split(kv[i], p, ":"); v[p[1]] = p[2] }
	if ("cwnd" in v)
		return sprintf("cwnd %.0f/%.0f KB, rtt %.0f/%s us, %s Mb/s", v["cwnd"] / 1000,
			v["max_wnd"] / 1000, v["base_rtt_ns"] / 1000,
			("srtt_us" in v) ? v["srtt_us"] : "-",
			v["linkspeed_mbps"])
	if ("rate_mbps" in v)
		return sprintf("rate %s/%s Mb/s", v["rate_mbps"], v["max_rate_mbps"])
	return "-"
}
{ sub(/\r$/, "") }
/^# .* failed$/ { failed = failed "  " substr($0, 3) "\n" }
$1 == "result" && / lb=/ {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	g = f["fabric"] "|" f["mtu"] "|" f["qps"]
	if (f["lb"] == "tcp") { tcp[f["mtu"] "|" f["qps"]] = f["MBps"]; next }
	k = g "|" f["lb"] "|" f["cc"]
	if (!(k in mbps)) keys[++n] = k
	mbps[k] = f["MBps"]; est[k] = f["est"]; rc4[k] = f["rc4"]
	spines[k] = f["spines"]; ccst[k] = f["ccstate"]; nbytes = f["n"]
	skbs[k] = f["skbs"] == "" ? "-" : f["skbs"]
	if (f["lb"] == "single" && f["cc"] == "none") base[g] = f["MBps"]
	c = ""
	split("retx probes nacks cnps ooo dup trim", names, " ")
	for (j = 1; j <= 7; j++)
		if (f[names[j]] > 0) c = c " " names[j] " " f[names[j]]
	if (c != "") counted = counted sprintf("  %-34s%s\n", label(k), c)
	if (f["tool_MBps"] != "-" && f["tool_MBps"] != "" && f["MBps"] > 0 &&
	    (f["tool_MBps"] / f["MBps"] > 1.25 || f["MBps"] / f["tool_MBps"] > 1.25))
		differ = differ sprintf("  %-34s %s against %s MB/s\n", label(k), f["MBps"],
			f["tool_MBps"])
	if (f["rc1"] != 0 || (f["rc4"] != 0 && f["rc4"] != "-"))
		capped = capped sprintf("  %-34s N run %s s%s, 4N run %s s%s\n", label(k),
			f["s1"], f["rc1"] ? " (timed out)" : "", f["s4"],
			f["rc4"] != 0 && f["rc4"] != "-" ? " (timed out)" : "")
}
# The TCP row of MTU|QPS, once, before the first veth row of the same.
function tcp_row(t,    p) {
	if (t in tcp_done || !(t in tcp)) return
	tcp_done[t] = 1
	split(t, p, "|")
	printf "%-7s %5s %3s %-6s %-5s %8s %6s %6s %7s  %-23s %s\n", "veth", p[1], p[2],
		"TCP", "-", tcp[t], "-", "1.00", "-", "-", "iperf3 (-l 64K)"
}
function label(k,    p) {
	split(k, p, "|")
	return sprintf("%s MTU %s %sQP %s/%s", p[1], p[2], p[3], p[4], p[5])
}
END {
	if (!n) { print "no results"; exit 1 }
	print ""
	printf "Summary. 64 KiB RDMA WRITEs from uet0 to uet1, every byte verified: MB/s of\n"
	printf "payload by the wall clock, (4N - N) / (t4N - tN), N = %d MiB (~: a run\n", nbytes / 1048576
	printf "timed out, rate from what it did; <: nothing done); x s/n: over lb single cc\n"
	printf "none on the same fabric, MTU and QPs; x TCP: over iperf3 on the veth (same\n"
	printf "MTU, a stream per QP); skb/msg: data skbs uet0 sent per message (a train\n"
	printf "is one); spines: %% of the bytes each spine carried to b;\n"
	printf "cc: the sender'"'"'s first QP half-way through the 4N run (nscc: cwnd/max_wnd,\n"
	printf "base RTT/srtt, linkspeed; dcqcn: rate/max rate).\n"
	printf "%-7s %5s %3s %-6s %-5s %8s %6s %6s %7s  %-23s %s\n", "fabric", "MTU", "QPs",
		"lb", "cc", "MB/s", "x s/n", "x TCP", "skb/msg", "spines %", "cc mid-run"
	for (i = 1; i <= n; i++) {
		k = keys[i]; split(k, p, "|")
		g = p[1] "|" p[2] "|" p[3]
		if (p[1] == "veth") tcp_row(p[2] "|" p[3])
		sp = spines[k]; gsub(/,/, " ", sp)
		printf "%-7s %5s %3s %-6s %-5s %8s %6s %6s %7s  %-23s %s\n", p[1], p[2], p[3],
			p[4], p[5], rate(k), ratio(mbps[k], base[g]),
			ratio(mbps[k], tcp[p[2] "|" p[3]]), skbs[k], sp, ccshort(ccst[k])
	}
	for (t in tcp) tcp_row(t)
	print ""
	if (counted != "")
		printf "Counted over the 4N run (uet0: retransmits, probes, NACKs, CNPs\n" \
			"received; uet1: out of order, duplicates, trimmed):\n%s", counted
	else print "No retransmission, probe, NACK, CNP, reordering or trim in any 4N run."
	if (capped != "") printf "Runs that timed out:\n%s", capped
	else print "Every run ended within the timeout."
	if (failed != "") printf "Failed (no result; the raw output says why):\n%s", failed
	if (differ != "")
		printf "Rates more than 25%% from uet-verify'"'"'s own (4N run, setup left out):\n%s", differ
	else print "Every rate within 25% of uet-verify'"'"'s own (the 4N run'"'"'s, setup left out)."
}' "$out" || rc=1
exit "$rc"
