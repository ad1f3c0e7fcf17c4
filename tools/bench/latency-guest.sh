#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the latency bench's VM (tools/bench/latency.sh): 2-byte
# ping-pongs between the two devices of each kind of LAT_KINDS (default
# "uet uet-roce rxe uet-root"; the kinds are tools/bench/devpair.sh's),
# with each tool of LAT_TESTS (default all five):
#
#   rc      ibv_rc_pingpong -s 2      RC SEND, busy polling
#   rc-ev   ibv_rc_pingpong -s 2 -e   RC SEND, sleeping on completion events
#   ud      ibv_ud_pingpong -s 2      UD SEND, busy polling
#   write   ib_write_lat -s 2         RC WRITE, busy polling on the buffer
#   send    ib_send_lat -s 2          RC SEND, busy polling
#
# The server runs on device B, then the client on A connects to B's
# address (the tools' TCP exchange of QPNs), both by GID index; each round
# trip is two one-packet messages, one each way.
#
# Only the wall clock and counters are used: perftest's own latencies
# convert TSC cycles at a frequency the emulated TSC does not have. Each
# tool runs for N (LAT_N, default 2000) and for 3N round trips, and the
# client's wall time from its start to its exit is taken: the setup in
# it (process start, TCP exchange, QP setup, teardown) is the same in
# both, so a round trip takes (t3N - tN) / 2N. The same difference over
# 2N gives, per round trip, context switches (ctxt of /proc/stat, the
# whole machine, from the server's start to its exit) and packets (both
# devices' counters summed): for uet tx_packets (every packet handed to
# IP: data, ACKs, NACKs, probes), acks_sent and retransmits; for rxe
# sent_pkts (data and ACKs; it counts no ACKs of its own), its ACKs
# estimated as what it sent beyond the two messages (acks_est=1).
# A first run of N, not measured, warms the page cache and the rest;
# then LAT_REPS (default 5) pairs of runs. Each figure is the median of
# its differences over every pair of a 3N run and an N run (LAT_REPS
# squared: robust to a run whose setup the host delayed), rt_q1_us and
# rt_q3_us their quartiles. The pingpongs also time their own loop by
# gettimeofday(), a valid clock here: tool_us, the median over all
# runs, cross-checks the difference. Prints a "# run"
# line per run and a "result k=v ..." line per kind and tool; the host
# script makes the summary.
. "$(dirname "$0")/../../selftests/lib.sh"
. "$(dirname "$0")/devpair.sh"

N=${LAT_N:-2000}
REPS=${LAT_REPS:-5}
KINDS=${LAT_KINDS:-uet uet-roce rxe uet-root}
TESTS=${LAT_TESTS:-rc rc-ev ud write send}
PORT=18600
HW=/sys/class/infiniband
T=$(mktemp -d)
on_exit "rm -rf $T"

# tool_of TEST: TOOL and ARGS (besides device, GID, port and iterations).
tool_of() {
	case $1 in
	rc) TOOL=ibv_rc_pingpong ARGS=(-s 2) ;;
	rc-ev) TOOL=ibv_rc_pingpong ARGS=(-s 2 -e) ;;
	ud) TOOL=ibv_ud_pingpong ARGS=(-s 2) ;;
	write) TOOL=ib_write_lat ARGS=(-s 2 -F --use_old_post_send) ;;
	send) TOOL=ib_send_lat ARGS=(-s 2 -F --use_old_post_send) ;;
	*) fail "no such test: $1" ;;
	esac
	command -v "$TOOL" >/dev/null || fail "no $TOOL (ibverbs-utils, perftest)"
}

# read_ctxt VAR: the machine's context switches so far (without a fork).
read_ctxt() {
	local k v
	while read -r k v _; do
		[ "$k" != ctxt ] || break
	done </proc/stat
	printf -v "$1" '%s' "$v"
}

# counts VAR: "PACKETS ACKS RETRANSMITS" of both devices, summed (rxe:
# sent_pkts 0 0). ib_core keeps a device's counters 10 ms: wait that out.
counts() {
	local d c v p=0 a=0 r=0
	nap 0.03
	for d in "$DEV_A" "$DEV_B"; do
		c=$HW/$d/ports/1/hw_counters
		if [ "$KIND" = rxe ]; then
			read -r v <"$c/sent_pkts" && p=$((p + v))
		else
			read -r v <"$c/tx_packets" && p=$((p + v))
			read -r v <"$c/acks_sent" && a=$((a + v))
			read -r v <"$c/retransmits" && r=$((r + v))
		fi
	done
	printf -v "$1" '%s %s %s' "$p" "$a" "$r"
}

