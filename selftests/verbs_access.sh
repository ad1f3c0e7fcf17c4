#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Remote access errors: an RDMA WRITE or READ with a bad rkey, a WRITE
# ending one byte past the target region (in one packet, and in the last of
# several), a WRITE with the rkey of a region in another PD, a WRITE to a
# region without remote write and a READ from one without remote read
# complete with IBV_WC_REM_ACCESS_ERR and change no byte of the
# region or of the guard bytes around it; a good WRITE on a fresh QP pair
# then lands. tools/testing/verbs_bad_access opens uet0 and uet1 in one
# process: the GIDs route the traffic over the veth pair.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_bad_access
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
uet_pair
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)


# sent: skbs uet0 handed to IP (a train of packets is one), and skbs
# veth0 carried.
sent() {
	echo "$(uet_counter uet0 tx_skbs) $(in_ns_sys a cat /sys/class/net/veth0/statistics/tx_packets)"
}

read -r uet_was veth_was <<<"$(sent)"
step "bad rkeys and out-of-bounds WRITEs fail with remote access errors, touching nothing" \
	shown "$TOOL" uet0 "$GID_A" uet1 "$GID_B"
read -r uet_now veth_now <<<"$(sent)"
log "uet0 sent $((uet_now - uet_was)) skbs, veth0 carried $((veth_now - veth_was))"
step "the traffic crossed the veth pair" \
	test $((uet_now - uet_was)) -gt 0 -a $((veth_now - veth_was)) -ge $((uet_now - uet_was))
drops=$(uet_counter uet1 drop_access)
log "uet1 drop_access: $drops"
step "the responder counted the refused accesses" test "$drops" -ge 7
exit 0
