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
reordered_run "$TOOL" "$ROUNDS" "ATOMIC WRITE: a flag after the data, errors" 1
exit 0
