#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Stock verbs tools over uet: perftest's ib_write_bw, ib_read_bw and
# ib_send_bw over all sizes (2 B .. 8 MiB) on one QP and at 64 KiB on 8 QPs,
# ib_write_lat and ib_send_lat, and ibv_rc_pingpong checking its data, each
# with uet0 in namespace a as the client and uet1 in b as the server, at a
# 1024-byte path MTU (netdev MTU 1500) and a 4096-byte one (MTU 9000; each
# tool sweeps the sizes at one of them, SWEEPS, and runs SAMPLE_SIZES at the
# other; 8 QPs, latency and pingpong mostly at 1500). Every run must exit 0 and report a nonzero rate; the device
# counters must have moved and no packet may have been dropped as
# malformed. The debug kernel runs a part of it (see ONE_QP).
#
# perftest calibrates its clock on every report and gives up ("Can't produce
# a report") when that fails, which emulated CPUs make frequent: a size whose
# report failed so is run again on its own, up to $RETRIES times.
. "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2034 # PORT, RETRIES, PERF_OPTS: for perftest_pair
PORT=18515 RETRIES=4
# Messages per size: -a moves ALL_ITERS x 16 MiB, at a few MB/s when emulated.
ALL_ITERS=5 ITERS=20 MTUS="1500 9000" PP_SIZES="1 4096 65536 1048576"
# Round trips of the context switch check (pp_switches).
PP_RT=3000
# A sweep takes 30-70 s emulated: each tool sweeps at one MTU and runs
# these sizes at the other.
SAMPLE_SIZES="2 4096 65536 8388608"
declare -A SWEEPS=([1500]="ib_write_bw ib_send_bw" [9000]="ib_read_bw")
BW_TOOLS="ib_write_bw ib_read_bw ib_send_bw" LAT_TOOLS="ib_write_lat ib_send_lat"
ONE_QP=1
# At the second MTU the sweeps and samples have run every size already:
# 8 QPs of WRITE are what is left to show there; 8 QPs of each tool, the
# latency tools and ibv_rc_pingpong's PP_SIZES run at the first, and
# ibv_rc_pingpong at PP_SIZES_2ND at the second.
PP_SIZES_2ND="4096 1048576"
# The debug kernel moves some 0.3 MB/s and takes 20-30 s to start a pair of
# perftest programs: it runs what makes its checkers see QPs at work side
# by side, WRITE and READ on 8 QPs with perftest's minimum of 5 messages,
# and one verified ibv_rc_pingpong, at one MTU. (SEND and WRITE run on one
# QP in verbs_misc there; 12 runs here took 440 s of a CI run.)
if ! stock_kernel; then
	ITERS=5 MTUS=1500 PP_SIZES=4096 BW_TOOLS="ib_write_bw ib_read_bw"
	LAT_TOOLS='' ONE_QP=''
	# Its clock is worse for perftest too (see retry_pair).
	RETRIES=8
fi
FIRST_MTU=${MTUS%% *}
uet_pair
slow_kernel_rto a:uet0 b:uet1
T=$(mktemp -d)
on_exit "rm -rf $T"

# rx_sum: bytes both devices received.
rx_sum() { echo $(($(uet_counter uet0 rx_bytes) + $(uet_counter uet1 rx_bytes))); }

# payload ARGS...: the bytes perftest ARGS move at least (-s, -n, -q).
payload() {
	local s=2 n=1 q=1
	while [ $# -gt 1 ]; do
		case $1 in
		-s) s=$2 ;;
		-n) n=$2 ;;
		-q) q=$2 ;;
		esac
		shift
	done
	echo $((s * n * q))
}

# retry_pair OUT TOOL ARGS...: perftest_pair until perftest gets its report. On
# the debug kernel, whose clock perftest fails to calibrate most of the
# time (r^2 0.6 against its 0.9), a run both sides finished but for the
# report counts once the devices received what it moves.
retry_pair() {
	local i rc rx0 rx lenient=
	stock_kernel || [[ $2 == *_lat ]] || lenient=1
	rm -f "$1.noreport"
	for ((i = 1; i <= RETRIES; i++)); do
		[ -z "$lenient" ] || rx0=$(rx_sum)
		perftest_pair "$@" && return 0
		rc=$?
		[ "$rc" -eq 2 ] || return 1
		echo "# $2 ${*:3}: clock calibration failed (try $i)" >>"$T/calib"
		[ -n "$lenient" ] || continue
		rx=$(($(rx_sum) - rx0))
		if [ "$rx" -ge "$(payload "${@:3}")" ]; then
			echo "# $2 ${*:3}: no report, $rx bytes received"
			touch "$1.noreport"
			return 0
		fi
	done
	echo "$2: perftest could not calibrate its clock in $RETRIES tries"
	cat "$1"
	return 1
}

