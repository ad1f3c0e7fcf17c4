#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_uet attaches as the root qdisc of a port, forwards traffic through
# its queue (counted), and detaches and unloads cleanly.
. "$(dirname "$0")/lib.sh"

veth_pair
sch_uet_load

step "tc qdisc add ... root uet" in_ns a tc qdisc add dev veth0 root handle 1: uet
step "tc shows the uet qdisc" bash -c 'in_ns a tc qdisc show dev veth0 | grep -q "qdisc uet 1: root"'
step "ping through the queue" in_ns a ping -c 20 -i 0.01 -W 2 10.0.0.2
sent=$(in_ns a tc -j -s qdisc show dev veth0 | python3 -c \
	'import json,sys; print([q for q in json.load(sys.stdin) if q["kind"] == "uet"][0]["packets"])')
log "packets through the queue: $sent"
step "at least the 20 echo requests went through the queue" test "$sent" -ge 20
step "tc qdisc del" in_ns a tc qdisc del dev veth0 root
step "rmmod sch_uet" rmmod sch_uet
exit 0
