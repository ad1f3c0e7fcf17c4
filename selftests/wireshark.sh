#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector (tools/wireshark/uet.lua) against uet's own
# counters: RDMA WRITEs from a to b through a sch_uet port that trims (as in
# verbs_trim), with every 40th first transmission dropped on arrival at b,
# captured by tcpdump at b and decoded by tshark. What the decode counts
# (data packets, retransmissions, trimmed packets, NACK TRIMMED, ACK_CCX)
# must be what the devices counted, and every PSN an ACK's SACK bitmap
# acknowledges (as the dissector expands it) must have arrived whole before.
#
# Where: on veth1, in b. uet0 sends trains (GSO skbs); sch_uet on veth0
# cuts them into packets, so what crosses the cable, and what tcpdump sees
# at b, is one uet packet per datagram (veth1 has no GRO, which could join
# them again: a joined datagram would break the exact counts below). b's
# own ACKs and NACKs go out one per skb. The loss is an ingress filter of
# b's, which acts after packet sockets took their copy: the capture sees
# what the port sent, b's device what the filter let through.
. "$(dirname "$0")/lib.sh"

# The port as verbs_trim sets it up (the bursts of 32K WRITEs overflow a
# 16 KiB buffer drained at 50 Mbit/s, the tail of each is trimmed), and
# DSCP 26 (first transmissions; ECN bits aside) dropped one in DROP_EVERY.
RATE=50mbit LIMIT=16384 MSG=32K BYTES=512K TRIM_DSCP=30 DROP_EVERY=40
command -v tshark >/dev/null || skip "no tshark (Debian package tshark)"
command -v tcpdump >/dev/null || skip "no tcpdump (Debian package tcpdump)"
stock_kernel || skip "the debug kernel cannot fill the port"
modprobe -a sch_ingress cls_u32 act_gact || skip "no sch_ingress, cls_u32 or act_gact"
sch_uet_load
uet_pair
T=$(mktemp -d)
on_exit "rm -rf $T"

# tshark_run ARGS...: tshark with the dissector (uet_tshark) on the
# capture; its warnings in $T/tshark.err.
tshark_run() {
	uet_tshark -n -r - "$@" <"$T/uet.pcap" 2>"$T/tshark.err"
}
# U: the prefix of the dissector's fields (uet_proto).
U=$(uet_proto 2>"$T/tshark.err") ||
	fail "tshark did not load uet.lua: $(cat "$T/tshark.err")"

step "tc qdisc add dev veth0 root uet rate $RATE limit $LIMIT trim on" \
	in_ns a tc qdisc add dev veth0 root uet rate $RATE limit $LIMIT trim on \
	trim_size 128 trim_dscp $TRIM_DSCP
step "drop every ${DROP_EVERY}th first transmission arriving at b" \
	in_ns b bash -c "tc qdisc add dev veth1 ingress &&
		tc filter add dev veth1 ingress protocol ip prio 1 u32 \
			match ip tos 0x68 0xfc action gact ok random determ drop $DROP_EVERY"

# 160 bytes a frame hold every header (Ethernet 14, IPv4 20, UDP 8, PDS
# 12 to 40, verbs 36); pcap keeps each frame's length on the wire, from
# which the dissector tells a trimmed packet. -Z root: tcpdump writes
# into $T as root, not as the user it would drop to. --immediate-mode and
# -U: every frame reaches the file as it comes (libpcap's default ring
# hands frames over a block at a time, and a block not yet handed over
# when tcpdump is stopped is lost without a "dropped" count: seen in CI,
# four frames in five missing).
log "setup: $SECONDS s"
ip netns exec "$(ns_name b)" tcpdump -i veth1 -n -s 160 -B 65536 -Z root \
	--immediate-mode -U -w "$T/uet.pcap" udp port 4793 2>"$T/tcpdump.log" &
cap=$!
on_exit "kill $cap"
step "tcpdump listens on veth1" wait_for 30 grep -q 'listening on' "$T/tcpdump.log"

for d in uet0 uet1; do uet_counters $d >"$T/$d.before"; done
log "capture started: $SECONDS s"
step "$BYTES of RDMA WRITE through the port: every byte verified" \
	uet_verify b uet1 a uet0 10.0.0.2 "$T/verify" -o write -s $MSG -t 1 -b $BYTES -T 300
# The last ACK uet-verify's sender waited for is not the last packet:
# its second copy, a needless resend still queued at the port, a
# receive pass on the other CPU may come after it (a make check counted
# 1319 frames and tcpdump saw 1321). The counters are read once the
# packets of both devices stop moving for half a second.
moved() {
	echo $(($(uet_counter uet0 tx_packets) + $(uet_counter uet0 rx_packets) +
		$(uet_counter uet1 tx_packets) + $(uet_counter uet1 rx_packets)))
}
quiet() {
	local before
	before=$(moved)
	nap 0.5
	[ "$(moved)" = "$before" ]
}
step "the devices' packet counters settle" wait_for 30 quiet
for d in uet0 uet1; do uet_counters $d >"$T/$d.after"; done
log "transfer done: $SECONDS s"

