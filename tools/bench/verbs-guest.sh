#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the benchmark VM (tools/bench/verbs.sh). For each netdev MTU of
# BENCH_MTU (default "1500 9000") and each message shape of SHAPES (64 KiB
# WRITEs on 1 QP, the headline; 1 MiB; 4 KiB; 64 KiB on 4 QPs):
#   veth: ib_write_bw from uet0 in namespace a to uet1 in b over a veth
#         pair, then iperf3 TCP over the same veth (same write size, one
#         stream per QP); then a perf profile of the uet 64 KiB run;
#   loop: one device writing to itself on a veth in the root namespace,
#         rdma_rxe then uet (the modules exclude each other: one is
#         unloaded before the other loads), shape by shape so that both
#         see the same moment of a noisy host.
# Prints one "result k=v ..." line per run and the profile; the host
# script makes the summary. BENCH_WIN sets the measured seconds per run
# (default 10); BENCH_QUICK=1 makes it 3, for trying the bench out.
# BENCH_LBCC="LB/CC ..." adds, after each uet veth run at the devices'
# defaults, one run per mode with both devices set to "lb LB cc CC"
# (peer uet-veth-LB-CC), then the devices made anew at their defaults;
# BENCH_ROUNDS=N repeats each shape's veth runs N times in turn (the
# result lines say round=R), so that the modes and TCP see alike the
# moments of a noisy host; BENCH_LOOP=0 leaves out the loopback runs and
# the profile; BENCH_PROFILE=SIZE:QPS the shape profiled (default 65536:1),
# and with BENCH_LOOP=0 the profile alone after the veth runs.
#
# perftest's own MB/s are wrong under QEMU (it converts TSC cycles with a
# frequency the emulated TSC does not have): nothing of its output is used.
# A sampler reads the clock, /proc/stat and the counters every 0.1 s (more
# when the host is busy: its timestamps are exact, its interval is not),
#   uet:  runs for a duration (-D); the window is WIN s of its steady part,
#         from WARM s after the data started; data packets are the
#         receiver's rx_packets less the control packets, duplicates and
#         probes it received; payload is the messages those packets make:
#         an RC packet carries what the netdev MTU leaves after uet's
#         worst-case headers (SEG_HDR), 64 KiB in loopback, so a message
#         of SIZE bytes is ceil(SIZE / (MTU - SEG_HDR)) packets (the
#         receiver's rx_bytes per packet, printed, checks it);
#   rxe:  has no byte counter and its sent_pkts mixes data, ACKs and
#         retransmissions: a fixed amount of work (-n, sized by a short
#         duration run to last about WIN s) timed from its first packet to
#         its last (the window is all of it, ramp included);
#   TCP:  payload and time are iperf3's received bytes over its duration
#         (-J, the first WARM s omitted); packets (veth GSO frames, not
#         wire packets) and ACKs are veth1's counters over the same steady
#         window as uet's.
# CPU is the sys + softirq jiffies of both vCPUs over the window, per KiB
# of payload (perftest's busy polling is user time: left out).
. "$(dirname "$0")/../../selftests/lib.sh"

MTUS=${BENCH_MTU:-1500 9000}
WIN=${BENCH_WIN:-10}
[ -z "${BENCH_QUICK:-}" ] || WIN=3
WARM=1 TAIL=0.5
# Bytes of an RC packet that are not payload, at most (UET_MAX_HDR_LEN,
# net/uet/wire.h: IPv6, UDP, PDS, verbs).
SEG_HDR=108
SHAPES=${BENCH_SHAPES:-65536:1 1048576:1 4096:1 65536:4}
LBCC=${BENCH_LBCC:-}
ROUNDS=${BENCH_ROUNDS:-1}
LOOP=${BENCH_LOOP:-1}
PROFILE=${BENCH_PROFILE:-}
ROUND=1
PORT=18515 IPERF_PORT=5201
HZ=$(getconf CLK_TCK)
HW=/sys/class/infiniband
T=$(mktemp -d)
on_exit "rm -rf $T"
declare -A GID

# run_in NS CMD...: in namespace NS, or here when NS is empty.
run_in() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then in_ns "$ns" "$@"; else "$@"; fi
}

