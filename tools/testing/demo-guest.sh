#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the VM: hosts a and b joined by a veth cable, uet0 on a,
# uet1 on b.
. "$(dirname "$0")/../../selftests/lib.sh"

uet_pair v6

cat <<TXT

== Fabric
   host a (netns a)  veth0 10.0.0.1 fd00::1  <---->  veth1 10.0.0.2 fd00::2  host b (netns b)
   (netns a is $(ns_name a), b $(ns_name b): lib.sh's suffix for this run)

== rdma link show
TXT
rdma link show
echo
echo "== ibv_devices (stock rdma-core, rxe provider)"
ibv_devices
for d in uet0 uet1; do
	echo
	echo "== $d: port and GID table (ibv_devinfo -v)"
	ibv_devinfo -v -d "$d" |
		grep -E 'hca_id|transport:|state:|active_mtu|link_layer|GID\[' | sed 's/^[[:space:]]*/   /'
done
echo
echo "== link down on host a: uet0 follows"
ns_ip a link set veth0 down
wait_for 5 ibdev_port_is uet0 PORT_DOWN
echo "   uet0 port: $(ibdev_port_state uet0)"
ns_ip a link set veth0 up
wait_for 5 ibdev_port_is uet0 PORT_ACTIVE
echo "   uet0 port after link up: $(ibdev_port_state uet0)"

# The server side listens on TCP; start the client once it does.
listening() { in_ns b ss -ltn | grep -q ":$1 "; }

verify() {
	in_ns b "$UET_VERIFY" -d uet1 >/tmp/verify-srv.log 2>&1 &
	wait_for 10 listening 18515 || fail "uet-verify server"
	in_ns a "$UET_VERIFY" -d uet0 "$@" 10.0.0.2 2>/dev/null |
		sed 's/^/   /'
	wait
}

echo
echo "== Verified transfer: uet-verify WRITE, SEND, READ of 32 MiB each, every byte checked"
verify -b 32M
echo
echo "== The same over a lossy, reordering cable (netem: 1% loss, 20% reordered, both ways)"
for dev in a:veth0 b:veth1; do
	in_ns "${dev%%:*}" tc qdisc add dev "${dev#*:}" root netem loss 1% delay 1ms reorder 80% gap 5
done
before_retx=$(uet_counter uet0 retransmits) before_ooo=$(uet_counter uet1 out_of_order_received)
verify -b 32M -o write
lost=$(in_ns a tc -s qdisc show dev veth0 | awk '/dropped/ { sub(",", "", $7); print $7; exit }')
retx=$(( $(uet_counter uet0 retransmits) - before_retx ))
ooo=$(( $(uet_counter uet1 out_of_order_received) - before_ooo ))
echo "   packets netem dropped on host a: $lost; packets uet0 resent: $retx;" \
	"out-of-order arrivals at uet1: $ooo"
for dev in a:veth0 b:veth1; do in_ns "${dev%%:*}" tc qdisc del dev "${dev#*:}" root; done

echo
echo "== ib_write_bw over uet (perftest, 64 KiB messages, one QP)"
in_ns b ib_write_bw -d uet1 -x "$(ibdev_gid_index uet1 10.0.0.2)" -F --use_old_post_send -s 65536 -n 500 >/tmp/bw-srv.log 2>&1 &
wait_for 10 listening 18515 || fail "ib_write_bw server"
in_ns a ib_write_bw -d uet0 -x "$(ibdev_gid_index uet0 10.0.0.1)" -F --use_old_post_send -s 65536 -n 500 10.0.0.2 >/tmp/bw.log 2>&1 ||
	{ cat /tmp/bw.log; fail "ib_write_bw"; }
wait
awk '$1 == 65536 { printf "   %s MB/s average over %s messages of 64 KiB\n", $4, $2 }' /tmp/bw.log

echo
echo "== Summary (rdma statistic show link uet0/1)"
for c in tx_packets retransmits retransmits_sack retransmits_nack retransmits_rto \
	rto_expired nacks_received acks_received; do
	printf '   %-22s %s\n' "$c" "$(uet_counter uet0 "$c")"
done
echo "   ...and on uet1:"
for c in rx_packets out_of_order_received duplicates_received nacks_sent acks_sent drop_malformed; do
	printf '   %-22s %s\n' "$c" "$(uet_counter uet1 "$c")"
done

# The picture of what uet is for: one QP over a fabric of four spines,
# with one path as RoCE takes, and sprayed. The scenario makes devices of
# its own, named as these are.
echo
echo "== One QP's bytes per spine over 4 spines: lb single and lb reps"
echo "   (tools/bench/fabric-guest.sh demo: a leaf-spine fabric, a 64 MiB WRITE with each; some 25 s)"
rdma link delete uet0 && rdma link delete uet1 || fail "rdma link delete"
tools/bench/fabric-guest.sh demo /tmp/demo-bench | sed 's/^/   /'
if command -v gnuplot >/dev/null; then
	tools/bench/plots/draw.sh /tmp/demo-bench dumb
else
	sed -n '/^spine/,$s/^/   /p' /tmp/demo-bench/spines.dat
	echo "   (apt-get install gnuplot-nox draws it; make bench draws this and more as PNGs)"
fi
echo "   lb single: the fabric's hash puts the QP on one spine, as RoCE would; lb reps,"
echo "   uet's default: every spine carries a share, in flowcells. make bench draws it"
echo "   as a PNG, with REPS around a slow spine, a spine failure and an incast"
echo "   (Documentation/uet/dev-guide/bench.rst)."
echo
echo "Done: RDMA between two hosts over uet, every byte verified, losses recovered selectively."
