#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# User UD QPs through the stock rxe provider: tools/testing/verbs_ud on
# uet0 (datagrams to itself through IP: every byte and the GRH area
# compared, completion fields, Q_Key drops, send errors and SQE, WQEs
# rewritten in the ring, two QPs on one SRQ), then between namespaces
# ibv_ud_pingpong with its buffer check and perftest's ib_send_bw over
# UD (-c UD) at a 1024-byte path MTU (netdev MTU 1500) and a 4096-byte
# one (9000), ib_send_lat at the first, and ibv_ud_pingpong over IPv6
# GIDs (the stock kernel; the debug kernel runs the tools only).
# tools/testing/verbs_mcast attaches QPs of uet0 to multicast groups. uet0
# in a is the client, uet1 in b the server. The devices must have counted
# the datagrams each way, and no packet dropped as malformed, for want
# of a receive WQE or of room in a QP's backlog.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_ud
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
# shellcheck disable=SC2034 # PORT, RETRIES, PERF_OPTS: for perftest_pair
PORT=18515 RETRIES=4 PERF_OPTS="-c UD" ITERS=200
uet_pair v6
T=$(mktemp -d)
on_exit "rm -rf $T"
step "uet0 has the GID of 10.0.0.1" wait_for 5 ibdev_gid_index uet0 10.0.0.1

# run_tool TOOL [ARG]: TOOL on uet0 with the index of its IPv4 GID (and
# ARG), its lines shown; fails if one of its checks did.
run_tool() {
	local out rc=0
	# shellcheck disable=SC2086 # ARG: no word or one
	out=$(in_ns a "$1" uet0 "$(ibdev_gid_index uet0 10.0.0.1)" ${2:-} 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}
step "user UD QPs of uet0: data, GRH, completions, errors, rewritten rings, SRQ" \
	run_tool "$TOOL"
step "uet0 has the GID of fd00::1" wait_for 5 ibdev_gid_index uet0 fd00::1
step "multicast groups of uet0, IPv4 and IPv6: attach, datagrams to both members, detach, limits" \
	run_tool "$UET_TESTING_BIN/verbs_mcast" "$(ibdev_gid_index uet0 fd00::1)"
# The debug kernel takes 20-30 s to start a pair of programs: its KASAN
# has seen the rings rewritten under the engine; the stock tools over UD
# run on stock.
stock_kernel || exit 0

# pingpong SIZE: ibv_ud_pingpong -c. Its check compares the first byte of
# each page and prints what differs (its exit status stays 0); verbs_ud
# compares every byte.
pingpong() {
	perftest_retry "$T/pp" ibv_ud_pingpong -c -s "$1" -n "$ITERS" || return 1
	if grep -q "invalid data" "$T/pp" "$T/pp.srv"; then
		echo "ibv_ud_pingpong -s $1: the data check failed"
		cat "$T/pp" "$T/pp.srv"
		return 1
	fi
	awk '/ bytes in / { b = $0 } / iters in / && $(NF - 1) + 0 > 0 { i = $0 }
		END { if (!b || !i) exit 1; print "# " b; print "# " i }' "$T/pp" ||
		{ echo "ibv_ud_pingpong: no result"; cat "$T/pp"; return 1; }
}

# send_bw SIZE: ib_send_bw over UD; a nonzero message rate (MB/s of
# perftest is wrong under emulation: its clock is calibrated against a
# CPU that TCG slows down unevenly), and uet1 received every datagram.
send_bw() {
	local rx0 rx
	rx0=$(uet_counter uet1 rx_packets)
	perftest_retry "$T/bw" ib_send_bw -s "$1" -n "$ITERS" || return 1
	rx=$(($(uet_counter uet1 rx_packets) - rx0))
	awk -v s="$1" 'NF == 5 && $1 == s && $5 + 0 > 0 {
		printf "# ib_send_bw -c UD: %s B, %s Mpps\n", $1, $5; ok = 1 }
		END { exit !ok }' "$T/bw" ||
		{ echo "ib_send_bw -s $1: no rate reported"; cat "$T/bw"; return 1; }
	echo "# uet1 received $rx packets"
	[ "$rx" -ge "$ITERS" ] || { echo "uet1 received $rx packets of $ITERS"; return 1; }
}

# send_lat SIZE: ib_send_lat over UD; a positive average.
send_lat() {
	perftest_retry "$T/lat" ib_send_lat -s "$1" -n 100 || return 1
	# #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
	awk 'NF == 9 && $1 ~ /^[0-9]+$/ && $6 + 0 > 0 {
		printf "# ib_send_lat -c UD: %s B, t_avg %s us\n", $1, $6; ok = 1 }
		END { exit !ok }' "$T/lat" ||
		{ echo "ib_send_lat: no latency reported"; cat "$T/lat"; return 1; }
}

mtus_are() {
	ibv_devinfo -d uet0 | grep -q "active_mtu:.*$1" &&
		ibv_devinfo -d uet1 | grep -q "active_mtu:.*$1"
}

declare -A c0
for d in uet0 uet1; do
	for c in tx_packets rx_packets drop_malformed drop_backlog; do
		c0[$d.$c]=$(uet_counter $d $c) || fail "no counter $c on $d"
	done
done

for mtu in 1500 9000; do
	pmtu=1024
	[ $mtu = 1500 ] || pmtu=4096
	ns_ip a link set veth0 mtu $mtu
	ns_ip b link set veth1 mtu $mtu
	step "MTU $mtu: path MTU $pmtu on both devices" wait_for 5 mtus_are $pmtu
	GID_A=$(ibdev_gid_index uet0 10.0.0.1) || fail "no GID for 10.0.0.1 on uet0"
	GID_B=$(ibdev_gid_index uet1 10.0.0.2) || fail "no GID for 10.0.0.2 on uet1"
	# The smallest datagram and latency once, at the first MTU.
	[ $mtu != 1500 ] || step "MTU $mtu: ibv_ud_pingpong -c -s 1" pingpong 1
	step "MTU $mtu: ibv_ud_pingpong -c -s $pmtu" pingpong $pmtu
	step "MTU $mtu: ib_send_bw -c UD -s $pmtu" send_bw $pmtu
	[ $mtu != 1500 ] || step "MTU $mtu: ib_send_lat -c UD -s $pmtu" send_lat $pmtu
done
step "uet0 has the GID of fd00::1" wait_for 5 ibdev_gid_index uet0 fd00::1
# shellcheck disable=SC2034 # for perftest_pair
GID_A=$(ibdev_gid_index uet0 fd00::1) GID_B=$(ibdev_gid_index uet1 fd00::2)
step "IPv6 GIDs: ibv_ud_pingpong -c -s 4096" pingpong 4096

# moved DEV COUNTER: COUNTER of DEV grew since the start.
moved() {
	local now
	now=$(uet_counter "$1" "$2")
	echo "# $1 $2: ${c0[$1.$2]} -> $now"
	[ "$now" -gt "${c0[$1.$2]}" ]
}
# same DEV COUNTER: COUNTER of DEV did not change.
same() {
	local now
	now=$(uet_counter "$1" "$2")
	[ "$now" -eq "${c0[$1.$2]}" ] || { echo "$1 $2: ${c0[$1.$2]} -> $now"; return 1; }
}
for d in uet0 uet1; do
	for c in tx_packets rx_packets; do
		step "$d counted datagrams in $c" moved $d $c
	done
	step "$d dropped nothing as malformed" same $d drop_malformed
	step "$d dropped no datagram for want of a receive WQE or backlog room" \
		same $d drop_backlog
done
exit 0