listens() { run_in "$1" ss -Hltn "sport = :$2" | grep -q .; }
gone() { ! kill -0 "$1" 2>/dev/null; }
moved() { [ "$(cat "$1")" != "$2" ]; }
stop() { { kill "$1" && wait "$1"; } 2>/dev/null; }

# active_mtu DEV: the path MTU perftest will use, the port's active MTU.
active_mtu() {
	ibv_devinfo -d "$1" | sed -n 's/^[[:space:]]*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p'
}
mtu_is() { [ "$(active_mtu "$1")" = "$2" ]; }

# add_dev NS NAME TYPE NETDEV ADDR: an RDMA link, its GID index in GID[NAME].
add_dev() {
	run_in "$1" rdma link add "$2" type "$3" netdev "$4" || fail "rdma link add $2"
	wait_for 10 ibdev_gid_index "$2" "$5" || fail "no GID for $5 on $2"
	GID[$2]=$(ibdev_gid_index "$2" "$5")
}

# The uet phase: rdma_uet loaded, uet0 and uet1 on the veth pair, uet2 on
# the loopback veth. The rxe phase: rdma_rxe loaded, rxe0 on the loopback veth.
uet_up() {
	[ ! -e $HW/rxe0 ] || rdma link delete rxe0
	! grep -q '^rdma_rxe ' /proc/modules || rmmod rdma_rxe || fail "rmmod rdma_rxe"
	uet_load
	[ -e $HW/uet0 ] || add_dev a uet0 uet veth0 10.0.0.1
	[ -e $HW/uet1 ] || add_dev b uet1 uet veth1 10.0.0.2
	[ -e $HW/uet2 ] || add_dev "" uet2 uet lb0 10.1.0.1
}

rxe_up() {
	local d
	for d in uet0 uet1 uet2; do [ ! -e $HW/$d ] || rdma link delete $d; done
	! grep -q '^rdma_uet ' /proc/modules || rmmod rdma_uet || fail "rmmod rdma_uet"
	modprobe rdma_rxe || fail "modprobe rdma_rxe"
	[ -e $HW/rxe0 ] || add_dev "" rxe0 rxe lb0 10.1.0.1
}

# set_mtu MTU: every netdev to MTU, and the uet devices' path MTU with it.
set_mtu() {
	local pmtu=1024 d
	[ "$1" -lt 9000 ] || pmtu=4096
	ns_ip a link set veth0 mtu "$1" && ns_ip b link set veth1 mtu "$1" &&
		ip link set lb0 mtu "$1" && ip link set lb1 mtu "$1" || fail "mtu $1"
	for d in uet0 uet1 uet2; do
		wait_for 10 mtu_is $d $pmtu || fail "$d: path MTU not $pmtu"
	done
}

# sample OUT NAME=FILE...: until killed, every 0.1 s a line to OUT: the
# time, the sys + softirq jiffies of both vCPUs, each FILE's value; the
# first line names the columns. Builtins only, no fork per sample, so the
# sampler takes next to no CPU from the run it measures.
sample() {
	local out=$1 p v line tick sys softirq
	local -a files=()
	shift
	line="t cpu"
	for p; do
		line+=" ${p%%=*}"
		files+=("${p#*=}")
	done
	# read -t on a FIFO nobody writes is a sleep without a fork (the VM
	# has no /dev/fd, so no process substitution).
	rm -f "$out.tick"
	mkfifo "$out.tick"
	exec {tick}<>"$out.tick"
	{
		echo "$line"
		while :; do
			read -r _ _ _ sys _ _ _ softirq _ </proc/stat
			line="$EPOCHREALTIME $((sys + softirq))"
			for p in "${files[@]}"; do
				read -r v <"$p"
				line+=" $v"
			done
			echo "$line"
			read -t 0.1 -u "$tick" || :
		done
	} >"$out"
}

# sampler NS OUT NAME=FILE...: sample in namespace NS (a netdev's sysfs
# files are seen from its own only), in the background as SPID, once it
# has its first sample (starting bash takes a while emulated).
sampler() {
	local ns=$1 out=$2
	shift 2
	rm -f "$out"
	if [ -n "$ns" ]; then
		ip netns exec "$(ns_name "$ns")" bash -c "$(declare -f sample); sample $out $*" &
	else
		sample "$out" "$@" &
	fi
	SPID=$!
	wait_for 20 sampled "$out" || fail "the sampler did not start"
}
sampled() { [ "$(wc -l <"$1")" -ge 2 ]; }