# M[DEV.NAME]: how much a counter of DEV moved during the transfer (in
# the shell: the emulated VM pays 0.1 s for each program it starts).
declare -A M
for d in uet0 uet1; do
	while read -r c v; do M[$d.$c]=$((-v)); done <"$T/$d.before"
	while read -r c v; do M[$d.$c]=$((M[$d.$c] + v)); done <"$T/$d.after"
done
# What the port dropped of uet's packets: all its drops but those of
# packets it cannot trim (not UDP: uet-verify's TCP connection).
read -r qtrimmed qdrops < <(in_ns a tc -s -j qdisc show dev veth0 | python3 -c '
import json, sys
q = [q for q in json.load(sys.stdin) if q["kind"] == "uet"][0]
print(q["trimmed"], q["drops"] - q["drop_notrim"])')
log "qdisc: trimmed $qtrimmed, dropped $qdrops of uet's packets"
fdrops=$(in_ns b tc -s filter show dev veth1 ingress |
	sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | head -n1)
log "ingress filter at b: ${fdrops:=0} dropped"

# pcap_frames FILE: the whole frames FILE holds so far (a pcap file in
# this machine's byte order: a 24-byte header, then per frame a 16-byte
# header whose third word is the length kept).
pcap_frames() {
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
n, off = 0, 24
while off + 16 <= len(d):
    off += 16 + struct.unpack_from("=I", d, off + 8)[0]
    n += off <= len(d)
print(n)
PY
}
# captured N: tcpdump has written at least N frames.
captured() { [ "$(pcap_frames "$T/uet.pcap")" -ge "$1" ]; }
# The capture at veth1 sees what b sent and everything of a's that arrived,
# the filter's drops too; b's answers to a's base-RTT probes are not in
# its tx_packets. Waiting for fewer frames than tcpdump takes stops it
# while it still writes the last ones (1268 written of 1269 taken).
want=$((${M[uet1.tx_packets]} + ${M[uet1.rx_packets]} + fdrops + \
	${M[uet1.probes_answered]}))
step "tcpdump wrote the $want frames b sent and received" \
	wait_for 60 captured $want
kill -INT "$cap"
wait "$cap"
log "tcpdump: $(grep packets "$T/tcpdump.log" | paste -sd,)"
for c in tx_packets acks_sent nacks_sent cnps_sent probes_sent retransmits \
	retransmits_sack retransmits_nack retransmits_rto; do
	log "uet0 $c: ${M[uet0.$c]}"
done
for c in rx_packets trimmed_received nacks_sent acks_sent probes_answered; do
	log "uet1 $c: ${M[uet1.$c]}"
done
# UET_WIRESHARK_PCAP=FILE keeps the capture (in the VM, under /mnt) for
# a look at it elsewhere.
[ -z "${UET_WIRESHARK_PCAP:-}" ] || cp "$T/uet.pcap" "$UET_WIRESHARK_PCAP"
# lost_nothing: tcpdump wrote every frame its filter took, and the kernel
# dropped none for want of room.
lost_nothing() {
	local got took
	got=$(sed -n 's/^\([0-9]*\) packets captured$/\1/p' "$T/tcpdump.log")
	took=$(sed -n 's/^\([0-9]*\) packets received by filter$/\1/p' "$T/tcpdump.log")
	[ -n "$got" ] && [ "$got" = "$took" ] &&
		grep -q '^0 packets dropped by kernel' "$T/tcpdump.log"
}
step "tcpdump lost nothing" lost_nothing

start=$SECONDS
tshark_run -T fields -E separator=/t -E occurrence=a \
	-E aggregator=, -e frame.number -e ip.src -e "$U.pds.type" \
	-e "$U.pds.flags" -e "$U.pds.psn" -e "$U.verbs.trimmed" -e "$U.pds.ctl_type" \
	-e "$U.pds.nack.code" -e "$U.pds.cack_psn" -e "$U.pds.ack.sack_psn" \
	>"$T/decoded" || fail "tshark: $(cat "$T/tshark.err")"
log "tshark decoded $(wc -l <"$T/decoded") frames in $((SECONDS - start)) s"

# What the decode shows, "kind number" a line: a's packets (but probes
# and their answers, which tx_packets does not count), data packets,
# retransmissions, trimmed packets, NACKs, ACK_CCX, ACKs with a SACK bitmap,
# and PSNs a bitmap acknowledged that had not arrived whole.
python3 - "$T/decoded" >"$T/counts" <<'PY' || fail "decoding: $(cat "$T/counts")"
import sys

A, B = "10.0.0.1", "10.0.0.2"
n = {k: 0 for k in ("undecoded", "a_pkts", "a_probes", "data", "retx",
                    "trimmed", "nack", "nack_trimmed", "ack_ccx",
                    "ack_sack", "sack_psns", "sack_unseen")}
sample = {}     # kind: the first frame of it, for a decode in the log
whole = set()   # PSNs that arrived whole so far, in capture order
unseen = []
for line in open(sys.argv[1]):
    frame, src, types, flags, psns, trimmed, ctl, code, cack, sack = \
        (line.rstrip("\n").split("\t") + [""] * 10)[:10]
    if not types:
        n["undecoded"] += 1
        continue
    types = [int(t) for t in types.split(",")]
    flags = [int(x, 16) for x in flags.split(",")]
    if src == A:
        # A probe is CONTROL type 6, its answer a plain ACK.
        probe = types[0] == 7 or (types[0] == 11 and ctl == "6")
        n["a_probes" if probe else "a_pkts"] += len(types)
    for i, t in enumerate(types):
        if t == 2 and src == A:
            n["data"] += 1
            n["retx"] += bool(flags[i] & 0x10)
            # A boolean is 1 to tshark 4.0, True to 4.4.
            if trimmed.split(",")[i] in ("1", "True"):
                n["trimmed"] += 1
            else:
                whole.add(int(psns.split(",")[i]))
        elif t == 10 and src == B:
            n["nack"] += 1
            if int(code, 16) == 1:
                n["nack_trimmed"] += 1
                sample.setdefault("sample_nack_trimmed", frame)
        elif t == 9 and src == B:
            n["ack_ccx"] += 1
            acked = [int(p) for p in sack.split(",") if p]
            n["ack_sack"] += bool(acked)
            if acked:
                sample.setdefault("sample_ack_sack", frame)
            n["sack_psns"] += len(acked)
            missing = [p for p in acked if p not in whole]
            n["sack_unseen"] += len(missing)
            if missing and len(unseen) < 5:
                unseen.append(f"frame {frame} acknowledges {missing}")
for k, v in list(n.items()) + list(sample.items()):
    print(k, v)
for u in unseen:
    print("#", u)
PY
declare -A D
while read -r k v; do [ "$k" = "#" ] || D[$k]=$v; done <"$T/counts"
for k in data retx trimmed nack nack_trimmed ack_ccx ack_sack sack_psns a_probes; do
	log "decoded $k: ${D[$k]}"
done

# equal DECODED EXPECTED
equal() {
	[ "$1" -eq "$2" ] || { echo "decoded $1, uet counted $2"; return 1; }
}
step "every captured frame decoded as uet" equal "${D[undecoded]}" 0
step "a's packets on the cable + the port's drops = uet0 tx_packets" \
	equal $((${D[a_pkts]} + qdrops)) "${M[uet0.tx_packets]}"
step "data packets + the port's drops = uet0 tx_packets - its ACKs, NACKs and CNPs" \
	equal $((${D[data]} + qdrops)) $((${M[uet0.tx_packets]} -
		${M[uet0.acks_sent]} - ${M[uet0.nacks_sent]} - ${M[uet0.cnps_sent]}))
step "a's packets on the cable - what b's filter dropped = uet1 rx_packets" \
	equal $((${D[a_pkts]} + ${D[a_probes]} - fdrops)) "${M[uet1.rx_packets]}"
# A retransmission the port dropped is counted by uet0 and not seen.
retx=${M[uet0.retransmits]}
step "retransmissions (RETX) = uet0 retransmits, within the port's $qdrops drops" \
	test "${D[retx]}" -le "$retx" -a "$retx" -le $((${D[retx]} + qdrops))
step "trimmed packets = uet1 trimmed_received" \
	equal "${D[trimmed]}" "${M[uet1.trimmed_received]}"
step "NACK TRIMMED = uet1 trimmed_received" \
	equal "${D[nack_trimmed]}" "${M[uet1.trimmed_received]}"
step "NACKs = uet1 nacks_sent" equal "${D[nack]}" "${M[uet1.nacks_sent]}"
step "ACK_CCX = uet1 acks_sent" equal "${D[ack_ccx]}" "${M[uet1.acks_sent]}"
step "there was loss, trimming and retransmission" \
	test "$fdrops" -gt 0 -a "${D[trimmed]}" -gt 0 -a "${D[retx]}" -gt 0 \
	-a "${D[ack_sack]}" -gt 0
step "every PSN a SACK bitmap acknowledges arrived whole before the ACK" \
	bash -c "grep '^#' '$T/counts'; test '${D[sack_unseen]}' -eq 0"

# What a reader of the log can check the decode by: one ACK_CCX with a
# SACK bitmap and one NACK TRIMMED, in full.
for k in sample_ack_sack sample_nack_trimmed; do
	log "decode of frame ${D[$k]} ($k):"
	log "$(tshark_run -Y "frame.number == ${D[$k]}" -V -O "$U")"
done
exit 0
