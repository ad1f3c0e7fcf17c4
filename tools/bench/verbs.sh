#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark of the verbs transport (not a pass/fail test): ib_write_bw
# 64 KiB, one QP. Boot 1: uet between two namespaces over veth, and
# iperf3 TCP on the same veth. Boot 2 (same kernel): rdma_rxe with one
# device in loopback, then uet in the same loopback setup. BENCH_MTU sets
# the netdev MTU (default 1500: IB MTU 1024; 9000 gives 4096). Emulated time
# is slow and noisy, so only the ratios within a boot mean anything.
set -eu
top=$(readlink -f "$(dirname "$0")/../..")
vm=$top/tools/testing/vm/run
out=$(mktemp)
trap 'rm -f "$out"' EXIT

mtu=${BENCH_MTU:-1500}
echo "netdev MTU $mtu"
"$vm" -k stock -t 900 -- env BENCH_MTU="$mtu" tools/bench/verbs-guest.sh pair | tee -a "$out"
"$vm" -k stock -t 900 -- env BENCH_MTU="$mtu" tools/bench/verbs-guest.sh loop | tee -a "$out"

val() { awk -v k="$1" '$1 == "result" && $2 == k { print $3 }' "$out"; }
uv=$(val uet_veth) tcp=$(val iperf3_veth) rxe=$(val rxe_loop) ul=$(val uet_loop)
echo
printf '%-34s %10s\n' "measurement" "MB/s"
printf '%-34s %10s\n' "uet ib_write_bw, veth, 2 netns" "$uv" \
	"iperf3 TCP, same veth" "$tcp" "rxe ib_write_bw, loopback" "$rxe" \
	"uet ib_write_bw, loopback" "$ul"
awk -v a="$uv" -v b="$tcp" -v c="$ul" -v d="$rxe" 'BEGIN {
	printf "uet/iperf3 (veth)    %.2f\n", a / b
	printf "uet/rxe (loopback)   %.2f\n", c / d
}'