# window FILE KEY steady|span: from a sampler's FILE, "NAME DELTA" lines
# over the window, and "secs" (its length) and "first" (when traffic
# started). steady, for a duration run: the traffic is the samples where
# KEY moved by at least a tenth of its largest step (not a connection's
# handshake before the data or its goodbye after); the window starts WARM
# s into it, leaving the ramp out, and lasts WIN s, or up to TAIL s before
# the traffic stops (a short window shows in secs). span, for a fixed
# amount of work: from the sample before KEY first moved to the first with
# its final value; its length counts from the first moved sample, as the
# end does (both overshoot by up to one interval).
window() {
	awk -v key="$2" -v mode="$3" -v warm="$WARM" -v win="$WIN" -v tail="$TAIL" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; k = col[key]; next }
	{ n++; for (i = 1; i <= NF; i++) v[n, i] = $i }
	n > 1 { step[n] = $k - v[n - 1, k]; if (step[n] > max) max = step[n] }
	END {
		if (!max) exit 1
		for (i = 2; i <= n; i++) {
			if (step[i] < (mode == "steady" ? max / 10 : 1)) continue
			if (!first) first = i
			last = i
		}
		if (mode == "steady") {
			for (a = first; a < n && v[a, 1] < v[first, 1] + warm; a++) ;
			end = v[last, 1] - tail
			for (b = a; b < n && v[b, 1] < v[a, 1] + win && v[b + 1, 1] <= end; b++) ;
			secs = v[b, 1] - v[a, 1]
		} else {
			a = first - 1
			b = last
			secs = v[last, 1] - v[first, 1]
		}
		if (b <= a) exit 1
		print "secs", secs
		print "first", v[first, 1]
		for (c in col) if (col[c] > 1) print c, v[b, col[c]] - v[a, col[c]]
	}' "$1"
}

# measure FILE KEY MODE: window's output into the associative array d
# (declared by the caller).
measure() {
	local k v
	while read -r k v; do d[$k]=$v; done <<<"$(window "$@")"
	[ -n "${d[secs]:-}" ] || { echo "# no traffic measured"; return 1; }
}

# result PEER SIZE QPS SECS PAYLOAD DATA_PKTS ACKS CPU_JIFFIES NOTE: a
# result line; MBps is payload, kpps data packets, ack ACKs per data
# packet, cpu microseconds of sys + softirq per KiB of payload, took the
# wall time since RUN_T0 (the bench's budget).
result() {
	awk -v mtu="$mtu" -v peer="$1" -v size="$2" -v qps="$3" -v secs="$4" \
		-v bytes="$5" -v pkts="$6" -v acks="$7" -v cpu="$8" -v hz="$HZ" \
		-v note="$9" -v round="$ROUND" -v t0="$RUN_T0" -v now="$EPOCHREALTIME" 'BEGIN {
		printf "result mtu=%s peer=%s size=%s qps=%s secs=%.1f MBps=%.2f kpps=%.2f ack=%.3f cpu=%.1f %s round=%d took=%.0fs\n",
			mtu, peer, size, qps, secs, bytes / secs / 1e6, pkts / secs / 1e3,
			acks / pkts, cpu * 1e6 / hz / (bytes / 1024), note, round, now - t0
	}'
}

# bw NS_S DEV_S NS_C DEV_C ADDR SIZE QPS ARGS...: ib_write_bw's server on
# DEV_S, then its client on DEV_C writing to ADDR, both with ARGS (-D or
# -n); logs in $T/srv and $T/cli; LAUNCH is when the client started. A
# failure only of perftest's report ("Can't produce a report": its clock,
# which we do not use) is not one.
bw() {
	local ns_s=$1 dev_s=$2 ns_c=$3 dev_c=$4 addr=$5 srv rc=0 src=0
	local -a args=(-F --use_old_post_send -p "$PORT" -s "$6" -q "$7")
	shift 7
	args+=("$@")
	run_in "$ns_s" timeout 300 ib_write_bw -d "$dev_s" -x "${GID[$dev_s]}" "${args[@]}" \
		>"$T/srv" 2>&1 &
	srv=$!
	if ! wait_for 30 listens "$ns_s" $PORT; then
		kill "$srv"
		wait "$srv"
		echo "# the ib_write_bw server never listened:"
		sed 's/^/#   /' "$T/srv"
		return 1
	fi
	LAUNCH=$EPOCHREALTIME
	run_in "$ns_c" timeout 300 ib_write_bw -d "$dev_c" -x "${GID[$dev_c]}" "${args[@]}" \
		"$addr" >"$T/cli" 2>&1 || rc=$?
	# A server whose client failed may wait for traffic for ever.
	[ "$rc" -eq 0 ] || wait_for 10 gone "$srv" || kill "$srv"
	wait "$srv" || src=$?
	[ "$rc" -ne 0 ] || [ "$src" -ne 0 ] || return 0
	if grep -q "Can't produce a report" "$T/cli" "$T/srv"; then
		echo "# perftest could not produce its report (its clock; not used here)"
		return 0
	fi
	echo "# ib_write_bw ${args[*]}: client exit $rc, server exit $src"
	sed 's/^/#   client: /' "$T/cli"
	sed 's/^/#   server: /' "$T/srv"
	return 1
}

