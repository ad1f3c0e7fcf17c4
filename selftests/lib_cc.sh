#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Congestion-control tests over lib.sh's star: N hosts h1..hN write to r
# at once through the switch port sw-r. The caller sets N, RATE_MBIT (the
# port's rate), BYTES (per sender), BDP (bytes, for reports) and T,
# and may set CLIENT_OPTS (more uet-verify options for the senders).

# cc_devs CMD...: runs "uet dev set DEV CMD..." on r's and every host's device.
cc_devs() {
	local i
	in_ns r "$UET" dev set uetr "$@" || return 1
	for ((i = 1; i <= N; i++)); do
		in_ns "h$i" "$UET" dev set "uet$i" "$@" || return 1
	done
}

# cc_fabric DELAY_MS: the star, a uet device on every host, netem holding
# r's packets (the ACKs and CNPs) DELAY_MS to stretch the RTT. Cables of
# 4096 + 108 bytes (uet's worst-case headers) make RC packets of 4 KiB
# payload, the MTU of the spec's reference network (NSCC's increments
# are in MTUs), and give the emulated hosts a quarter of the packets of
# 1500-byte frames to handle.
cc_fabric() {
	local i
	star "$N" $((4096 + 108)) || return 1
	sch_uet_load
	uet_load
	in_ns r rdma link add uetr type uet netdev r0 || return 1
	for ((i = 1; i <= N; i++)); do
		in_ns "h$i" rdma link add "uet$i" type uet netdev "h$i-0" || return 1
	done
	in_ns r tc qdisc add dev r0 root netem delay "${1}ms" limit 10000 || return 1
	# The ACKs these suites were tuned with: at most 50 us held, which
	# at their packet spacing (0.8 ms) is an ACK per packet.
	cc_devs ack_delay_us 50
}

# cc_incast NAME: the N verified WRITEs at once; per sender MB/s in
# $T/NAME.rates, the port's byte samples in $T/NAME.samples, its counters
# in $T/NAME.tc, the senders' retransmissions in $T/NAME.retx.
cc_incast() {
	local name=$1 i pids=() srvs=() rc=0 retx=0 retx0=0 sampler
	for ((i = 1; i <= N; i++)); do
		retx0=$((retx0 + $(uet_counter "uet$i" retransmits)))
	done
	for ((i = 1; i <= N; i++)); do
		ip netns exec "$(ns_name r)" "$UET_VERIFY" -d uetr -p $((18600 + i)) -e -T 600 \
			>"$T/$name.srv$i" 2>&1 &
		srvs+=($!)
	done
	for ((i = 1; i <= N; i++)); do
		wait_for 30 tcp_listens "${srvs[i - 1]}" $((18600 + i)) || return 1
	done
	# The port's bytes every 20 ms, from sysfs: a sampler that ran tc
	# took a CPU of the two the VM has.
	ip netns exec "$(ns_name sw)" python3 -c '
import time
while True:
    with open("/sys/class/net/sw-r/statistics/tx_bytes") as f:
        print("%.6f %s" % (time.time(), f.read().strip()), flush=True)
    time.sleep(0.02)' >"$T/$name.samples" 2>"$T/$name.sampler" &
	sampler=$!
	# Python starts slowly in an emulated VM: sample before sending.
	wait_for 60 test -s "$T/$name.samples" || return 1
	for ((i = 1; i <= N; i++)); do
		# shellcheck disable=SC2086 # CLIENT_OPTS: one word per option
		ip netns exec "$(ns_name "h$i")" "$UET_VERIFY" -d "uet$i" -p $((18600 + i)) \
			-o write -b "$BYTES" -e $CLIENT_OPTS -T 300 10.4.0.1 \
			>"$T/$name.cli$i" 2>&1 &
		pids+=($!)
	done
	for i in "${pids[@]}" "${srvs[@]}"; do
		wait "$i" || rc=1
	done
	kill "$sampler"
	wait "$sampler"
	[ -s "$T/$name.samples" ] || { echo "the sampler wrote nothing:"; cat "$T/$name.sampler"; return 1; }
	for ((i = 1; i <= N; i++)); do
		sed -n 's/.* MBps=\([0-9.]*\) .*/\1/p' "$T/$name.cli$i"
		retx=$((retx + $(uet_counter "uet$i" retransmits)))
	done >"$T/$name.rates"
	retx=$((retx - retx0))
	[ "$rc" -eq 0 ] || { tail -n 3 "$T/$name".cli*; return 1; }
	echo "$retx" >"$T/$name.retx"
	in_ns sw tc -s -j qdisc show dev sw-r >"$T/$name.tc"
}

