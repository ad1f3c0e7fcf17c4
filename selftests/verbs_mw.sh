#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Memory windows between uet0 and uet1 (tools/testing/verbs_mw, one
# process, the traffic over the veth pair): type 1 and type 2 windows
# bound on a region with no remote right of its own carry RDMA WRITEs
# and READs, byte-verified (a zero-based one by offset); an access
# outside a window, without the window's right, through a window
# invalidated by SEND_WITH_INV or bound by another QP fails with a remote
# access error and changes nothing;
# binds against the rules complete with IBV_WC_MW_BIND_ERR. The
# responder counts each refused access in drop_access.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_mw
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
uet_pair
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)

mw() {
	local out rc=0
	out=$("$TOOL" uet0 "$GID_A" uet1 "$GID_B" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}

drops_was=$(uet_counter uet1 drop_access)
step "memory windows: binds, accesses through them, refusals, invalidation" mw
drops=$(($(uet_counter uet1 drop_access) - drops_was))
log "uet1 drop_access: +$drops"
# Six accesses were refused: the invalidated window, one byte past and
# one before the type 1 window, READ without the right, another QP's, a
# zero-based window's VA.
step "the responder counted the refused accesses" test "$drops" -ge 6
exit 0
