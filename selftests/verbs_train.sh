#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trains (Documentation/uet/design/wire-format.rst): 64 KiB RDMA WRITEs
# from a to b over a veth at MTU 1500 (47 packets each) leave uet0 as GSO
# skbs of at most train_pkts packets, and arrive as the same packets, every
# byte verified. With train_pkts 1 every packet is an skb of its own, and so
# with lb spray, which picks an entropy value per packet unless
# flowlet_pkts lets it keep one for several (a train shares one).
. "$(dirname "$0")/lib.sh"

BYTES=8M
stock_kernel || BYTES=1M
uet_pair
slow_kernel_rto a:uet0 b:uet1
T=$(mktemp -d)
on_exit "rm -rf $T"

# train_case NAME PARAM VALUE...: WRITEs with those device parameters;
# "$T/NAME" gets uet0's "packets skbs" of the transfer.
train_case() {
	local name=$1 p0 s0 p1 s1
	shift
	in_ns a "$UET" dev set uet0 "$@" || return 1
	p0=$(uet_counter uet0 tx_packets) s0=$(uet_counter uet0 tx_skbs)
	uet_verify b uet1 a uet0 10.0.0.2 "$T/$name.out" -o write -b "$BYTES" || return 1
	p1=$(uet_counter uet0 tx_packets) s1=$(uet_counter uet0 tx_skbs)
	echo "$((p1 - p0)) $((s1 - s0))" >"$T/$name"
	echo "# $*: uet0 sent $((p1 - p0)) packets in $((s1 - s0)) skbs"
}

# per_skb NAME: packets per skb of case NAME, to two decimals, times 100.
per_skb() {
	local p s
	read -r p s <"$T/$1"
	[ "$s" -gt 0 ] && echo $((p * 100 / s))
}

step "train_pkts 16: $BYTES of WRITEs verified" train_case t16 train_pkts 16
# 47 packets a message: trains of 16, 16 and 15 (15.7 packets per skb).
step "train_pkts 16: more than 8 packets per skb" test "$(per_skb t16)" -gt 800
step "train_pkts 4: $BYTES of WRITEs verified" train_case t4 train_pkts 4
step "train_pkts 4: more than 2 and at most 4 packets per skb" \
	test "$(per_skb t4)" -gt 200 -a "$(per_skb t4)" -le 400
step "train_pkts 1: $BYTES of WRITEs verified" train_case t1 train_pkts 1
step "train_pkts 1: one skb per packet" test "$(per_skb t1)" -eq 100
step "lb spray: $BYTES of WRITEs verified" train_case spray train_pkts 16 lb spray
step "lb spray: one skb per packet" test "$(per_skb spray)" -eq 100
step "lb spray, flowlet_pkts 8: $BYTES of WRITEs verified" \
	train_case flowlet lb spray flowlet_pkts 8
step "lb spray, flowlet_pkts 8: more than 4 and at most 8 packets per skb" \
	test "$(per_skb flowlet)" -gt 400 -a "$(per_skb flowlet)" -le 800
in_ns a "$UET" dev set uet0 lb single flowlet_pkts 1
exit 0
