#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# How many paths hashing leaves idle: 8 QPs (one uet-verify with -q 8) over
# 8 equal spines. With lb single each QP is one flow, hashed onto one spine;
# balls into bins predicts 8 (1 - (1 - 1/8)^8) = 5.25 spines in use on
# average, so a run is repeated with fresh QPs (fresh QPNs, fresh hashes)
# and the mean is taken. With lb spray every spine carries an equal share.
. "$(dirname "$0")/lib.sh"

require_stock_kernel
# Which spines a run of lb single uses shows in 1 MiB (two 64 KiB
# messages per QP, each QP one flow) as well as in 4; spray's shares need
# the larger sample. 9 runs of 4M took 221 s.
SPINES=8 RUNS=8 SINGLE_BYTES=1M BYTES=4M EVS=4096
leaf_spine $SPINES || fail "leaf-spine fabric"
uet_load
in_ns a rdma link add uet0 type uet netdev a0 || fail "rdma link add uet0"
in_ns b rdma link add uet1 type uet netdev b0 || fail "rdma link add uet1"
T=$(mktemp -d)
on_exit "rm -rf $T"

# run LB BYTES: uet-verify WRITE over 8 QPs with lb LB; appends the bytes
# each spine carried to $T/LB.
run() {
	local lb=$1 before after
	# Many values per QP, so hashing them onto 8 spines is even (+- 1.5%),
	# and a value per packet, so that 4 MiB are thousands of draws.
	in_ns a "$UET" dev set uet0 lb "$lb" entropy_count $EVS flowlet_pkts 1 ||
		return 1
	before=$(spine_bytes $SPINES)
	uet_verify b uet1 a uet0 10.0.2.1 "$T/verify" -o write -q 8 -b "$2" -T 300 \
		>/dev/null || return 1
	after=$(spine_bytes $SPINES)
	python3 -c 'import sys
print(*[int(y) - int(x) for x, y in zip(sys.argv[1].split(), sys.argv[2].split())])' \
		"$before" "$after" >>"$T/$lb"
}

# used LB: per run, the spines that carried at least 5% of the bytes; the mean.
used() {
	python3 - "$T/$1" <<'PY'
import sys
runs = [[int(x) for x in l.split()] for l in open(sys.argv[1])]
used = [sum(b >= 0.05 * sum(r) for b in r) for r in runs]
print(f"spines used per run: {used}, mean {sum(used) / len(used):.2f}")
PY
}

for ((r = 1; r <= RUNS; r++)); do
	step "lb single, run $r: 8 QPs, $SINGLE_BYTES WRITE verified" run single "$SINGLE_BYTES"
done
log "$(used single)"
mean=$(used single | sed 's/.*mean //')
step "lb single: 4.25 .. 6.25 spines in use on average (5.25 expected)" \
	python3 -c "import sys; sys.exit(not 4.25 <= $mean <= 6.25)"
step "lb spray: 8 QPs, $BYTES WRITE verified" run spray "$BYTES"
log "spray per spine: $(python3 -c "import sys
r = [int(x) for x in open('$T/spray').read().split()]
print(' '.join(f'{b / sum(r) * 100:.1f}%' for b in r))")"
# Runs so far put 10.3..13.9% on a spine (lb single leaves some at 0%
# and puts 25% or more on others).
step "lb spray: each of the 8 spines carries 12.5% +- 25% of it" \
	python3 -c "import sys
r = [int(x) for x in open('$T/spray').read().split()]
sys.exit(not all(abs(b / sum(r) - 0.125) <= 0.03125 for b in r))"
exit 0