# bw_lines FILE: "size avg_MBps Mpps" of each result line of a bandwidth
# report. Small messages show 0.00 MB/s: the message rate has more digits.
bw_lines() {
	awk 'NF == 5 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { print $1, $4, $5 }' "$1"
}

# bw_all TOOL: TOOL -a; a report lost at some size loses the sizes after
# it too. While more than SWEEP_AGAIN sizes are missing, the sweep runs
# again (some 15 s, where 23 sizes singly took 77 s), up to 3 sweeps; the
# sizes still missing then run singly.
SWEEP_AGAIN=4
bw_all() {
	local tool=$1 s missing=() rc sweeps=0 start=$SECONDS
	local -A have
	: >"$T/bw"
	while :; do
		rc=0
		perftest_pair "$T/all" "$tool" -a -n "$ALL_ITERS" || rc=$?
		[ "$rc" -ne 1 ] || return 1
		sweeps=$((sweeps + 1))
		bw_lines "$T/all" >>"$T/bw"
		missing=() have=()
		while read -r s _; do
			have[$s]=1
		done <"$T/bw"
		for ((s = 2; s <= 1 << 23; s *= 2)); do
			[ -n "${have[$s]:-}" ] || missing+=("$s")
		done
		[ ${#missing[@]} -gt $SWEEP_AGAIN ] && [ $sweeps -lt 3 ] || break
	done
	for s in "${missing[@]}"; do
		retry_pair "$T/one" "$tool" -s "$s" -n "$ALL_ITERS" || return 1
		bw_lines "$T/one" >>"$T/bw"
	done
	check_bw "$tool -a" 23 || return 1
	echo "# $tool -a -n $ALL_ITERS: $((SECONDS - start)) s, $sweeps sweeps," \
		"${#missing[@]} sizes run again singly"
}

# check_bw WHAT N: N sizes reported in $T/bw, each at a nonzero rate.
check_bw() {
	local n
	n=$(sort -un "$T/bw" | wc -l)
	if [ "$n" -ne "$2" ]; then
		echo "$1: $n sizes reported, expected $2"
		cat "$T/bw"
		return 1
	fi
	# Large messages round to 0.000000 Mpps, small ones to 0.00 MB/s.
	if awk '$2 + 0 <= 0 && $3 + 0 <= 0 { bad = 1 } END { exit !bad }' "$T/bw"; then
		echo "$1: a size reported no traffic"
		cat "$T/bw"
		return 1
	fi
	sort -n "$T/bw" | awk -v w="$1" '
		NR == 1 { first = $0 } { last = $0 }
		END { split(first, f); split(last, l)
		      printf "# %s: %s B at %s MB/s .. %s B at %s MB/s\n", w, f[1], f[2], l[1], l[2] }'
}

# bw_sizes TOOL SIZES: all sizes if SIZES is empty, else those one by one.
bw_sizes() {
	local tool=$1 s n=0
	[ -n "$2" ] || { bw_all "$tool"; return; }
	: >"$T/bw"
	for s in $2; do
		retry_pair "$T/one" "$tool" -s "$s" -n 5 || return 1
		[ ! -e "$T/one.noreport" ] || continue
		bw_lines "$T/one" >>"$T/bw"
		n=$((n + 1))
	done
	[ "$n" -eq 0 ] || check_bw "$tool -s $2" "$n"
}

# bw_one TOOL ARGS...: one size, one nonzero rate.
bw_one() {
	local tool=$1
	shift
	retry_pair "$T/one" "$tool" "$@" || return 1
	[ ! -e "$T/one.noreport" ] || return 0
	bw_lines "$T/one" >"$T/bw"
	check_bw "$tool $*" 1
}

# lat TOOL ARGS...: a latency run; its average must be a positive time.
lat() {
	local tool=$1
	shift
	retry_pair "$T/lat" "$tool" "$@" || return 1
	# #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9%
	awk -v w="$tool $*" 'NF == 9 && $1 ~ /^[0-9]+$/ && $6 + 0 > 0 {
		printf "# %s: %s B, t_avg %s us, 99%% %s us\n", w, $1, $6, $8; ok = 1 }
		END { exit !ok }' "$T/lat" || { echo "$tool: no latency reported"; cat "$T/lat"; return 1; }
}

# pingpong SIZE MTU: ibv_rc_pingpong with data validation.
pingpong() {
	retry_pair "$T/pp" ibv_rc_pingpong -c -s "$1" -n 10 -m "$2" || return 1
	# "N bytes in S seconds = R Mbit/sec", "N iters in S seconds = U usec/iter"
	awk '/ bytes in / { b = $0 } / iters in / && $(NF - 1) + 0 > 0 { i = $0 }
		END { if (!b || !i) exit 1; print "# " b; print "# " i }' "$T/pp" ||
		{ echo "ibv_rc_pingpong: no result"; cat "$T/pp"; return 1; }
}

# ctxt: the machine's context switches so far.
ctxt() { awk '$1 == "ctxt" { print $2 }' /proc/stat; }

# pp_switches: PP_RT round trips of a 2-byte ibv_rc_pingpong, both ends
# busy polling, each on a CPU of its own; fewer than one context switch a
# round trip over the whole run, setup included. A small message is sent
# by its doorbell and received in the softirq, and no work item wakes to
# preempt the application (engine.c): 3.4 a round trip when one did.
pp_switches() {
	local c0 c1
	c0=$(ctxt)
	retry_pair "$T/pps" ibv_rc_pingpong -s 2 -n "$PP_RT" || return 1
	c1=$(ctxt)
	echo "# $((c1 - c0)) context switches in $PP_RT round trips, setup included"
	[ $((c1 - c0)) -lt "$PP_RT" ]
}

mtus_are() {
	ibv_devinfo -d uet0 | grep -q "active_mtu:.*$1" &&
		ibv_devinfo -d uet1 | grep -q "active_mtu:.*$1"
}

before() { for d in uet0 uet1; do for c in tx_packets rx_packets; do
	echo "$d $c $(uet_counter $d $c)"; done; done; }
b4=$(before)

for mtu in $MTUS; do
	pmtu=1024
	[ $mtu = 1500 ] || pmtu=4096
	ns_ip a link set veth0 mtu $mtu
	ns_ip b link set veth1 mtu $mtu
	step "MTU $mtu: path MTU $pmtu on both devices" wait_for 5 mtus_are $pmtu
	GID_A=$(ibdev_gid_index uet0 10.0.0.1) || fail "no GID for 10.0.0.1 on uet0"
	GID_B=$(ibdev_gid_index uet1 10.0.0.2) || fail "no GID for 10.0.0.2 on uet1"
	log "GID indices: uet0 $GID_A, uet1 $GID_B"
	for tool in $BW_TOOLS; do
		sizes=
		[[ " ${SWEEPS[$mtu]} " == *" $tool "* ]] || sizes=$SAMPLE_SIZES
		[ -z "$ONE_QP" ] ||
			step "MTU $mtu: $tool, ${sizes:-all} sizes, 1 QP" bw_sizes $tool "$sizes"
		[ "$mtu" = "$FIRST_MTU" ] || [ "$tool" = ib_write_bw ] ||
			continue
		step "MTU $mtu: $tool, 64 KiB, 8 QPs" bw_one $tool -q 8 -s 65536 -n "$ITERS"
	done
	pp=$PP_SIZES
	[ "$mtu" = "$FIRST_MTU" ] || pp=$PP_SIZES_2ND
	for s in $pp; do
		step "MTU $mtu: ibv_rc_pingpong -c -s $s" pingpong $s $pmtu
	done
	[ "$mtu" = "$FIRST_MTU" ] || continue
	! stock_kernel ||
		step "MTU $mtu: ibv_rc_pingpong -s 2, under a context switch a round trip" \
			pp_switches
	for tool in $LAT_TOOLS; do
		step "MTU $mtu: $tool" lat $tool -n 100
	done
done
[ ! -e "$T/calib" ] || log "$(cat "$T/calib")"

moved() {
	local d c was now
	while read -r d c was; do
		now=$(uet_counter "$d" "$c")
		echo "# $d $c: $was -> $now"
		[ "$now" -gt "$was" ] || return 1
	done <<<"$b4"
}
step "tx and rx packet counters of both devices moved" moved
step "no packet was dropped as malformed" \
	test "$(uet_counter uet0 drop_malformed)" -eq 0 -a "$(uet_counter uet1 drop_malformed)" -eq 0
exit 0
