#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ATOMIC WRITE between uet0 and uet1 (tools/testing/verbs_atomic_write,
# one process, the traffic over the veth pair) through netem reordering:
# in every round the flag an ATOMIC WRITE sets after a 256 KiB RDMA WRITE
# lands only once the WRITE's bytes have, though netem lets packets
# overtake one another; misaligned and unauthorised ATOMIC WRITEs fail
# as the IBA says and change nothing. The responder counts the refused
# one in drop_access.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_atomic_write
ROUNDS=20
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
modprobe sch_netem || skip "no sch_netem"
uet_pair
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)
# One packet a datagram, so that netem moves each on its own, each held
# 0 to 10 ms: a packet passes those held longer.
step "uet0 sends single packets" in_ns a "$UET" dev set uet0 train_pkts 1
step "netem reorders on veth0" \
	in_ns a tc qdisc add dev veth0 root netem delay 5ms 5ms

atomic_write() {
	local out rc=0
	out=$("$TOOL" uet0 "$GID_A" uet1 "$GID_B" "$ROUNDS" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}

ooo_was=$(uet_counter uet1 out_of_order_received)
drops_was=$(uet_counter uet1 drop_access)
step "ATOMIC WRITE: a flag after the data, errors" atomic_write
ooo=$(($(uet_counter uet1 out_of_order_received) - ooo_was))
drops=$(($(uet_counter uet1 drop_access) - drops_was))
log "uet1 out_of_order_received: +$ooo, drop_access: +$drops"
step "packets did overtake others" test "$ooo" -gt 0
step "the responder counted the refused access" test "$drops" -ge 1
exit 0
