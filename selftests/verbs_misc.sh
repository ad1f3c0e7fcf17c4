#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Verbs features the bandwidth tests do not reach: atomics (compare-and-swap
# and fetch-and-add through ib_atomic_bw), a shared receive queue
# (ib_send_bw --use-srq), completion events instead of polling (-e), IPv6
# GIDs, QPs listed by "rdma resource show qp", one CQ_ERR event in a CQ's
# life, at its first overflow (tools/testing/cq_overflow), rings charged
# to the creator's memory cgroup (tools/testing/ring_charge) and so are
# payload copies (tools/testing/payload_charge), what an unprivileged
# user's verbs calls must not do to the kernel
# (tools/testing/verbs_untrusted), and ECN: data packets leave
# ECT(0), a CE mark set by a switch (sch_uet, marking everything) is counted
# by the receiver and echoed in its ACKs.
. "$(dirname "$0")/lib.sh"

PORT=18515
# Messages of 64 KiB per run (NECN through the marking port): the debug
# kernel moves 0.1-0.3 MB/s, 100 of them took it 30-60 s a run.
N64K=100 NECN=50 DUR=8
stock_kernel || N64K=20 NECN=10 DUR=30
uet_pair v6
slow_kernel_rto a:uet0 b:uet1
T=$(mktemp -d)
on_exit "rm -rf $T"

# perf NAME ADDR_A ADDR_B TOOL ARGS...: a perftest pair (server uet1 in b)
# over the GIDs of ADDR_A and ADDR_B (perftest's own TCP handshake always
# uses IPv4), output in $T/NAME; the client's result line shown.
perf() {
	local name=$1 ga gb tool=$4 srv rc=0
	ga=$(ibdev_gid_index uet0 "$2") gb=$(ibdev_gid_index uet1 "$3")
	shift 4
	ip netns exec "$(ns_name b)" timeout 120 "$tool" --use_old_post_send -d uet1 -x "$gb" \
		-p $PORT -F "$@" >"$T/$name.srv" 2>&1 &
	srv=$!
	wait_for 30 tcp_listens $srv $PORT || { kill $srv; cat "$T/$name.srv"; return 1; }
	in_ns a timeout 100 "$tool" --use_old_post_send -d uet0 -x "$ga" \
		-p $PORT -F "$@" 10.0.0.2 >"$T/$name" 2>&1 || rc=$?
	wait $srv || rc=1
	[ $rc -eq 0 ] || { cat "$T/$name" "$T/$name.srv"; return 1; }
	awk '$1 ~ /^[0-9]+$/ && NF >= 4 { print "# " $0 }' "$T/$name"
}

step "ib_atomic_bw compare-and-swap" perf cas 10.0.0.1 10.0.0.2 \
	ib_atomic_bw -A CMP_AND_SWAP -n 200
step "ib_atomic_bw fetch-and-add" perf faa 10.0.0.1 10.0.0.2 \
	ib_atomic_bw -A FETCH_AND_ADD -n 200
step "ib_send_bw with a shared receive queue" perf srq 10.0.0.1 10.0.0.2 \
	ib_send_bw --use-srq -s 4096 -n 200
step "ib_send_bw with completion events (-e)" perf events 10.0.0.1 10.0.0.2 \
	ib_send_bw -e -s 65536 -n "$N64K"
step "ib_send_bw over IPv6 GIDs" perf v6 fd00::1 fd00::2 \
	ib_send_bw -s 65536 -n "$N64K"

step "a CQ that overflows raises one IBV_EVENT_CQ_ERR and stays in error" \
	shown in_ns a "$UET_TESTING_BIN/cq_overflow" uet0 "$(ibdev_gid_index uet0 10.0.0.1)"

