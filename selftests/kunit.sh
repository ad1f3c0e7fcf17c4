#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The KUnit suites of rdma_uet (their own module, rdma_uet_test.ko) and of
# sch_uet (built into sch_uet.ko), made when the kernel has KUnit, run as
# the modules load; collect every case's verdict from debugfs.
. "$(dirname "$0")/lib.sh"

[ -d /sys/kernel/debug/kunit ] || skip "kernel without KUnit debugfs"
grep -Eq '^(rdma_uet|rdma_uet_test|sch_uet) ' /proc/modules &&
	fail "a uet module is already loaded"
[ -e "$UET_TEST_KO" ] || fail "no $UET_TEST_KO: built without KUnit?"
uet_load
insmod "$UET_TEST_KO" || fail "insmod $UET_TEST_KO"
on_exit "rmmod rdma_uet_test"
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
