#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_uet trimming. A burst of UDP data larger than the buffer is queued
# while the port is paused: what does not fit is cut to trim_size bytes,
# re-marked with the trim DSCP and sent ahead of the queued data, with IP and
# UDP lengths and checksums valid (checked with scapy at the receiver), over
# IPv4 and IPv6. A control-DSCP packet also overtakes the data. With trimming
# off the same burst tail-drops.
. "$(dirname "$0")/lib.sh"

N=50 PORT=9000 TRIM=128 TRIM_DSCP=30 CTL_DSCP=48
DATA_TOS=$(((26 << 2) | 2))
veth_pair v6
sch_uet_load
# Checksums the receiver can verify: no checksum offload on the sending port.
in_ns a ethtool -K veth0 tx off >/dev/null || fail "ethtool -K veth0 tx off"
in_ns a ping -c1 -W2 10.0.0.2 >/dev/null || fail "no IPv4 path to b"
in_ns a ping -c1 -W2 fd00::2 >/dev/null || fail "no IPv6 path to b"
# The buffer holds 20 IPv4 data packets; the trim band a quarter of that.
step "tc qdisc add uet ... trim on" in_ns a tc qdisc add dev veth0 root uet \
	limit 20280 trim on trim_size "$TRIM" trim_dscp "$TRIM_DSCP" prio_dscp "$CTL_DSCP"
T=$(mktemp -d)
on_exit "rm -rf $T"

# burst DST NAME: N data packets and one control packet while paused, drained
# at 10mbit, captured at b into $T/NAME.json.
burst() {
	local dst=$1 out=$T/$2
	in_ns b python3 "$UET_UDP" capture veth1 "$PORT" --count $((N + 1)) \
		--timeout 60 --ready "$out.ready" --out "$out.cap" &
	wait_for 20 test -e "$out.ready" || return 1
	in_ns a tc qdisc change dev veth0 root uet rate 8bit
	in_ns a python3 "$UET_UDP" send "$dst" "$PORT" --count "$N" --size 972 --tos "$DATA_TOS"
	in_ns a python3 "$UET_UDP" send "$dst" "$PORT" --first 1000 --count 1 --size 972 \
		--tos $((CTL_DSCP << 2))
	in_ns a tc qdisc change dev veth0 root uet rate 10mbit
	wait_for 30 qdisc_idle a veth0 || return 1
	wait
	python3 "$UET_UDP" summary --checksums "$out.cap" >"$out.json"
}

# check FILE L3: every verdict on one capture.
check() {
	python3 - "$1" "$2" "$N" "$TRIM" "$TRIM_DSCP" "$CTL_DSCP" <<'PY'
import json, sys
f, l3, n, trim, tdscp, cdscp = sys.argv[1], *map(int, sys.argv[2:])
pkts = [json.loads(l) for l in open(f)]
ok = True
def expect(cond, what):
    global ok
    print(f"# {'ok' if cond else 'WRONG'}: {what}")
    ok &= bool(cond)
trimmed = [i for i, p in enumerate(pkts) if p["dscp"] == tdscp]
data = [i for i, p in enumerate(pkts) if p["dscp"] == 26]
ctl = [i for i, p in enumerate(pkts) if p["dscp"] == cdscp]
expect(len(pkts) == n + 1, f"all {n + 1} packets arrived ({len(pkts)})")
expect(trimmed and len(trimmed) + len(data) == n,
       f"{len(trimmed)} trimmed + {len(data)} whole data packets = {n}")
t = [pkts[i] for i in trimmed]
expect(all(p["ip_len"] == trim and p["ip_len_field"] == trim for p in t),
       f"trimmed packets are {trim} bytes of IP packet, length field included")
expect(all(p["udp_len"] == p["udp_bytes"] == trim - l3 for p in t),
       f"their UDP length is {trim - l3}, as many bytes as follow the IP header")
expect(all(p["ip_csum_ok"] and p["udp_csum_ok"] for p in t),
       "their IP and UDP checksums verify")
expect(all(p["ecn"] == 2 for p in t), "their ECN field is kept (ECT(0))")
expect(all(p["seq"] >= 19 for p in t), "only the packets that did not fit were trimmed")
w = [pkts[i] for i in data]
expect(all(p["ip_len"] == l3 + 8 + 972 and p["ip_csum_ok"] and p["udp_csum_ok"]
           for p in w), "whole data packets are intact")
# One data packet may leave as the pause starts; all others wait behind
# the trim and priority bands.
early = [i for i in data if i < max(trimmed + ctl)]
expect(len(early) <= 1, f"trimmed and control packets overtake the queued data "
       f"({len(early)} data packet ahead of them)")
expect(len(ctl) == 1, "the control packet arrived")
sys.exit(not ok)
PY
}

