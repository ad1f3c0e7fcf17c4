#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites built into rdma_uet.ko and sch_uet.ko (when the kernel
# has KUnit) run as the modules load; collect every case's verdict from
# debugfs.
. "$(dirname "$0")/lib.sh"

[ -d /sys/kernel/debug/kunit ] || skip "kernel without KUnit debugfs"
grep -Eq '^(rdma_uet|sch_uet) ' /proc/modules && fail "a uet module is already loaded"
uet_load
sch_uet_load

suites=$(cd /sys/kernel/debug/kunit && ls -d uet_* 2>/dev/null)
[ -n "$suites" ] || fail "no uet KUnit suite ran"
passed=0 failed=0
for s in $suites; do
	r=/sys/kernel/debug/kunit/$s/results
	sed 's/^/#   /' "$r"
	passed=$((passed + $(grep -Ec '^[[:space:]]+ok [0-9]+ ' "$r")))
	failed=$((failed + $(grep -Ec '^[[:space:]]+not ok [0-9]+ ' "$r")))
	grep -Eq '^ok [0-9]+ '"$s"'$' "$r" || fail "suite $s did not pass"
done
log "kunit: $(echo "$suites" | wc -w) suites, $passed cases passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || fail "KUnit cases failed"
exit 0
