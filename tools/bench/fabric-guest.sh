#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM of tools/bench/bench.sh (and of make demo): one fabric
# scenario, its data files written into DIR for tools/bench/plots/draw.sh.
# Not a test: nothing here asserts a figure (the selftests named below
# do); what it measured is what it writes.
#
#   fabric-guest.sh multipath DIR   spines.dat, failover.dat
#   fabric-guest.sh incast DIR      incast.dat, incast-cc.dat
#   fabric-guest.sh tuning DIR      tuning.dat
#   fabric-guest.sh demo DIR        spines.dat of lb single and reps
#
# multipath: the fabric of selftests/multipath_reps.sh (4 spines of R =
# 12 Mbit/s, each port set for its bandwidth-delay product, NSCC, 21 ms
# RTT), with uet-verify's TCP control channel on a management link of
# its own between the leaves, so that the spines carry only the QP and
# a failure never stalls the control channel. Spine 1 at R/2, a WRITE
# each with lb single, spray and reps: each spine's share of the bytes.
# Then all at R, a long WRITE each with lb reps and single: the spine
# that carried the most over a second fails (both routes blackholed)
# for DOWN s and comes back; what reached b over 0.5 s, every 0.1 s.
#
# incast: selftests/cc_incast.sh's nscc case (8 hosts write 2 MiB each
# into one port of 40 Mbit/s, 1 BDP of buffer, 21 ms RTT), with the
# uet:uet_cc tracepoint recording every sender's window and the port's
# backlog sampled every 20 ms over rtnetlink (what tc -s shows).
#
# tuning: the incast fabric of selftests/cc_incast.sh as an operator who
# knows only the port's rate would set it up: every port as "uet tune"
# prints it for the RTT, the devices given cc and link_mbps and nothing
# else. 4:1 and 8:1 under nscc and dcqcn, at 2 and 21 ms, at each rate
# of BENCH_TUNING_RATES (Mbit/s; default 40 100); BENCH_TUNING_BYTES
# per sender (8M). NSCC senders keep uet-verify's default outstanding,
# DCQCN senders 32 KiB messages, as many as one BDP takes. Then, at 2 ms
# and 8:1, a control: DCQCN with every sender's rate capped at 11% of R
# (rp_max_rate_mbps; 88% of R in all) and 4 messages outstanding, a rate
# no congestion signal can raise: what that port drops, the emulated
# fabric's bursts alone drop.
#
# demo: 4 spines, no shaping, no netem; 64 MiB with lb single and reps
# (the default, in flowcells).
. "$(dirname "$0")/../../selftests/lib.sh"

scenario=$1 DIR=$2
SPINES=4
T=$(mktemp -d)
on_exit "rm -rf $T"
mkdir -p "$DIR" || fail "no $DIR"

# progress TEXT: a line on the console, for a step that takes a while.
progress() { echo "# ... $*"; }

# rate N MBIT: spine N's port towards b at MBIT, set as multipath_reps.sh
# sets it (UE 1.0 3.6.17, two BDPs of buffer).
rate() {
	local bdp=$(($2 * 1000000 / 8 * RTT_US / 1000000))
	in_ns "s$1" tc qdisc replace dev "s$1-b" root uet rate "${2}mbit" \
		limit $((bdp * 2)) kmin $((bdp / 5)) kmax $((bdp * 4 / 5)) trim on
}

# xfer LB BYTES: a verified WRITE from a to b with lb LB; "secs bytes b1
# b2 ..." (bN: what spine N carried to b) in $T/xfer.LB.
xfer() {
	local lb=$1 before after
	in_ns a "$UET" dev set uet0 lb "$lb" entropy_count "$EVS" || return 1
	before=$(spine_bytes $SPINES)
	uet_verify b uet1 a uet0 10.0.2.1 "$T/verify.$lb" -o write -b "$2" -T 600 ||
		return 1
	after=$(spine_bytes $SPINES)
	{
		sed -n 's/.* bytes=\([0-9]*\) .* secs=\([0-9.]*\) .*/\2 \1/p' "$T/verify.$lb" | tail -n1
		python3 -c 'import sys
print(*[int(y) - int(x) for x, y in zip(sys.argv[1].split(), sys.argv[2].split())])' \
			"$before" "$after"
	} | paste -sd' ' >"$T/xfer.$lb"
}

