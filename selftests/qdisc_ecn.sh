#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_uet ECN marking. Bursts of ECT(0) datagrams are queued while the port
# is paused (rate 8bit), then drained at 10mbit, so every packet leaves with
# a known backlog: (N-1-k) packets behind packet k at dequeue, (k-1) ahead
# of it at enqueue. Packet 0 is not counted: it may leave as the pause
# starts (the one departure a pause allows), or an ARP packet may. The marked
# fraction must follow the ramp 0 (<= kmin), linear to pmax (kmax), 1 (>= kmax)
# at every level; enqueue marking must mark the other end of a burst;
# Not-ECT packets are never marked; the counter matches what arrived.
. "$(dirname "$0")/lib.sh"

N=60 BURSTS=5 PORT=9000
veth_pair
sch_uet_load
in_ns a ping -c1 -W2 10.0.0.2 >/dev/null || fail "no path to b"

step "tc qdisc add uet" in_ns a tc qdisc add dev veth0 root uet limit 200000
# Few but the test's datagrams queue: no IPv6 chatter on the port.
in_ns a sysctl -qw net.ipv6.conf.veth0.disable_ipv6=1
# Ethernet + IPv4 + UDP + 972 bytes is what the qdisc counts per packet.
L=$((14 + 20 + 8 + 972))
in_ns a tc qdisc change dev veth0 root uet rate 8bit
in_ns a python3 "$UET_UDP" send 10.0.0.2 "$PORT" --count 10 --size 972
# One packet may leave when the pause starts (ours, or an ARP probe).
step "while paused, a burst of 10 queues at least 9" \
	test "$(qdisc_stat a veth0 backlog)" -ge $((9 * L))
in_ns a tc qdisc change dev veth0 root uet rate 0
wait_for 5 qdisc_idle a veth0
KMIN=$((12 * L)) KMAX=$((48 * L))

# run_bursts MODE TOS BURSTS: BURSTS bursts of N packets, captured at b;
# prints the name of the summary file.
run_bursts() {
	local mode=$1 tos=$2 bursts=$3 out=$TMPDIR_T/$1-$2
	in_ns a tc qdisc change dev veth0 root uet kmin "$KMIN" kmax "$KMAX" \
		pmax 100 ecn_mode "$mode" || return 1
	rm -f "$out.ready"
	in_ns b python3 "$UET_UDP" capture veth1 "$PORT" --count $((N * bursts)) \
		--timeout 120 --ready "$out.ready" --out "$out.cap" &
	wait_for 20 test -e "$out.ready" || return 1
	in_ns a python3 "$UET_UDP" bursts veth0 10.0.0.2 "$PORT" --bursts "$bursts" \
		--count "$N" --size 972 --rate 10mbit --tos "$tos" >&2 || return 1
	wait
	python3 "$UET_UDP" summary "$out.cap" >"$out.json"
	echo "$out.json"
}
TMPDIR_T=$(mktemp -d)
on_exit "rm -rf $TMPDIR_T"

# analyse FILE MODE: checks the marks against the ramp; prints a table.
analyse() {
	python3 - "$1" "$2" "$N" "$BURSTS" <<'PY'
import json, sys
f, mode, n, bursts = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
pkts = [json.loads(l) for l in open(f)]
assert len(pkts) == n * bursts, f"captured {len(pkts)} of {n * bursts}"
kmin, kmax = 12, 48          # in packets
def prob(b):
    return 0.0 if b <= kmin else 1.0 if b >= kmax else (b - kmin) / (kmax - kmin)
levels = {}                  # backlog level (packets) -> [marked, total, expected p]
for p in pkts:
    k = p["seq"] % n
    if k == 0:
        continue
    b = n - 1 - k if mode == "dequeue" else k - 1
    lv = levels.setdefault(b, [0, 0, prob(b)])
    lv[0] += p["ecn"] == 3
    lv[1] += 1
# Five bands of backlog: below kmin, three across the ramp, above kmax.
bands = [(0, kmin), (kmin + 1, 23), (24, 35), (36, kmax - 1), (kmax, n)]
bad = 0
prev = -1
for lo, hi in bands:
    m = sum(levels[b][0] for b in levels if lo <= b <= hi)
    t = sum(levels[b][1] for b in levels if lo <= b <= hi)
    e = sum(levels[b][2] * levels[b][1] for b in levels if lo <= b <= hi)
    frac, exp = m / t, e / t
    # 4 binomial standard deviations, at least 0.03.
    tol = max(0.03, 4 * (exp * (1 - exp) / t) ** 0.5)
    ok = abs(frac - exp) <= tol and frac >= prev - 0.02
    prev = frac
    bad += not ok
    print(f"# {mode}: backlog {lo:2d}-{hi:2d} pkts: marked {m:3d}/{t:3d} = {frac:.2f}"
          f" (ramp {exp:.2f} +- {tol:.2f}) {'ok' if ok else 'WRONG'}")
sys.exit(bad != 0)
PY
}

marked_before=$(qdisc_stat a veth0 ecn_marked)
out=$(run_bursts dequeue 0x02 "$BURSTS") || fail "dequeue bursts"
step "dequeue marking follows the ramp at five backlog levels" analyse "$out" dequeue
marks=$(grep -c '"ecn": 3' "$out")
step "ecn_marked counts the $marks CE packets that arrived" \
	test "$(( $(qdisc_stat a veth0 ecn_marked) - marked_before ))" -eq "$marks"

out=$(run_bursts enqueue 0x02 "$BURSTS") || fail "enqueue bursts"
step "enqueue marking follows the ramp on the backlog ahead" analyse "$out" enqueue
# The difference on a burst: dequeue marks its head, enqueue its tail.
step "dequeue marks the head of a burst, enqueue its tail" python3 - \
	"$TMPDIR_T/dequeue-0x02.json" "$TMPDIR_T/enqueue-0x02.json" "$N" <<'PY'
import json, sys
n = int(sys.argv[3])
def frac(f, lo, hi):
    p = [json.loads(l) for l in open(f)]
    p = [x for x in p if lo <= x["seq"] % n <= hi]
    return sum(x["ecn"] == 3 for x in p) / len(p)
dh, dt = frac(sys.argv[1], 1, 10), frac(sys.argv[1], n - 10, n - 1)
eh, et = frac(sys.argv[2], 1, 10), frac(sys.argv[2], n - 10, n - 1)
print(f"# first 10 / last 10 of a burst marked: dequeue {dh:.2f} / {dt:.2f},"
      f" enqueue {eh:.2f} / {et:.2f}")
sys.exit(not (dh == 1 and dt == 0 and eh == 0 and et == 1))
PY

marked_before=$(qdisc_stat a veth0 ecn_marked)
out=$(run_bursts dequeue 0x00 1) || fail "Not-ECT bursts"
step "Not-ECT packets are never marked" bash -c "! grep -q '\"ecn\": [13]' $out"
step "and not counted as marked" test "$(qdisc_stat a veth0 ecn_marked)" -eq "$marked_before"
exit 0