for fam in 4 6; do
	dst=10.0.0.2 l3=20
	[ $fam = 4 ] || dst=fd00::2 l3=40
	before_t=$(qdisc_stat a veth0 trimmed)
	before_d=$(qdisc_stat a veth0 drop_limit)
	step "IPv$fam burst of $N into a 20-packet buffer" burst "$dst" "v$fam"
	step "IPv$fam trimmed packets are well formed and served first" check "$T/v$fam.json" $l3
	n_t=$(grep -c "\"dscp\": $TRIM_DSCP" "$T/v$fam.json")
	step "IPv$fam: the trimmed counter matches the $n_t trimmed arrivals" \
		test $(($(qdisc_stat a veth0 trimmed) - before_t)) -eq "$n_t"
	step "IPv$fam: with trimming on, the data band tail-dropped nothing" \
		test "$(qdisc_stat a veth0 drop_limit)" -eq "$before_d"
done

in_ns a tc qdisc change dev veth0 root uet trim off
before_d=$(qdisc_stat a veth0 drop_limit)
in_ns a tc qdisc change dev veth0 root uet rate 8bit
in_ns a python3 "$UET_UDP" send 10.0.0.2 "$PORT" --count "$N" --size 972 --tos "$DATA_TOS"
in_ns a tc qdisc change dev veth0 root uet rate 10mbit
wait_for 30 qdisc_idle a veth0
dropped=$(($(qdisc_stat a veth0 drop_limit) - before_d))
log "trim off: $dropped of $N tail-dropped"
step "with trimming off the same burst tail-drops" test "$dropped" -ge $((N - 21))

# Under a classful parent, which counts each packet at the length it came
# with and takes off the length it leaves with: trimming must tell it.
# kind_stat KIND KEY: KEY of veth0's qdisc of KIND.
kind_stat() {
	in_ns a tc -s -j qdisc show dev veth0 | python3 -c '
import json, sys
print([q for q in json.load(sys.stdin) if q["kind"] == sys.argv[1]][0][sys.argv[2]])' "$@"
}
export -f kind_stat
step "sch_uet under prio" bash -c "
	in_ns a tc qdisc replace dev veth0 root handle 1: prio bands 2 \
		priomap 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 &&
	in_ns a tc qdisc add dev veth0 parent 1:1 handle 10: uet limit 20280 trim on \
		trim_size $TRIM trim_dscp $TRIM_DSCP rate 8bit"
in_ns a python3 "$UET_UDP" send 10.0.0.2 "$PORT" --count "$N" --size 972 --tos "$DATA_TOS"
in_ns a tc qdisc change dev veth0 parent 1:1 handle 10: uet rate 10mbit
step "the port under prio drained" wait_for 30 bash -c '[ "$(kind_stat uet qlen)" = 0 ]'
step "it trimmed the burst" test "$(kind_stat uet trimmed)" -ge $((N - 21))
step "prio's backlog is back to 0 bytes" \
	wait_for 5 bash -c '[ "$(kind_stat prio backlog)" = 0 ] && [ "$(kind_stat prio qlen)" = 0 ]'
exit 0
