#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Sourced, after selftests/lib.sh, by the guest scripts of the latency
# and scale benches (tools/bench/latency-guest.sh, scale-guest.sh): the
# two RDMA devices, A and B, a measurement runs between, by kind:
#
#   uet       uet0 in namespace a on veth0 (10.0.0.1), uet1 in b on veth1
#             (10.0.0.2): lib.sh's veth_pair; the devices' defaults
#   uet-roce  the same, both devices set to "lb single cc none": one path
#             and no congestion control, as RoCE (the defaults before
#             lb reps and cc nscc)
#   rxe       rdma_rxe: rxe0 on r0 (10.2.0.1), rxe1 on r1 (10.2.0.2), the
#             root namespace's wire (below)
#   uet-root  uet0 and uet1 on the root namespace's wire, as rxe: uet
#             against rxe on the same wire, and what the wire changes
#
# The root namespace's wire: rdma_rxe of Debian 12's kernel (6.1) has its
# UDP socket in, and looks its routes up in, the root namespace only
# (init_net in drivers/infiniband/sw/rxe/rxe_net.c), so its two devices
# cannot be in two namespaces. They are on the two ends of a veth pair in
# the root namespace, r0 and r1, and routing rules make a packet from
# one end's address to the other's leave by the veth, as between two
# hosts, instead of taking the loopback device (where rxe would not find
# it): the local table's rule moves after two rules that send what this
# host sends (iif lo) to 10.2.0.2 out of r0 and to 10.2.0.1 out of r1;
# both ends accept packets from an address of their own host
# (accept_local, no reverse path filter) and know each other's MAC
# (permanent neighbours: no ARP between two addresses of one host; the
# namespaces' veth ends get them too, so that no kind resolves addresses
# while measured). A packet then takes the namespaces' path: UDP over a
# veth, received in a softirq of the sending CPU.
#
# pair_up KIND loads the kind's module, unloading the other (rdma_uet and
# rdma_rxe exclude each other), adds the two devices, waits for their
# ports and GIDs, and sets DEV_A, DEV_B (names), NS_A, NS_B (lib.sh host
# names, empty for the root namespace), GID_A, GID_B (port 1's GID index
# of each end's IPv4 address) and ADDR_B (B's IPv4 address).
# pair_down removes the two devices.

# What this file sets is read by the scripts that source it.
# shellcheck disable=SC2034

# run_in NS CMD...: CMD in host NS's namespace, or here if NS is empty.
run_in() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then in_ns "$ns" "$@"; else "$@"; fi
}

# bg_in NS CMD...: CMD in the background as run_in starts it; BG_PID is
# its pid, a process in NS's namespace (as tcp_listens needs).
bg_in() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$(ns_name "$ns")" "$@" &
	else
		"$@" &
	fi
	BG_PID=$!
}

# use_module uet|rxe: that module loaded, the other not.
use_module() {
	if [ "$1" = uet ]; then
		! grep -q '^rdma_rxe ' /proc/modules || rmmod rdma_rxe ||
			fail "rmmod rdma_rxe"
		uet_load
	else
		! grep -q '^rdma_uet ' /proc/modules || rmmod rdma_uet ||
			fail "rmmod rdma_uet"
		modprobe rdma_rxe || fail "modprobe rdma_rxe"
		on_exit "rmmod rdma_rxe"
	fi
}

_pair_veth=
_pair_wire=

