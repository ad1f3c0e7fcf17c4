#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The demo, inside the VM: hosts a and b joined by a veth cable, uet0 on a,
# uet1 on b.
. "$(dirname "$0")/../../selftests/lib.sh"

ns_add a b
veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail "veth pair"
ip -n a addr add fd00::1/64 dev veth0 nodad
ip -n b addr add fd00::2/64 dev veth1 nodad
uet_load
in_ns a rdma link add uet0 type uet netdev veth0 || fail "rdma link add uet0"
in_ns b rdma link add uet1 type uet netdev veth1 || fail "rdma link add uet1"
wait_for 5 bash -c 'ibv_devinfo -v -d uet1 | grep -q "fd00::2,"'

cat <<'TXT'

== Fabric
   host a (netns a)  veth0 10.0.0.1 fd00::1  <---->  veth1 10.0.0.2 fd00::2  host b (netns b)

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
ip -n a link set veth0 down
wait_for 5 ibdev_port_is uet0 PORT_DOWN
echo "   uet0 port: $(ibdev_port_state uet0)"
ip -n a link set veth0 up
wait_for 5 ibdev_port_is uet0 PORT_ACTIVE
echo "   uet0 port after link up: $(ibdev_port_state uet0)"
echo
echo "Done: two uet devices, bound to netdevs in two namespaces, served by stock rdma-core."
