#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: the kernel analysers on our sources (lint.sh), the
# packet simulator's fixed-seed figures (tools/sim), builds against the
# newer kernels (kernel-builds.sh), the selftests on the
# Debian 13 test host (its kernel and userspace, vm/run -k trixie), uet
# run as installed (install-test.sh, install-test-trixie.sh), the
# selftests on Debian 12's kernel, two stock VMs joined by a cable
# (pair-test.sh), then KUnit, the selftests of the data path and a
# kmemleak scan on the debug kernel (KASAN, lockdep, kmemleak). Lint and
# the debug kernel (if it must) and our modules against it build beside
# the runs that assert no rate. The stock modules are already built
# (make all).
# Ends with one line: "N passed, N failed, N skipped".
set -uo pipefail

top=$(readlink -f "$(dirname "$0")/../..")
vm=$top/tools/testing/vm
cd "$top" || exit 1

# The debug kernel runs some 20 times slower than stock: every suite took
# over 40 minutes there, beyond CI's budget. It runs the suites that drive
# the transport (traffic, loss, reordering, access errors, forged
# packets, fault injection, atomics, SRQ, the CM, a kernel ULP) and QP
# lifecycles under traffic with netlink dumping every QP meanwhile, where
# KASAN, lockdep and kmemleak see what the stock run cannot; sch_uet has
# its KUnit suite there, and configuration parsing and measurements run
# on stock only. (qdisc_trim took 251 s there; netlink 229 s, the busy
# engine's readers being qp_lifecycle's; verbs_perftest 121 s, its QPs
# at work side by side being verbs_faults' and verbs_netem's.) verbs_mw
# (memory windows, their access errors) took 74 s there; verbs_access
# (40 s) left for it, the remote access checks of a region and of a
# window being one function (uet_rkey_get()). verbs_ud runs its tools
# there (user UD rings rewritten under the engine, multicast groups), not
# the stock ones; verbs_pyverbs a sample of rdma-core's suite (42 s);
# rx_frags every kind of packet with its headers in page fragments.
# verbs_kernel_ulp runs last: removing its nvmet port meets a lockdep
# report of nvmet-rdma's (run.sh's known_lockdep), after which lockdep is
# off.
debug_tests="kunit.sh qp_lifecycle.sh rx_frags.sh verbs_faults.sh verbs_forge.sh
	verbs_misc.sh verbs_mw.sh verbs_ring_fuzz.sh verbs_netem.sh verbs_rdmacm.sh
	verbs_ud.sh verbs_pyverbs.sh verbs_kernel_ulp.sh"

# Each suite runs on one of the two distributions' kernels, so that both
# add up to what one took (the stock run took 968 s, the budget of a cold
# make check being 60 minutes): on Debian 13 (Linux 6.12, rdma-core 56,
# iproute2 6.15, Wireshark 4.4) what a verbs user meets, the verbs suites,
# rdma-core's pyverbs suite against rxe's list, the dissector and the
# netlink spec; on Debian 12 (Linux 6.1) the rest, congestion control,
# multipath, the qdisc, netlink, rxe's exclusion, the memory charges;
# pyverbs and device again. Every suite not listed here runs on Debian 12.
trixie_tests="device.sh netlink_spec.sh qp_lifecycle.sh rx_frags.sh verbs_access.sh
	verbs_atomic_write.sh verbs_attrs.sh verbs_faults.sh verbs_flush.sh verbs_forge.sh
	verbs_kernel_ulp.sh verbs_mw.sh verbs_netem.sh verbs_perftest.sh verbs_pyverbs.sh
	verbs_rdmacm.sh verbs_ring_fuzz.sh verbs_train.sh verbs_trim.sh verbs_uc.sh verbs_ud.sh
	wireshark.sh"
both_tests="device.sh verbs_pyverbs.sh"

# One check at a time on a machine, and no VM started by hand beside it:
# the congestion-control suites assert shares of a port's rate measured
# on the machine's cores, which a second VM would take from them. Whoever
# boots VMs by hand waits on the same lock:
# flock "${UET_VM_LOCK:-/tmp/uet-vm.lock}" COMMAND.
lock=${UET_VM_LOCK:-/tmp/uet-vm.lock}
exec 9>>"$lock" || exit 1
if ! flock -n 9; then
	echo "check: waiting for $lock (another check or VM holds it)"
	flock 9 || exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
passed=0 failed=0 skipped=0 failed_names='' whys=''

# add_summary NAME FILE: fold one VM's "N passed, N failed, N skipped" into
# the total, and the names of its failed suites (FILE's second line). A
# line "running: SUITE" means the VM stopped (its time ran out) inside
# SUITE: that suite counts as failed. Lines "why SUITE: ..." say why
# suites failed; they are printed again at the end.
add_summary() {
	local p f s names n running=
	if ! [ -r "$2" ] || ! { read -r p _ f _ s _ && read -r _ names; } <"$2"; then
		echo "check: the $1 run produced no summary"
		failed=$((failed + 1)) failed_names+=" $1:summary"
		return
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	for n in $names; do
		failed_names+=" $1:$n"
	done
	whys+=$(sed -n "s/^why /== why $1:/p" "$2")$'\n'
	running=$(sed -n 's/^running: //p' "$2")
	if [ -n "$running" ]; then
		echo "check: the $1 run stopped during $running"
		failed=$((failed + 1)) failed_names+=" $1:$running(unfinished)"
	fi
}

