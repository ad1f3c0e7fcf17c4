#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# sch_uet configuration through tc: every option is shown back as it was
# given (text and JSON), thresholds convert to the right byte counts,
# "change" alters only what it names, and bad values are refused with a
# message while the configuration stays as it was.
. "$(dirname "$0")/lib.sh"

ns_add a
in_ns a ip link add veth0 type veth peer name veth1
in_ns a ip link set veth0 up
sch_uet_load

show() { in_ns a tc qdisc show dev veth0; }
json() { in_ns a tc -j -s qdisc show dev veth0; }

step "tc qdisc add with every option" in_ns a tc qdisc add dev veth0 root uet \
	rate 20mbit limit 100kb kmin 750us kmax 80% pmax 50 ecn_mode dequeue \
	trim on trim_size 128 trim_dscp 30 prio_dscp 28,48
want="rate 20Mbit limit 100Kb kmin 750us kmax 80% pmax 50 ecn_mode dequeue trim on trim_size 128 trim_dscp 30 prio_dscp 28,48"
log "$(show)"
step "text output shows the options as given" bash -c "in_ns a tc qdisc show dev veth0 | grep -qF '$want'"
step "JSON output carries the same options" python3 -c '
import json, sys
q = [q for q in json.loads(sys.argv[1]) if q["kind"] == "uet"][0]
o = q["options"]
want = {"rate": 2500000, "limit": 102400, "kmin": "750us", "kmax": "80%", "pmax": 50,
        "ecn_mode": "dequeue", "trim": "on", "trim_size": 128, "trim_dscp": 30,
        "prio_dscp": "28,48"}
bad = {k: (o.get(k), v) for k, v in want.items() if o.get(k) != v}
print("# kmin_bytes", q["kmin_bytes"], "kmax_bytes", q["kmax_bytes"])
sys.exit(bool(bad) and print(bad) is None)' "$(json)"
# 750 us of 20 Mbit/s line time is 1875 bytes; 80 % of 100 KiB is 81920.
step "time and share thresholds convert to bytes" bash -c \
	"[ \"\$(qdisc_stat a veth0 kmin_bytes)\" = 1875 ] && [ \"\$(qdisc_stat a veth0 kmax_bytes)\" = 81920 ]"

step "change names one option" in_ns a tc qdisc change dev veth0 root uet kmin 10kb
want2=${want/kmin 750us/kmin 10Kb}
step "... and only that option changed" bash -c "in_ns a tc qdisc show dev veth0 | grep -qF '$want2'"
# Replacing a uet qdisc with a uet qdisc is a change: delete, then add.
in_ns a tc qdisc del dev veth0 root
step "tc qdisc add with no option" in_ns a tc qdisc add dev veth0 root uet
# limit: txqueuelen 1000 x (MTU 1500 + Ethernet header 14), as bfifo.
step "the defaults of a bare qdisc" bash -c "in_ns a tc qdisc show dev veth0 |
	grep -qF 'rate unlimited limit 1514000b kmin 20% kmax 80% pmax 100 ecn_mode dequeue trim off trim_size 128 trim_dscp 30 prio_dscp 28,48'"
step "tc qdisc replace with the full configuration" in_ns a tc qdisc replace dev veth0 root uet \
	rate 20mbit limit 100kb kmin 750us kmax 80% pmax 50 ecn_mode dequeue \
	trim on trim_size 128 trim_dscp 30 prio_dscp 28,48

# refused WHY ARGS...: the change fails, says something, changes nothing.
refused() {
	local why=$1 before after err
	shift
	before=$(show)
	if err=$(in_ns a tc qdisc change dev veth0 root uet "$@" 2>&1); then
		fail "accepted: $*"
	fi
	after=$(show)
	[ -n "$err" ] || fail "refused without a message: $*"
	[ "$before" = "$after" ] || fail "refused but changed: $*"
	log "ok: refused ($why): $* -> $(echo "$err" | head -n1)"
}
refused "kmin above kmax" kmin 90kb
refused "kmax above limit" kmax 200kb
refused "limit too small for kmin" limit 1kb
refused "time threshold without a rate" rate 0
refused "share above 100%" kmin 101%
refused "pmax above 100" pmax 101
refused "unknown ecn_mode" ecn_mode sideways
refused "trim is on or off" trim maybe
refused "trim_size below IPv4+UDP headers" trim_size 20
refused "trim_size beyond the trim band" trim_size 30000
refused "trim_dscp above 63" trim_dscp 64
refused "trim_dscp in the priority set" trim_dscp 48
refused "prio_dscp out of range" prio_dscp 1,99
refused "zero limit" limit 0
refused "unknown option" colour blue
refused "option without a value" kmin
step "the configuration is still the full one" bash -c "in_ns a tc qdisc show dev veth0 | grep -qF '$want'"
exit 0