# spines_dat TITLE LB...: spines.dat from the xfers of LB..., a row per
# spine, a column per balancer (its share of the bytes, percent); each
# column's title gives the payload's rate in R.
spines_dat() {
	local title=$1
	shift
	python3 - "$DIR/spines.dat" "$RATE_MBIT" "$SPINES" "$title" "$SLOW" "$T" "$@" <<'PY'
import sys
out, r, spines, title, slow, d, *lbs = sys.argv[1:]
r, spines = float(r) * 1e6 / 8, int(spines)
cols = []
for lb in lbs:
    secs, size, *b = open(f"{d}/xfer.{lb}").read().split()
    b = [int(x) for x in b]
    # Unshaped spines (R 0): the emulated hosts, not the fabric, set the
    # rate, which says nothing of the balancer.
    title = f"lb {lb}: {int(size) / float(secs) / r:.2f} R" if r else f"lb {lb}"
    cols.append((title, [x * 100 / sum(b) for x in b]))
with open(out, "w") as f:
    print(f"# spines {spines}\n# rate_mbit {sys.argv[2]}\n# balancers {len(cols)}", file=f)
    print(f"# {title}: each spine's share of the bytes the spines carried to b,", file=f)
    print("# percent; a column's title gives its WRITE's payload rate in R", file=f)
    print("spine", *[f'"{c[0]}"' for c in cols], file=f)
    for i in range(spines):
        name = f'"{i + 1} (R/2)"' if slow and i == 0 else str(i + 1)
        print(name, *[f"{c[1][i]:.1f}" for c in cols], file=f)
PY
}

# sampler NS DEV OUT: "time bytes" of DEV's tx_bytes in namespace NS
# every 20 ms into OUT, in the background as SPID (one process: a shell
# loop is too slow emulated), once it has its first sample.
sampler() {
	rm -f "$3"
	ip netns exec "$(ns_name "$1")" python3 -c '
import sys, time
while True:
    with open("/sys/class/net/%s/statistics/tx_bytes" % sys.argv[1]) as f:
        print("%.6f %s" % (time.time(), f.read().strip()), flush=True)
    time.sleep(0.02)' "$2" >"$3" &
	SPID=$!
	on_exit "kill $SPID"
	wait_for 60 test -s "$3" || fail "the sampler of $2 did not start"
}

# received_more N: uet1 received N packets more than RX0.
received_more() { [ "$(uet_counter uet1 rx_packets)" -gt $((RX0 + $1)) ]; }

