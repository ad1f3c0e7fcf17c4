#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the benchmark VM (tools/bench/verbs.sh). "pair": uet between two
# namespaces over veth, then iperf3 TCP on the same veth. "loop": one
# device talking to itself, rdma_rxe first, then uet. Prints one
# "result NAME MB/s" line per measurement.
. "$(dirname "$0")/../../selftests/lib.sh"

size=65536
mtu=${BENCH_MTU:-1500}
iters=${BENCH_ITERS:-3000}

# run_in NS CMD...: in namespace NS, or here when NS is empty.
run_in() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then ip netns exec "$ns" "$@"; else "$@"; fi
}

# bw NS_SERVER NS_CLIENT DEV_S DEV_C GID_S GID_C ADDR: ib_write_bw MB/s.
bw() {
	run_in "$1" ib_write_bw -d "$3" -x "$5" -F --use_old_post_send -s $size \
		-n "$iters" -q 1 >/tmp/bw-srv.log 2>&1 &
	wait_for 10 bash -c "$(declare -f run_in); run_in '$1' ss -ltn | grep -q :18515" ||
		fail "ib_write_bw server did not listen"
	t0=$(date +%s.%N)
	run_in "$2" ib_write_bw -d "$4" -x "$6" -F --use_old_post_send -s $size \
		-n "$iters" -q 1 "$7" >/tmp/bw-cli.log 2>&1 || {
		cat /tmp/bw-cli.log /tmp/bw-srv.log
		fail "ib_write_bw"
	}
	t1=$(date +%s.%N)
	wait
	# perftest converts TSC cycles with /proc/cpuinfo's MHz, which QEMU's
	# emulated TSC does not match: time the client by the wall clock
	# instead (connection setup included, under 0.5 s of it).
	awk -v n="$iters" -v s=$size -v t0="$t0" -v t1="$t1" \
		'BEGIN { printf "%.1f\n", n * s / (t1 - t0) / 1e6 }'
}

gid_of() {
	local dev=$1 addr=$2 f
	for f in /sys/class/infiniband/"$dev"/ports/1/gids/*; do
		[ "$(cat "$f")" = "$addr" ] && { basename "$f"; return; }
	done
	return 1
}

# GID of an IPv4 address: ::ffff:a.b.c.d in sysfs notation.
v4gid() {
	printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' ${1//./ }
}

case $1 in
pair)
	ns_add a b
	veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail veth
	ip -n a link set veth0 mtu "$mtu"
	ip -n b link set veth1 mtu "$mtu"
	uet_load
	in_ns a rdma link add uet0 type uet netdev veth0
	in_ns b rdma link add uet1 type uet netdev veth1
	wait_for 10 gid_of uet0 "$(v4gid 10.0.0.1)" || fail "no GID on uet0"
	wait_for 10 gid_of uet1 "$(v4gid 10.0.0.2)" || fail "no GID on uet1"
	g0=$(gid_of uet0 "$(v4gid 10.0.0.1)") g1=$(gid_of uet1 "$(v4gid 10.0.0.2)")
	echo "result uet_veth $(bw b a uet1 uet0 "$g1" "$g0" 10.0.0.2)"
	in_ns b iperf3 -s -1 >/dev/null 2>&1 &
	wait_for 10 bash -c "ip netns exec b ss -ltn | grep -q :5201" || fail iperf3
	mbps=$(in_ns a iperf3 -c 10.0.0.2 -t 10 -J |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"] / 8e6)')
	wait
	echo "result iperf3_veth $mbps"
	;;
loop)
	ip link add veth0 type veth peer name veth1
	ip link set veth0 mtu "$mtu"
	ip link set veth1 mtu "$mtu"
	ip addr add 10.0.0.1/24 dev veth0
	ip link set veth0 up
	ip link set veth1 up
	modprobe rdma_rxe || fail "modprobe rdma_rxe"
	rdma link add rxe0 type rxe netdev veth0
	wait_for 10 gid_of rxe0 "$(v4gid 10.0.0.1)" || fail "no GID on rxe0"
	g=$(gid_of rxe0 "$(v4gid 10.0.0.1)")
	echo "result rxe_loop $(bw "" "" rxe0 rxe0 "$g" "$g" 10.0.0.1)"
	rdma link delete rxe0
	rmmod rdma_rxe
	uet_load
	rdma link add uet0 type uet netdev veth0
	wait_for 10 gid_of uet0 "$(v4gid 10.0.0.1)" || fail "no GID on uet0"
	g=$(gid_of uet0 "$(v4gid 10.0.0.1)")
	echo "result uet_loop $(bw "" "" uet0 uet0 "$g" "$g" 10.0.0.1)"
	rdma link delete uet0
	ip link del veth0
	;;
esac