# uet_run PEER NS_S DEV_S NS_C DEV_C ADDR SIZE QPS: a duration run from
# DEV_C to DEV_S, measured on the device counters over its steady window.
uet_run() {
	local peer=$1 ns_s=$2 r=$3 ns_c=$4 s=$5 addr=$6 size=$7 qps=$8 c pmtu
	local data drops probes note seg per_msg
	local -a cols=()
	local -A d=()
	RUN_T0=$EPOCHREALTIME
	pmtu=$(active_mtu "$r")
	seg=$((mtu - SEG_HDR))
	# A local destination takes 64 KiB packets (uet_rc_seg()).
	[ "$peer" != uet-lo ] || seg=65536
	per_msg=$(((size + seg - 1) / seg))
	for c in rx_packets rx_bytes acks_sent acks_received nacks_received \
		rnr_nacks_received cnps_received duplicates_received trimmed_received \
		out_of_order_received \
		drop_malformed drop_no_qp drop_out_of_window drop_access drop_backlog; do
		cols+=("$c=$HW/$r/ports/1/hw_counters/$c")
	done
	for c in retransmits probes_sent probes_answered tx_skbs acks_sent nacks_sent; do
		cols+=("s_$c=$HW/$s/ports/1/hw_counters/$c")
	done
	sampler "" "$T/samples" "${cols[@]}"
	# The traffic outlasts -D (the queued WRITEs drain after it); 4 s
	# more than the window cover a slow first second (the threshold of
	# window() may start the traffic late) and a busy host's samples.
	bw "$ns_s" "$r" "$ns_c" "$s" "$addr" "$size" "$qps" -D $((WARM + WIN + 4))
	c=$?
	stop "$SPID"
	[ "$c" -eq 0 ] || return 1
	measure "$T/samples" rx_packets steady || return 1
	# What the receiver got that was not new, full data: control packets,
	# duplicates, trimmed or dropped packets, and the sender's probes and
	# probe answers (its own probes are not in its tx_packets).
	drops=$((d[drop_malformed] + d[drop_no_qp] + d[drop_out_of_window] + \
		d[drop_access] + d[drop_backlog]))
	probes=$((d[s_probes_sent] + d[s_probes_answered]))
	data=$((d[rx_packets] - d[acks_received] - d[nacks_received] - \
		d[rnr_nacks_received] - d[cnps_received] - d[duplicates_received] - \
		d[trimmed_received] - drops - probes))
	note=$(awk -v f="${d[first]}" -v l="$LAUNCH" -v b="${d[rx_bytes]}" \
		-v p="${d[rx_packets]}" -v m="$pmtu" -v r="${d[s_retransmits]}" -v dr="$drops" \
		-v pr="$probes" -v du="${d[duplicates_received]}" -v sg="$seg" \
		-v oo="${d[out_of_order_received]}" \
		-v sk="$((d[s_tx_skbs] - d[s_acks_sent] - d[s_nacks_sent]))" \
		-v msgs="$((data / per_msg))" 'BEGIN {
			printf "pmtu=%d seg=%d setup=%.1fs rxB/pkt=%.0f retx=%d dup=%d ooo=%d drops=%d probes=%d skbs=%.2f",
				m, sg, f - l, b / p, r, du, oo, dr, pr, msgs ? sk / msgs : 0 }')
	result "$peer" "$size" "$qps" "${d[secs]}" $((data * size / per_msg)) "$data" \
		"${d[acks_sent]}" "${d[cpu]}" "$note"
}