# failover LB: a long WRITE with lb LB through a spine's failure; the
# rate that reached b, "seconds Mbit/s" over 0.5 s windows (the middle's
# time) every 0.1 s from PRE s before the failure, appended to $T/failover as a block titled with LB and
# the spine; the time the spine came back in $T/restored.
failover() {
	local lb=$1 srv cli b0 b1 victim t_fail t_back
	in_ns a "$UET" dev set uet0 lb "$lb" entropy_count "$EVS" || return 1
	ip netns exec "$(ns_name b)" "$UET_VERIFY" -d uet1 -e -T 1200 >"$T/fo.srv" 2>&1 &
	srv=$!
	wait_for 30 tcp_listens "$srv" 18515 || return 1
	RX0=$(uet_counter uet1 rx_packets)
	sampler l2 l2-h "$T/fo.samples"
	ip netns exec "$(ns_name a)" "$UET_VERIFY" -d uet0 -e -o write -b 4G -T 600 \
		10.0.2.1 >"$T/fo.cli" 2>&1 &
	cli=$!
	wait_for 60 received_more 500 || return 1
	# The steady part: PRE s, over which the busiest spine is found.
	b0=$(spine_bytes $SPINES)
	nap "$PRE"
	b1=$(spine_bytes $SPINES)
	victim=$(python3 -c 'import sys
d = [int(y) - int(x) for x, y in zip(sys.argv[1].split(), sys.argv[2].split())]
print(d.index(max(d)) + 1)' "$b0" "$b1")
	t_fail=$EPOCHREALTIME
	ns_ip "s$victim" route replace blackhole 10.0.2.0/24 &&
		ns_ip "s$victim" route replace blackhole 10.0.1.0/24 || return 1
	progress "lb $lb: spine $victim failed"
	nap "$DOWN"
	t_back=$EPOCHREALTIME
	ns_ip "s$victim" route replace 10.0.2.0/24 via "10.2.$victim.1" &&
		ns_ip "s$victim" route replace 10.0.1.0/24 via "10.1.$victim.1" || return 1
	progress "lb $lb: spine $victim back"
	nap "$AFTER"
	kill -0 "$cli" 2>/dev/null || log "lb $lb: the WRITE ended early: $(tail -n1 "$T/fo.cli")"
	kill "$cli" "$srv" "$SPID" 2>/dev/null
	wait "$cli" "$srv" "$SPID" 2>/dev/null
	python3 - "$T/fo.samples" "$t_fail" "$t_back" "$PRE" "$AFTER" \
		"lb $lb (spine $victim failed)" >>"$T/failover" <<'PY'
import sys
import samples
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1]) if len(l.split()) == 2]
t_fail, t_back, pre, after, title = *map(float, sys.argv[2:6]), sys.argv[6]
t, b = [r[0] for r in rows], [r[1] for r in rows]
# 0.5 s windows: shorter ones show the emulated hosts' stalls more than
# the fabric.
W, STEP = 0.5, 0.1
print(f'"{title}"')
k = t_fail - pre
while k + W <= min(t_back + after, t[-1]):
    rate = (samples.at(t, b, k + W) - samples.at(t, b, k)) / W * 8 / 1e6
    print(f"{k + W / 2 - t_fail:.2f} {rate:.2f}")
    k += STEP
print("\n")
PY
	python3 -c "print(round($t_back - $t_fail, 2))" >"$T/restored"
}

multipath() {
	local lb
	RATE_MBIT=12 EVS=256 DELAY_MS=20 SLOW=1 PRE=2 DOWN=4 AFTER=4
	RTT_US=$((DELAY_MS * 1000 + 1000))
	progress "a leaf-spine fabric of $SPINES spines"
	leaf_spine $SPINES || fail "leaf-spine fabric"
	leaf_mgmt || fail "management link"
	in_ns b tc qdisc add dev b0 root netem delay "${DELAY_MS}ms" limit 10000 ||
		fail "netem on b0"
	sch_uet_load
	uet_load
	in_ns a rdma link add uet0 type uet netdev a0 || fail "rdma link add uet0"
	in_ns b rdma link add uet1 type uet netdev b0 || fail "rdma link add uet1"
	for d in a:uet0 b:uet1; do
		in_ns "${d%%:*}" "$UET" dev set "${d#*:}" cc nscc \
			cc-param nscc.base_rtt_us $RTT_US \
			cc-param nscc.linkspeed_mbps $((SPINES * RATE_MBIT)) ||
			fail "NSCC on ${d#*:}"
	done
	for ((i = 2; i <= SPINES; i++)); do
		rate $i $RATE_MBIT || fail "sch_uet on spine $i"
	done
	rate 1 $((RATE_MBIT / 2)) || fail "sch_uet on spine 1"
	for lb in single spray reps; do
		progress "bytes per spine, lb $lb"
		# lb single has one spine, maybe the slow one: a quarter of the bytes.
		xfer $lb "$([ $lb = single ] && echo 4M || echo 16M)" || fail "lb $lb WRITE"
	done
	spines_dat "Spine 1 at R/2, the others at R" single spray reps
	log "$(sed -n '/^spine/,$p' "$DIR/spines.dat")"
	rate 1 $RATE_MBIT || fail "spine 1 back to R"
	SLOW=
	: >"$T/failover"
	for lb in reps single; do
		progress "a spine fails under lb $lb (about $((PRE + DOWN + AFTER + 5)) s)"
		failover $lb || fail "lb $lb through a spine failure"
	done
	{
		printf '# spines %s\n# rate_mbit %s\n# restored %s\n' \
			$SPINES $RATE_MBIT "$(cat "$T/restored")"
		echo "# Mbit/s that reached b (leaf l2's port to b) over 0.5 s windows,"
		echo "# every 0.1 s; seconds since the spine failed (the window's middle)"
		cat "$T/failover"
	} >"$DIR/failover.dat"
}

