#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trains (Documentation/uet/design/wire-format.rst): 64 KiB RDMA WRITEs
# from a to b over a veth at MTU 1500 (47 packets each) leave uet0 as GSO
# skbs of at most train_pkts packets (chained in a frag_list where one
# skb's fragments would not hold them, as a veth allows), and arrive as
# the same packets, every byte verified; uet1 takes each train whole from
# UDP, and packets sent one by one as trains that GRO joined. With
# train_pkts 1 every packet is an skb of its own, and so with lb spray
# at flowlet_pkts 1, which picks an entropy value per packet (a train
# shares one).
. "$(dirname "$0")/lib.sh"

BYTES=8M
stock_kernel || BYTES=1M
uet_pair
slow_kernel_rto a:uet0 b:uet1
# Trains of one path, at a rate no congestion control shapes: lb single
# and cc none, but where a case sets another balancer.
in_ns a "$UET" dev set uet0 lb single cc none || fail "lb single, cc none on uet0"
T=$(mktemp -d)
on_exit "rm -rf $T"

# train_counters: uet0's tx_packets and tx_skbs, uet1's rx_packets and
# rx_skbs, a line each.
train_counters() {
	local c
	for c in uet0:tx_packets uet0:tx_skbs uet1:rx_packets uet1:rx_skbs; do
		uet_counter "${c%:*}" "${c#*:}"
	done
}

# train_case NAME PARAM VALUE...: WRITEs with those device parameters;
# "$T/NAME" gets uet0's "packets skbs" sent and uet1's received.
train_case() {
	local name=$1 i v0 v1 d=()
	shift
	in_ns a "$UET" dev set uet0 "$@" || return 1
	mapfile -t v0 < <(train_counters)
	uet_verify b uet1 a uet0 10.0.0.2 "$T/$name.out" -o write -b "$BYTES" || return 1
	mapfile -t v1 < <(train_counters)
	for i in 0 1 2 3; do
		d+=($((v1[i] - v0[i])))
	done
	echo "${d[*]}" >"$T/$name"
	echo "# $*: uet0 sent ${d[0]} packets in ${d[1]} skbs, uet1 received ${d[2]} in ${d[3]}"
}

# per_skb NAME [rx]: packets per skb uet0 sent (uet1 received) in case
# NAME, to two decimals, times 100.
per_skb() {
	local p s rp rs
	read -r p s rp rs <"$T/$1"
	[ "${2:-}" != rx ] || { p=$rp s=$rs; }
	[ "$s" -gt 0 ] && echo $((p * 100 / s))
}

step "train_pkts 64: $BYTES of WRITEs verified" train_case t64 train_pkts 64
# 47 packets a message, the last one short (it ends a train): a veth
# takes a frag_list, so a train goes on in chained skbs up to 64 KiB, 45
# packets, and the message's last 2 follow (23.5 packets per skb).
step "train_pkts 64: more than 16 packets per skb" test "$(per_skb t64)" -gt 1600
# UDP hands a train up whole: the receiver takes it in one pass.
step "train_pkts 64: uet1 received more than 16 packets per skb" \
	test "$(per_skb t64 rx)" -gt 1600
step "train_pkts 16: $BYTES of WRITEs verified" train_case t16 train_pkts 16
step "train_pkts 16: more than 12 and at most 16 packets per skb" \
	test "$(per_skb t16)" -gt 1200 -a "$(per_skb t16)" -le 1600
# Without frag lists a train is one skb. Lending the payload's pages, a
# packet would take a fragment for its headers and one or two for its
# payload, and 7 or 6 packets would fill its 17 fragments (6.9 packets
# per skb before trains were packed): its packets are copies side by
# side in a kept page instead, and a train of 16 takes a fragment or two
# (15.7 packets per skb, a message's last one ending a train).
step "no frag lists on veth0" in_ns a ethtool -K veth0 tx-scatter-gather-fraglist off
step "no frag lists: $BYTES of WRITEs verified" train_case nofl train_pkts 16
step "no frag lists: more than 12 and at most 16 packets per skb" \
	test "$(per_skb nofl)" -gt 1200 -a "$(per_skb nofl)" -le 1600
step "no frag lists: uet1 received more than 12 packets per skb" \
	test "$(per_skb nofl rx)" -gt 1200
in_ns a ethtool -K veth0 tx-scatter-gather-fraglist on >/dev/null ||
	fail "ethtool -K veth0 tx-scatter-gather-fraglist on"
step "train_pkts 4: $BYTES of WRITEs verified" train_case t4 train_pkts 4
step "train_pkts 4: more than 2 and at most 4 packets per skb" \
	test "$(per_skb t4)" -gt 200 -a "$(per_skb t4)" -le 400
step "train_pkts 1: $BYTES of WRITEs verified" train_case t1 train_pkts 1
step "train_pkts 1: one skb per packet" test "$(per_skb t1)" -eq 100
step "train_pkts 1: uet1 received one skb per packet" test "$(per_skb t1 rx)" -eq 100
step "lb spray: $BYTES of WRITEs verified" \
	train_case spray train_pkts 64 lb spray flowlet_pkts 1
step "lb spray: one skb per packet" test "$(per_skb spray)" -eq 100
step "lb spray, flowlet_pkts 8: $BYTES of WRITEs verified" \
	train_case flowlet lb spray flowlet_pkts 8
step "lb spray, flowlet_pkts 8: more than 4 and at most 8 packets per skb" \
	test "$(per_skb flowlet)" -gt 400 -a "$(per_skb flowlet)" -le 800
# GRO on veth1 (NAPI, as a NIC's driver has) joins packets sent one by
# one into trains for uet's socket. veth takes its NAPI path only for
# packets of a sender without TSO, or of a local socket
# (veth_skb_is_eligible_for_gro()). uet sends each packet with BHs off
# on its own, and veth schedules its NAPI on the sending CPU: each poll
# then finds only the packet just sent, and GRO flushes what it holds at
# the end of a poll. A flush timeout keeps it across polls (until the
# jiffy turns, or that long after the last packet), as a NIC's interrupt
# moderation hands a poll many packets: without one, GRO joined packets
# only when a poll was late.
step "GRO on veth1, TSO off on veth0" in_ns b ethtool -K veth1 gro on
in_ns_sys b sh -c 'echo 1000000 >/sys/class/net/veth1/gro_flush_timeout' ||
	fail "GRO flush timeout on veth1"
in_ns a ethtool -K veth0 tso off >/dev/null || fail "ethtool -K veth0 tso off"
step "train_pkts 1, GRO: $BYTES of WRITEs verified" \
	train_case gro train_pkts 1 lb single flowlet_pkts 1
# GRO joins a message's packets as a frag-listed train goes (23.5 a
# skb), but for a run cut where the jiffy turned.
step "train_pkts 1, GRO: uet1 received more than 4 packets per skb" \
	test "$(per_skb gro rx)" -gt 400
exit 0
