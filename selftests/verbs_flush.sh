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
reordered_run "$TOOL" "$ROUNDS" \
	"FLUSH: every byte placed when it completes, ATOMIC WRITE, errors" "$REFUSED"
exit 0
