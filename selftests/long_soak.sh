#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Soak: uet-verify moves RDMA WRITE, SEND and READ on 4 QPs at once, every
# byte checked, through netem on both ends of the cable (0.5% loss, 1 ms
# delay with 10% of packets sent ahead, 1% duplicates), run after run,
# message sizes taking turns (4 KiB, 64 KiB, 1 MiB), for UET_SOAK_SECS
# seconds (make soak: SOAK_SECS, 600 by default). Every run must verify;
# no device may drop a packet as malformed. Not part of make check
# (run.sh leaves long_*.sh out unless named).
. "$(dirname "$0")/lib.sh"

SECS=${UET_SOAK_SECS:-600}
BYTES=16M SIZES="4K 64K 1M"
stock_kernel || BYTES=1M
modprobe sch_netem || skip "no sch_netem"
uet_pair
slow_kernel_rto a:uet0 b:uet1
NETEM="loss 0.5% delay 1ms reorder 10% duplicate 1%"
step "netem $NETEM on both ends" bash -c "
	in_ns a tc qdisc add dev veth0 root netem $NETEM &&
	in_ns b tc qdisc add dev veth1 root netem $NETEM"
T=$(mktemp -d)
on_exit "rm -rf $T"

# soak: uet-verify runs until SECS are up; fails at the first that does.
soak() {
	local end=$((SECONDS + SECS)) runs=0 size
	while [ $SECONDS -lt $end ]; do
		for size in $SIZES; do
			uet_verify b uet1 a uet0 10.0.0.2 "$T/run" -o all -q 4 \
				-s "$size" -b "$BYTES" -T 900 >"$T/out" || {
				cat "$T/out"
				echo "# run $((runs + 1)) ($size messages) failed"
				return 1
			}
			runs=$((runs + 1))
		done
	done
	echo "# $runs runs in $SECS s: $((runs * 3)) ops of $BYTES, every byte verified"
}

step "WRITE, SEND and READ on 4 QPs for $SECS s through netem" soak
for c in retransmits duplicates_received rto_expired; do
	log "$c: $(($(uet_counter uet0 $c) + $(uet_counter uet1 $c)))"
done
step "no packet was dropped as malformed" \
	test "$(uet_counter uet0 drop_malformed)" -eq 0 -a "$(uet_counter uet1 drop_malformed)" -eq 0
exit 0
