#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Congestion control and load balancing on a fast, idle path: 64 KiB RDMA
# WRITEs from uet0 to uet1 over a veth pair (10 Gb/s, no bottleneck, no
# ECN), one QP, every byte verified, under each mode of MODES beside lb
# single / cc none, the RoCE-like baseline. A law that reads the hosts'
# own scheduling as queueing, or sizes its window by what the window let
# through, keeps a fraction of the baseline's rate here, which the
# shaped fabrics of the other cc suites (12 to 200 Mbit/s) never show:
# NSCC ran at 0.05 of it until its line rate and ceiling came from the
# port and the ACK clock (Documentation/uet/design/cc-nscc.rst).
#
# A mode's rate is by the wall clock, (4N - N) bytes over the difference
# of the two runs' times, so that setup cancels; the baseline runs first
# and last, and a mode is judged against the slower of the two: the
# emulated host's speed drifts within a boot. The floors are below the
# least ratio measured over many runs on an idle machine
# (Documentation/uet/dev-guide/testing.rst); Documentation/uet/dev-guide/
# bench.rst has the figures of every lb x cc combination (lbcc.sh).
. "$(dirname "$0")/lib.sh"

require_stock_kernel
N=64M
# lb cc flowlet_pkts floor (x100 of the baseline's rate)
MODES=("single nscc 1 60" "single dcqcn 1 50" "reps nscc 0 50")
uet_pair
T=$(mktemp -d)
on_exit "rm -rf $T"

# usecs_of BYTES: the microseconds one uet-verify run of BYTES of WRITEs
# took, by the wall clock.
usecs_of() {
	local t0 t1
	t0=$(date +%s%N)
	uet_verify b uet1 a uet0 10.0.0.2 "$T/out" -o write -s 64K -b "$1" \
		>"$T/verify" || { cat "$T/verify"; return 1; }
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}

# rate NAME LB CC FLOWLET: the mode's rate in KB/s into $T/NAME.
rate() {
	local name=$1 d s1 s4
	for d in a:uet0 b:uet1; do
		in_ns "${d%%:*}" "$UET" dev set "${d#*:}" lb "$2" cc "$3" \
			flowlet_pkts "$4" || return 1
	done
	s1=$(usecs_of "$N") && s4=$(usecs_of $((4 * ${N%M}))M) || return 1
	[ "$s4" -gt "$s1" ] || { echo "# $name: the long run was not longer"; return 1; }
	echo $((3 * ${N%M} * 1048576 * 1000 / (s4 - s1))) >"$T/$name"
	echo "# $name (lb $2, cc $3, flowlet_pkts $4): $(($(cat "$T/$name") / 1000)) MB/s" \
		"(N $N in $((s1 / 1000)) ms, 4N in $((s4 / 1000)) ms)"
}

step "baseline (lb single, cc none): WRITEs verified" rate base0 single none 1
for m in "${MODES[@]}"; do
	read -r lb cc fl floor <<<"$m"
	step "lb $lb cc $cc: WRITEs verified" rate "$lb-$cc" "$lb" "$cc" "$fl"
done
step "baseline again: WRITEs verified" rate base1 single none 1

base=$(sort -n "$T/base0" "$T/base1" | head -1)
for m in "${MODES[@]}"; do
	read -r lb cc fl floor <<<"$m"
	r=$(($(cat "$T/$lb-$cc") * 100 / base))
	step "lb $lb cc $cc: at least $floor% of the baseline ($r%)" \
		test "$r" -ge "$floor"
done
exit 0
