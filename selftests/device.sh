#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A uet device in each of two namespaces over a veth pair: stock rdma-core
# sees it, its port and GID table follow the netdev, and every way of
# removing it (rdma link delete, netdev deletion, rmmod) leaves nothing.
. "$(dirname "$0")/lib.sh"

veth_pair
ns_ip a addr add fd00::1/64 dev veth0 nodad
uet_load

step "rdma link add uet0 in namespace a" in_ns a rdma link add uet0 type uet netdev veth0
step "rdma link add uet1 in namespace b" in_ns b rdma link add uet1 type uet netdev veth1

step_fails "a second device on the same netdev is refused" \
	in_ns a rdma link add uet2 type uet netdev veth0
step_fails "a netdev of another namespace is not found" \
	in_ns a rdma link add uet2 type uet netdev veth1
step_fails "a non-Ethernet netdev is refused" \
	in_ns a rdma link add uet2 type uet netdev lo
# A name taken fails registration after the device's ops are set, whose
# unwinding once deadlocked on the driver's own lock: the command must
# end, refused, and the next one work.
ns_ip a link add dx0 type veth peer name dx1 || fail "veth dx0"
taken_name() {
	local pid rc=0
	in_ns a rdma link add uet1 type uet netdev dx0 2>/dev/null &
	pid=$!
	wait_for 30 pid_gone "$pid" || { echo "rdma link add did not end"; return 1; }
	wait "$pid" || rc=$?
	[ "$rc" -ne 0 ] && in_ns a rdma link add uetx type uet netdev dx0 &&
		in_ns a rdma link delete uetx
}
step "a name already taken is refused, and the next link add works" taken_name
ns_ip a link del dx0

step "ibv_devices lists uet0 and uet1" \
	bash -c 'ibv_devices | grep -qw uet0 && ibv_devices | grep -qw uet1'
step "uet0 port is PORT_ACTIVE" \
	ibdev_port_is uet0 PORT_ACTIVE
# libibverbs lists only devices a provider bound to: here the stock rxe one.
step "ibv_devinfo opens uet0 through the rxe provider" \
	bash -c 'ibv_devinfo -d uet0 | grep -q "transport:.*InfiniBand"'
step "active MTU follows the netdev MTU (1500 -> 1024)" \
	bash -c 'ibv_devinfo -d uet0 | grep -q "active_mtu:.*1024"'
ns_ip a link set veth0 mtu 9000
step "active MTU follows the netdev MTU (9000 -> 4096)" \
	bash -c 'ibv_devinfo -d uet0 | grep -q "active_mtu:.*4096"'

gids() { ibv_devinfo -v -d "$1" | grep 'GID\['; }
step "GID table of uet0 holds 10.0.0.1 as RoCE v2" \
	wait_for 5 bash -c 'ibv_devinfo -v -d uet0 | grep -q "GID.*::ffff:10.0.0.1, RoCE v2"'
step "GID table of uet0 holds fd00::1" \
	wait_for 5 bash -c 'ibv_devinfo -v -d uet0 | grep -q "GID.*fd00::1, RoCE v2"'
step "GID table of uet1 holds 10.0.0.2 and not 10.0.0.1" \
	bash -c 'ibv_devinfo -v -d uet1 | grep -q "::ffff:10.0.0.2," &&
		! ibv_devinfo -v -d uet1 | grep -q "::ffff:10.0.0.1,"'
log "$(gids uet0)"
ns_ip a addr add 10.0.1.1/24 dev veth0
step "a new address appears in the GID table" \
	wait_for 5 bash -c 'ibv_devinfo -v -d uet0 | grep -q "::ffff:10.0.1.1,"'
ns_ip a addr del 10.0.1.1/24 dev veth0
step "a removed address leaves the GID table" \
	wait_for 5 bash -c '! ibv_devinfo -v -d uet0 | grep -q "::ffff:10.0.1.1,"'

ns_ip a link set veth0 down
step "link down makes the port DOWN" \
	wait_for 5 ibdev_port_is uet0 PORT_DOWN
ns_ip a link set veth0 up
step "link up makes the port ACTIVE again" \
	wait_for 5 ibdev_port_is uet0 PORT_ACTIVE
# Carrier follows the peer: taking veth1 down drops veth0's carrier.
ns_ip b link set veth1 down
step "losing carrier makes the port DOWN" \
	wait_for 5 ibdev_port_is uet0 PORT_DOWN
ns_ip b link set veth1 up
step "carrier back makes the port ACTIVE" \
	wait_for 5 ibdev_port_is uet0 PORT_ACTIVE

step "rdma link delete uet1" in_ns b rdma link delete uet1
step "uet1 is gone" bash -c '! ibdev_exists uet1'
step "uet1 can be re-created on the same netdev" \
	in_ns b rdma link add uet1 type uet netdev veth1

ns_ip a link del veth0
step "deleting the netdev removes uet0 (and the peer's uet1)" \
	wait_for 10 ibdevs_gone uet0 uet1

in_ns a ip link add veth2 type veth peer name veth3
in_ns a ip link set veth2 up
step "rdma link add uet2 on a fresh netdev" in_ns a rdma link add uet2 type uet netdev veth2
step "rmmod rdma_uet with a device bound" rmmod rdma_uet
step "no RDMA device is left" no_ibdevs
step "the netdev survived" in_ns a ip link show veth2
step_fails "the uet link type is gone with the module" \
	in_ns a rdma link add uet3 type uet netdev veth2
exit 0
