#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# UC QPs (unreliable connected) through the stock rxe provider, between
# namespaces: ibv_uc_pingpong with its buffer check, perftest's
# ib_write_bw and ib_send_bw over UC (-c UC), then tools/testing/verbs_uc
# (uet0 to uet1 in one process: SENDs with immediate, WRITEs and WRITEs
# with immediate, each message its own bytes) on a clean path and through
# netem loss on veth0. A UC message arrives whole or not at all: every
# send completes with success, every receive completion holds exactly
# its message, a lost message completes nothing and its receive WQE
# serves the next; uet1 counts the messages it dropped (uc_msg_dropped).
# A capture of a pingpong decoded by tools/wireshark/uet.lua shows UC
# requests only.
# Nothing is retransmitted and nothing acknowledges UC (acks_sent and
# retransmits of both devices stay where they were).
. "$(dirname "$0")/lib.sh"

TOOL=$UET_TESTING_BIN/verbs_uc
[ -x "$TOOL" ] || skip "$TOOL not built (make -C tools)"
command -v ibv_uc_pingpong >/dev/null || skip "no ibv_uc_pingpong (ibverbs-utils)"
command -v ib_write_bw >/dev/null || skip "no perftest"
# shellcheck disable=SC2034 # PORT, RETRIES, PERF_OPTS: for perftest_pair
PORT=18515 RETRIES=4 PERF_OPTS="-c UC" ITERS=200 LOSS=5%
uet_pair
T=$(mktemp -d)
on_exit "rm -rf $T"
step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" wait_for 5 pair_gids
GID_A=$(ibdev_gid_index uet0 10.0.0.1)
GID_B=$(ibdev_gid_index uet1 10.0.0.2)

declare -A c0
for d in uet0 uet1; do
	for c in acks_sent retransmits drop_malformed uc_msg_dropped; do
		c0[$d.$c]=$(uet_counter $d $c) || fail "no counter $c on $d"
	done
done

# pingpong SIZE: ibv_uc_pingpong -c; its check prints what differs.
pingpong() {
	perftest_retry "$T/pp" ibv_uc_pingpong -c -s "$1" -n "$ITERS" || return 1
	if grep -q "invalid data" "$T/pp" "$T/pp.srv"; then
		echo "ibv_uc_pingpong -s $1: the data check failed"
		cat "$T/pp" "$T/pp.srv"
		return 1
	fi
	awk '/ bytes in / { b = $0 } / iters in / && $(NF - 1) + 0 > 0 { i = $0 }
		END { if (!b || !i) exit 1; print "# " b; print "# " i }' "$T/pp" ||
		{ echo "ibv_uc_pingpong: no result"; cat "$T/pp"; return 1; }
}

# bw TOOL SIZE: TOOL over UC; a nonzero rate is reported (perftest's MB/s
# is wrong under emulation: its clock is calibrated against a CPU that
# TCG slows down unevenly), and uet1 received at least the data packets.
bw() {
	local rx0 rx
	rx0=$(uet_counter uet1 rx_packets)
	perftest_retry "$T/bw" "$1" -s "$2" -n "$ITERS" || return 1
	rx=$(($(uet_counter uet1 rx_packets) - rx0))
	awk -v s="$2" -v t="$1" 'NF == 5 && $1 == s && $5 + 0 > 0 {
		printf "# %s -c UC: %s B, %s Mpps\n", t, $1, $5; ok = 1 }
		END { exit !ok }' "$T/bw" ||
		{ echo "$1 -s $2: no rate reported"; cat "$T/bw"; return 1; }
	echo "# uet1 received $rx packets"
	[ "$rx" -ge "$ITERS" ] || { echo "uet1 received $rx packets of $ITERS"; return 1; }
}

for s in 1 4096 20000; do
	step "ibv_uc_pingpong -c -s $s" pingpong $s