# once ITERS: TOOL's server on B, its client on A, for ITERS round trips;
# appends to RUNS "ITERS SECONDS CTXT PACKETS ACKS RETRANSMITS" (the
# client's wall time; the rest over the whole run, deltas). A failure
# only of perftest's report ("Can't produce a report": its clock, not
# used here) is none.
once() {
	local iters=$1 srv rc=0 src=0 t0 t1 c0 c1 k0 k1 us
	local -a sa ca
	PORT=$((PORT + 1))
	if [[ $TOOL == ibv_* ]]; then
		sa=(-d "$DEV_B" -g "$GID_B") ca=(-d "$DEV_A" -g "$GID_A")
	else
		sa=(-d "$DEV_B" -x "$GID_B") ca=(-d "$DEV_A" -x "$GID_A")
	fi
	counts k0
	read_ctxt c0
	bg_in "$NS_B" timeout 120 "$TOOL" "${sa[@]}" -p "$PORT" -n "$iters" "${ARGS[@]}" \
		>"$T/srv" 2>&1
	srv=$BG_PID
	if ! wait_for 30 tcp_listens "$srv" "$PORT"; then
		kill "$srv"
		wait "$srv"
		echo "# $TOOL: the server never listened:"
		sed 's/^/#   /' "$T/srv"
		return 1
	fi
	t0=$EPOCHREALTIME
	run_in "$NS_A" timeout 120 "$TOOL" "${ca[@]}" -p "$PORT" -n "$iters" "${ARGS[@]}" \
		"$ADDR_B" >"$T/cli" 2>&1 || rc=$?
	t1=$EPOCHREALTIME
	# A server whose client failed may wait for ever.
	[ "$rc" -eq 0 ] || wait_for 10 pid_gone "$srv" || kill "$srv" 2>/dev/null
	wait "$srv" || src=$?
	read_ctxt c1
	counts k1
	if [ "$rc" -ne 0 ] || [ "$src" -ne 0 ]; then
		if ! grep -q "Can't produce a report" "$T/cli" "$T/srv"; then
			echo "# $TOOL -n $iters: client exit $rc, server exit $src"
			sed 's/^/#   client: /' "$T/cli"
			sed 's/^/#   server: /' "$T/srv"
			return 1
		fi
	fi
	# The pingpongs time their loop themselves, by gettimeofday(): a
	# cross-check of the difference (perftest's own clock is wrong here).
	us=$(sed -n 's/.* iters in .* = \([0-9.]*\) usec\/iter$/\1/p' "$T/cli")
	RUNS+="$iters $t0 $t1 $c0 $c1 $k0 $k1 ${us:--}"$'\n'
	printf '# run %s %s: %d round trips in %.3f s (tool: %s us each), %d ctxt\n' \
		"$KIND" "$TEST" "$iters" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
		"${us:--}" $((c1 - c0))
}

# measure TEST: LAT_REPS pairs of runs, N and 3N round trips, and TEST's
# result line from them.
measure() {
	local r
	tool_of "$1"
	TEST=$1
	# A first run, not measured, warms the page cache (the tool and its
	# libraries come over 9p) and whatever else a first run pays for.
	RUNS=
	once "$N" || return 1
	RUNS=
	for ((r = 0; r < REPS; r++)); do
		once "$N" && once $((3 * N)) || return 1
	done
	printf '%s' "$RUNS" | awk -v kind="$KIND" -v test="$1" -v n="$N" -v reps="$REPS" '
	function sort(a, k,    i, j, t) {
		for (i = 2; i <= k; i++)
			for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
				t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
			}
	}
	# The q-quantile of the k values of a (sorted in place).
	function quantile(a, k, q,    x, i) {
		sort(a, k)
		x = 1 + q * (k - 1); i = int(x)
		return i < k ? a[i] + (x - i) * (a[i + 1] - a[i]) : a[k]
	}
	# Every (3N run, N run) difference of field f over 2N into d; their
	# number.
	function diffs(f, d,    i, j, m) {
		for (i = 1; i <= n1; i++)
			for (j = 1; j <= n3; j++)
				d[++m] = (v3[j, f] - v1[i, f]) / (2 * n)
		return m
	}
	# Fields: iters t0 t1 ctxt0 ctxt1 pkts0 acks0 retx0 pkts1 acks1 retx1
	# tool_us
	{
		if ($12 != "-") tool[++nt] = $12
		retx += $11 - $8
		if ($1 == n) { k = ++n1; v1[k, "s"] = $3 - $2; v1[k, "c"] = $5 - $4
			v1[k, "p"] = $9 - $6; v1[k, "a"] = $10 - $7; s1[k] = $3 - $2; next }
		k = ++n3; v3[k, "s"] = $3 - $2; v3[k, "c"] = $5 - $4
		v3[k, "p"] = $9 - $6; v3[k, "a"] = $10 - $7
	}
	END {
		m = diffs("s", rt)
		for (i = 1; i <= m; i++) rt[i] *= 1e6
		med = quantile(rt, m, 0.5)
		q1 = quantile(rt, m, 0.25); q3 = quantile(rt, m, 0.75)
		m = diffs("c", c); ctxt = quantile(c, m, 0.5)
		m = diffs("p", p); pkts = quantile(p, m, 0.5)
		m = diffs("a", a); acks = quantile(a, m, 0.5)
		est = kind == "rxe"
		if (est) acks = pkts - 2
		printf "result kind=%s test=%s n=%d reps=%d rt_us=%.1f rt_q1_us=%.1f rt_q3_us=%.1f tool_us=%s ctxt=%.2f pkts=%.2f acks=%.2f acks_est=%d retx=%d setup_s=%.2f\n",
			kind, test, n, reps, med, q1, q3,
			nt ? sprintf("%.1f", quantile(tool, nt, 0.5)) : "-", ctxt, pkts, acks,
			est, retx, quantile(s1, n1, 0.5) - n * med / 1e6
	}'
}

for KIND in $KINDS; do
	echo "# $KIND: $(date +%T)"
	pair_up "$KIND"
	for t in $TESTS; do
		measure "$t" || echo "# $KIND $t failed"
	done
	pair_down
done
exit 0
