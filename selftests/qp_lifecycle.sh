#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A QP's lifecycle under fire (engine.c's rule: a stopped engine runs
# nothing, queues nothing, arms nothing). While a peer QP floods it and
# "uet qp show" dumps every QP without pause, tools/testing/qp_lifecycle
# takes a QP through RTS -> RESET -> RTS, through SQD with new address
# vectors, and through create/destroy with a 1 us ACK delay and a 1 ms
# RTO; a pair that sent 100 messages goes through RESET and must carry
# 100 more. Then the device goes away under traffic, QP dumps and an
# event monitor: rdma link delete, the netdev deleted, its namespace
# deleted, rmmod. run.sh fails the test on any splat (KASAN, lockdep,
# ODEBUG, hung task) and the debug kernel's make check run scans for
# leaks after it.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/qp_lifecycle
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
# Seconds of each stress phase: the debug kernel runs some 20 times
# slower, but what it checks (KASAN, lockdep, ODEBUG) needs the
# interleavings, not the volume.
SECS=10
stock_kernel || SECS=20

# uet_up: uet0 on veth0 (a), uet1 on veth1 (b).
uet_up() {
	in_ns a rdma link add uet0 type uet netdev veth0 &&
		in_ns b rdma link add uet1 type uet netdev veth1
}

# gids: once uet0 and uet1 have their IPv4 GIDs, GIDS is what the tool
# takes after "uet0": "GID_INDEX_A uet1 GID_INDEX_B".
gids() {
	wait_for 5 pair_gids || fail "GIDs of 10.0.0.1 and 10.0.0.2"
	GIDS="$(ibdev_gid_index uet0 10.0.0.1) uet1 $(ibdev_gid_index uet1 10.0.0.2)"
}

uet_pair
gids

# lifecycle MODE: the tool's run, its lines shown as measurements. A
# tool that does not end is stuck in the kernel: its blocked tasks and
# the kernel log are shown.
lifecycle() {
	local out pid rc=0
	out=$(mktemp)
	# shellcheck disable=SC2086 # GIDS is three words
	"$TOOL" uet0 $GIDS "$1" "$SECS" >"$out" 2>&1 &
	pid=$!
	if ! wait_for $((SECS * 3 + 60)) pid_gone "$pid"; then
		echo w >/proc/sysrq-trigger
		echo "# $1 did not end; the kernel log:"
		dmesg | tail -n 80 | sed 's/^/# /'
		kill -9 "$pid"
		rc=1
	else
		wait "$pid" || rc=$?
	fi
	sed 's/^/# /' "$out"
	rm -f "$out"
	return "$rc"
}

step "a QP that sent 100 messages goes through RESET and carries 100 more" lifecycle reuse

fast_timers() {
	in_ns a "$UET" dev set uet0 ack_delay_us 1 rto_min_us 1000 &&
		in_ns b "$UET" dev set uet1 ack_delay_us 1 rto_min_us 1000
}
step "1 us ACK delay and 1 ms RTO on both devices" fast_timers

# Netlink reads every QP's engine state while the QPs change under it.
dumps() {
	while :; do
		in_ns a "$UET" qp show dev uet0 >/dev/null 2>&1
		in_ns a "$UET" -j qp show >/dev/null 2>&1
		in_ns b "$UET" qp show dev uet1 >/dev/null 2>&1
	done
}
dumps &
dumper=$!
on_exit "kill $dumper"

step "RTS -> RESET -> RTS, flooded, for $SECS s" lifecycle reset
step "RTS -> SQD, eight new address vectors, SQD -> RTS, flooded, for $SECS s" lifecycle sqd
step "create, connect, post, destroy, flooded, for $SECS s" lifecycle destroy
kill "$dumper"
wait "$dumper" 2>/dev/null

uet1_received() { [ "$(uet_counter uet1 rx_packets)" -gt 0 ]; }

# flood_start: the tool's reset mode in the background, long enough to
# outlast what is done to the device meanwhile; its pid in $flooder.
flood_start() {
	# shellcheck disable=SC2086
	"$TOOL" uet0 $GIDS reset 600 >/dev/null 2>&1 &
	flooder=$!
	on_exit "kill $flooder"
	# Traffic has begun once uet1 received.
	wait_for 20 uet1_received
}

# removed_under_traffic DESC CMD...: CMD runs while the tool floods; the
# tool may fail but must end once killed, and CMD must then complete.
removed_under_traffic() {
	local desc=$1 cmd
	shift
	flood_start || fail "traffic before: $desc"
	"$@" >/dev/null 2>&1 &
	cmd=$!
	sleep 1
	kill "$flooder" 2>/dev/null
	wait "$flooder" 2>/dev/null
	step "$desc: completes once the verbs user is gone" \
		wait_for 60 pid_gone "$cmd"
	wait "$cmd" || fail "$desc: the command failed"
}

# Each way of removing a device while a verbs user keeps it busy, and
# netlink readers too: dumps of every QP, a monitor of a's events (not of
# b's: a process in b would keep the namespace, and its devices, alive).
dumps &
dumper=$!
in_ns a "$UET" monitor >/dev/null 2>&1 &
monitor=$!
on_exit "kill $dumper $monitor"
removed_under_traffic "rdma link delete uet1" in_ns b rdma link delete uet1
step "uet1 is gone, uet0 remains" eval '! ibdev_exists uet1 && ibdev_exists uet0'
step "uet1 back on veth1" in_ns b rdma link add uet1 type uet netdev veth1
gids

removed_under_traffic "ip link del veth1" ns_ip b link del veth1
step "both devices are gone with the veth pair" wait_for 10 ibdevs_gone uet0 uet1

veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail "veth pair again"
step "uet0 and uet1 on the new veth pair" uet_up
gids
removed_under_traffic "ip netns del b" ip netns del "$(ns_name b)"
step "both devices are gone with namespace b" wait_for 10 ibdevs_gone uet0 uet1

ns_add b
veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail "veth pair again"
step "uet0 and uet1 once more" uet_up
gids
flood_start || fail "traffic before rmmod"
step_fails "rmmod rdma_uet is refused while a verbs user holds its devices" rmmod rdma_uet
kill "$flooder" 2>/dev/null
wait "$flooder" 2>/dev/null
step "rmmod rdma_uet once it is gone" wait_for 30 rmmod rdma_uet
kill "$dumper" "$monitor"
wait "$dumper" "$monitor" 2>/dev/null
step "no RDMA device is left" no_ibdevs
exit 0