# qdisc_sampler NS DEV OUT: "time monotonic backlog" of DEV's root qdisc
# every 20 ms into OUT, from rtnetlink (RTM_GETQDISC, the queue stats tc
# -s prints as backlog): tc run that often took a CPU of the two.
qdisc_sampler() {
	ip netns exec "$(ns_name "$1")" python3 -c '
import socket, struct, sys, time
# Without NLM_F_ECHO the kernel only multicasts its answer to a get.
RTM_NEWQDISC, RTM_GETQDISC, NLM_F_REQUEST, NLM_F_ECHO = 36, 38, 1, 8
TCA_STATS2, TCA_STATS_QUEUE, TC_H_ROOT = 7, 3, 0xffffffff
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
tcm = struct.pack("=BxxxiIII", 0, socket.if_nametoindex(sys.argv[1]), 0, TC_H_ROOT, 0)
def attrs(buf, off, end):
    while off + 4 <= end:
        n, kind = struct.unpack_from("=HH", buf, off)
        if n < 4:
            return
        yield kind & 0x3fff, off + 4, off + n
        off += (n + 3) & ~3
seq = 0
while True:
    seq += 1
    s.send(struct.pack("=IHHII", 16 + len(tcm), RTM_GETQDISC, NLM_F_REQUEST | NLM_F_ECHO, seq, 0) + tcm)
    msg = s.recv(65536)
    t, m = time.time(), time.monotonic()
    n, kind = struct.unpack_from("=IH", msg)
    if kind == RTM_NEWQDISC:
        for a, o, e in attrs(msg, 16 + len(tcm), n):
            for b, p, _ in attrs(msg, o, e) if a == TCA_STATS2 else ():
                if b == TCA_STATS_QUEUE:
                    print("%.6f %.6f %d" % (t, m, struct.unpack_from("=II", msg, p)[1]), flush=True)
    time.sleep(0.02)' "$2" >"$3" &
	QPID=$!
	on_exit "kill $QPID"
	wait_for 60 test -s "$3" || fail "the qdisc sampler did not start"
}

