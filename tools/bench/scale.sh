#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Scale benchmark of the verbs transport (not a pass/fail test, not part
# of make check): one boot of the stock kernel runs
# tools/bench/scale-guest.sh, which runs tools/bench/qp_scale between two
# uet devices in two namespaces and between two rdma_rxe devices, for 1,
# 64 and 1024 RC QP pairs: the time to create and connect them, the
# kernel memory each holds connected and idle, WRITE throughput over all
# of them, the time to destroy them. This script prints the guest's
# output and then the summary, uet beside rxe.
#
#   SCALE_QPS="1 64 1024"    QP pairs per run
#   SCALE_KINDS="uet rxe"    device kinds (tools/bench/devpair.sh)
#   SCALE_SECS=10            the WRITE window, seconds of wall clock
#   SCALE_OUTSTANDING=2      64 KiB WRITEs in flight per QP
#   SCALE_OUT=FILE           keep the guest's raw output there
#   UET_KO_DIR, UET_TOOLS_DIR   another build of the modules, the tools
#                            (selftests/lib.sh)
#
# "scale.sh FILE" prints the summary of such a kept output again.
#
# Emulated time is slow and noisy: only the ratios within a boot mean
# anything. The defaults take about 10 minutes on a 2-core machine.
set -euo pipefail
# shellcheck source=tools/bench/host-lib.sh
. "$(dirname "$0")/host-lib.sh"
bench_env "SCALE_QPS=1 64 1024" "SCALE_KINDS=uet rxe" SCALE_SECS=10 SCALE_OUTSTANDING=2
bench_env_uet
bench_boot SCALE_OUT 3600 tools/bench/scale-guest.sh "$@"

# The summary, from the guest's "result kind=K what=W qps=N k=v ..." lines.
awk '
function or_dash(x) { return x == "" ? "-" : x }
function ratio(a, b) { return a != "" && b > 0 ? sprintf("%.2f", a / b) : "-" }
# "MS (US)": a time and its share per QP, or "-".
function with_per_qp(k, q, w, f) {
	if (v[k, q, w, f] == "") return "-"
	return v[k, q, w, f] " (" v[k, q, w, "us_per_qp"] ")"
}
function row(q, w, f, fmt,    i, x) {
	for (i = 1; i <= nk; i++) {
		x = v[kinds[i], q, w, f]
		printf fmt, x == "" ? "-" : x
	}
}
{ sub(/\r$/, "") }
$1 == "result" && / what=/ {
	delete f
	for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	k = f["kind"]; q = f["qps"]; w = f["what"]
	if (!(k in seen_k)) { seen_k[k] = 1; kinds[++nk] = k }
	if (!(q in seen_q)) { seen_q[q] = 1; qs[++nq] = q }
	if (w == "slab") {
		slabs[k, q] = slabs[k, q] sprintf(" %s %s", f["cache"], f["kib_per_qp"])
		next
	}
	for (x in f) v[k, q, w, x] = f[x]
	if (w == "setup")
		v[k, q, w, "ms"] = sprintf("%.1f", f["create_ms"] + f["connect_ms"])
	if (w == "write" && f["verified"] != q)
		bad = bad sprintf("  %s, %s QPs: %s verified\n", k, q, or_dash(f["verified"]))
}
END {
	if (!nk) { print "no results"; exit 1 }
	rxe = ("rxe" in seen_k)
	print ""
	print "Summary. QP pairs (2 QPs each) between two devices, one process."
	print "Create + connect all, and destroy all: ms (us per QP)."
	printf "%5s", "pairs"
	for (i = 1; i <= nk; i++) printf " %20s", kinds[i] " setup"
	for (i = 1; i <= nk; i++) printf " %20s", kinds[i] " destroy"
	print ""
	for (j = 1; j <= nq; j++) {
		q = qs[j]
		printf "%5s", q
		for (i = 1; i <= nk; i++)
			printf " %20s", with_per_qp(kinds[i], q, "setup", "ms")
		for (i = 1; i <= nk; i++)
			printf " %20s", with_per_qp(kinds[i], q, "destroy", "destroy_ms")
		print ""
	}
	print ""
	print "KiB per connected idle QP (/proc/meminfo changes over 2 x pairs QPs;"
	print "kernel: the MemAvailable drop less the process heap growth; large:"
	print "the part of Slab in no /proc/slabinfo cache, kmallocs over 8 KiB):"
	printf "%5s %-9s %9s %7s %8s %8s %8s %8s %8s\n", "pairs", "kind", "MemAvail", "heap",
		"kernel", "Slab", "large", "Vmalloc", "Percpu"
	for (j = 1; j <= nq; j++) {
		q = qs[j]
		for (i = 1; i <= nk; i++) {
			k = kinds[i]
			if (v[k, q, "memory", "avail_kib"] == "") continue
			printf "%5s %-9s %9s %7s %8s %8s %8s %8s %8s\n", q, k,
				v[k, q, "memory", "avail_kib"], v[k, q, "memory", "heap_kib"],
				v[k, q, "memory", "kernel_kib"], v[k, q, "memory", "slab_kib"],
				or_dash(v[k, q, "memory", "large_kib"]),
				v[k, q, "memory", "vmalloc_kib"], v[k, q, "memory", "percpu_kib"]
		}
	}
	print ""
	print "Slab caches that grew most (KiB per QP):"
	for (j = 1; j <= nq; j++)
		for (i = 1; i <= nk; i++)
			if ((kinds[i], qs[j]) in slabs)
				printf "  %s, %s pairs:%s\n", kinds[i], qs[j], slabs[kinds[i], qs[j]]
	print ""
	print "64 KiB RDMA WRITEs over all pairs: MB/s of payload completed in the window."
	printf "%5s", "pairs"
	for (i = 1; i <= nk; i++) printf " %10s", kinds[i]
	if (rxe) for (i = 1; i <= nk; i++) if (kinds[i] != "rxe") printf " %10s", kinds[i] "/rxe"
	print ""
	for (j = 1; j <= nq; j++) {
		q = qs[j]
		printf "%5s", q
		row(q, "write", "MBps", " %10s")
		if (rxe)
			for (i = 1; i <= nk; i++)
				if (kinds[i] != "rxe")
					printf " %10s", ratio(v[kinds[i], q, "write", "MBps"],
						v["rxe", q, "write", "MBps"])
		print ""
	}
	print ""
	for (j = 1; j <= nq; j++)
		for (i = 1; i <= nk; i++)
			if (v[kinds[i], qs[j], "write", "verified"] == "")
				bad = bad sprintf("  %s, %s QPs: no WRITE result\n", kinds[i], qs[j])
	if (bad != "") printf "WRITEs not verified:\n%s", bad
	else print "The last WRITE of every QP arrived intact."
}' "$out" || rc=1
exit "$rc"
