#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# uet-verify (RDMA WRITE, SEND and READ, every byte checked) through netem
# on both ends of the cable, so that data, ACKs and READ responses all
# suffer it: 1% loss, reordering (about 20% of packets overtake the others),
# both at once, 5% duplication and (stock kernel) 5% corruption. Every
# byte must arrive intact. Recovery must be selective: under loss, at
# most three retransmissions per packet netem dropped (the stock kernel);
# duplicates must be seen and discarded; corrupted packets dropped for
# their UDP checksum. netem takes a train (several packets in one GSO skb)
# whole: the packets it dropped are its drops times the packets per skb
# both ends sent.
. "$(dirname "$0")/lib.sh"

# Bytes per op, three ops per case: 3 x 32M = 96 MiB per case, some
# 100000 packets, of which 1% loss drops about a thousand: enough to
# judge recovery (3 x 86M took 329 s of a make check that must stay
# under 45 minutes). The debug kernel moves 0.1-0.3 MB/s: 1M there, and
# only the cases that take every recovery path (loss and reordering at
# once, duplicates): all four took 327 s there. UET_NETEM_BYTES overrides
# the size.
BYTES=32M CASES="loss reorder duplicate lossreorder corrupt never"
stock_kernel || BYTES=1M CASES="lossreorder duplicate"
BYTES=${UET_NETEM_BYTES:-$BYTES}
modprobe sch_netem || skip "no sch_netem"
uet_pair
# The debug kernel stalls for longer than a 50 ms RTO: its expiries then
# resend whole windows, not lost packets (176 retransmissions for 33
# netem drops in one make check, 5 timeouts resending 85 packets).
slow_kernel_rto a:uet0 b:uet1
# 1M per op in trains is some 150 data skbs among 650 ACKs: 1% loss spares
# every data skb with odds 0.99^150 = 22% (a make check saw retransmits
# 0). There, single packets: 2300 data skbs; the stock run sends trains.
if ! stock_kernel; then
	for d in a:uet0 b:uet1; do
		in_ns "${d%:*}" "$UET" dev set "${d#*:}" \
			train_pkts 1 || fail "train_pkts 1 on ${d#*:}"
	done
fi
T=$(mktemp -d)
on_exit "rm -rf $T"

# Shown for every case.
COUNTERS="tx_packets tx_skbs retransmits retransmits_sack retransmits_nack retransmits_rto
	duplicates_received out_of_order_received nacks_sent rto_expired drop_checksum"

# counters FILE: both devices' counters, summed, as "name value" lines.
# In the shell: each program started costs the debug kernel half a second.
counters() {
	local -A v=()
	local n x
	while read -r n x; do
		v[$n]=$((${v[$n]:-0} + x))
	done < <(uet_counters uet0; uet_counters uet1)
	for n in "${!v[@]}"; do
		echo "$n ${v[$n]}"
	done >"$1"
}

# counter_in FILE NAME: NAME's value in a counters FILE.
counter_in() {
	local n x
	while read -r n x; do
		[ "$n" != "$2" ] || { echo "$x"; return; }
	done <"$1"
	echo 0
}

# case_delta NAME COUNTER: how much COUNTER moved during case NAME.
case_delta() {
	echo $(($(counter_in "$T/$1.after" "$2") - $(counter_in "$T/$1.before" "$2")))
}

# netem_stats FILE: packets the netem qdiscs of both ends dropped, and
# sent ahead of the queue (reordered): "drops requeues".
netem_stats() {
	{ in_ns a tc -s qdisc show dev veth0; in_ns b tc -s qdisc show dev veth1; } |
		sed -n 's/.*(dropped \([0-9]*\),.* requeues \([0-9]*\)).*/\1 \2/p' |
		awk '{ d += $1; r += $2 } END { print d + 0, r + 0 }' >"$1"
}

# netem_case NAME NETEM_ARGS...: uet-verify with netem on both ends.
netem_case() {
	local name=$1 start=$SECONDS rc=0 c drops requeues
	shift
	in_ns a tc qdisc add dev veth0 root netem "$@" || return 1
	in_ns b tc qdisc add dev veth1 root netem "$@" || return 1
	counters "$T/$name.before"
	uet_verify b uet1 a uet0 10.0.0.2 "$T/$name" -o all -b "$BYTES" -T 900 || rc=1
	counters "$T/$name.after"
	netem_stats "$T/$name.netem"
	in_ns a tc qdisc del dev veth0 root
	in_ns b tc qdisc del dev veth1 root
	read -r drops requeues <"$T/$name.netem"
	echo "# $name: $((SECONDS - start)) s; netem dropped $drops, sent $requeues ahead of the queue"
	for c in $COUNTERS; do
		echo "# $name: $c +$(case_delta "$name" "$c")"
	done
	return "$rc"
}

