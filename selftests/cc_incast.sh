#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Incast 8:1 through one sch_uet port, with each congestion control.
# Hosts h1..h8 each write 2 MiB to r at once, every byte verified; the
# switch port towards r runs at R = 40 Mbit/s. netem holds r's packets
# (the ACKs) 20 ms, so the base RTT is about 21 ms and BDP = R x base RTT
# = 105000 bytes: the emulated hosts add a few ms of their own, which a
# shorter RTT would let dominate the delay NSCC measures.
#
# nscc: buffer 1 BDP, ECN from 0.2 to 0.8 BDP, trimming on (UET-CC's
#       switch settings, facts.md 3.5), base_rtt_us and linkspeed_mbps
#       set to this fabric's.
# dcqcn: trimming off, the same ECN ramp, a buffer of 8 BDP, its timers
#       scaled to the RTT.
# none: the nscc port; shows what the window alone does.
#
# ONLY=1 runs nscc alone; KEEP=DIR keeps the samples and reports.
#
# Utilization is the port's rate while it sent the middle 80% of its
# bytes (the start and the tail have fewer senders), against R.
. "$(dirname "$0")/lib.sh"

require_stock_kernel
N=8 RATE_MBIT=40 BYTES=2M DELAY_MS=${DELAY_MS:-20}
BASE_RTT_US=$((DELAY_MS * 1000 + 1000))
NSCC_RTT_US=${NSCC_RTT_US:-$BASE_RTT_US}
BDP=$((RATE_MBIT * 1000000 / 8 * BASE_RTT_US / 1000000))
UET=$UET_SELFTESTS/../tools/uet/uet
star $N || fail "star fabric"
sch_uet_load
uet_load
in_ns r rdma link add uetr type uet netdev r0 || fail "rdma link add uetr"
for ((i = 1; i <= N; i++)); do
	in_ns "h$i" rdma link add "uet$i" type uet netdev "h$i-0" ||
		fail "rdma link add uet$i"
done
in_ns r tc qdisc add dev r0 root netem delay ${DELAY_MS}ms limit 10000 ||
	fail "netem on r0"
T=$(mktemp -d)
on_exit "rm -rf $T"
log "$N senders, port at R = $RATE_MBIT Mbit/s, BDP $BDP bytes"

# devs CMD...: runs "uet dev set DEV CMD..." on every device.
devs() {
	local i
	in_ns r "$UET" dev set uetr "$@" || return 1
	for ((i = 1; i <= N; i++)); do
		in_ns "h$i" "$UET" dev set "uet$i" "$@" || return 1
	done
}