incast() {
	local tr=/sys/kernel/tracing inst
	. "$(dirname "$0")/../../selftests/lib_cc.sh"
	N=8 RATE_MBIT=40 BYTES=2M DELAY_MS=20
	RTT_US=$((DELAY_MS * 1000 + 1000))
	BDP=$((RATE_MBIT * 1000000 / 8 * RTT_US / 1000000))
	progress "a star of $N hosts and a switch"
	cc_fabric $DELAY_MS || fail "star fabric with $N hosts"
	cc_devs cc-param nscc.base_rtt_us $RTT_US cc-param nscc.linkspeed_mbps $RATE_MBIT ||
		fail "cc parameters"
	# An instance of its own: the VM's main buffer stays untouched.
	inst=$tr/instances/uet-bench-$UET_NS_SUFFIX
	mkdir "$inst" || fail "no trace instance (tracefs at $tr?)"
	on_exit "echo 0 >$inst/events/enable; rmdir $inst"
	echo mono >"$inst/trace_clock" && echo 8192 >"$inst/buffer_size_kb" &&
		echo 1 >"$inst/events/uet/uet_cc/enable" || fail "uet:uet_cc"
	# The qdisc exists from cc_run on: sample it from a placeholder
	# that cc_run replaces (its counters start at 0).
	in_ns sw tc qdisc add dev sw-r root uet rate "${RATE_MBIT}mbit" || fail "sch_uet"
	qdisc_sampler sw sw-r "$T/backlog"
	progress "incast $N:1 under nscc, $N x $BYTES"
	cc_run incast nscc limit $BDP kmin $((BDP / 5)) kmax $((BDP * 4 / 5)) trim on ||
		fail "the incast"
	echo 0 >"$inst/events/enable"
	kill "$QPID"
	wait "$QPID" 2>/dev/null
	# The overruns, if any, say the trace lost events.
	log "trace: $(awk '/^overrun:/ { n += $2 } END { print n + 0 }' \
		"$inst"/per_cpu/cpu*/stats) events lost"
	rdma -j dev show >"$T/devs"
	cp "$inst/trace" "$T/trace"
	python3 - "$DIR" "$T" "$RATE_MBIT" "$BDP" "$N" <<'PY'
import json, re, sys
import samples
out, d, rate, bdp, n = sys.argv[1:]
bdp, n = int(bdp), int(n)
# Time 0 is when the port started sending the incast's data.
port = [[float(x) for x in l.split()] for l in open(f"{d}/incast.samples") if len(l.split()) == 2]
t0 = next(r[0] for r in port if r[1] > port[0][1])
backlog = [[float(x) for x in l.split()] for l in open(f"{d}/backlog") if len(l.split()) == 3]
# The trace's clock is CLOCK_MONOTONIC: the backlog sampler read both.
mono = sum(r[0] - r[1] for r in backlog) / len(backlog)
with open(f"{out}/incast.dat", "w") as f:
    print(f"# senders {n}\n# rate_mbit {rate}\n# bdp {bdp}\n# limit {bdp}", file=f)
    print(f"# kmin {bdp // 5}\n# kmax {bdp * 4 // 5}\n# cc nscc", file=f)
    print("# seconds backlog_bytes (sch_uet on the switch's port to r, every 20 ms)", file=f)
    end = port[-1][0]
    for t, _, b in backlog:
        if t0 <= t <= end:
            print(f"{t - t0:.3f} {b:.0f}", file=f)
    print("\n\n# seconds Mbit/s (what the port sent, over 0.1 s)", file=f)
    t, b = [r[0] for r in port], [r[1] for r in port]
    k = t0
    while k + 0.1 <= end:
        print(f"{k + 0.05 - t0:.3f} {(samples.at(t, b, k + 0.1) - samples.at(t, b, k)) * 80 / 1e6:.2f}", file=f)
        k += 0.1
# A sender's device index, from rdma's list: uet1..uetN are h1..hN.
host = {}
for dev in json.load(open(f"{d}/devs")):
    m = re.fullmatch(r"uet(\d+)", dev["ifname"])
    if m:
        host[dev["ifindex"]] = "h" + m.group(1)
series, what = {}, None
ev = re.compile(r"\s(\d+\.\d+): uet_cc: dev (\d+) qpn (\d+) (\S+) (\d+)")
for line in open(f"{d}/trace"):
    m = ev.search(line)
    if not m or int(m.group(2)) not in host:
        continue
    ts, dev, qpn, name, value = m.groups()
    what = name
    key = (host[int(dev)], int(qpn))
    series.setdefault(key, []).append((float(ts) + mono - t0, int(value)))
with open(f"{out}/incast-cc.dat", "w") as f:
    unit = "cwnd (bytes)" if what == "cwnd" else f"{what}"
    print(f"# value {unit}\n# each sender's {what} from the uet:uet_cc tracepoint, seconds", file=f)
    hosts = [k[0] for k in series]
    for (h, qpn), rows in sorted(series.items(), key=lambda s: int(s[0][0][1:])):
        print(f'"{h}"' if hosts.count(h) == 1 else f'"{h} QP {qpn}"', file=f)
        for t, v in rows:
            print(f"{t:.4f} {v}", file=f)
        print("\n", file=f)
PY
	[ -s "$DIR/incast-cc.dat" ] || fail "no incast data"
	log "uet_cc events of $(grep -c '^"' "$DIR/incast-cc.dat") senders"
}