# rxe_run SIZE QPS: rxe0 writing to itself, a fixed amount of work timed
# from its first packet to its last.
rxe_run() {
	local size=$1 qps=$2 pmtu c n data acks note
	local -a cols=()
	local -A d=()
	RUN_T0=$EPOCHREALTIME
	pmtu=$(active_mtu rxe0)
	for c in sent_pkts duplicate_request out_of_seq_request completer_retry_err; do
		cols+=("$c=$HW/rxe0/ports/1/hw_counters/$c")
	done
	# The work: WIN s at the packet rate of a short duration run, and 40%
	# more: that rate varies from run to run, and sent_pkts counts ACKs and
	# retransmissions, which makes the estimate err long, not short.
	sampler "" "$T/samples" "${cols[@]}"
	bw "" rxe0 "" rxe0 10.1.0.1 "$size" "$qps" -D 4
	c=$?
	stop "$SPID"
	[ "$c" -eq 0 ] || return 1
	measure "$T/samples" sent_pkts span || return 1
	n=$(awk -v p="${d[sent_pkts]}" -v t="${d[secs]}" -v m="$pmtu" -v w="$WIN" \
		-v s="$size" -v q="$qps" 'BEGIN { n = int(p / t * m * w * 1.4 / (s * q)) + 1
			print n < 5 ? 5 : n }')
	d=()
	sampler "" "$T/samples" "${cols[@]}"
	bw "" rxe0 "" rxe0 10.1.0.1 "$size" "$qps" -n "$n"
	c=$?
	stop "$SPID"
	[ "$c" -eq 0 ] || return 1
	measure "$T/samples" sent_pkts span || return 1
	data=$((n * size * qps / pmtu))
	# Roughly: what rxe0 sent beyond the data, less what arrived twice.
	acks=$((d[sent_pkts] - data - d[duplicate_request] - d[out_of_seq_request]))
	note=$(awk -v f="${d[first]}" -v l="$LAUNCH" -v m="$pmtu" -v n="$n" \
		-v r="${d[completer_retry_err]}" -v dup="${d[duplicate_request]}" \
		'BEGIN { printf "pmtu=%d setup=%.1fs iters=%d retry=%d dup=%d", m, f - l, n, r, dup }')
	result rxe-lo "$size" "$qps" "${d[secs]}" $((n * size * qps)) "$data" "$acks" \
		"${d[cpu]}" "$note"
}

# tcp_run SIZE QPS: iperf3 from a to b over the veth, SIZE bytes per
# write, QPS streams.
tcp_run() {
	local size=$1 qps=$2 srv c mbps bytes
	local st=/sys/class/net/veth1/statistics
	local -A d=()
	RUN_T0=$EPOCHREALTIME
	in_ns b timeout 120 iperf3 -s -1 -p $IPERF_PORT >/dev/null 2>&1 &
	srv=$!
	wait_for 10 listens b $IPERF_PORT || fail "iperf3 server"
	sampler b "$T/samples" rx_packets=$st/rx_packets tx_packets=$st/tx_packets
	in_ns a timeout 120 iperf3 -c 10.0.0.2 -p $IPERF_PORT -t $((WIN + 2)) -O $WARM \
		-l "$size" -P "$qps" -J >"$T/iperf3.json"
	c=$?
	stop "$SPID"
	wait "$srv"
	if [ "$c" -ne 0 ]; then
		echo "# iperf3 -l $size -P $qps failed"
		sed 's/^/#   /' "$T/iperf3.json"
		return 1
	fi
	measure "$T/samples" rx_packets steady || return 1
	mbps=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["end"]["sum_received"]
print(s["bytes"] / s["seconds"] / 1e6)' "$T/iperf3.json")
	bytes=$(awk -v r="$mbps" -v t="${d[secs]}" 'BEGIN { printf "%.0f", r * 1e6 * t }')
	result tcp-veth "$size" "$qps" "${d[secs]}" "$bytes" "${d[rx_packets]}" \
		"${d[tx_packets]}" "${d[cpu]}" "pkts=veth-frames"
}

