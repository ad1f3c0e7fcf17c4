#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Trimmed packets: RDMA WRITEs from a to b through a sch_uet port with a
# small buffer and trimming on. The packets that do not fit reach b cut to
# their headers; b must NACK each at once, a must resend exactly those PSNs
# (and little else), and every byte must verify. A capture at b shows that
# each trimmed PSN arrives again whole. uet0 sends trains (GSO skbs of
# several packets): the port trims their packets one by one.
. "$(dirname "$0")/lib.sh"

# One WRITE in flight at a time, each a burst of 32 packets into a 16 KiB
# buffer drained at 50 Mbit/s: the tail of each burst is trimmed, the
# retransmissions fit in the priority band (as large as the buffer) and the
# trimmed headers in the trim band (a quarter of it), so that trimming is the
# only loss. The queue delay stays under 3 ms, within the receiver's
# reordering allowance (nack_reorder_us, uet dev show): longer, and packets held in
# the queue while retransmissions overtake them look lost.
RATE=50mbit LIMIT=16384 MSG=32K BYTES=4M TRIM_DSCP=30
# The debug kernel sends its bursts slower than the port drains them.
stock_kernel || skip "the debug kernel cannot fill the port"
sch_uet_load
uet_pair
# Bursts the port must cut, in trains: one path and no congestion control
# (lb single, cc none), which would otherwise shrink both.
in_ns a "$UET" dev set uet0 lb single cc none || fail "lb single, cc none on uet0"
T=$(mktemp -d)
on_exit "rm -rf $T"

# capture: every uet data packet arriving at b, one line each:
# "psn dscp flags payload_bytes pay_len", until $T/stop exists and the
# line is quiet. Its socket's drop count goes to $T/cap.drops.
capture() {
	in_ns b python3 - veth1 "$T" <<'PY'
import os, socket, struct, sys

iface, d = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
# Room for the whole run: the capture must not lose what it judges.
s.setsockopt(socket.SOL_SOCKET, 33, 64 << 20)  # SO_RCVBUFFORCE
s.bind((iface, 0))
s.settimeout(0.5)
open(f"{d}/cap.ready", "w").close()
with open(f"{d}/cap", "w") as out:
    while True:
        try:
            frame, addr = s.recvfrom(65535)
        except socket.timeout:
            if os.path.exists(f"{d}/stop"):
                break
            continue
        ip = frame[14:]
        if addr[2] == socket.PACKET_OUTGOING or len(ip) < 20 or ip[0] >> 4 != 4 or ip[9] != 17:
            continue
        udp = ip[(ip[0] & 15) * 4:]
        if len(udp) < 8 + 12 + 36 or struct.unpack("!H", udp[2:4])[0] != 4793:
            continue
        pds = udp[8:]
        prologue, psn = struct.unpack("!H2xI", pds[:8])
        if prologue >> 11 != 2:  # RUD request: data
            continue
        pay_len = struct.unpack("!I", pds[12 + 32:12 + 36])[0]
        out.write(f"{psn} {ip[1] >> 2} {prologue & 0x7f} {len(pds) - 48} {pay_len}\n")
# struct tpacket_stats: packets, drops
drops = struct.unpack("II", s.getsockopt(263, 6, 8))[1]  # SOL_PACKET, PACKET_STATISTICS
open(f"{d}/cap.drops", "w").write(f"{drops}\n")
PY
}

step "tc qdisc add dev veth0 root uet rate $RATE limit $LIMIT trim on" \
	in_ns a tc qdisc add dev veth0 root uet rate $RATE limit $LIMIT trim on \
	trim_size 128 trim_dscp $TRIM_DSCP

for d in uet0 uet1; do uet_counters $d >"$T/$d.before"; done
capture &
cap=$!
on_exit "touch $T/stop; wait $cap"
step "capture at b is listening" wait_for 30 test -e "$T/cap.ready"
step "$BYTES of RDMA WRITE through the port: every byte verified" \
	uet_verify b uet1 a uet0 10.0.0.2 "$T/verify" -o write -s $MSG -t 1 -b $BYTES -T 300
