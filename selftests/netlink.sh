#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "uet" generic netlink family through the uet command: every device
# parameter round-trips (text and JSON); invalid values are refused with a
# message and change nothing; without CAP_NET_ADMIN nothing can be set
# (devices, QPs, paths) and QPs show no PSNs; a device, its QPs, paths
# and events are visible only from its own network namespace;
# "uet qp show" follows an
# ib_write_bw run (PSNs advance, bytes in flight), a second QP to the
# same peer starts from the RTT the first measured, and "uet tune" sizes
# a port from the RTT its QPs measured; "uet monitor" reports
# the QP error when the peer goes away; the uet tracepoints fire
# during a lossy transfer, one uet_retransmit per counted retransmission.
. "$(dirname "$0")/lib.sh"

uet_pair
T=$(mktemp -d)
on_exit "rm -rf $T"

# dev_json NS DEV: the device as "uet -j dev show DEV" in NS prints it.
dev_json() { in_ns "$1" "$UET" -j dev show "$2"; }

# jfield KEY: KEY of the first object of the JSON array on stdin.
jfield() { python3 -c 'import json, sys; print(json.load(sys.stdin)[0][sys.argv[1]])' "$1"; }

# dev_params NS DEV: "NAME VALUE" for each numeric parameter the kernel
# describes, a value of its range other than the default.
dev_params() {
	in_ns "$1" "$UET" -j -d dev show "$2" | python3 -c 'import json, sys
for n, p in json.load(sys.stdin)[0]["params"].items():
    print(n, p["default"] + 1 if p["default"] < p["max"] else p["default"] - 1)'
}

