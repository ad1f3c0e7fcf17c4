#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# uet between two machines: two VMs (vm/pair), each booting the stock
# kernel with uet0 on its virtio-net eth0, the server 10.9.0.1 and the
# client 10.9.0.2, one cable between them. Run on the host:
#
#   [UET_PAIR_KERNEL=stock|trixie] tools/testing/pair-test.sh
#
# trixie boots the Debian 13 test host instead (vm/run -k trixie: Linux
# 6.12, QEMU 10), with our modules and tools built for it
# (vm/trixie-build.sh). It starts itself in both VMs ("pair-test.sh
# server|client"), which then take the steps below in lockstep, meeting
# in the shared dir:
#
#  * each NIC's offloads (ethtool -k) are shown; on trixie UDP
#    segmentation offload is turned on and must be;
#  * TCP (iperf3) and then RDMA WRITE (ib_write_bw) from the client for
#    14 s each; the rate of each is the client's eth0 bytes over 10 s of
#    it (perftest's own MB/s is wrong under emulation), and their ratio,
#    which on trixie must reach FLOOR. The server shows what its uet0
#    received: packets and skbs (GRO on virtio-net joins packets), the
#    client what it sent: packets and skbs (trains); both what eth0
#    took: skbs and their mean size;
#  * uet-verify: WRITE, SEND and READ, every byte checked;
#  * rping -V: 50 verified pings;
#  * uet-verify again with netem dropping 1% of what the client's eth0
#    sends: every byte checked, and the client must have retransmitted.
. "$(dirname "$0")/../../selftests/lib.sh"

here=$(dirname "$(readlink -f "$0")")
if [ -z "${UET_VM:-}" ]; then
	self=$here/pair-test.sh
	case ${UET_PAIR_KERNEL:=stock} in
	stock) run=$self ;;
	trixie)
		b=$("$here/vm/trixie-build.sh") || fail "vm/trixie-build.sh"
		run="env UET_KO_DIR=$b UET_TOOLS_DIR=$b/tools $self"
		;;
	*) fail "UET_PAIR_KERNEL is stock or trixie" ;;
	esac
	exec "$here/vm/pair" -k "$UET_PAIR_KERNEL" -t 400 -- "$run server" "$run client"
fi

role=$1
SHARED=/mnt/shared
SERVER=10.9.0.1 CLIENT=10.9.0.2
case $role in
server) peer=client addr=$SERVER ;;
client) peer=server addr=$CLIENT ;;
*) fail "pair-test.sh server|client" ;;
esac
# Bytes per op of uet-verify, without loss and with it. Under loss, 16M
# of WRITE and of SEND are some 3000 data skbs (trains of about 11
# packets): netem drops about 30, none with odds e^-30.
VERIFY_BYTES=8M LOSSY_BYTES=16M
# The offloads shown (ethtool -k).
OFFLOADS="tx-checksumming|tcp-segmentation-offload|tx-udp-segmentation"
OFFLOADS+="|generic-segmentation-offload|generic-receive-offload|rx-gro-list"
# What the Debian 13 host (UET_PAIR_KERNEL=trixie) must show: its QEMU's
# virtio-net takes trains whole (UDP segmentation offload), and uet / TCP
# on the wire reaches FLOOR, below every run measured (testing.rst), as
# the ratio swings with the machine's other load. The 6.1 host has
# neither to show.
if [ "${UET_VM_KERNEL:-}" = trixie ]; then
	USO=1 FLOOR=0.25
else
	USO='' FLOOR=''
fi
T=$(mktemp -d)
on_exit "rm -rf $T"
# The peer stops waiting for a step of ours once we are gone.
on_exit "touch $SHARED/$role.gone"

# reach STEP: tell the peer that we got to STEP.
reach() { touch "$SHARED/$role.$1"; }

# meet STEP [SECONDS]: wait until the peer got to STEP; fail if it ended
# without getting there or took longer than SECONDS (default 120).
meet() {
	local deadline=$((SECONDS + ${2:-120}))
	until [ -e "$SHARED/$peer.$1" ]; do
		[ ! -e "$SHARED/$peer.gone" ] || fail "the $peer ended before $1"
		[ "$SECONDS" -lt "$deadline" ] || fail "the $peer never got to $1"
		nap 0.1
	done
}

# sync_at STEP [SECONDS]: both got to STEP.
sync_at() {
	reach "$1"
	meet "$1" "${2:-120}"
}

# counters FILE: uet0's counters, eth0's and the CPU time the VM's kernel
# spent (system, irq and softirq of both vCPUs, /proc/stat's ticks: not
# user, where perftest spins polling its CQ), "name value". eth0 counts an
# skb as one packet, whole or cut by the NIC, as virtio-net does.
counters() {
	local c
	{
		uet_counters uet0
		for c in tx_packets tx_bytes rx_packets rx_bytes; do
			echo "eth0_$c $(cat "/sys/class/net/eth0/statistics/$c")"
		done
		awk '/^cpu / { print "cpu_kernel", $4 + $7 + $8 }' /proc/stat
	} >"$1"
}
delta() {
	local a b
	a=$(sed -n "s/^$2 //p" "$T/$1.before")
	b=$(sed -n "s/^$2 //p" "$T/$1.after")
	echo $((b - a))
}