touch "$T/stop"
wait $cap
for d in uet0 uet1; do uet_counters $d >"$T/$d.after"; done

# moved DEV NAME: how much a counter of DEV moved during the run.
moved() {
	echo $(($(awk -v n="$2" '$1 == n { print $2 }' "$T/$1.after") -
		$(awk -v n="$2" '$1 == n { print $2 }' "$T/$1.before")))
}
trimmed=$(qdisc_stat a veth0 trimmed)
drop_trim=$(qdisc_stat a veth0 drop_trim)
drop_prio=$(qdisc_stat a veth0 drop_prio)
retx=$(moved uet0 retransmits)
log "qdisc: trimmed $trimmed, drop_trim $drop_trim, drop_prio $drop_prio"
for c in trimmed_received nacks_sent duplicates_received; do
	log "uet1 $c: $(moved uet1 $c)"
done
for c in retransmits retransmits_nack retransmits_sack retransmits_rto nacks_received; do
	log "uet0 $c: $(moved uet0 $c)"
done
log "uet0 sent $(moved uet0 tx_packets) packets in $(moved uet0 tx_skbs) skbs"
# 24 packets a WRITE, sent as trains the port cuts into packets: what it
# trims is a packet of a train, not the train.
step "uet0 sent trains (more than 2 packets per skb)" \
	test "$(moved uet0 tx_packets)" -gt $((2 * $(moved uet0 tx_skbs)))
step "the port trimmed packets" test "$trimmed" -gt 0
step "uet1 received trimmed packets" test "$(moved uet1 trimmed_received)" -gt 0
step "uet1 sent NACKs" test "$(moved uet1 nacks_sent)" -gt 0
step "uet0 retransmitted on NACK" test "$(moved uet0 retransmits_nack)" -gt 0

# psns: each trimmed PSN arrives again whole, after it was trimmed; what
# else was resent.
psns() {
	python3 - "$T/cap" "$TRIM_DSCP" "$1" <<'PY'
import sys

path, tdscp, qdisc_trimmed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
recs = [tuple(map(int, l.split())) for l in open(path)]
trimmed = [psn for psn, dscp, flags, got, pay_len in recs if dscp == tdscp or got < pay_len]
trimmed_psns = set()
whole_after = set()
for psn, dscp, flags, got, pay_len in recs:
    if dscp == tdscp or got < pay_len:
        trimmed_psns.add(psn)
    elif psn in trimmed_psns:
        whole_after.add(psn)
resent = [psn for psn, dscp, flags, got, pay_len in recs if flags & 0x10]
ntrim = len(trimmed)
print(f"# captured {len(recs)} data packets: {ntrim} trimmed ({len(trimmed_psns)} PSNs), "
      f"{len(resent)} resent ({len(set(resent))} PSNs)")
lost = sorted(set(trimmed_psns) - whole_after)
extra = sorted(set(resent) - set(trimmed_psns))
print(f"# trimmed PSNs never seen whole afterwards: {len(lost)} {lost[:10]}")
print(f"# resent PSNs that were never trimmed: {len(extra)} {extra[:10]}")
sys.exit(1 if lost or ntrim != qdisc_trimmed else 0)
PY
}
log "capture socket drops: $(cat "$T/cap.drops")"
step "capture lost nothing" test "$(cat "$T/cap.drops")" -eq 0
step "every trimmed PSN (as many as the port trimmed) arrived again whole" psns "$trimmed"

# Each packet the port trimmed or dropped may be resent once; a few more
# are tolerated: SACK loss detection may race a NACK for the same packet.
slack=$((2 + trimmed / 50))
allowed=$((trimmed + drop_trim + drop_prio + slack))
step "uet0 retransmits ($retx) <= trimmed + dropped by the port + $slack ($allowed)" \
	test "$retx" -le "$allowed"
exit 0
