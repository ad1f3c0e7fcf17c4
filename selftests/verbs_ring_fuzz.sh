#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A process that writes its rings as it likes: random producer and
# consumer indices, slots overwritten after the doorbell, work requests
# with random opcodes, lengths and keys, CQs and SRQs resized under
# traffic, QPs destroyed with their rings in any state
# (tools/testing/verbs_ring_fuzz, uet0 talking to itself). The kernel
# answers with verbs errors only: run.sh fails the test on any splat, the
# tool on a kernel that keeps a CPU busy afterwards or a fresh QP pair
# that cannot move 64 KiB intact. UET_RING_FUZZ_SEED repeats a run.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_ring_fuzz
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
# The debug kernel runs each verb some 20 times slower.
ROUNDS=4000
stock_kernel || ROUNDS=1000
SEED=${UET_RING_FUZZ_SEED:-$(date +%s)}
uet_pair
step "uet0 has the GID of 10.0.0.1" wait_for 5 ibdev_gid_index uet0 10.0.0.1

# fuzz: the tool's lines shown; fails if one of its checks did.
fuzz() {
	local out rc=0
	out=$(in_ns a "$TOOL" uet0 "$(ibdev_gid_index uet0 10.0.0.1)" "$SEED" \
		"$ROUNDS" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	[ "$rc" -le 1 ] || log "the tool ended with status $rc"
	return "$rc"
}
step "$ROUNDS rounds of ring fuzz (seed $SEED): errors as verbs errors, the device usable after" fuzz
exit 0