root_wire() {
	local m0 m1
	[ -z "$_pair_wire" ] || return 0
	_pair_wire=1
	ip link add r0 type veth peer name r1 || fail "the root wire's veth"
	on_exit "ip link del r0"
	{ ip addr add 10.2.0.1/32 dev r0 && ip addr add 10.2.0.2/32 dev r1 &&
		ip link set r0 up && ip link set r1 up; } || fail "the root wire's addresses"
	sysctl -qw net.ipv4.conf.all.rp_filter=0 net.ipv4.conf.r0.rp_filter=0 \
		net.ipv4.conf.r1.rp_filter=0 net.ipv4.conf.r0.accept_local=1 \
		net.ipv4.conf.r1.accept_local=1 || fail "the root wire's sysctls"
	{ ip route add 10.2.0.2/32 dev r0 src 10.2.0.1 table 102 &&
		ip route add 10.2.0.1/32 dev r1 src 10.2.0.2 table 101 &&
		ip rule add pref 10 iif lo to 10.2.0.2 lookup 102 &&
		ip rule add pref 11 iif lo to 10.2.0.1 lookup 101 &&
		ip rule add pref 100 lookup local &&
		ip rule del pref 0 lookup local; } || fail "the root wire's routes"
	on_exit "ip rule add pref 0 lookup local; ip rule del pref 100; ip rule del pref 10; ip rule del pref 11"
	read -r m0 </sys/class/net/r0/address
	read -r m1 </sys/class/net/r1/address
	{ ip neigh replace 10.2.0.2 lladdr "$m1" dev r0 nud permanent &&
		ip neigh replace 10.2.0.1 lladdr "$m0" dev r1 nud permanent; } ||
		fail "the root wire's neighbours"
}

# pair_veth: lib.sh's veth_pair, each end knowing the other's MAC, as the
# root wire's do (no ARP in a measurement, none before the first connect).
pair_veth() {
	local m0 m1
	_pair_veth=1
	veth_pair
	{ m0=$(in_ns_sys a cat /sys/class/net/veth0/address) &&
		m1=$(in_ns_sys b cat /sys/class/net/veth1/address); } || fail "veth MACs"
	{ ns_ip a neigh replace 10.0.0.2 lladdr "$m1" dev veth0 nud permanent &&
		ns_ip b neigh replace 10.0.0.1 lladdr "$m0" dev veth1 nud permanent; } ||
		fail "the veth pair's neighbours"
}

pair_ready() {
	ibdev_port_is "$DEV_A" PORT_ACTIVE && ibdev_port_is "$DEV_B" PORT_ACTIVE &&
		ibdev_gid_index "$DEV_A" "$ADDR_A" >/dev/null &&
		ibdev_gid_index "$DEV_B" "$ADDR_B" >/dev/null
}

# pair_up KIND: see the top.
pair_up() {
	local type=uet ndev_a ndev_b d
	case $1 in
	uet | uet-roce)
		[ -n "$_pair_veth" ] || pair_veth
		NS_A=a NS_B=b ADDR_A=10.0.0.1 ADDR_B=10.0.0.2
		ndev_a=veth0 ndev_b=veth1
		;;
	rxe | uet-root)
		root_wire
		NS_A='' NS_B='' ADDR_A=10.2.0.1 ADDR_B=10.2.0.2
		ndev_a=r0 ndev_b=r1
		[ "$1" = uet-root ] || type=rxe
		;;
	*) fail "no such device kind: $1" ;;
	esac
	use_module $type
	DEV_A=${type}0 DEV_B=${type}1
	for d in "$DEV_A" "$DEV_B"; do
		! ibdev_exists "$d" || fail "$d exists already"
	done
	{ run_in "$NS_A" rdma link add "$DEV_A" type $type netdev $ndev_a &&
		run_in "$NS_B" rdma link add "$DEV_B" type $type netdev $ndev_b; } ||
		fail "rdma link add ($1)"
	wait_for 10 pair_ready || fail "$DEV_A and $DEV_B: ports not ACTIVE or no GIDs"
	GID_A=$(ibdev_gid_index "$DEV_A" "$ADDR_A")
	GID_B=$(ibdev_gid_index "$DEV_B" "$ADDR_B")
	if [ "$1" = uet-roce ]; then
		{ in_ns a "$UET" dev set uet0 lb single cc none &&
			in_ns b "$UET" dev set uet1 lb single cc none; } || fail "uet dev set"
	fi
}

pair_down() {
	{ run_in "$NS_A" rdma link delete "$DEV_A" &&
		run_in "$NS_B" rdma link delete "$DEV_B"; } || fail "rdma link delete"
	wait_for 10 ibdevs_gone "$DEV_A" "$DEV_B" || fail "$DEV_A or $DEV_B stays"
}
