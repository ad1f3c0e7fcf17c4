#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma_cm over uet: the IB CM's MADs travel as UUD datagrams between the GSI
# QPs (QP1) of two devices, uet0 in namespace a (clients) and uet1 in b
# (servers). rping checks its data over IPv4 and IPv6, ucmatose connects
# several endpoints, udaddy exchanges datagrams between user UD QPs that
# rdma_cm addressed, mckey sends datagrams to a multicast group that two
# QPs joined, ib_send_bw connects its QP through rdma_cm (-R). With GRO
# joining what arrives in bursts, pairs of datagrams are still counted one
# by one, and (stock kernel) cmtime and ucmatose set up 100 and 32
# connections at once.
# Then forged datagrams are dropped and counted, and the module unloads
# cleanly.
. "$(dirname "$0")/lib.sh"

veth_pair v6
uet_load
modprobe -a rdma_cm rdma_ucm || fail "cannot load rdma_cm"
T=$(mktemp -d)
on_exit "rm -rf $T"

step "rdma link add uet0 in namespace a" in_ns a rdma link add uet0 type uet netdev veth0
step "rdma link add uet1 in namespace b" in_ns b rdma link add uet1 type uet netdev veth1
step "ib_mad's GSI QP1 of uet0 and uet1 is in RTS" \
	bash -c 'rdma res show qp | grep -q "link uet0/1 lqpn 1 type GSI state RTS" &&
		rdma res show qp | grep -q "link uet1/1 lqpn 1 type GSI state RTS"'
step "ib_mad opened both ports without complaint" \
	bash -c '! dmesg | grep -E "ib_mad|Couldn.t (create|open)"'

# listening COMM: a process named COMM has an rdma_cm ID listening.
listening() { rdma res show cm_id | grep -q "state LISTEN .*comm $1"; }
export -f listening

# The N lines of data "rping -v -C N" prints, at its default size (64 B):
# ping i is "rdma-ping-i: " then characters from 'A' + i, wrapping after 'z'.
rping_lines() {
	awk -v n="$1" 'BEGIN {
		for (i = 0; i < n; i++) {
			s = sprintf("rdma-ping-%d: ", i)
			c = 65 + i % 58
			while (length(s) < 63) {
				s = s sprintf("%c", c)
				if (++c > 122)
					c = 65
			}
			print s
		}
	}'
}

# rping_pair ADDR: 10 verified pings to the server on ADDR; both sides must
# print exactly the expected data.
rping_pair() {
	local srv rc=0
	in_ns b timeout 120 rping -s -a "$1" -v -V -C 10 >"$T/rping.srv" 2>&1 &
	srv=$!
	if ! wait_for 30 listening rping; then
		kill "$srv"
		wait "$srv"
		echo "the rping server never listened:"
		cat "$T/rping.srv"
		return 1
	fi
	in_ns a timeout 120 rping -c -a "$1" -v -V -C 10 >"$T/rping.cli" 2>&1 || rc=1
	wait "$srv" || rc=1
	rping_lines 10 >"$T/rping.exp"
	sed -n 's/^ping data: //p' "$T/rping.cli" | diff -u "$T/rping.exp" - || rc=1
	sed -n 's/^server ping data: //p' "$T/rping.srv" | diff -u "$T/rping.exp" - || rc=1
	if [ "$rc" != 0 ]; then
		echo "client:"
		cat "$T/rping.cli"
		echo "server:"
		cat "$T/rping.srv"
	fi
	return "$rc"
}

# cma_pair TOOL ADDR [N]: librdmacm's example TOOL (ucmatose: RC; udaddy:
# UD QPs of the user), N endpoints (4) exchanging 20 messages each.
cma_pair() {
	local tool=$1 n=${3:-4} srv rc=0
	in_ns b timeout 120 "$tool" -b "$2" -c "$n" -C 20 >"$T/cma.srv" 2>&1 &
	srv=$!
	if ! wait_for 30 listening "$tool"; then
		kill "$srv"
		wait "$srv"
		echo "the $tool server never listened:"
		cat "$T/cma.srv"
		return 1
	fi
	in_ns a timeout "${CMA_TIMEOUT:-120}" "$tool" -s "$2" -c "$n" -C 20 \
		>"$T/cma.cli" 2>&1 || rc=1
	wait "$srv" || rc=1
	grep -q "return status 0" "$T/cma.cli" || rc=1
	grep -q "return status 0" "$T/cma.srv" || rc=1
	if [ "$rc" != 0 ]; then
		echo "client:"
		cat "$T/cma.cli"
		echo "server:"
		cat "$T/cma.srv"
	fi
	return "$rc"
}