# cc_report NAME: "util jain peak_data peak_all trimmed dropped marked retx
# line_share busy". util: the port's rate against R over the time it sent
# the middle 80% of its bytes (the start and the tail have fewer senders).
# peak_data: the data band's highest backlog, peak_all every band's.
# line_share: sch_uet's line_ns / busy_ns, the share of R the emulated
# port kept up while it had packets (its timer wakes late, and later when
# the host loses CPU time to its hypervisor: 0.78..0.99 seen). busy: util
# over line_share (at most 1), how much of the time the senders kept the
# port sending, which is what congestion control answers for.
cc_report() {
	python3 - "$T/$1" "$RATE_MBIT" <<'PY'
import json, sys
base, rate = sys.argv[1], float(sys.argv[2]) * 1e6 / 8
rows = [[float(x) for x in l.split()] for l in open(base + ".samples")]
b0, b1 = rows[0][1], rows[-1][1]
ra = [r for r in rows if r[1] - b0 <= 0.1 * (b1 - b0)][-1]
rb = next(r for r in rows if r[1] - b0 >= 0.9 * (b1 - b0))
util = (rb[1] - ra[1]) / (rb[0] - ra[0]) / rate
x = [float(l) for l in open(base + ".rates")]
jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
q = json.load(open(base + ".tc"))[0]
def g(k):
    for d in (q, q.get("xstats", {}), q.get("options", {})):
        if k in d:
            return d[k]
    return 0
drops = g("drop_limit") + g("drop_notrim") + g("drop_trim") + g("drop_prio")
retx = int(open(base + ".retx").read())
share = g("line_ns") / g("busy_ns") if g("busy_ns") else 0
busy = min(1.0, util / share) if share else 0
print(f"{util:.3f} {jain:.3f} {g('peak_data')} {g('peak_backlog')} {g('trimmed')} "
      f"{drops} {g('ecn_marked')} {retx} {share:.3f} {busy:.3f}")
PY
}

# cc_run NAME CC SCH_UET_OPTIONS...: a fresh sch_uet on sw-r (its
# counters start at 0), every device on CC, the incast, its report logged.
cc_run() {
	local name=$1 cc=$2 u j p pa tr d m x s b
	shift 2
	in_ns sw tc qdisc del dev sw-r root 2>/dev/null
	in_ns sw tc qdisc add dev sw-r root uet rate "${RATE_MBIT}mbit" "$@" ||
		return 1
	cc_devs cc "$cc" || return 1
	cc_incast "$name" || return 1
	cc_report "$name" >"$T/$name.report" || return 1
	read -r u j p pa tr d m x s b <"$T/$name.report"
	log "$name: utilization $u, Jain $j, peak data queue $p bytes ($(python3 -c "print(round($p / $BDP, 2), 'BDP; all bands', round($pa / $BDP, 2))") BDP), trimmed $tr, dropped $d, ECN marked $m, retransmitted $x, port at $s of R while busy, busy $b of the time"
}

# cc_tuned_port CC RTT_US: the settings "uet tune" gives the port (rate
# RATE_MBIT) for CC and the base RTT, as cc_run takes them (without rate).
cc_tuned_port() {
	"$UET" tune rate "${RATE_MBIT}mbit" rtt "$2us" cc "$1" |
		sed -n 's/^qdisc rate [^ ]* //p' | grep . || {
		echo "uet tune gave no port" >&2
		return 1
	}
}

# cc_field NAME COLUMN: one number of NAME's report.
cc_field() { cut -d' ' -f"$2" "$T/$1.report"; }
