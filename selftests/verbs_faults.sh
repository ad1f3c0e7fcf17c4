#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection (the debug kernel: CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC):
# tools/testing/verbs_faults fails each allocation of every verb that
# makes the kernel allocate, in turn, through fail-nth (creates, resizes,
# registration, the modifies to RTS, a WRITE's transmit path): each verb
# returns an error or succeeds, an error leaves nothing behind, a WRITE is
# only delayed, and the device still works after. run.sh fails
# the test on a splat, the debug kernel's make check scans for leaks.
. "$(dirname "$0")/lib.sh"

TOOL=$UET_SELFTESTS/../tools/testing/verbs_faults
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
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
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
	wait_for 5 bash -c 'ibdev_gid_index uet0 10.0.0.1 && ibdev_gid_index uet1 10.0.0.2'

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
exit 0