# roundtrip: every numeric parameter the kernel lists, and cc and lb, set
# at once; show gives each back, text and JSON.
roundtrip() {
	local i name val text json
	local -a params
	read -ra params <<<"$(dev_params a uet0 | tr '\n' ' ')"
	# At least the 19 numeric parameters uet-dev.rst listed first.
	[ ${#params[@]} -ge 38 ] || { echo "only ${#params[@]} words: ${params[*]}"; return 1; }
	params+=(cc dcqcn lb spray)
	in_ns a "$UET" dev set uet0 "${params[@]}" || return 1
	text=$(in_ns a "$UET" dev show uet0) || return 1
	json=$(dev_json a uet0) || return 1
	for ((i = 0; i < ${#params[@]}; i += 2)); do
		name=${params[i]} val=${params[i + 1]}
		grep -Eq "(^|[[:space:]])$name $val([[:space:]]|$)" <<<"$text" ||
			{ echo "text: $name is not $val"; echo "$text"; return 1; }
	done
	# One interpreter for all of them: each start costs a second when
	# emulated.
	python3 -c 'import json, sys
d, bad = json.loads(sys.argv[1])[0], 0
for name, val in zip(sys.argv[2::2], sys.argv[3::2]):
    if str(d.get(name)) != val:
        print("JSON: %s is not %s" % (name, val))
        bad = 1
sys.exit(bad)' "$json" "${params[@]}" || { echo "$json"; return 1; }
	echo "# ${#params[@]} words set, each shown back"
}

# details: -d shows each parameter's range, default and when it applies.
details() {
	local text
	text=$(in_ns a "$UET" -d dev show uet0) || return 1
	grep -Eq "^ +mpr [0-9]+ \(1\.\.4096, default 256, new QPs\)$" <<<"$text" &&
		grep -Eq "^ +dscp_data [0-9]+ \(0\.\.63, default 26, at once\)$" <<<"$text" ||
		{ echo "$text"; return 1; }
}

# ccparam: a congestion control parameter round-trips too.
ccparam() {
	in_ns a "$UET" dev set uet0 cc nscc cc-param base_rtt_us 500 \
		cc-param dcqcn.rp_ai_rate_mbps 7 || return 1
	in_ns a "$UET" dev show uet0 | grep -q "cc-param base_rtt_us 500" ||
		{ echo "text: no cc-param base_rtt_us 500"; return 1; }
	dev_json a uet0 | python3 -c 'import json, sys
p = json.load(sys.stdin)[0]["cc_params"]
sys.exit(not (p["nscc"]["base_rtt_us"] == 500 and p["dcqcn"]["rp_ai_rate_mbps"] == 7))'
}

# refused PARAM VALUE...: the set fails with a message from the kernel,
# and the device shows exactly what it showed before.
refused() {
	local before after out
	before=$(dev_json a uet0)
	if out=$(in_ns a "$UET" dev set uet0 "$@" 2>&1); then
		echo "uet dev set uet0 $* succeeded"
		return 1
	fi
	after=$(dev_json a uet0)
	echo "# $*: $out"
	grep -q "Error: ." <<<"$out" || { echo "no message from the kernel"; return 1; }
	[ "$before" = "$after" ] || { echo "the device changed"; return 1; }
}

step "uet dev show in a lists uet0 bound to veth0" \
	bash -c "[ \"\$(in_ns a $UET -j dev show | python3 -c \
		'import json, sys; print(\" \".join(d[\"dev\"] + \":\" + d[\"netdev\"] for d in json.load(sys.stdin)))')\" = uet0:veth0 ]"
defaults=$(dev_json a uet0)
described=$(in_ns a "$UET" -j -d dev show uet0)
step "every parameter round-trips" roundtrip
step "-d shows ranges and defaults" details
range_told() {
	local out
	! out=$(in_ns a "$UET" dev set uet0 mpr 5000 2>&1) &&
		grep -q "Error: parameter value out of range (valid: 1..4096)" <<<"$out" &&
		echo "# $out"
}
step "a value out of range is refused with the range" range_told
step "cc-params round-trip" ccparam
bad_sets=("dscp_data 64" "mpr 0" "mpr 5000" "ack_every 0" "ack_delay_us 0"
	"dupthresh 65" "rto_min_us 999" "rto_linear 17" "entropy_count 0" "entropy_count 16385"
	"rto_min_us 5000000" "rto_max_us 19999" "cc cubic" "lb ecmp"
	"reps_ring 33" "train_pkts 0" "train_pkts 65" "flowlet_pkts 65" "cc-param base_rtt_us 1000001"
	"cc-param no_such_param 1" "no_such_param 1" "ack_every 4 dscp_data 99")
# The debug kernel takes 5-10 s per command: there, a rule between two
# parameters, a cc-param and a set that fails half-way.
stock_kernel ||
	bad_sets=("rto_max_us 19999" "cc-param base_rtt_us 1000001" "ack_every 4 dscp_data 99")
for bad in "${bad_sets[@]}"; do
	# shellcheck disable=SC2086 # word splitting makes the arguments
	step "refused, nothing changed: $bad" refused $bad
done
unknown() {
	local out
	! out=$(in_ns a "$UET" dev show uet9 2>&1) &&
		grep -q "Error: no such uet device" <<<"$out" && echo "# $out"
}
step "an unknown device is refused with a message" unknown

# Permissions and namespaces, which no traffic changes: on stock only.
if stock_kernel; then
	ack_every=$(dev_json a uet0 | jfield ack_every)
	step "without CAP_NET_ADMIN, uet dev set is refused" \
		bash -c "in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups \
			$UET dev set uet0 ack_every 4 2>&1 | grep -q 'Operation not permitted'"
	step "... and changed nothing" test "$(dev_json a uet0 | jfield ack_every)" = "$ack_every"
	step "without CAP_NET_ADMIN, uet dev show works" \
		in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups "$UET" dev show uet0

	step "namespace b sees uet1 only" \
		test "$(in_ns b "$UET" -j dev show | python3 -c \
			'import json, sys; print(" ".join(d["dev"] for d in json.load(sys.stdin)))')" = uet1
	step_fails "namespace b cannot show uet0" in_ns b "$UET" dev show uet0
	step_fails "namespace b cannot set uet0" in_ns b "$UET" dev set uet0 ack_every 4
	step "the initial namespace sees no uet device" \
		test "$("$UET" -j dev show)" = "[]"
fi

# Back to the defaults for the traffic below.
restore() {
	local args
	args=$(python3 -c 'import json, sys
d = json.loads(sys.argv[1])[0]
keys = list(json.loads(sys.argv[2])[0]["params"]) + ["cc", "lb"]
cc = [f"cc-param {a}.{n} {v}" for a, ps in d.get("cc_params", {}).items()
      for n, v in ps.items()]
print(" ".join([f"{k} {d[k]}" for k in keys] + cc))' "$defaults" "$described") || return 1
	# shellcheck disable=SC2086
	in_ns a "$UET" dev set uet0 $args && [ "$(dev_json a uet0)" = "$defaults" ]
}
step "the defaults are restored" restore

GID_A=$(ibdev_gid_index uet0 10.0.0.1) || fail "no GID for 10.0.0.1 on uet0"
GID_B=$(ibdev_gid_index uet1 10.0.0.2) || fail "no GID for 10.0.0.2 on uet1"

# qp_sample: "snd_nxt inflight_bytes" of uet0's RC QP, if it has one,
# from the text output (python3 takes the debug kernel 5 s to start).
qp_sample() {
	local line
	while read -r line; do
		[[ $line =~ \ type\ RC\ .*\ snd_nxt\ ([0-9]+)\ .*\ inflight_bytes\ ([0-9]+) ]] || continue
		echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
		return 0
	done < <(in_ns a "$UET" qp show dev uet0)
	return 1
}

# qp_follows: over successive samples, snd_nxt advances and some sample
# has bytes in flight.
qp_follows() {
	local s first nxt bytes advanced=0 inflight=0 n=0 deadline=$((SECONDS + 60))
	wait_for 30 qp_sample || {
		echo "no RC QP on uet0"
		in_ns a "$UET" qp show dev uet0
		cat "$T/bw" "$T/bw.srv"
		return 1
	}
	s=$(qp_sample)
	read -r first _ <<<"$s"
	while [ "$SECONDS" -lt "$deadline" ]; do
		s=$(qp_sample) || break
		read -r nxt bytes <<<"$s"
		n=$((n + 1))
		[ "$nxt" = "$first" ] || advanced=1
		[ "$bytes" -eq 0 ] || inflight=1
		[ $advanced = 0 ] || [ $inflight = 0 ] || break
	done
	echo "# $n samples: snd_nxt $first -> $nxt, bytes in flight seen: $inflight"
	[ $advanced = 1 ] && [ $inflight = 1 ]
}

# Events stay in their namespace: a monitor in b, shown to listen by
# uet1's port going down and up (veth1 bounced until it hears it; uet0's
# port follows its peer, in a), must hear nothing of uet0 then or when
# a's QP fails below.
if stock_kernel; then
	in_ns b "$UET" -j monitor >"$T/mon_b" 2>&1 &
	mon_b=$!
	on_exit "kill $mon_b 2>/dev/null; wait $mon_b 2>/dev/null"
	bounce() {
		ns_ip b link set veth1 down && ns_ip b link set veth1 up &&
			grep -q '"dev":"uet1"' "$T/mon_b"
	}
	step "namespace b's monitor hears uet1's port events" wait_for 20 bounce
	step "both ports are active again" wait_for 20 pair_active
fi

# Long enough to still run when the peer goes away below, on the debug
# kernel too; both are killed after that.
ip netns exec "$(ns_name b)" ib_write_bw --use_old_post_send -d uet1 -x "$GID_B" \
	-s 65536 -D 600 >"$T/bw.srv" 2>&1 &
srv=$!
on_exit "kill $srv 2>/dev/null; wait $srv 2>/dev/null"
bw_listens() { wait_for 30 tcp_listens "$srv" 18515 || { cat "$T/bw.srv"; false; }; }
step "ib_write_bw server listens" bw_listens
in_ns a ib_write_bw --use_old_post_send -d uet0 -x "$GID_A" -s 65536 -D 600 \
	10.0.0.2 >"$T/bw" 2>&1 &
cli=$!
on_exit "kill $cli 2>/dev/null; wait $cli 2>/dev/null"
step "uet qp show: during ib_write_bw, snd_nxt advances and bytes are in flight" qp_follows

# A QP to a peer that another QP of the device measured starts from the
# peer's measurements: the server of a second ib_write_bw, on a, only
# receives (RTR), so takes no sample of its own (min_rtt_us 0), yet
# shows an RTT and a rate, those the first QP measured.
ip netns exec "$(ns_name a)" ib_write_bw --use_old_post_send -d uet0 -x "$GID_A" \
	-p 18516 -s 65536 -D 600 >"$T/bw2.srv" 2>&1 &
srv2=$!
on_exit "kill $srv2 2>/dev/null; wait $srv2 2>/dev/null"
bw2_listens() { wait_for 30 tcp_listens "$srv2" 18516 || { cat "$T/bw2.srv"; false; }; }
step "a second ib_write_bw server listens, on a" bw2_listens
in_ns b ib_write_bw --use_old_post_send -d uet1 -x "$GID_B" -p 18516 -s 65536 \
	-D 600 10.0.0.1 >"$T/bw2" 2>&1 &
cli2=$!
on_exit "kill $cli2 2>/dev/null; wait $cli2 2>/dev/null"
seeded_qp() {
	in_ns a "$UET" -j qp show dev uet0 | python3 -c 'import json, sys
rc = [q for q in json.load(sys.stdin)
      if q.get("type") == "RC" and q.get("state") in ("RTR", "RTS")]
rx = [q for q in rc if q["snd_nxt"] == q["snd_una"] and not q["min_rtt_us"]]
for q in rx:
    print("# qpn %d: min_rtt_us 0, meas_rtt_ns %d meas_rate_mbps %d" %
          (q["qpn"], q["cc_stats"]["meas_rtt_ns"], q["cc_stats"]["meas_rate_mbps"]))
sys.exit(not (len(rc) >= 2 and rx and
              all(q["cc_stats"]["meas_rtt_ns"] > 0 and
                  q["cc_stats"]["meas_rate_mbps"] > 0 and
                  q["cc_stats"]["peer_rtt_ns"] > 0 for q in rx)))'
}
peer_seeded() {
	wait_for 60 seeded_qp || {
		in_ns a "$UET" qp show dev uet0
		cat "$T/bw2" "$T/bw2.srv"
		return 1
	}
	seeded_qp
}
step "uet qp show: a receiving QP to the same peer starts with its measured RTT" peer_seeded
kill "$cli2" "$srv2" 2>/dev/null
wait "$cli2" "$srv2" 2>/dev/null

# Authority over live QPs and paths, which the traffic gives: a's RC QP.
if stock_kernel; then
	qp_lb() {
		in_ns a "$UET" -j qp show dev uet0 qpn "$QPN" | python3 -c \
			'import json, sys; print(json.load(sys.stdin)[0]["lb"])'
	}
	denied() { in_ns a "$UET" -j path show dev uet0 state denied; }
	QPN=$(in_ns a "$UET" -j qp show dev uet0 | python3 -c 'import json, sys
print(next(q["qpn"] for q in json.load(sys.stdin) if q.get("type") == "RC"))')
	lb=$(qp_lb) denied0=$(denied)
	unpriv() {
		in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups "$UET" "$@" 2>&1 |
			grep -q 'Operation not permitted'
	}
	other=single
	[ "$lb" != single ] || other=spray
	step "without CAP_NET_ADMIN, uet qp set is refused" \
		unpriv qp set dev uet0 qpn "$QPN" lb $other
	step "without CAP_NET_ADMIN, uet path set is refused" \
		unpriv path set dev uet0 entropy 1 deny
	step "... and changed nothing" test "$(qp_lb)" = "$lb" -a "$(denied)" = "$denied0"
	step "without CAP_NET_ADMIN, uet qp show works" \
		in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups "$UET" qp show dev uet0
	# psns_hidden: the RC QP's line shows no PSN to an unprivileged user
	# (they would let a forger aim at its window), all the rest; root
	# sees them.
	psns_hidden() {
		local user root
		user=$(in_ns a setpriv --reuid=65534 --regid=65534 --clear-groups \
			"$UET" qp show dev uet0 qpn "$QPN") || return 1
		root=$(in_ns a "$UET" qp show dev uet0 qpn "$QPN") || return 1
		echo "# unprivileged: $user"
		[[ $user =~ \ inflight_pkts\ [0-9]+\  ]] &&
			! [[ $user =~ snd_una|snd_nxt|rcv_nxt ]] &&
			[[ $root =~ \ snd_una\ [0-9]+\ snd_nxt\ [0-9]+\ rcv_nxt\ [0-9]+\  ]] ||
			{ echo "# root: $root"; return 1; }
	}
	step "without CAP_NET_ADMIN, uet qp show shows no PSNs" psns_hidden
	# DCQCN reports the most values of the algorithms: all of them
	# reach uet qp show, the measured ones first, the last one too.
	dcqcn_stats() {
		in_ns a "$UET" qp set dev uet0 qpn "$QPN" cc dcqcn || return 1
		in_ns a "$UET" -j qp show dev uet0 qpn "$QPN" | python3 -c 'import json, sys
q = json.load(sys.stdin)[0]
s = q["cc_stats"]
print("#", q["cc"], len(s), "values")
sys.exit(not (q["cc"] == "dcqcn" and
              all(k in s for k in ("meas_rtt_ns", "rate_mbps", "quiet_rounds",
                                   "ai_rate_kbps", "time_reset_us"))))'
	}
	step "uet qp set ... cc dcqcn: uet qp show lists every DCQCN value" dcqcn_stats
	step "namespace b lists uet1's QPs only" bash -c \
		"in_ns b '$UET' -j qp show | python3 -c 'import json, sys
qps = json.load(sys.stdin)
sys.exit(not qps or any(q[\"dev\"] != \"uet1\" for q in qps))'"
	step_fails "namespace b cannot set uet0's QP" \
		in_ns b "$UET" qp set dev uet0 qpn "$QPN" lb $other
	step "namespace b lists no path of uet0" bash -c \
		"! in_ns b '$UET' path show | grep -q uet0"

	# uet tune: a port sized by the rules of admin-guide/sizing.rst,
	# from an RTT given or the least uet0's QPs measured; applied by tc.
	step "uet tune: nscc's port for 40 Mbit/s and 21 ms is 1 BDP, ECN 20-80 %, trimming" \
		bash -c "'$UET' tune rate 40mbit rtt 21ms | grep -qx 'qdisc rate 40mbit limit 105000 kmin 20% kmax 80% trim on'"
	step "uet tune: dcqcn's is 2.5 RTT, ECN from 0.75 to 1.5 RTT, no trimming" \
		bash -c "'$UET' -j tune rate 40mbit rtt 21000 cc dcqcn | grep -q '\"qdisc\":\"rate 40mbit limit 262500 kmin 15750us kmax 31500us pmax 100 trim off\"'"
	step "uet tune: dcqcn's ramp starts at 5 packets on a short path (2 ms at 40 Mbit/s)" \
		bash -c "'$UET' tune rate 40mbit rtt 2ms cc dcqcn | grep -qx 'qdisc rate 40mbit limit 70063 kmin 4203us kmax 8407us pmax 100 trim off'"
	step_fails "uet tune: a rate without a unit it knows is refused" \
		"$UET" tune rate 40xbit rtt 21ms
	step_fails "uet tune: an RTT over 10 s is refused" "$UET" tune rate 40mbit rtt 11s
	step_fails "uet tune: rtt and dev together are refused" \
		in_ns a "$UET" tune rate 40mbit rtt 21ms dev uet0
	# tune_measured: uet tune's RTT is a QP's meas_rtt_ns, its BDP that
	# RTT at 10 Gbit/s; it names the QP and the port speed that QP's
	# congestion control runs on. (The two dumps are apart in time, and a
	# QP's windowed minimum may move between them: within a factor 2.)
	tune_measured() {
		local tune qps
		tune=$(in_ns a "$UET" -j tune rate 10gbit dev uet0) || return 1
		qps=$(in_ns a "$UET" -j qp show dev uet0) || return 1
		python3 -c 'import json, sys
t, qps = json.loads(sys.argv[1]), json.loads(sys.argv[2])
rtts = {q["qpn"]: q["cc_stats"]["meas_rtt_ns"] for q in qps
        if q.get("cc_stats", {}).get("meas_rtt_ns")}
m = t["measured_by"]
print("# rtt_ns", t["rtt_ns"], "bdp_bytes", t["bdp_bytes"], "of", len(rtts),
      "QPs; measured by", m)
sys.exit(not (m["qpn"] in rtts and m["link_mbps"] > 0 and
              rtts[m["qpn"]] / 2 <= t["rtt_ns"] <= rtts[m["qpn"]] * 2 and
              abs(t["bdp_bytes"] - 10e9 / 8 * t["rtt_ns"] / 1e9) <= 1))' "$tune" "$qps"
	}
	step "uet tune dev uet0: the RTT a QP measured, with what its cc runs on" tune_measured
	sch_uet_load
	step "a dummy port d0" ns_ip a link add d0 type dummy
	tuned() {
		in_ns a "$UET" tune rate 40mbit rtt 21ms apply d0 >/dev/null &&
			in_ns a tc -j qdisc show dev d0 | python3 -c 'import json, sys
q = json.load(sys.stdin)[0]
sys.exit(not (q["kind"] == "uet" and q["options"]["limit"] == 105000))'
	}
	step "uet tune ... apply d0: tc set d0's qdisc as printed" tuned
	step_fails "uet tune ... apply to a netdev that does not exist fails" \
		in_ns a "$UET" tune rate 40mbit rtt 21ms apply nosuchdev
	# Its qdisc holds sch_uet: gone with d0 now, the module unloads at
	# the end, before namespace a (whose teardown waits for uet0's)
	# would let it go.
	step "d0 deleted" ns_ip a link del d0
fi

# The peer goes away mid-transfer: a's QP exhausts its retries.
in_ns a "$UET" -j monitor >"$T/mon" 2>&1 &
mon=$!
on_exit "kill $mon 2>/dev/null; wait $mon 2>/dev/null"
step "short retransmit timeouts on uet0" \
	in_ns a "$UET" dev set uet0 rto_min_us 1000 rto_max_us 20000 rto_linear 0
step "the peer's link goes down" ns_ip b link set veth1 down
qp_error() { grep -q '"event":"qp".*"state":"ERR"' "$T/mon"; }
step "uet monitor reports the QP error" wait_for 60 qp_error
log "$(head -n3 "$T/mon")"
if stock_kernel; then
	step "namespace b's monitor heard nothing of uet0" bash -c "! grep -q uet0 '$T/mon_b'"
	log "$(head -n2 "$T/mon_b")"
	kill "$mon_b" 2>/dev/null
	wait "$mon_b" 2>/dev/null
fi
kill "$cli" "$srv" "$mon" 2>/dev/null
wait "$cli" "$srv" "$mon" 2>/dev/null
step "the peer's link comes back" ns_ip b link set veth1 up
step "the defaults are restored" restore

# Tracepoints during a lossy transfer: one uet_retransmit event for each
# retransmission the counters count.
TR=/sys/kernel/tracing
[ -e $TR/events ] || mount -t tracefs nodev $TR || fail "no tracefs"
[ -e $TR/events/uet ] || fail "no uet trace events in $TR/events"
modprobe sch_netem || skip "no sch_netem"
in_ns a tc qdisc add dev veth0 root netem loss 5% || fail "netem"
# No command names recorded: that hooks the scheduler's own tracepoints,
# patching the text of __schedule() while every CPU runs it, which has
# hung the emulated machine (testing.rst, "Tracepoints under QEMU").
echo 0 >$TR/options/record-cmd
echo 8192 >$TR/buffer_size_kb
echo >$TR/trace
echo 1 >$TR/events/uet/uet_retransmit/enable
echo 1 >$TR/events/uet/uet_nack/enable
on_exit "echo 0 >$TR/events/uet/enable; echo >$TR/trace"
# Some 50 retransmissions in 1 MiB, which is what the debug kernel moves
# in 4 to 10 s. In single packets: netem drops a train whole, and 1 MiB in
# trains is some 50 data skbs, which 5% loss all spared in a make check
# (0.95^50 = 8%).
lossy=4M
stock_kernel || lossy=1M
for d in a:uet0 b:uet1; do
	in_ns "${d%:*}" "$UET" dev set "${d#*:}" train_pkts 1 || fail "train_pkts 1 on ${d#*:}"
done
before=$(($(uet_counter uet0 retransmits) + $(uet_counter uet1 retransmits)))
step "$lossy WRITE over 5% loss: every byte verified" \
	uet_verify b uet1 a uet0 10.0.0.2 "$T/verify" -o write -b "$lossy" -T 300
echo 0 >$TR/events/uet/enable
retx=$(($(uet_counter uet0 retransmits) + $(uet_counter uet1 retransmits) - before))
events=$(grep -c ' uet_retransmit: ' $TR/trace)
log "retransmits counted: $retx; uet_retransmit events: $events"
log "$(grep -m1 ' uet_retransmit: ' $TR/trace)"
step "uet_retransmit fired, once per counted retransmission" \
	test "$retx" -gt 0 -a "$events" -eq "$retx"
# The first resend of a packet is its second transmission.
step "uet_retransmit numbers transmissions from 2" eval \
	"grep -q ' uet_retransmit: .* transmission 2\$' $TR/trace &&
	! grep -q ' uet_retransmit: .* transmission [01]\$' $TR/trace"
step "trace shows no lost events" test "$(cat $TR/per_cpu/cpu*/stats |
	awk '/^overrun:/ { n += $2 } END { print n + 0 }')" -eq 0
exit 0