# selective NAME: retransmitted, and on the stock kernel at most three
# times per dropped packet. Go-back-N would resend what followed each
# hole, up to mpr (256) packets for a train of up to 45. Since trains
# are chained and the receiver's pass runs on the other CPU, packets the
# two CPUs send overtake each other and some resends are needless: with
# 1% loss 1.14..2.34 per dropped packet in five runs (1.02..1.57 in four
# with netem's reordering too), where single-skb trains had 0.8..1.3.
# The debug kernel stalls for longer than even its
# long RTOs: their expiries resend windows that were only late (a make
# check there: 183 retransmissions for 47 drops, 6 expiries marking 266
# packets, 158 packets received twice), so the ratio measures the
# emulation there, not the transport; 1M per op is also too few packets
# for a fine ratio.
selective() {
	local retx drops pkts skbs lost
	retx=$(case_delta "$1" retransmits)
	pkts=$(case_delta "$1" tx_packets)
	skbs=$(case_delta "$1" tx_skbs)
	read -r drops _ <"$T/$1.netem"
	[ "$skbs" -gt 0 ] || return 1
	lost=$((drops * pkts / skbs))
	echo "# $1: $retx retransmissions for $drops skbs netem dropped, $lost packets" \
		"at $pkts packets in $skbs skbs"
	[ "$drops" -gt 0 ] && [ "$retx" -gt 0 ] || return 1
	stock_kernel || return 0
	[ "$retx" -le $((3 * lost)) ]
}
SELECTIVE="retransmits > 0 and <= 3 x packets netem dropped"
stock_kernel || SELECTIVE="lost packets were retransmitted"

# One function per case: its transfer, then what it must show.
case_loss() {
	step "1% loss: every byte verified" netem_case loss loss 1%
	step "1% loss: $SELECTIVE" selective loss
}
case_reorder() {
	step "reordering: every byte verified" netem_case reorder delay 2ms reorder 80% gap 5
	step "reordering: packets arrived out of order" \
		test "$(case_delta reorder out_of_order_received)" -gt 0
}
case_duplicate() {
	step "5% duplication: every byte verified" netem_case duplicate duplicate 5%
	step "5% duplication: duplicates were received and discarded" \
		test "$(case_delta duplicate duplicates_received)" -gt 0
}
case_lossreorder() {
	step "loss and reordering: every byte verified" \
		netem_case lossreorder delay 2ms reorder 80% gap 5 loss 1%
	step "loss and reordering: $SELECTIVE" selective lossreorder
}
# netem computes the checksum of a packet before it flips a bit of its
# linear part (Ethernet, IP, UDP headers, and uet's where they are
# there): the receiver must find a wrong UDP checksum (a flip in the IP
# header is IP's to drop). Of a train netem corrupts one packet, whose
# UDP header is 8 of the 42 bytes it may flip: 1% corruption gave 4 and
# 7 checksum drops in two runs, so 5%.
case_corrupt() {
	step "5% corruption: every byte verified" netem_case corrupt corrupt 5%
	step "5% corruption: wrong UDP checksums dropped" \
		test "$(case_delta corrupt drop_checksum)" -gt 0
}

# A packet that never gets through: a filter at a's egress drops every
# copy of the data packets whose PSN ends in 0x5a (PDS header at 28 of
# the IP packet: type 2 in the top bits of byte 0, the PSN's low byte at
# 35). The WRITE must end in IBV_WC_RETRY_EXC_ERR after the QP's 7
# timeouts, not go on resending the hole for ever: after its first
# resends, the SACK rule judges a resent packet only once something sent
# after it arrived. One packet per skb (train_pkts 1), so that the filter
# sees every packet's header: the last case.
never_case() {
	local start=$SECONDS rto out rc=0
	in_ns a "$UET" dev set uet0 train_pkts 1 || return 1
	in_ns a tc qdisc add dev veth0 clsact &&
		in_ns a tc filter add dev veth0 egress protocol ip prio 1 u32 \
			match u8 0x10 0xf8 at 28 match u8 0x5a 0xff at 35 action drop ||
		return 1
	rto=$(uet_counter uet0 rto_expired)
	out=$(uet_verify b uet1 a uet0 10.0.0.2 "$T/never" -o write -b 1M -T 120) || rc=$?
	rto=$(($(uet_counter uet0 rto_expired) - rto))
	in_ns a tc qdisc del dev veth0 clsact
	printf '%s\n' "$out" | grep -m1 'completion error' | sed 's/^/# /'
	log "after $((SECONDS - start)) s, $rto timeouts"
	[ "$rc" -ne 0 ] && [ "$rto" -ge 7 ] &&
		printf '%s\n' "$out" | grep -q 'transport retry counter exceeded'
}
case_never() {
	step "a packet dropped every time: the WRITE fails with RETRY_EXC_ERR after 7 timeouts" \
		never_case
}

log "$BYTES bytes per op, write, send and read in each case"
for c in $CASES; do
	"case_$c"
done
exit 0
