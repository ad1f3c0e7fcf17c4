#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Device attributes against what the verbs enforce, between uet0 and uet1
# (tools/testing/verbs_attrs, one process in a, over the veth pair): each
# cheap limit (CQEs, WRs, SGEs, inline data, SRQ size, READs and
# atomics in flight, P_Keys, GIDs, region size, message size) is accepted
# at its value and refused one past it with EINVAL, a queue asked at its
# limit comes back at it, and the capability flags are features that
# work (RNR NAK, SRQ resize, windows, AV port, atomics, port events).
# The edge cases the IBA allows and rdma_rxe accepts: a CQ of 135168
# entries (libfabric's ofi_rxm); zero-length WRITE (with immediate),
# READ and SEND with no SGE, rkey 0 and address 0 (UCX's flush) complete
# with success, leave the QPs in RTS and data flowing; QPs with no send
# or no receive WRs (qperf) are created, posts to the empty queue fail
# with ENOMEM; a UD receive's sl is mlx5's RoCE v2 packet type, over
# IPv4 and IPv6. Then what ibv_devinfo -v shows is what the program
# read, the GUIDs are veth0's MAC as EUI-64 (as rdma_rxe derives them),
# and the port's MTU and speed follow veth0's.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_attrs
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
command -v ibv_devinfo >/dev/null || skip "no ibv_devinfo (ibverbs-utils)"
uet_pair v6
pair_gids6() {
	ibdev_gid_index uet0 fd00::1 >/dev/null && ibdev_gid_index uet1 fd00::2 >/dev/null
}
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
step "GIDs of fd00::1 and fd00::2 are in the tables" \
	wait_for 5 pair_gids6
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)
GID6_A=$(ibdev_gid_index uet0 fd00::1)
GID6_B=$(ibdev_gid_index uet1 fd00::2)

# ibv_devinfo is read before the program takes veth0 down and up; the
# program's "attr" lines are kept for the comparison below.
devinfo=$(ibv_devinfo -v -d uet0) || fail "ibv_devinfo -v -d uet0"
# (Not "out": step's local of that name would hide it from its steps.)
attrs_rc=0
attrs_out=$(in_ns a "$TOOL" uet0 "$GID_A" uet1 "$GID_B" "$GID6_A" "$GID6_B" \
	"$(ns_name a)" veth0 2>&1) || attrs_rc=$?
attrs() {
	printf '%s\n' "$attrs_out" | grep -v '^attr ' | sed 's/^/# /'
	return "$attrs_rc"
}
step "limits accepted at their value, refused past it; flags that work; edge cases accepted" attrs
wait_for 10 pair_active || fail "the ports did not come back ACTIVE"

# devinfo_field NAME: the first word of ibv_devinfo's "NAME: value".
devinfo_field() {
	printf '%s\n' "$devinfo" |
		sed -n "s/^[[:space:]]*$1:[[:space:]]*\([^[:space:]]*\).*/\1/p" | head -n1
}

same_as_devinfo() {
	local name want got bad=0
	for name in vendor_id vendor_part_id hw_ver max_mr_size page_size_cap \
		max_qp max_qp_wr max_sge max_sge_rd max_cq max_cqe max_mr max_pd \
		max_qp_rd_atom max_qp_init_rd_atom max_res_rd_atom max_mw max_ah \
		max_srq max_srq_wr max_srq_sge max_pkeys node_guid sys_image_guid \
		max_mtu active_mtu max_msg_sz gid_tbl_len pkey_tbl_len; do
		want=$(printf '%s\n' "$attrs_out" | sed -n "s/^attr $name //p")
		got=$(devinfo_field "$name")
		if [[ $want == *:* ]]; then
			[ "$want" = "$got" ] || { echo "$name: $got, not $want"; bad=1; }
		elif [ -z "$got" ] || [ -z "$want" ] || [ $((want)) -ne $((got)) ]; then
			echo "$name: ibv_devinfo ${got:-none}, ibv_query_* ${want:-none}"
			bad=1
		fi
	done
	return "$bad"
}
step "ibv_devinfo -v shows the attributes the program read" same_as_devinfo

# EUI-64 of a MAC: the universal/local bit flipped, ff:fe in the middle.
eui64() {
	local -a m
	IFS=: read -ra m <<<"$1"
	printf '%02x%s:%sff:fe%s:%s%s\n' $((0x${m[0]} ^ 2)) "${m[1]}" "${m[2]}" \
		"${m[3]}" "${m[4]}" "${m[5]}"
}
guids() {
	local mac want
	mac=$(in_ns_sys a cat /sys/class/net/veth0/address)
	want=$(eui64 "$mac")
	echo "# veth0 $mac, node_guid $(devinfo_field node_guid)"
	[ "$(devinfo_field node_guid)" = "$want" ] &&
		[ "$(devinfo_field sys_image_guid)" = "$want" ]
}
step "node_guid and sys_image_guid are veth0's MAC as EUI-64" guids

# A 1500-byte netdev carries 1024-byte IB payloads after uet's headers;
# ib_get_eth_speed() makes 10000 Mb/s 10 Gb/s at width 1X.
port() {
	local mtu speed
	mtu=$(in_ns_sys a cat /sys/class/net/veth0/mtu)
	speed=$(in_ns_sys a cat /sys/class/net/veth0/speed)
	echo "# veth0 mtu $mtu, speed $speed; active_mtu $(devinfo_field active_mtu), active_speed $(devinfo_field active_speed) x $(devinfo_field active_width)"
	[ "$mtu" = 1500 ] && [ "$(devinfo_field active_mtu)" = 1024 ] &&
		[ "$(devinfo_field max_mtu)" = 4096 ] &&
		[ "$(devinfo_field state)" = PORT_ACTIVE ] &&
		[ "$(devinfo_field link_layer)" = Ethernet ] &&
		[ "$speed" = 10000 ] &&
		[ "$(devinfo_field active_speed)" = 10.0 ] &&
		[ "$(devinfo_field active_width)" = 1X ]
}
step "the port's MTU, speed, state and link layer follow veth0" port
exit 0