# joined N FILE: mckey's output in FILE tells of N groups joined.
joined() { [ "$(grep -c '^mckey: joined dgid' "$2")" -ge "$1" ]; }

# mckey_pair: librdmacm's multicast example. Two endpoints in b join
# 239.1.2.3, each with its own UD QP attached to the group; a send-only
# member in a sends 20 datagrams to the group, and each receiving QP gets
# all 20 (mckey waits for them). rdma_cm resolves a group's address by
# route, as an operator's hosts would have one.
mckey_pair() {
	local rcv rc=0 rx0 rx
	ns_ip a route replace 224.0.0.0/4 dev veth0 &&
		ns_ip b route replace 224.0.0.0/4 dev veth1 || return 1
	rx0=$(uet_counter uet1 rx_packets)
	in_ns b timeout 60 stdbuf -oL mckey -m 239.1.2.3 -b 10.0.0.2 -c 2 -C 20 \
		>"$T/mc.rcv" 2>&1 &
	rcv=$!
	if ! wait_for 30 joined 2 "$T/mc.rcv"; then
		kill "$rcv"
		wait "$rcv"
		echo "the receivers never joined:"
		cat "$T/mc.rcv"
		return 1
	fi
	in_ns a timeout 60 mckey -m 239.1.2.3 -b 10.0.0.1 -s -o -C 20 \
		>"$T/mc.snd" 2>&1 || rc=1
	wait "$rcv" || rc=1
	grep -q "return status 0" "$T/mc.snd" || rc=1
	grep -q "data transfers complete" "$T/mc.rcv" || rc=1
	rx=$(($(uet_counter uet1 rx_packets) - rx0))
	echo "# uet1 received $rx packets"
	[ "$rx" -ge 20 ] || rc=1
	if [ "$rc" != 0 ]; then
		echo "sender:"
		cat "$T/mc.snd"
		echo "receivers:"
		cat "$T/mc.rcv"
	fi
	return "$rc"
}

# Messages of 64 KiB.
BW_ITERS=200

# bw_report FILE: FILE has ib_send_bw's report of all BW_ITERS messages,
# "65536 BW_ITERS <peak> <average> <rate>", at a nonzero average.
bw_report() {
	awk -v n="$BW_ITERS" '$1 == 65536 && $2 == n && $4 > 0 { ok = 1 } END { exit !ok }' "$1"
}

# bw_side_ok RC FILE: one side of ib_send_bw succeeded, or failed only at
# its report because it could not calibrate its clock, which emulated CPUs
# make frequent, or reported all messages and then waited, until killed,
# for the closing handshake of a peer that had quit so.
bw_side_ok() {
	[ "$1" = 0 ] || grep -q "Can't produce a report" "$2" ||
		{ [ "$1" -ge 124 ] && bw_report "$2"; }
}

# send_bw_pair: ib_send_bw through an rdma_cm connected QP. The data went
# through once both sides finished and either reported it, or, where
# neither could (the debug kernel's clock failed perftest's calibration
# in 4 tries of 4, r^2 0.61..0.63), uet1 received at least the messages'
# bytes; else it is tried again, up to 4 times.
send_bw_pair() {
	local srv crc src rx0 rx
	for _ in 1 2 3 4; do
		rx0=$(uet_counter uet1 rx_bytes)
		ip netns exec "$(ns_name b)" timeout 120 \
			ib_send_bw -R -d uet1 --use_old_post_send -n "$BW_ITERS" >"$T/bw.srv" 2>&1 &
		srv=$!
		if ! wait_for 30 listening ib_send_bw; then
			kill "$srv"
			wait "$srv"
			echo "the ib_send_bw server never listened:"
			cat "$T/bw.srv"
			return 1
		fi
		crc=0 src=0
		in_ns a timeout 120 ib_send_bw -R -d uet0 --use_old_post_send -n "$BW_ITERS" \
			10.0.0.2 >"$T/bw.cli" 2>&1 || crc=$?
		# A server whose client quit may wait for it for ever. (Started
		# by ip netns exec, not in_ns: $! is then timeout itself, which
		# passes the signal on.)
		[ "$crc" = 0 ] || wait_for 10 pid_gone "$srv" || kill "$srv"
		wait "$srv" || src=$?
		bw_side_ok "$crc" "$T/bw.cli" && bw_side_ok "$src" "$T/bw.srv" || break
		if bw_report "$T/bw.cli"; then
			echo "# $(awk '$1 == 65536 { print $4 " MB/s" }' "$T/bw.cli")"
			return 0
		fi
		bw_report "$T/bw.srv" && return 0
		rx=$(($(uet_counter uet1 rx_bytes) - rx0))
		if [ "$rx" -ge $((BW_ITERS * 65536)) ]; then
			echo "# no report (neither side could calibrate its clock); uet1 received $rx bytes"
			return 0
		fi
	done
	echo "client (exit $crc):"
	cat "$T/bw.cli"
	echo "server (exit $src):"
	cat "$T/bw.srv"
	return 1
}