# per A B: A / B with two decimals.
per() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f\n", b ? a / b : 0 }'; }

# cpu_per_kib NAME DIR: the VM's kernel CPU time over step NAME, in µs
# per KiB eth0 carried in DIR (tx or rx).
cpu_per_kib() {
	local hz
	hz=$(getconf CLK_TCK)
	per "$(($(delta "$1" cpu_kernel) * 1000000 / hz))" "$(($(delta "$1" "eth0_$2_bytes") / 1024))"
}

eth_tx() {
	local v
	read -r v </sys/class/net/eth0/statistics/tx_bytes && echo "$v"
}
eth_tx_past() { [ "$(eth_tx)" -gt "$1" ]; }

# wire_rate PID: the client's eth0 bytes a second over 10 s, from once
# PID sent its first MiB (its start, connection set up, is not counted);
# PID must still be running at the end.
wire_rate() {
	local pid=$1 b0 b1 t0 t1
	b0=$(eth_tx)
	wait_for 30 eth_tx_past $((b0 + 1048576)) || return 1
	b0=$(eth_tx) t0=$EPOCHREALTIME
	nap 10
	b1=$(eth_tx) t1=$EPOCHREALTIME
	! pid_gone "$pid" || return 1
	awk -v b="$((b1 - b0))" -v t0="$t0" -v t1="$t1" 'BEGIN { printf "%d\n", b / (t1 - t0) }'
}

setup() {
	ip link set eth0 up && ip addr add "$addr/24" dev eth0 || return 1
	# virtio-net offers UDP segmentation off (6.12): it is turned on.
	[ -z "$USO" ] || ethtool -K eth0 tx-udp-segmentation on || return 1
	ethtool -k eth0 | grep -E "^($OFFLOADS):" | sed 's/^/# /'
	[ -z "$USO" ] || ethtool -k eth0 | grep -q '^tx-udp-segmentation: on' ||
		{ echo "no UDP segmentation offload on eth0"; return 1; }

	rdma link add uet0 type uet netdev eth0 || return 1
	wait_for 10 ibdev_port_is uet0 PORT_ACTIVE && wait_for 10 ibdev_gid_index uet0 "$addr"
}

# server_run NAME PORT CMD...: CMD in the background, the peer told once
# it listens on TCP PORT; then its exit status. A perftest run may fail
# to produce its report ("Can't produce a report": its clock calibration
# under emulation), or its server lose the closing exchange of keys with
# a client that already left ("Failed to exchange data": seen once on a
# loaded host, after a whole run); the rate measured here, on the client,
# depends on neither.
server_run() {
	local name=$1 port=$2 pid
	shift 2
	"$@" >"$T/$name.srv" 2>&1 &
	pid=$!
	if ! wait_for 30 tcp_listens "$pid" "$port"; then
		kill "$pid"
		cat "$T/$name.srv"
		return 1
	fi
	reach "$name"
	wait "$pid" || grep -qE "Can't produce a report|Failed to exchange data" "$T/$name.srv" ||
		{ cat "$T/$name.srv"; return 1; }
}

# client_bw NAME CMD...: CMD, the client of a throughput test, once the
# server is ready; its rate on the wire in $T/NAME.rate.
client_bw() {
	local name=$1 pid rate rc=0
	shift
	meet "$name"
	counters "$T/$name.before"
	"$@" >"$T/$name.out" 2>&1 &
	pid=$!
	if ! rate=$(wire_rate "$pid"); then
		kill "$pid"
		wait "$pid"
		cat "$T/$name.out"
		return 1
	fi
	wait "$pid" || rc=$?
	counters "$T/$name.after"
	[ "$rc" -eq 0 ] || grep -q "Can't produce a report" "$T/$name.out" ||
		{ cat "$T/$name.out"; return 1; }
	echo "$rate" >"$T/$name.rate"
	echo "# $name: $((rate / 1000)) kB/s on the wire, $(cpu_per_kib "$name" tx) µs kernel CPU a KiB sent"
}

# The client's uet0 hands IP trains (tx_skbs). Without UDP segmentation
# offload (6.1) the stack cuts them in front of eth0, which sends a skb a
# packet; with it (6.12) eth0 takes them whole, cut by the host's tap.
# GRO on the server's eth0 joins packets again, or takes a train whole
# from virtio-net, and its uet0 takes several packets an skb (rx_skbs).
receiver_stats() {
	counters "$T/$1.after"
	local p s e
	p=$(delta "$1" rx_packets) s=$(delta "$1" rx_skbs) e=$(delta "$1" eth0_rx_packets)
	echo "# $1 received: rx_packets $p, rx_skbs $s ($(per "$p" "$s") packets an skb)," \
		"eth0 $e skbs of $(per "$(delta "$1" eth0_rx_bytes)" "$e") bytes;" \
		"$(cpu_per_kib "$1" rx) µs kernel CPU a KiB received"
	[ "$s" -gt 0 ] && [ "$p" -gt "$s" ]
}

