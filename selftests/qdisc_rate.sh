#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_uet line rate: TCP goodput through "rate 20mbit" is 88-100 % of it
# (TCP/IP headers take about 4 %), and a rate the machine cannot keep up
# with shows as lateness in the statistics instead of passing silently.
. "$(dirname "$0")/lib.sh"

require_stock_kernel
ns_add a b
veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail "veth pair"
sch_uet_load

in_ns b iperf3 -s -D -I "$(mktemp -u)" >/dev/null || fail "iperf3 server"
on_exit "ip netns pids b | xargs -r kill"
wait_for 10 bash -c "in_ns b ss -ltn | grep -q ':5201 '" || fail "iperf3 server not listening"

step "tc qdisc add ... rate 20mbit" in_ns a tc qdisc add dev veth0 root uet rate 20mbit limit 64kb
bps=$(in_ns a iperf3 -c 10.0.0.2 -t 5 -J | python3 -c \
	'import json, sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))')
ratio=$(python3 -c "print(f'{$bps / 20e6:.3f}')")
log "TCP goodput through rate 20mbit: $bps bit/s = $ratio of the line rate"
step "goodput is 88-100 % of the line rate" python3 -c "import sys; sys.exit(not 0.88 <= $ratio <= 1.0)"
# Emulated timers fire late now and then; the line time lost must stay small.
late_ns=$(qdisc_stat a veth0 late_ns)
log "late packets: $(qdisc_stat a veth0 late), line time lost: $((late_ns / 1000000)) ms of 5 s"
step "the shaper kept up (under 5 % of line time lost)" test "$late_ns" -lt 250000000

step "tc qdisc change ... rate 40gbit" in_ns a tc qdisc change dev veth0 root uet rate 40gbit limit 4mb
bps=$(in_ns a iperf3 -c 10.0.0.2 -t 3 -P 4 -J | python3 -c \
	'import json, sys; print(int(json.load(sys.stdin)["end"]["sum_received"]["bits_per_second"]))')
log "TCP goodput asking for 40gbit: $bps bit/s"
late_ns=$(($(qdisc_stat a veth0 late_ns) - late_ns))
log "$(in_ns a tc -s qdisc show dev veth0 | grep late)"
step "an unsustainable rate shows as lateness (over 10 % of 3 s lost)" test "$late_ns" -gt 300000000
step "and tc -s says so" bash -c "in_ns a tc -s qdisc show dev veth0 | grep -q 'rate not sustained'"
exit 0
