#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Forged packets from the peer's host: a process there can send UDP to the
# uet port with the peer's address, but what does not name the peer's QP as
# its source, to this QP's address, with a PSN where the connection is, is
# dropped before it can queue at the QP, and what does is checked before it
# acts: a SYN starting elsewhere than rq_psn, ACKs for PSNs never sent and
# RNR NACKs for them change nothing, a READ answer starting elsewhere than
# rq_psn lands nothing, a CNP naming a PSN never sent is dropped. Then a flood of junk from the peer's
# address while a transfer runs, every byte verified. tools/testing/verbs_forge
# opens uet0 and uet1 in one process and forges from sockets in namespaces a
# and b; UET_FORGE_SEED repeats a flood.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_forge
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
uet_pair
# Second addresses of each host: the forger's other source, and another
# destination on the receiving host.
ns_ip a addr add 10.0.0.3/24 dev veth0 || fail "10.0.0.3 on veth0"
ns_ip b addr add 10.0.0.22/24 dev veth1 || fail "10.0.0.22 on veth1"
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)
SEED=${UET_FORGE_SEED:-$(date +%s)}

step "forgeries are dropped and counted, and the flood (seed $SEED) leaves every byte intact" \
	shown "$TOOL" uet0 "$GID_A" "/run/netns/$(ns_name a)" 10.0.0.3 \
	uet1 "$GID_B" "/run/netns/$(ns_name b)" 10.0.0.22 "$SEED"
step "no packet waited in vain for room in a QP's backlog (drop_backlog 0)" \
	test "$(uet_counter uet0 drop_backlog)" -eq 0 -a "$(uet_counter uet1 drop_backlog)" -eq 0
exit 0