sender_stats() {
	local p s e
	p=$(delta "$1" tx_packets) s=$(delta "$1" tx_skbs) e=$(delta "$1" eth0_tx_packets)
	echo "# $1 sent: tx_packets $p, tx_skbs $s ($(per "$p" "$s") packets a train)," \
		"eth0 $e skbs of $(per "$(delta "$1" eth0_tx_bytes)" "$e") bytes"
	[ "$s" -gt 0 ] && [ "$p" -gt "$s" ]
}

# verify_client STEP BYTES: uet-verify's client, BYTES per op.
verify_client() {
	meet "$1"
	"$UET_VERIFY" -d uet0 -e -T 300 -b "$2" "$SERVER" >"$T/$1.out" 2>&1 ||
		{ cat "$T/$1.out"; return 1; }
	sed -n 's/^op=/# op=/p' "$T/$1.out"
}

rping_listens() { rdma res show cm_id | grep -q "state LISTEN .*comm rping"; }

rping_server() {
	rping -s -a "$SERVER" -v -V -C 50 >"$T/rping.srv" 2>&1 &
	local pid=$!
	if ! wait_for 30 rping_listens; then
		kill "$pid"
		cat "$T/rping.srv"
		return 1
	fi
	reach rping
	wait "$pid" || { cat "$T/rping.srv"; return 1; }
	[ "$(grep -c '^server ping data: ' "$T/rping.srv")" -eq 50 ]
}

rping_client() {
	meet rping
	rping -c -a "$SERVER" -v -V -C 50 >"$T/rping.out" 2>&1 || { cat "$T/rping.out"; return 1; }
	[ "$(grep -c '^ping data: ' "$T/rping.out")" -eq 50 ]
}

lossy_verify() {
	local d r
	tc qdisc add dev eth0 root netem loss 1% || return 1
	counters "$T/lossy.before"
	verify_client lossy "$LOSSY_BYTES" || return 1
	counters "$T/lossy.after"
	d=$(tc -s qdisc show dev eth0 | sed -n 's/.*(dropped \([0-9]*\),.*/\1/p')
	tc qdisc del dev eth0 root
	r=$(delta lossy retransmits)
	echo "# netem dropped $d of $(delta lossy tx_skbs) skbs; retransmits $r" \
		"(sack $(delta lossy retransmits_sack), nack $(delta lossy retransmits_nack)," \
		"rto $(delta lossy retransmits_rto))"
	[ "$d" -gt 0 ] && [ "$r" -gt 0 ]
}

start=$SECONDS
uet_load
step "eth0 up as $addr, uet0 on it ACTIVE" setup
sync_at up
if [ "$role" = server ]; then
	counters "$T/iperf3.before"
	step "iperf3 server" server_run iperf3 5201 iperf3 -s -1 -B "$SERVER"
	counters "$T/iperf3.after"
	log "iperf3 received: $(cpu_per_kib iperf3 rx) µs kernel CPU a KiB"
	counters "$T/ib_write_bw.before"
	step "ib_write_bw server" server_run ib_write_bw 18515 timeout 120 \
		ib_write_bw --use_old_post_send -d uet0 -x "$(ibdev_gid_index uet0 "$SERVER")" \
		-D 14 -s 65536 -p 18515
	step "ib_write_bw: what uet0 received" receiver_stats ib_write_bw
	step "uet-verify server" server_run verify 18515 "$UET_VERIFY" -d uet0 -e -T 300
	step "rping server, 50 verified pings" rping_server
	counters "$T/lossy.before"
	step "uet-verify server under 1% loss" server_run lossy 18515 "$UET_VERIFY" -d uet0 -e -T 300
	counters "$T/lossy.after"
	log "retransmits under loss: $(delta lossy retransmits)"
	sync_at finish 300
else
	step "iperf3 -c $SERVER -t 14 (TCP)" client_bw iperf3 \
		iperf3 -c "$SERVER" -t 14
	step "ib_write_bw -D 14 -s 65536" client_bw ib_write_bw timeout 120 \
		ib_write_bw --use_old_post_send -d uet0 -x "$(ibdev_gid_index uet0 "$CLIENT")" \
		-D 14 -s 65536 -p 18515 "$SERVER"
	step "ib_write_bw: what uet0 sent" sender_stats ib_write_bw
	ratio=$(per "$(cat "$T/ib_write_bw.rate")" "$(cat "$T/iperf3.rate")")
	log "uet WRITE / TCP on the wire: $ratio"
	[ -z "$FLOOR" ] || step "uet WRITE / TCP $ratio >= $FLOOR" \
		awk -v r="$ratio" -v f="$FLOOR" 'BEGIN { exit !(r >= f) }'
	step "uet-verify -b $VERIFY_BYTES: every byte of WRITE, SEND and READ" verify_client verify "$VERIFY_BYTES"
	step "rping -V, 50 verified pings" rping_client
	step "uet-verify -b $LOSSY_BYTES with 1% loss on the client's eth0" lossy_verify
	sync_at finish 300
fi
log "$role done in $((SECONDS - start)) s"
exit "$KSFT_PASS"