# host_run NAME: tools/testing/NAME.sh on the host (some boot their own
# VMs) between a line "== NAME" and one with its time; its exit status.
host_run() {
	local start=$SECONDS rc=0
	echo "== $1"
	"tools/testing/$1.sh" || rc=$?
	echo "== $1: $((SECONDS - start)) s"
	return "$rc"
}

# counted NAME RC: a host test that exited with RC, in the totals.
counted() {
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1)) failed_names+=" $1"
	fi
}

# host_test NAME: host_run NAME, counted.
host_test() {
	local rc=0
	host_run "$1" || rc=$?
	counted "$1" "$rc"
}

# host_test_end NAME PID FILE: a host_run started in the background as
# PID, its output in FILE, counted.
host_test_end() {
	local rc=0
	wait "$2" || rc=$?
	cat "$3"
	counted "$1" "$rc"
}

t0=$(date +%s)
# What needs only the host's cores works beside what asserts no rate (the
# builds against the newer kernels, the Debian 13 suites, which check
# behaviour, not speed, and the install tests), at the lowest CPU
# priority, so that those take the cores first and it the time they
# leave: the debug kernel, when its cache is cold (some 22 minutes of
# both cores), then our modules against it; and lint. The Debian 12
# suites, which assert shares of a port's rate, and the cable of
# pair-test run after both, alone.
{
	nice -n 19 "$vm/debug-modules.sh" >"$scratch/debug-build" 2>"$scratch/debug-kernel"
	echo $? >"$scratch/debug-rc"
} &
debug_pid=$!
# sparse, coccinelle, kernel-doc and checkpatch on our kernel files.
(renice -n 19 -p "$BASHPID" >/dev/null && host_run lint) >"$scratch/lint" 2>&1 &
lint_pid=$!

# The control laws in the packet simulator, on fixed seeds (a second).
host_test sim
# The modules against Debian 13's kernel and the newest in its backports.
host_test kernel-builds

echo "== selftests on Debian 13"
if tb=$("$vm/trixie-build.sh"); then
	# shellcheck disable=SC2086 # one word per suite
	"$vm/run" -k trixie -t 2400 -s "$scratch" -- \
		env UET_KO_DIR="$tb" UET_TOOLS_DIR="$tb/tools" \
		selftests/run.sh -o /mnt/trixie.sum $trixie_tests
	add_summary trixie "$scratch/trixie.sum"
else
	echo "check: our modules or tools did not build for Debian 13"
	failed=$((failed + 1)) failed_names+=" trixie:build"
fi

# uet installed as a host installs it (make install, the .debs, DKMS) and
# run from there, on Debian 12 and on Debian 13.
host_test install-test
host_test install-test-trixie
t1=$(date +%s)

host_test_end lint "$lint_pid" "$scratch/lint"
echo "== debug kernel and modules"
wait "$debug_pid"
debug_rc=$(cat "$scratch/debug-rc")
cat "$scratch/debug-kernel"
t2=$(date +%s)

echo "== selftests on the stock kernel (Debian 12)"
skip=()
for t in $trixie_tests; do
	[[ " $both_tests " == *" $t "* ]] || skip+=(-x "$t")
done
"$vm/run" -k stock -t 2400 -s "$scratch" -- selftests/run.sh "${skip[@]}" -o /mnt/stock.sum
add_summary stock "$scratch/stock.sum"
# uet between two VMs over a virtio-net cable.
host_test pair-test
t3=$(date +%s)

if [ "$debug_rc" -eq 1 ]; then
	echo "check: the debug kernel did not build"
	failed=$((failed + 1)) failed_names+=" debug:kernel"
elif [ "$debug_rc" -ne 0 ]; then
	echo "check: building the modules against the debug kernel failed"
	failed=$((failed + 1)) failed_names+=" debug:modules"
else
	build=$(cat "$scratch/debug-build")
	echo "== KUnit and selftests on the debug kernel"
	# -t 600: the longest suite took 158 s there; one that hangs is killed
	# with the time left for the others inside the VM's 2400 s.
	# shellcheck disable=SC2086 # one word per suite
	"$vm/run" -k debug -m 3072 -t 2400 -s "$scratch" -- \
		env UET_KO_DIR="$build" selftests/run.sh -k -t 600 -o /mnt/debug.sum \
		$debug_tests
	add_summary debug "$scratch/debug.sum"
fi
t4=$(date +%s)
echo "== times: host tests and Debian 13 $((t1 - t0)) s, then waiting for lint and the" \
	"debug build $((t2 - t1)) s, Debian 12 and the cable $((t3 - t2)) s, the debug run" \
	"$((t4 - t3)) s"
[ -z "$failed_names" ] || echo "== failed:$failed_names"
[ -z "$whys" ] || printf '%s\n' "$whys" | sed '/^$/d'
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
