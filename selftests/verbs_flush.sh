#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RDMA FLUSH and ATOMIC WRITE between uet0 and uet1 through rdma-core's
# ibv_wr_flush() and ibv_wr_atomic_write() (tools/testing/verbs_flush, one
# process, the traffic over the veth pair) through netem reordering: in
# every round the FLUSH after an unsignaled 256 KiB RDMA WRITE completes
# only once every byte of the WRITE is placed, though netem lets packets
# overtake one another, and the ATOMIC WRITE after it sets its flag and
# nothing else; FLUSHes without the flush right, past the region's end or
# to persistence fail with a remote access error, one with no placement
# type with a remote invalid request, and the responder counts each in
# drop_access. Skipped where the kernel's ib_core (before 6.2) or
# libibverbs (before rdma-core 47, as Debian 12's 44) has no FLUSH.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_flush
ROUNDS=20
# The FLUSHes the tool has refused, by uet1.
REFUSED=4
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
modprobe sch_netem || skip "no sch_netem"
uet_pair
rc=0
missing=$("$TOOL" uet0 2>&1) || rc=$?
[ "$rc" -ne "$KSFT_SKIP" ] || skip "$missing"
[ "$rc" -eq 0 ] || fail "$TOOL uet0: $missing"
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)
# One packet a datagram, so that netem moves each on its own, each held
# 0 to 10 ms: a packet passes those held longer.
step "uet0 sends single packets" in_ns a "$UET" dev set uet0 train_pkts 1
step "netem reorders on veth0" \
	in_ns a tc qdisc add dev veth0 root netem delay 5ms 5ms

flush() {
	local out rc=0
	out=$("$TOOL" uet0 "$GID_A" uet1 "$GID_B" "$ROUNDS" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}

ooo_was=$(uet_counter uet1 out_of_order_received)
drops_was=$(uet_counter uet1 drop_access)
step "FLUSH: every byte placed when it completes, ATOMIC WRITE, errors" flush
ooo=$(($(uet_counter uet1 out_of_order_received) - ooo_was))
drops=$(($(uet_counter uet1 drop_access) - drops_was))
log "uet1 out_of_order_received: +$ooo, drop_access: +$drops"
step "packets did overtake others" test "$ooo" -gt 0
step "the responder counted the $REFUSED refused FLUSHes" \
	test "$drops" -ge "$REFUSED"
exit 0