# incast NAME: the 8 verified WRITEs at once; per sender MB/s in
# $T/NAME.rates, the port's byte samples in $T/NAME.samples, its counters
# in $T/NAME.tc, the senders' retransmissions in $T/NAME.retx.
incast() {
	local name=$1 i pids=() srvs=() rc=0 retx=0 retx0=0 sampler
	for ((i = 1; i <= N; i++)); do
		retx0=$((retx0 + $(uet_counter "uet$i" retransmits)))
	done
	for ((i = 1; i <= N; i++)); do
		ip netns exec r "$UET_VERIFY" -d uetr -p $((18600 + i)) -T 600 \
			>"$T/$name.srv$i" 2>&1 &
		srvs+=($!)
	done
	for ((i = 1; i <= N; i++)); do
		wait_for 30 tcp_listens r $((18600 + i)) || return 1
	done
	ip netns exec sw python3 -c '
import time
while True:
    with open("/sys/class/net/sw-r/statistics/tx_bytes") as f:
        print("%.6f %s" % (time.time(), f.read().strip()), flush=True)
    time.sleep(0.02)' >"$T/$name.samples" 2>"$T/$name.sampler" &
	sampler=$!
	# Python starts slowly in an emulated VM: sample before sending.
	wait_for 60 test -s "$T/$name.samples" || return 1
	for ((i = 1; i <= N; i++)); do
		ip netns exec "h$i" "$UET_VERIFY" -d "uet$i" -p $((18600 + i)) \
			-o write -b $BYTES -T 300 10.4.0.1 >"$T/$name.cli$i" 2>&1 &
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

# report NAME: "util jain peak_bytes trimmed dropped marked retx".
report() {
	python3 - "$T/$1" "$RATE_MBIT" <<'PY'
import json, sys
base, rate = sys.argv[1], float(sys.argv[2]) * 1e6 / 8
rows = [[float(x) for x in l.split()] for l in open(base + ".samples") if len(l.split()) == 2]
b0, b1 = rows[0][1], rows[-1][1]
# The bulk of the transfer: from 10% to 90% of the bytes the port sent
# (the start and the tail have fewer than eight senders).
ra = [r for r in rows if r[1] - b0 <= 0.1 * (b1 - b0)][-1]
rb = next(r for r in rows if r[1] - b0 >= 0.9 * (b1 - b0))
util = (rb[1] - ra[1]) / (rb[0] - ra[0]) / rate
x = [float(l) for l in open(base + ".rates")]
jain = sum(x) ** 2 / (len(x) * sum(v * v for v in x))
q = json.load(open(base + ".tc"))[0]
opt = q.get("xstats", q)
def g(k):
    for d in (q, q.get("xstats", {}), q.get("options", {})):
        if k in d:
            return d[k]
    return 0
drops = g("drop_limit") + g("drop_notrim") + g("drop_trim") + g("drop_prio")
retx = int(open(base + ".retx").read())
print(f"{util:.3f} {jain:.3f} {g('peak_backlog')} {g('trimmed')} {drops} {g('ecn_marked')} {retx}")
PY
}

run() {
	local name=$1 cc=$2
	shift 2
	# A new qdisc: its counters start at 0.
	in_ns sw tc qdisc del dev sw-r root 2>/dev/null
	in_ns sw tc qdisc add dev sw-r root uet rate "${RATE_MBIT}mbit" "$@" ||
		return 1
	devs cc "$cc" || return 1
	incast "$name" || return 1
	report "$name" >"$T/$name.report" || return 1
	read -r u j p tr d m x <"$T/$name.report"
	log "$name: utilization $u, Jain $j, peak queue $p bytes ($(python3 -c "print(round($p / $BDP, 2))") BDP), trimmed $tr, dropped $d, ECN marked $m, retransmitted $x"
}
field() { cut -d' ' -f"$2" "$T/$1.report"; }

# DCQCN's timers scaled to this RTT (the firmware's are for microsecond
# fabrics): alpha and rate increase once per RTT or so, small steps.
devs cc-param nscc.base_rtt_us $NSCC_RTT_US cc-param nscc.linkspeed_mbps $RATE_MBIT \
	cc-param dcqcn.rp_max_rate_mbps $RATE_MBIT \
	cc-param dcqcn.rp_dce_tcp_rtt_us $((BASE_RTT_US / 4)) \
	cc-param dcqcn.rp_time_reset_us $BASE_RTT_US \
	cc-param dcqcn.rp_ai_rate_mbps 1 cc-param dcqcn.rp_hai_rate_mbps 4 ||
	fail "cc parameters"
NSCC_PORT="limit $BDP kmin $((BDP / 5)) kmax $((BDP * 4 / 5)) trim on"
[ -z "$KEEP" ] || on_exit "cp -r $T $KEEP"
[ -n "$ONLY" ] || step "none: 8 x 2 MiB verified" run none none $NSCC_PORT
step "nscc: 8 x 2 MiB verified" run nscc nscc $NSCC_PORT
[ -n "$ONLY" ] || step "dcqcn: 8 x 2 MiB verified" run dcqcn dcqcn \
	limit $((BDP * 8)) kmin $((BDP / 5)) kmax $((BDP * 4 / 5)) trim off
[ -n "$ONLY" ] && exit 0
# The issue's goals (>= 90% utilization for both) are not met yet in this
# emulation: see Documentation/uet/cc.rst. What holds, within one run:
step "nscc: Jain fairness >= 0.9" python3 -c "import sys; sys.exit(not $(field nscc 2) >= 0.9)"
# none's retransmissions vary threefold from run to run (24010..71171 in
# the runs of Documentation/uet/cc.rst), its drops far less.
step "nscc: half of none's retransmissions or fewer" \
	python3 -c "import sys; sys.exit(not $(field nscc 7) * 2 <= $(field none 7))"
step "nscc: a quarter of none's drops or fewer" \
	python3 -c "import sys; sys.exit(not $(field nscc 5) * 4 <= $(field none 5))"
step "dcqcn: no drop" test "$(field dcqcn 5)" -eq 0
exit 0