step "rping -v -V -C 10 over IPv4 carries the expected data" rping_pair 10.0.0.2
step "ucmatose, 4 connections over IPv4" cma_pair ucmatose 10.0.0.2
# The debug kernel takes some 30 s to start a pair of programs: rping and
# ucmatose over IPv4 have shown it the CM's datagrams and rdma_cm QPs
# moving data (IPv6 changes only the addresses they carry).
if stock_kernel; then
	step "rping -v -V -C 10 over IPv6 carries the expected data" rping_pair fd00::2
	step "ucmatose, 4 connections over IPv6" cma_pair ucmatose fd00::2
	step "udaddy, 4 UD endpoints over IPv4" cma_pair udaddy 10.0.0.2
	step "mckey, 20 datagrams to a group of two QPs" mckey_pair
	step "ib_send_bw -R (rdma_cm QP)" send_bw_pair
fi
# GRO: the stack joins a run of same-size packets of one flow that a
# NAPI poll finds together into one skb, which uet must take apart unless
# it is one QP's train. Each receiving veth runs GRO; the sending ones cut
# no UDP GSO (trains leave as packets, and GRO joins them again).
gro_on() {
	local h
	for h in a:veth0 b:veth1; do
		in_ns "${h%%:*}" ethtool -K "${h#*:}" gro on tso off \
			tx-udp-segmentation off || return 1
	done
}

# netem_on: 1 ms of netem at both senders sends what was queued in bursts.
netem_on() {
	local h
	for h in a:veth0 b:veth1; do
		tc -n "$(ns_name "${h%%:*}")" qdisc replace dev "${h#*:}" root \
			netem delay 1ms || return 1
	done
}

# pairs N: N pairs of identical UUD datagrams from a to a QPN uet1 does not
# have, held back by a plug qdisc at a's veth and released at once, so
# that one NAPI poll at b finds them together on every kernel; uet1 must
# count every datagram on its own in drop_no_qp, none as malformed.
pairs() {
	local nq0 mf0 sk0 pk0 rc=0
	nq0=$(uet_counter uet1 drop_no_qp) mf0=$(uet_counter uet1 drop_malformed)
	sk0=$(uet_counter uet1 rx_skbs) pk0=$(uet_counter uet1 rx_packets)
	tc -n "$(ns_name a)" qdisc replace dev veth0 root plug || return 1
	in_ns a python3 -c '
import socket, struct, sys
pkt = struct.pack("!HHIHHI", 6 << 11, 256, 0x80010000, 1, 4660, 0) + bytes(256)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(2 * int(sys.argv[1])):
    s.sendto(pkt, ("10.0.0.2", 4793))
' "$1" || rc=1
	tc -n "$(ns_name a)" qdisc change dev veth0 root plug release_indefinite &&
		tc -n "$(ns_name a)" qdisc del dev veth0 root || rc=1
	wait_for 10 uet1_counter_is drop_no_qp $((nq0 + 2 * $1))
	echo "# drop_no_qp +$(($(uet_counter uet1 drop_no_qp) - nq0))," \
		"drop_malformed +$(($(uet_counter uet1 drop_malformed) - mf0))," \
		"$(($(uet_counter uet1 rx_skbs) - sk0)) skbs for" \
		"$(($(uet_counter uet1 rx_packets) - pk0)) packets"
	[ "$rc" = 0 ] &&
		[ "$(uet_counter uet1 drop_no_qp)" -eq $((nq0 + 2 * $1)) ] &&
		[ "$(uet_counter uet1 drop_malformed)" -eq "$mf0" ]
}