# tuning_row LABEL CC DELAY_MS N [MSGS]: one incast of the tuning
# scenario on the fabric as it is (rate RATE_MBIT, netem DELAY_MS), its
# line appended to $T/tuning. DCQCN senders keep MSGS messages of 32 KiB
# outstanding, by default as many as one BDP takes.
tuning_row() {
	local label=$1 cc=$2 d=$3 rtt_us=$(($3 * 1000 + 1000)) port u j s b dr tr
	N=$4 BDP=$((RATE_MBIT * 1000000 / 8 * rtt_us / 1000000)) CLIENT_OPTS=
	port=$(cc_tuned_port "$cc" $rtt_us) || return 1
	# Read by lib_cc.sh's cc_incast.
	# shellcheck disable=SC2034
	[ "$cc" = nscc ] || CLIENT_OPTS="-s 32K -t ${5:-$(((BDP + 32767) / 32768))}"
	progress "$label: $N:1 at $RATE_MBIT Mbit/s, $((rtt_us / 1000)) ms, port: $port"
	# shellcheck disable=SC2086 # the port's words, one each
	cc_run "tuning" "$cc" $port || return 1
	read -r u j _ _ tr dr _ _ s b <"$T/tuning.report"
	echo "\"$N:1 $RATE_MBIT $((rtt_us / 1000))ms $label\" $N $RATE_MBIT $rtt_us $label $u $j $s $b $dr $tr" >>"$T/tuning"
}

tuning() {
	local rates=${BENCH_TUNING_RATES:-40 100} d n cc cap
	. "$(dirname "$0")/../../selftests/lib_cc.sh"
	N=8 BYTES=${BENCH_TUNING_BYTES:-8M}
	progress "a star of $N hosts and a switch"
	cc_fabric 20 || fail "star fabric with $N hosts"
	: >"$T/tuning"
	for RATE_MBIT in $rates; do
		N=8
		cc_devs link_mbps "$RATE_MBIT" || fail "link_mbps $RATE_MBIT"
		for d in 1 20; do
			in_ns r tc qdisc change dev r0 root netem delay "${d}ms" limit 10000 ||
				fail "netem ${d} ms"
			for n in 4 8; do
				for cc in nscc dcqcn; do
					tuning_row $cc $cc $d $n || fail "$cc $n:1"
				done
			done
		done
		N=8 cap=$((RATE_MBIT * 11 / 100))
		cc_devs cc dcqcn cc-param dcqcn.rp_max_rate_mbps $cap \
			cc-param dcqcn.rp_start_rate_mbps $cap || fail "the cap"
		# 4 messages: the cap, not each message's round trip, holds
		# the sender.
		tuning_row capped dcqcn 1 8 4 || fail "capped dcqcn"
		cc_devs cc-param dcqcn.rp_max_rate_mbps 0 \
			cc-param dcqcn.rp_start_rate_mbps 0 || fail "dcqcn back on auto"
	done
	{
		echo "# rates_mbit $rates"
		echo "# each port as uet tune prints it; util: of R over the middle 80% of"
		echo "# the bytes; port: the share of R the emulated port kept while it had"
		echo "# packets; busy: util / port (at most 1), what congestion control"
		echo "# answers for"
		echo "# row N rate_mbit rtt_us cc util jain port busy dropped trimmed"
		cat "$T/tuning"
	} >"$DIR/tuning.dat"
	log "$(grep -v '^#' "$DIR/tuning.dat")"
}

demo() {
	local lb
	RATE_MBIT=0 EVS=4096 SLOW=
	progress "a leaf-spine fabric of $SPINES spines"
	leaf_spine $SPINES || fail "leaf-spine fabric"
	leaf_mgmt || fail "management link"
	uet_load
	in_ns a rdma link add uet0 type uet netdev a0 || fail "rdma link add uet0"
	in_ns b rdma link add uet1 type uet netdev b0 || fail "rdma link add uet1"
	for lb in single reps; do
		progress "lb $lb: a 64 MiB WRITE from a to b"
		xfer $lb 64M || fail "lb $lb WRITE"
	done
	spines_dat "Unshaped spines" single reps
}

case $scenario in
multipath | incast | tuning | demo) $scenario ;;
*) fail "no scenario $scenario (multipath, incast, tuning, demo)" ;;
esac
exit 0