# profile SIZE QPS: perf's view of all CPUs during a uet veth run (the
# kernel work is in softirqs and work items, not in perftest): the top 10
# symbols without the idle loop, and the share of each binary or module,
# over WIN s of the steady window. perf takes most of a minute to start
# emulated, so it starts first; the run starts once perf acknowledges a
# command on its control FIFO. Sampling is on throughout (with perf 6.1,
# starting it disabled loses the mmaps of processes started meanwhile),
# and the report picks the window by time: perf stamps samples with
# CLOCK_MONOTONIC, which is /proc/uptime in a VM that never suspends.
profile() {
	local size=$1 qps=$2 f=$HW/uet1/ports/1/hw_counters/rx_packets v0 v1 t0 t1 pid bpid
	local idle='^(native_safe_halt|default_idle|arch_cpu_idle|cpu_idle_poll|acpi_idle|mwait_idle|intel_idle|poll_idle|cpuidle|do_idle|default_idle_call)'
	rm -f "$T/perf.ctl" "$T/perf.ack"
	mkfifo "$T/perf.ctl" "$T/perf.ack"
	perf record -q -B -N -a -g -k CLOCK_MONOTONIC -e cpu-clock -F 999 \
		--control "fifo:$T/perf.ctl,$T/perf.ack" -o "$T/perf.data" >"$T/perf.log" 2>&1 &
	pid=$!
	timeout 300 bash -c "echo enable >$T/perf.ctl && read -r _ <$T/perf.ack" ||
		{ cat "$T/perf.log"; fail "perf did not start"; }
	v0=$(cat "$f")
	bw b uet1 a uet0 10.0.0.2 "$size" "$qps" -D $((WARM + WIN + 4)) >"$T/prof-bw" &
	bpid=$!
	wait_for 60 moved "$f" "$v0" || fail "profile: no traffic"
	sleep "$WARM"
	v0=$(cat "$f")
	read -r t0 _ </proc/uptime
	sleep "$WIN"
	v1=$(cat "$f")
	read -r t1 _ </proc/uptime
	kill -INT "$pid"
	wait "$pid"
	wait "$bpid" || { cat "$T/prof-bw"; fail "profile: ib_write_bw"; }
	perf report -i "$T/perf.data" --time "$t0,$t1" --no-children --sort symbol --stdio -g none \
		2>/dev/null | awk -v idle="$idle" -v mtu="$mtu" -v t0="$t0" -v t1="$t1" \
		-v n=$((v1 - v0)) -v size="$size" -v qps="$qps" '
		$1 ~ /%$/ && $3 ~ idle { i += $1; next }
		$1 ~ /%$/ && k < 10 { top[++k] = sprintf("  %7s  %s %s", $1, $2, $3) }
		END {
			printf "perf profile: uet veth %d KiB %d QP, MTU %s, all CPUs, %.1f s (uet1 received %d packets); top 10 symbols of all samples (idle, %.1f%%, left out):\n", size / 1024, qps, mtu, t1 - t0, n, i
			for (j = 1; j <= k; j++) print top[j]
		}'
	echo "  by binary (the kernel's includes its modules; user space is mostly perftest polling):"
	perf report -i "$T/perf.data" --time "$t0,$t1" --no-children --sort dso --stdio -g none \
		2>/dev/null |
		awk '$1 ~ /%$/ && n++ < 6 { printf "  %7s  %s\n", $1, $2 }'
	# Who runs it, CPU by CPU: the application's doorbells, the work
	# items (kworker), softirqs on their own (ksoftirqd), idle (swapper).
	echo "  by CPU and task (idle included):"
	perf report -i "$T/perf.data" --time "$t0,$t1" --no-children --sort cpu,comm --stdio \
		-g none 2>/dev/null |
		awk '$1 ~ /%$/ && $1 + 0 >= 1 { printf "  %7s  CPU %s %s\n", $1, $2, $3 }'
	# perf finds rdma_uet's symbols in /proc/kallsyms (it has no path
	# to the .ko) and counts them as the kernel's: sum them from there.
	perf report -i "$T/perf.data" --time "$t0,$t1" --no-children --sort symbol --stdio -g none \
		2>/dev/null | awk '
		FNR == NR { if ($4 == "[rdma_uet]") mod[$3] = 1; next }
		$1 ~ /%$/ && $3 in mod { s += $1; if (k < 5) top[++k] = $3 " " $1 }
		END {
			printf "  rdma_uet functions: %.1f%% of all samples; most:", s
			for (j = 1; j <= k; j++) printf " %s", top[j]
			print ""
		}' /proc/kallsyms -
	# Where the time goes by stage: each function with what it calls.
	echo "  with callees (% of all samples):"
	perf report -i "$T/perf.data" --time "$t0,$t1" --children --sort symbol --stdio -g none \
		2>/dev/null | awk '
		BEGIN {
			n = split("uet_post_send uet_req_run uet_train_add uet_req_add_payload " \
				"ip_finish_output2 veth_xmit ip_rcv " \
				"uet_udp_data_ready uet_rcv uet_resp_rcv " \
				"uet_qp_send_ack uet_req_rcv_ack", want, " ")
		}
		$1 ~ /%$/ { c[$4] = $1 }
		END {
			for (j = 1; j <= n; j++)
				printf "    %-26s %7s\n", want[j], (want[j] in c) ? c[want[j]] : "-"
		}'
	echo
}