# cmtime_pair N: rdma_cm's connection timer, N connections from a to b set
# up and torn down at once, within 60 s (a lost MAD costs the CM seconds).
cmtime_pair() {
	local srv rc=0
	ip netns exec "$(ns_name b)" timeout 120 cmtime -b 10.0.0.2 >"$T/cmtime.srv" 2>&1 &
	srv=$!
	if ! wait_for 30 listening cmtime; then
		kill "$srv"
		wait "$srv"
		echo "the cmtime server never listened:"
		cat "$T/cmtime.srv"
		return 1
	fi
	in_ns a timeout 60 cmtime -s 10.0.0.2 -c "$1" >"$T/cmtime.cli" 2>&1 || rc=$?
	kill "$srv"
	wait "$srv"
	awk '$1 == "connect" { printf "# cmtime -c %d: connect %s ms\n", n, $3 }' \
		n="$1" "$T/cmtime.cli"
	[ "$rc" = 0 ] && ! grep -q "error" "$T/cmtime.cli" && return 0
	echo "cmtime -c $1: exit $rc"
	cat "$T/cmtime.cli"
	return 1
}

# uet1_counter_is COUNTER VALUE: uet1's COUNTER is VALUE.
uet1_counter_is() { [ "$(uet_counter uet1 "$1")" = "$2" ]; }

step "GRO on at both veths, no UDP GSO at the senders" gro_on
step "GRO: 50 pairs of identical datagrams in one burst, each counted on its own" \
	pairs 50
# On the debug kernel netem's bursts were single packets (361 skbs for
# 361 packets): the connection setups run on the stock kernel only.
if stock_kernel; then
	step "1 ms of netem at both senders" netem_on
	step "GRO: cmtime, 100 connections at once" cmtime_pair 100
	CMA_TIMEOUT=60 step "GRO: ucmatose, 32 connections" cma_pair ucmatose 10.0.0.2 32
fi

# no_drops: neither device dropped a packet as malformed, refused, or for
# want of room. (A late ACK for a QP already destroyed is a drop_no_qp.)
no_drops() {
	local d c rc=0
	for d in uet0 uet1; do
		for c in drop_malformed drop_access drop_backlog; do
			[ "$(uet_counter $d $c)" = 0 ] || { echo "$d $c $(uet_counter $d $c)"; rc=1; }
		done
	done
	return "$rc"
}

step "no packet was dropped as malformed, refused or unwanted" no_drops

# forge QPN QKEY PAYLEN PAYLOAD [FLAGS]: one UUD datagram from a to uet1,
# GSI QPN 1 as its source. Header: prologue (type 6, flags), pay_len,
# qkey, spdcid, dpdcid, imm.
forge() {
	in_ns a python3 -c '
import socket, struct, sys
qpn, qkey, pay_len, payload = int(sys.argv[1]), int(sys.argv[2], 0), int(sys.argv[3]), int(sys.argv[4])
flags = int(sys.argv[5]) if len(sys.argv) > 5 else 0
pkt = struct.pack("!HHIHHI", 6 << 11 | flags, pay_len, qkey, 1, qpn, 0) + bytes(payload)
socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(pkt, ("10.0.0.2", 4793))
' "$@"
}

# forged COUNTER ARGS...: forge(ARGS) makes COUNTER of uet1 go up by one.
forged() {
	local c=$1 before
	shift
	before=$(uet_counter uet1 "$c")
	forge "$@" || return 1
	wait_for 5 uet1_counter_is "$c" $((before + 1))
}

step "a datagram to QP1 with another Q_Key is dropped (drop_access)" \
	forged drop_access 1 0x12345678 256 256
step "a datagram to a QPN nobody has is dropped (drop_no_qp)" \
	forged drop_no_qp 4660 0x80010000 256 256
step "a datagram longer than its header says is dropped (drop_malformed)" \
	forged drop_malformed 1 0x80010000 255 256
step "a datagram shorter than its header says is dropped (drop_malformed)" \
	forged drop_malformed 1 0x80010000 256 255
step "a datagram for a group sent to a host is dropped (drop_malformed)" \
	forged drop_malformed 1 0x80010000 256 256 4
step "rping still works after the forged datagrams" rping_pair 10.0.0.2

step "rmmod rdma_uet with rdma_cm loaded" rmmod rdma_uet
step "no RDMA device is left" no_ibdevs
exit 0
