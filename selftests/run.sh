#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run selftests (all *.sh here but lib*.sh, run.sh, the long ones,
# long_*.sh, and those -x names, or those named) and print TAP. A test also fails if the kernel logged a splat while it ran
# (BUG, WARNING, KASAN, lockdep, ODEBUG, a hung task, ...), or if it ran
# longer than settings' timeout (kselftest's per-test limit) or -t's
# SECONDS; a test killed for it first has the kernel's blocked tasks and
# log printed. With -k, a kmemleak scan after the last test counts as one
# more test. Ends with "N passed, N failed, N skipped"; -o FILE also writes
# that line to FILE, and after it "failed: NAME..." (the suites that
# failed, if any), then "why NAME: LINE" for the first lines that say why
# each failed (a CI log shows its head and tail: these end up in the
# tail). FILE is rewritten as each test starts, with a line
# "running: NAME" after those: if the VM never comes back, the caller
# still knows what passed and which test it was in.
set -u
dir=$(dirname "$(readlink -f "$0")")
kmemleak='' out='' limit='' skip=' '
while getopts ko:t:x: opt; do
	case $opt in
	k) kmemleak=1 ;;
	x) skip+="$OPTARG " ;;
	o) out=$OPTARG ;;
	t) limit=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

if [ $# -gt 0 ]; then
	tests=("$@")
else
	tests=()
	for t in "$dir"/*.sh; do
		case ${t##*/} in lib*.sh | run.sh | long_*.sh) continue ;; esac
		[[ $skip == *" ${t##*/} "* ]] || tests+=("${t##*/}")
	done
fi

[ -n "$limit" ] || limit=$(sed -n 's/^timeout=//p' "$dir/settings")
splat='BUG:|WARNING:|KASAN|UBSAN|Oops|general protection|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU|sleeping function called|refcount_t:|list_(add|del) corruption|stack-protector|Kernel panic|ODEBUG:|blocked for more than'

# Lockdep reports of kernel code, not ours, that a suite cannot avoid:
# "HELD|WANTED", the two locks as the report names them. Such a report
# alone passes, logged; lockdep turns itself off after its first report,
# so a suite that meets one runs last.
# nvmet-rdma on Linux 7.x: an I/O queue's Connect takes nvmet_config_sem
# under its rdma_cm id's handler_mutex, removing a port takes the
# listening id's under nvmet_config_sem (one lock class for both ids).
known_lockdep=('nvmet_config_sem|&id_priv->handler_mutex')

# known_report: the kernel log's only splat is a known lockdep report.
known_report() {
	local log k
	log=$(dmesg)
	[ "$(grep -Ec "$splat" <<<"$log")" = 1 ] || return 1
	grep -q 'WARNING: possible circular locking dependency detected' <<<"$log" ||
		return 1
	for k in "${known_lockdep[@]}"; do
		grep -A1 'is trying to acquire lock:' <<<"$log" |
			grep -qF "(${k#*|})" &&
			grep -A1 'already holding lock:' <<<"$log" |
			grep -qF "(${k%%|*})" && return 0
	done
	return 1
}

kleak=/sys/kernel/debug/kmemleak
[ -z "$kmemleak" ] || [ -w "$kleak" ] || { echo "# no kmemleak in this kernel"; kmemleak=; }
[ -z "$kmemleak" ] || echo clear >"$kleak"

total=$((${#tests[@]} + ${kmemleak:-0}))
pass=0 failed=0 skipped=0 n=0 failed_names='' why=''
suite_log=$(mktemp)
trap 'rm -f "$suite_log"' EXIT
echo "TAP version 13"
echo "1..$total"

# summary [RUNNING]: the summary file (-o) as it stands.
summary() {
	[ -n "$out" ] || return 0
	{
		echo "$pass passed, $failed failed, $skipped skipped"
		echo "failed:$failed_names"
		[ -z "$why" ] || printf '%s' "$why"
		[ $# -eq 0 ] || echo "running: $1"
	} >"$out.tmp" && mv "$out.tmp" "$out"
}

result() {
	n=$((n + 1))
	case $1 in
	0) pass=$((pass + 1)); echo "ok $n $2" ;;
	4) skipped=$((skipped + 1)); echo "ok $n $2 # SKIP" ;;
	*) failed=$((failed + 1)) failed_names+=" $2"; echo "not ok $n $2"
	   because "$2" ;;
	esac
}

# because NAME: the first lines of NAME's output that say why it failed.
because() {
	local lines
	lines=$(grep -m 4 -E "FAIL|killed after|kernel splat|unreferenced object|$splat" \
		"$suite_log" | cut -c 1-300 | sed "s/^/why $1: /")
	[ -z "$lines" ] || why+=$lines$'\n'
}

for t in "${tests[@]}"; do
	name=${t%.sh}
	echo "# --- $name"
	summary "$name"
	dmesg -C
	start=$SECONDS
	# A test stuck in its cleanup (rmmod, a netns going away) ignores
	# SIGTERM's exit path: KILL follows.
	# Into a file for because(), shown as it comes; a process the test
	# left behind with its output open holds neither up.
	timeout -k 30 "$limit" bash "$dir/$t" >"$suite_log" 2>&1 &
	pid=$!
	tail -n +1 -s 0.1 --pid=$pid -f "$suite_log"
	wait $pid
	rc=$?
	echo "# $name: $((SECONDS - start)) s"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "# $name: killed after its limit of $limit s; blocked tasks and the kernel log:" |
			tee -a "$suite_log"
		echo w >/proc/sysrq-trigger 2>/dev/null
		dmesg | sed 's/^/#   /'
		rc=1
	elif known_report; then
		echo "# $name: a known lockdep report of kernel code (run.sh's known_lockdep); lockdep is off from here:"
		dmesg | grep -A4 'possible circular locking' | sed 's/^/#   /'
	elif dmesg | grep -Eq "$splat"; then
		echo "# kernel splat during $name:" | tee -a "$suite_log"
		dmesg | sed 's/^/#   /' | tee -a "$suite_log"
		rc=1
	fi
	result "$rc" "$name"
done

if [ -n "$kmemleak" ]; then
	summary kmemleak
	echo "# --- kmemleak"
	# Objects younger than 5 s are never reported: let the last frees age.
	sleep 6
	echo scan >"$kleak"
	echo scan >"$kleak"
	if [ -s "$kleak" ]; then
		sed 's/^/#   /' "$kleak" | tee "$suite_log"
		result 1 kmemleak
	else
		result 0 kmemleak
	fi
fi

echo "$pass passed, $failed failed, $skipped skipped"
summary
[ "$failed" -eq 0 ]
