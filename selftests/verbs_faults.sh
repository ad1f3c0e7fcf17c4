#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection (the debug kernel: CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC):
# tools/testing/verbs_faults fails each allocation of every verb that
# makes the kernel allocate, in turn, through fail-nth (creates, resizes,
# registration, the modifies to RTS, a WRITE's transmit path): each verb
# returns an error or succeeds, an error leaves nothing behind, a WRITE is
# only delayed, and the device still works after. tools/testing/link_faults
# does the same to "rdma link add". Then, under a verified transfer, the
# allocations that may not sleep (softirq, timers) fail at a fixed
# interval. run.sh fails the test on a splat, the debug kernel's make
# check scans for leaks.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_faults
LINK_TOOL=$UET_TESTING_BIN/link_faults
[ -x "$TOOL" ] && [ -x "$LINK_TOOL" ] || skip "verbs_faults or link_faults not built (make -C tools)"
[ -e /proc/self/fail-nth ] || skip "no fault injection in this kernel"
D=/sys/kernel/debug
[ -e $D/failslab ] || mount -t debugfs none $D || fail "no debugfs"
[ -e $D/failslab ] && [ -e $D/fail_page_alloc ] || skip "no failslab or fail_page_alloc"

# fi_set KNOB=VALUE...: failslab and fail_page_alloc alike.
fi_set() {
	local kv f
	for kv in "$@"; do
		for f in failslab fail_page_alloc; do
			[ ! -e "$D/$f/${kv%%=*}" ] || echo "${kv#*=}" >"$D/$f/${kv%%=*}" ||
				return 1
		done
	done
}
# Allocations that may sleep count too, and single pages; nothing is
# printed per fault (thousands of stacks would take the debug kernel
# minutes).
fi_set verbose=0 ignore-gfp-wait=N min-order=0 probability=0 times=-1 \
	task-filter=N || fail "fault injection settings"
on_exit "fi_set ignore-gfp-wait=Y min-order=1"

uet_pair
T=$(mktemp -d)
on_exit "rm -rf $T"
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 pair_gids

# run_tool CMD...: the tool's lines shown; fails if one did.
run_tool() {
	local out rc=0
	out=$("$@" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	[ "$rc" -le 1 ] || log "the tool ended with status $rc"
	return "$rc"
}
step "every verb's allocations failed in turn: an error or a success, the device usable after" \
	run_tool "$TOOL" uet0 "$(ibdev_gid_index uet0 10.0.0.1)" \
	uet1 "$(ibdev_gid_index uet1 10.0.0.2)"

fi_netdev() { ns_ip a link add fi0 type veth peer name fi1 && ns_ip a link set fi0 up; }
step "a netdev for rdma link add: fi0 in namespace a" fi_netdev
# A registration allocates some 11000 times on the debug kernel, most in
# the RDMA and driver cores, and takes some 3 s: 20 of them, every Sth
# from a random offset (the seed is printed), fail in one run (40 took
# 124 s of a make check that must stay under 45 minutes).
step "... an error and no device, or a device, for each failed allocation" \
	run_tool in_ns a "$LINK_TOOL" fi_uet fi0 20 "$RANDOM"

# Under traffic: the allocations that may not sleep (the receive and ACK
# paths in softirq, the timers' retransmissions, the transmit path's
# packets and page fragments) fail, one in ATOMIC_INTERVAL, from the
# moment A's QP is connected until a verified transfer of every op ends.
# A packet uet cannot build waits for the next pass (tx_nomem counts it);
# one that IP or the peer's stack cannot take is lost, for the transport
# to recover. Which of the two a run sees varies: uet's own allocations
# are a share of the failures, the stack's the rest (seen: 1154 failed,
# 0 retransmitted).
ATOMIC_INTERVAL=40
ATOMIC_TIMES=100000
a_connected() { rdma resource show qp | grep -q "link uet0/1 .*type RC.*state RTS"; }
arm_when_connected() {
	wait_for 120 a_connected &&
		fi_set times=$ATOMIC_TIMES
}
slow_kernel_rto a:uet0 b:uet1
fi_set ignore-gfp-wait=Y probability=100 interval=$ATOMIC_INTERVAL times=0 ||
	fail "fault injection settings"
# both COUNTER: its sum over uet0 and uet1.
both() { echo $(($(uet_counter uet0 "$1") + $(uet_counter uet1 "$1"))); }
retx0=$(both retransmits) nomem0=$(both tx_nomem)
arm_when_connected &
armer=$!
on_exit "kill $armer 2>/dev/null"
rc=0
uet_verify b uet1 a uet0 10.0.0.2 "$T/atomic" -o all -q 2 -b 4M -T 600 || rc=1
kill $armer 2>/dev/null
wait $armer
left_slab=$(cat $D/failslab/times) left_page=$(cat $D/fail_page_alloc/times)
fi_set times=0 interval=1
step "a verified transfer of every op while atomic allocations failed" [ $rc -eq 0 ]
injected=$((2 * ATOMIC_TIMES - left_slab - left_page))
retx=$(($(both retransmits) - retx0)) nomem=$(($(both tx_nomem) - nomem0))
log "$injected atomic allocations failed during the transfer: $nomem packets put off, $retx retransmitted"
step "... allocations did fail during it" [ "$injected" -gt 0 ]
step "... and some were uet's: packets put off (tx_nomem) or resent" \
	[ $((nomem + retx)) -gt 0 ]
exit 0