# ring_charge: the tool run in a cgroup of its own with the memory
# controller, its lines shown. The hierarchy is mounted where the
# namespace's own /sys (ip netns exec mounts one) does not hide it.
ring_charge() {
	local cg=$T/cgroup out rc=0
	mkdir -p "$cg" && mount -t cgroup2 none "$cg" || return 1
	echo +memory >"$cg/cgroup.subtree_control" &&
		mkdir "$cg/ring_charge" || { umount "$cg"; return 1; }
	out=$(in_ns a sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		ring_charge "$cg/ring_charge" "$UET_TESTING_BIN/ring_charge" \
		uet0 4 "$cg/ring_charge/memory.current" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	rmdir "$cg/ring_charge"
	umount "$cg"
	return "$rc"
}
# payload_charge: 8 QPs of a process in a cgroup with memory.max 32 MiB
# post 256 scattered 64 KiB WRITEs each to a QPN nobody has (128 MiB of
# copies if nothing held them back); the host may lose memory.max and
# some slack, no more.
payload_charge() {
	local cg=$T/cgroup out rc=0
	mkdir -p "$cg" && mount -t cgroup2 none "$cg" || return 1
	echo +memory >"$cg/cgroup.subtree_control" &&
		mkdir "$cg/payload" && echo 32M >"$cg/payload/memory.max" ||
		{ umount "$cg"; return 1; }
	out=$(in_ns a sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' \
		payload_charge "$cg/payload" timeout 120 \
		"$UET_TESTING_BIN/payload_charge" uet0 \
		"$(ibdev_gid_index uet0 10.0.0.1)" 8 256 "$cg/payload" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	rmdir "$cg/payload"
	umount "$cg"
	return "$rc"
}
step "CQ rings are charged to the creator's memory cgroup and uncharged on destroy" \
	ring_charge
step "payload copies are charged to the QPs' creator: memory.max bounds them" \
	payload_charge

# untrusted: tools/testing/verbs_untrusted as uid 65534 (nobody), its
# lines shown; fails if one of its checks did. The device files are
# opened to every user, as rdma-core's udev rules leave them on a host.
# A doorbell took up to 0.6 s on stock with the flushes bounded, 0.8 s
# on the debug kernel (55 s and a soft lockup without).
# The program runs from a directory of its own that every user can
# reach: a build under root's home (the cache's) is not.
untrusted() {
	local out rc=0 bound=5
	stock_kernel || bound=20
	chmod 0666 /dev/infiniband/uverbs* || return 1
	mkdir -m 0755 "$T/nobody" &&
		install -m 0755 "$UET_TESTING_BIN/verbs_untrusted" "$T/nobody/" &&
		chmod 0755 "$T" || return 1
	out=$(in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups \
		timeout 300 "$T/nobody/verbs_untrusted" uet0 "$bound" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}
step "an unprivileged user's verbs calls: flushes bounded, no RTS from RESET by a claimed state" \
	untrusted

# A transfer long enough to look at its QPs, while each look costs the
# debug kernel seconds: there, on a host running at half its usual speed,
# 8 s of it were not seen within 60 s (whether they came too late or went
# between two looks, the log did not say).
ip netns exec "$(ns_name b)" ib_write_bw --use_old_post_send -d uet1 \
	-x "$(ibdev_gid_index uet1 10.0.0.2)" -p $PORT -F -D "$DUR" -s 65536 >"$T/res.srv" 2>&1 &
wait_for 30 tcp_listens $! $PORT || fail "ib_write_bw server"
in_ns a ib_write_bw --use_old_post_send -d uet0 -x "$(ibdev_gid_index uet0 10.0.0.1)" \
	-p $PORT -F -D "$DUR" -s 65536 10.0.0.2 >"$T/res" 2>&1 &
rc_qps_listed() {
	local out
	out=$(rdma resource show qp) || return 1
	grep -q "link uet0/1 .*type RC.*state RTS" <<<"$out" &&
		grep -q "link uet1/1 .*type RC.*state RTR" <<<"$out"
}
step "rdma resource show qp lists the RC QPs of both devices" wait_for 180 rc_qps_listed
rdma resource show qp | grep "type RC" | sed 's/^/# /'
wait

# ECN: a slow switch port that marks every ECT packet leaving a backlog.
# The debug kernel sends too slowly to build a queue at 50 Mbit/s.
rate=50mbit
stock_kernel || rate=2mbit
sch_uet_load
ns_ip a link set veth0 txqueuelen 1000
step "sch_uet on veth0 ($rate) marks every packet" \
	in_ns a tc qdisc add dev veth0 root uet rate $rate kmin 0 kmax 1 pmax 100
ce0=$(uet_counter uet1 ecn_ce_received)
step "ib_write_bw through the marking port" perf ecn 10.0.0.1 10.0.0.2 \
	ib_write_bw -s 65536 -n "$NECN"
ce=$(($(uet_counter uet1 ecn_ce_received) - ce0))
log "uet1 ecn_ce_received +$ce"
step "the receiver saw CE on data packets (they left as ECT(0))" test "$ce" -gt 0
step "the port marked them (tc -s: ecn_marked > 0)" \
	bash -c "in_ns a tc -s qdisc show dev veth0 | grep -Eq 'ecn_marked [1-9]'"
exit 0