# uet_modes SIZE QPS: a uet veth run for each mode of LBCC, both devices
# set to it; then uet0 and uet1 made anew, at their defaults.
uet_modes() {
	local m lb cc
	[ -n "$LBCC" ] || return 0
	for m in $LBCC; do
		lb=${m%/*} cc=${m#*/}
		{ in_ns a "$UET" dev set uet0 lb "$lb" cc "$cc" &&
			in_ns b "$UET" dev set uet1 lb "$lb" cc "$cc"; } ||
			fail "lb $lb cc $cc"
		uet_run "uet-veth-$lb-$cc" b uet1 a uet0 10.0.0.2 "$1" "$2" ||
			echo "# uet veth lb $lb cc $cc $1:$2 failed"
	done
	{ in_ns a rdma link delete uet0 && in_ns b rdma link delete uet1; } ||
		fail "rdma link delete"
	wait_for 10 ibdevs_gone uet0 uet1 || fail "uet0 or uet1 stays"
	uet_up
	set_mtu "$mtu"
}

# The veth pair between namespaces a and b, and the loopback veth in this
# namespace: lb0 carries the address, lb1 only gives it a peer.
veth_pair
# BENCH_RPS=1: each namespace stands for a host with a CPU of its own for
# what it receives (RPS: b's on CPU 1, a's on CPU 0). A veth delivers on
# the sending CPU, so without it one CPU carries the receive path of both
# ends, as no two real hosts would.
if [ -n "${BENCH_RPS:-}" ] && [ "$(nproc)" -ge 2 ]; then
	in_ns_sys a sh -c 'echo 1 >/sys/class/net/veth0/queues/rx-0/rps_cpus' &&
		in_ns_sys b sh -c 'echo 2 >/sys/class/net/veth1/queues/rx-0/rps_cpus' ||
		fail "RPS on the veth pair"
	echo "# RPS: veth1 (b) received on CPU 1, veth0 (a) on CPU 0"
fi
ip link add lb0 type veth peer name lb1 && ip addr add 10.1.0.1/24 dev lb0 &&
	ip link set lb0 up && ip link set lb1 up || fail "loopback veth"
on_exit "ip link del lb0"
sysctl -qw kernel.kptr_restrict=0
uet_up

for mtu in $MTUS; do
	set_mtu "$mtu"
	for shape in $SHAPES; do
		size=${shape%:*} qps=${shape#*:}
		for ((ROUND = 1; ROUND <= ROUNDS; ROUND++)); do
			uet_run uet-veth b uet1 a uet0 10.0.0.2 "$size" "$qps" ||
				echo "# uet veth $shape failed"
			uet_modes "$size" "$qps"
			tcp_run "$size" "$qps" || echo "# tcp veth $shape failed"
		done
		ROUND=1
	done
	[ "$LOOP" = 1 ] || [ -n "$PROFILE" ] || continue
	prof=${PROFILE:-65536:1}
	profile "${prof%:*}" "${prof#*:}"
	[ "$LOOP" = 1 ] || continue
	for shape in $SHAPES; do
		size=${shape%:*} qps=${shape#*:}
		rxe_up
		rxe_run "$size" "$qps" || echo "# rxe loop $shape failed"
		uet_up
		set_mtu "$mtu"
		uet_run uet-lo "" uet2 "" uet2 10.1.0.1 "$size" "$qps" || echo "# uet loop $shape failed"
	done
done
exit 0