done

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
captured() { [ "$(pcap_frames "$T/uc.pcap")" -ge "$1" ]; }
# decode_uc: uet.lua (tshark) shows every captured frame as a RUD request
# with the UC flag (tools/wireshark/uet.lua); no ACK went either way.
decode_uc() {
	local bad u
	u=$(uet_proto 2>"$T/tshark.err") ||
		{ echo "tshark did not load uet.lua:"; cat "$T/tshark.err"; return 1; }
	uet_tshark -n -r - -T fields -e "$u.pds.type" -e "$u.pds.flags.uc" \
		<"$T/uc.pcap" >"$T/uc.decoded" 2>"$T/tshark.err" ||
		{ cat "$T/tshark.err"; return 1; }
	bad=$(awk '$1 != 2 || ($2 != 1 && $2 != "True")' "$T/uc.decoded" | wc -l)
	echo "# tshark: $(wc -l <"$T/uc.decoded") frames, $bad not UC requests"
	[ "$bad" -eq 0 ] && [ -s "$T/uc.decoded" ]
}
if command -v tshark >/dev/null && command -v tcpdump >/dev/null; then
	ip netns exec "$(ns_name b)" tcpdump -i veth1 -n -s 160 -B 65536 -Z root \
		--immediate-mode -U -w "$T/uc.pcap" udp port 4793 2>"$T/tcpdump.log" &
	cap=$!
	step "tcpdump listens on veth1" wait_for 30 grep -q 'listening on' "$T/tcpdump.log"
	step "ibv_uc_pingpong -c -s 4096, captured" pingpong 4096
	# Each exchange is at least a packet each way.
	step "tcpdump wrote the pingpong's frames" wait_for 30 captured $((2 * ITERS))
	kill -INT "$cap"
	wait "$cap"
	step "uet.lua decodes UC requests" decode_uc
else
	log "no tshark or tcpdump: the dissector's UC decode is not checked"
fi
step "ib_write_bw -c UC -s 65536" bw ib_write_bw 65536
# ib_send_bw's server waits for every message, and UC drops what a slow
# receiver misses (nothing paces the sender): on the debug kernel the
# client finished and the server waited until killed.
if stock_kernel; then
	step "ib_send_bw -c UC -s 4096" bw ib_send_bw 4096
else
	log "ib_send_bw -c UC: stock kernel only (an unpaced UC sender outruns the debug kernel)"
fi

# same DEV COUNTER: COUNTER of DEV did not change.
same() {
	local now
	now=$(uet_counter "$1" "$2")
	[ "$now" -eq "${c0[$1.$2]}" ] || { echo "$1 $2: ${c0[$1.$2]} -> $now"; return 1; }
}
for d in uet0 uet1; do
	for c in acks_sent retransmits drop_malformed; do
		step "$d: $c unchanged by UC" same $d $c
	done
done

# verbs_uc NAME: the tool's lines shown and kept in $T/NAME; fails if one
# of its checks did.
verbs_uc() {
	local rc=0
	"$TOOL" uet0 "$GID_A" uet1 "$GID_B" >"$T/$1" 2>&1 || rc=$?
	sed 's/^/# /' "$T/$1"
	return "$rc"
}
# received NAME KIND: messages of KIND the tool saw arrive in run NAME.
received() { awk -v k="$2:" '$1 == k { print $5 }' "$T/$1"; }

# late: UC packets that came after their message was ended or dropped.
drop0=$(uet_counter uet1 uc_msg_dropped) late0=$(uet_counter uet1 drop_out_of_window)
step "verbs_uc on a clean path" verbs_uc clean
# Not asserted: on a clean path a UC message is lost only if the host
# drops a packet or reorders one across a message boundary.
log "clean path: uet1 uc_msg_dropped +$(($(uet_counter uet1 uc_msg_dropped) - drop0))," \
	"drop_out_of_window +$(($(uet_counter uet1 drop_out_of_window) - late0))"
drop0=$(uet_counter uet1 uc_msg_dropped)
in_ns a tc qdisc add dev veth0 root netem loss "$LOSS" || fail "netem on veth0"
step "verbs_uc through netem loss $LOSS" verbs_uc loss
in_ns a tc qdisc del dev veth0 root
drops=$(($(uet_counter uet1 uc_msg_dropped) - drop0))
log "uet1 uc_msg_dropped: +$drops through loss;" \
	"SENDs received $(received loss SEND) of 300 (clean: $(received clean SEND))"
step "uet1 dropped incomplete messages through loss" test "$drops" -gt 0
step "some SENDs were lost through loss" test "$(received loss SEND)" -lt 300
exit 0
