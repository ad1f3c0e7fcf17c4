#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the VM of tools/bench/lbcc.sh: 64 KiB RDMA WRITEs from uet0 to
# uet1 under every load balancer of LBCC_LB (default "single spray reps")
# with every congestion control of LBCC_CC (default "none nscc dcqcn"),
# both devices set alike ("uet dev set DEV lb LB cc CC", each in its
# namespace), on each fabric of LBCC_FABRICS (default "veth spines"):
#
#   veth    selftests/lib.sh's uet_pair: uet0 in namespace a on veth0
#           (10.0.0.1), uet1 in b on veth1 (10.0.0.2); and iperf3 TCP
#           over the same veth (one stream per QP, 64 KiB writes), the
#           peer figure
#   spines  lib.sh's leaf_spine 4, unshaped: uet0 in a on a0 (10.0.1.1),
#           uet1 in b on b0 (10.0.2.1), the leaves spreading packets over
#           the 4 spines by their UDP source port (the entropy value);
#           uet-verify's TCP control channel takes a management link of
#           its own between the leaves (as in fabric-guest.sh), so that
#           the spines carry only the QPs' packets
#
# at each netdev MTU of LBCC_MTU (default 1500; every link of the fabric,
# both ends) and each QP count of LBCC_QPS (default 1); the devices'
# flowlet_pkts is LBCC_FLOWLET (default 0, flowcells, the devices' default;
# 1: per packet; uet-dev.rst).
#
# A WRITE is tools/verify/uet-verify's (every byte verified at uet1, both
# ends sleeping on completion events), timed by the wall clock from the
# client's start to its exit: perftest's MB/s are wrong under QEMU, and
# the client's setup (process start, TCP exchange, QP setup) is in that
# time. Each combination runs N (LBCC_BYTES, default 64M; K, M, G taken)
# and 4N bytes: the setup is the same in both, so the rate is
# (4N - N) / (t4N - tN). A run that outlasts LBCC_TIMEOUT (default 120 s)
# is stopped by uet-verify's own timeout, which says how many messages the
# server had verified: those bytes are what it did, and the rate is the
# same difference of bytes over time (est=diff), or, when the N run timed
# out too (the 4N run is then skipped), its bytes over its time, setup
# included (est=whole: a little low), or nothing done at all (est=none:
# below one message per run). A first small WRITE after each fabric or
# MTU change, not measured, resolves neighbours and warms the page cache.
#
# Once uet1 has received half the bytes of a run, "uet qp show dev uet0"
# (in a) samples the sender's QPs: the raw lines are kept ("# qp ..."),
# and the result line carries the first RC QP's congestion state of the
# 4N run (nscc: cwnd, max_wnd, linkspeed_mbps, base_rtt_ns; dcqcn:
# rate_mbps, max_rate_mbps; and the QP's srtt_us, from which NSCC sizes
# max_wnd). Both runs are sampled, so that the sample's cost cancels
# too. The result line also has what the devices counted over the 4N
# run (retransmits, probes, NACKs and CNPs at uet0; out-of-order,
# duplicate and trimmed packets at uet1), skbs, the data skbs uet0
# handed to IP per message (a train of up to train_pkts packets is one
# skb; lb spray and reps, at the default flowlet_pkts 1, put each packet
# on an entropy value of its own, so send no trains), and, on the
# spines, each spine's share of the bytes towards b (lib.sh's
# spine_bytes).
#
# Prints "# ..." progress and raw lines and one "result k=v ..." line per
# combination (lb=tcp for TCP); the host script makes the summary.
# shellcheck source=selftests/lib.sh
. "$(dirname "$0")/../../selftests/lib.sh"

FABRICS=${LBCC_FABRICS:-veth spines}
FLOWLET=${LBCC_FLOWLET:-0}
LBS=${LBCC_LB:-single spray reps}
CCS=${LBCC_CC:-none nscc dcqcn}
MTUS=${LBCC_MTU:-1500}
QPSS=${LBCC_QPS:-1}
TIMEOUT=${LBCC_TIMEOUT:-120}
TCP_SECS=10
SIZE=65536
SPINES=4
PORT=18515 IPERF_PORT=5201
HW=/sys/class/infiniband
T=$(mktemp -d)
on_exit "rm -rf $T"

# bytes_of SIZE: SIZE (a number with an optional K, M or G) in bytes.
bytes_of() {
	local n=${1%[KkMmGg]}
	[[ $n =~ ^[0-9]+$ ]] || fail "not a size: $1"
	case ${1: -1} in
	K | k) n=$((n << 10)) ;;
	M | m) n=$((n << 20)) ;;
	G | g) n=$((n << 30)) ;;
	esac
	echo "$n"
}
N=$(bytes_of "${LBCC_BYTES:-64M}")
[ "$N" -ge "$SIZE" ] || fail "LBCC_BYTES below one message"

# progress TEXT: a line on the console, for a step that takes a while.
progress() { echo "# ... $(date +%T) $*"; }

# shellcheck disable=SC2317 # called by wait_for
devs_ready() {
	ibdev_port_is uet0 PORT_ACTIVE && ibdev_port_is uet1 PORT_ACTIVE &&
		ibdev_gid_index uet0 "$ADDR_A" >/dev/null &&
		ibdev_gid_index uet1 "$ADDR_B" >/dev/null
}

# fabric_up veth|spines: the fabric, uet0 and uet1 on it; NSS the
# namespaces whose links take the MTU, ADDR_A and ADDR_B the devices'
# addresses.
fabric_up() {
	local i
	case $1 in
	veth)
		# shellcheck disable=SC2119 # IPv4 only
		uet_pair
		NSS="a b" ADDR_A=10.0.0.1 ADDR_B=10.0.0.2
		;;
	spines)
		leaf_spine $SPINES || fail "leaf-spine fabric"
		leaf_mgmt || fail "management link"
		uet_load
		in_ns a rdma link add uet0 type uet netdev a0 || fail "rdma link add uet0"
		in_ns b rdma link add uet1 type uet netdev b0 || fail "rdma link add uet1"
		NSS="a b l1 l2" ADDR_A=10.0.1.1 ADDR_B=10.0.2.1
		for ((i = 1; i <= SPINES; i++)); do NSS+=" s$i"; done
		;;
	*) fail "no such fabric: $1 (veth, spines)" ;;
	esac
	wait_for 10 devs_ready || fail "uet0 and uet1: ports not ACTIVE or no GIDs"
}

# fabric_down: the devices and the fabric's namespaces gone.
fabric_down() {
	local ns
	{ in_ns a rdma link delete uet0 && in_ns b rdma link delete uet1; } ||
		fail "rdma link delete"
	wait_for 10 ibdevs_gone uet0 uet1 || fail "uet0 or uet1 stays"
	for ns in $NSS; do
		ip netns del "$(ns_name "$ns")" || fail "ip netns del $ns"
	done
}

# active_mtu DEV: the port's active MTU, what uet-verify's QPs take.
active_mtu() {
	ibv_devinfo -d "$1" | sed -n 's/^[[:space:]]*active_mtu:[[:space:]]*\([0-9]*\).*/\1/p'
}
# shellcheck disable=SC2317 # called by wait_for
mtus_are() { [ "$(active_mtu uet0)" = "$1" ] && [ "$(active_mtu uet1)" = "$1" ]; }

# set_mtu MTU: every link of every namespace of the fabric at MTU; then
# waits for the devices' active MTU to follow (1024 at 1500, 4096 at 9000).
set_mtu() {
	local ns l want=1024
	for ns in $NSS; do
		for l in $(ns_ip "$ns" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
			[ "$l" = lo ] || ns_ip "$ns" link set dev "$l" mtu "$1" ||
				fail "$ns: mtu $1 on $l"
		done
	done
	[ "$1" -lt 9000 ] || want=4096
	wait_for 10 mtus_are $want ||
		log "active MTU $(active_mtu uet0) and $(active_mtu uet1), not $want"
}

# set_lbcc LB CC: both devices, with flowlet_pkts FLOWLET.
set_lbcc() {
	in_ns a "$UET" dev set uet0 lb "$1" cc "$2" flowlet_pkts "$FLOWLET" &&
		in_ns b "$UET" dev set uet1 lb "$1" cc "$2" flowlet_pkts "$FLOWLET"
}

# half_way: the client has ended, or uet1 has received HALF bytes (for
# wait_for: builtins only).
# shellcheck disable=SC2317 # called by wait_for
half_way() {
	local v
	pid_gone "$CLI" && return 0
	read -r v <"$HW/uet1/ports/1/hw_counters/rx_bytes" && [ "$v" -ge "$HALF" ]
}

# counters VAR: "retransmits probes_sent nacks_received cnps_received
# tx_skbs acks_sent nacks_sent" of uet0 and "out_of_order_received
# duplicates_received trimmed_received" of uet1, as one line.
counters() {
	local c v line=
	for c in retransmits probes_sent nacks_received cnps_received tx_skbs acks_sent \
		nacks_sent; do
		read -r v <"$HW/uet0/ports/1/hw_counters/$c" && line+=" $v"
	done
	for c in out_of_order_received duplicates_received trimmed_received; do
		read -r v <"$HW/uet1/ports/1/hw_counters/$c" && line+=" $v"
	done
	printf -v "$1" '%s' "${line# }"
}

# xfer BYTES: one WRITE of BYTES from uet0 to uet1 with QPS QPs; sets
# X_RC (the client's exit status), X_SECS (its wall time), X_DONE (the
# bytes the server verified: all, or at a timeout as many as the client
# last knew of), X_TOOL (uet-verify's own MB/s, "-" without) and X_QP
# (the sample of uet0's QPs, empty if the run ended first).
xfer() {
	local bytes=$1 srv rc src=0 t0 t1 v
	ip netns exec "$(ns_name b)" "$UET_VERIFY" -d uet1 -e -T $((TIMEOUT + 60)) \
		>"$T/srv" 2>&1 &
	srv=$!
	if ! wait_for 30 tcp_listens "$srv" $PORT; then
		kill "$srv"
		wait "$srv"
		echo "# the uet-verify server never listened:"
		sed 's/^/#   /' "$T/srv"
		return 1
	fi
	read -r v <"$HW/uet1/ports/1/hw_counters/rx_bytes"
	HALF=$((v + bytes / 2))
	rm -f "$T/end"
	# The client's wall time, taken by the job itself: the sample below
	# may outlast the client.
	{
		t0=$EPOCHREALTIME
		rc=0
		in_ns a "$UET_VERIFY" -d uet0 -e -o write -s $SIZE -b "$bytes" -q "$QPS" \
			-T "$TIMEOUT" "$ADDR_B" >"$T/cli" 2>&1 || rc=$?
		echo "$rc $t0 $EPOCHREALTIME" >"$T/end"
	} &
	CLI=$!
	X_QP=
	wait_for $((TIMEOUT + 30)) half_way
	pid_gone "$CLI" || X_QP=$(in_ns a "$UET" qp show dev uet0 2>&1)
	wait "$CLI"
	read -r X_RC t0 t1 <"$T/end"
	# A server whose client failed may wait for ever.
	[ "$X_RC" -eq 0 ] || wait_for 10 pid_gone "$srv" || kill "$srv" 2>/dev/null
	wait "$srv" || src=$?
	X_SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
	X_TOOL=$(sed -n 's/^op=write .* MBps=\([0-9.]*\) .*/\1/p' "$T/cli")
	X_TOOL=${X_TOOL:--}
	if [ "$X_RC" -eq 0 ] && [ "$src" -eq 0 ]; then
		X_DONE=$bytes
	elif [ "$X_RC" -eq 3 ]; then
		v=$(sed -n 's/.* server_verified=\([0-9]*\).*/\1/p' "$T/cli")
		X_DONE=$((${v:-0} * SIZE))
		echo "# timeout after $X_SECS s: $(grep timeout "$T/cli")"
	else
		echo "# uet-verify -b $bytes: client exit $X_RC, server exit $src"
		sed 's/^/#   client: /' "$T/cli"
		sed 's/^/#   server: /' "$T/srv"
		return 1
	fi
	printf '# run %s bytes: %s s, %s verified (uet-verify: %s MB/s)\n' \
		"$bytes" "$X_SECS" "$X_DONE" "$X_TOOL"
	[ -z "$X_QP" ] || printf '%s\n' "$X_QP" | sed 's/^/# qp /'
}

# cc_state QP_LINES: the first RC QP's congestion state, "k:v,k:v" ("-"
# if none).
cc_state() {
	printf '%s\n' "$1" | awk '
	/ type RC / && !done {
		done = 1
		n = split("cwnd max_wnd linkspeed_mbps base_rtt_ns srtt_us rate_mbps max_rate_mbps", want, " ")
		for (i = 1; i < NF; i++) v[$i] = $(i + 1)
		for (j = 1; j <= n; j++)
			if (want[j] in v) s = s (s == "" ? "" : ",") want[j] ":" v[want[j]]
	}
	END { print s == "" ? "-" : s }'
}

# combo LB CC: the two runs, N and 4N bytes, and the result line.
combo() {
	local lb=$1 cc=$2 rc1 s1 d1 rc4=- s4=- d4=0 tool=- qp='' k0 k1 b0='' b1=''
	set_lbcc "$lb" "$cc" || { echo "# uet dev set lb $lb cc $cc failed"; return 1; }
	xfer "$N" || return 1
	rc1=$X_RC s1=$X_SECS d1=$X_DONE
	if [ "$rc1" -eq 0 ]; then
		counters k0
		[ "$FABRIC" != spines ] || b0=$(spine_bytes $SPINES)
		xfer $((4 * N)) || return 1
		rc4=$X_RC s4=$X_SECS d4=$X_DONE tool=$X_TOOL qp=$X_QP
		[ "$FABRIC" != spines ] || b1=$(spine_bytes $SPINES)
		counters k1
	else
		# Timed out: no 4N run, which would time out the more.
		qp=$X_QP k0="0 0 0 0 0 0 0 0 0 0" k1=$k0
	fi
	awk -v fabric="$FABRIC" -v mtu="$MTU" -v qps="$QPS" -v lb="$lb" -v cc="$cc" \
		-v n="$N" -v rc1="$rc1" -v s1="$s1" -v d1="$d1" -v rc4="$rc4" -v s4="$s4" \
		-v d4="$d4" -v tool="$tool" -v k0="$k0" -v k1="$k1" -v b0="$b0" -v b1="$b1" \
		-v ccs="$(cc_state "$qp")" -v timeout="$TIMEOUT" -v size=$SIZE 'BEGIN {
		if (d4 > d1 && s4 > s1) { r = (d4 - d1) / (s4 - s1); est = "diff" }
		else if (d1 > 0) { r = d1 / s1; est = "whole" }
		else { r = size / timeout; est = "none" }
		split(k0, a); split(k1, b)
		nb = split(b0, x); split(b1, y)
		for (i = 1; i <= nb; i++) { sp[i] = y[i] - x[i]; tot += sp[i] }
		for (i = 1; i <= nb; i++)
			sh = sh (i > 1 ? "," : "") sprintf("%.1f", tot ? sp[i] * 100 / tot : 0)
		# Data skbs per message (a train is one skb).
		m = d4 / size
		skbs = m >= 1 ? sprintf("%.1f",
			(b[5] - a[5] - b[6] + a[6] - b[7] + a[7]) / m) : "-"
		r /= 1e6
		printf "result fabric=%s mtu=%s qps=%s lb=%s cc=%s MBps=%s est=%s n=%s " \
			"rc1=%s s1=%s d1=%s rc4=%s s4=%s d4=%s tool_MBps=%s retx=%d probes=%d " \
			"nacks=%d cnps=%d ooo=%d dup=%d trim=%d skbs=%s spines=%s ccstate=%s\n",
			fabric, mtu, qps, lb, cc, sprintf(r >= 0.1 ? "%.1f" : "%.4f", r), est, n,
			rc1, s1, d1, rc4, s4, d4,
			tool, b[1] - a[1], b[2] - a[2], b[3] - a[3], b[4] - a[4], b[8] - a[8],
			b[9] - a[9], b[10] - a[10], skbs, nb ? sh : "-", ccs
	}'
}

# tcp: iperf3 from a to b over the veth, one stream per QP, 64 KiB
# writes, TCP_SECS s (the first left out); the receiver's bytes over its
# seconds.
tcp() {
	local srv rc=0 mbps
	ip netns exec "$(ns_name b)" timeout 120 iperf3 -s -1 -p $IPERF_PORT >/dev/null 2>&1 &
	srv=$!
	wait_for 10 tcp_listens "$srv" $IPERF_PORT || { echo "# no iperf3 server"; return 1; }
	in_ns a timeout 120 iperf3 -c "$ADDR_B" -p $IPERF_PORT -t $((TCP_SECS + 1)) -O 1 \
		-l $SIZE -P "$QPS" -J >"$T/iperf3.json" 2>"$T/iperf3.err" || rc=$?
	wait "$srv"
	if [ "$rc" -ne 0 ]; then
		echo "# iperf3 failed:"
		sed 's/^/#   /' "$T/iperf3.err" "$T/iperf3.json"
		return 1
	fi
	mbps=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["end"]["sum_received"]
print("%.1f secs=%.1f bytes=%d" % (s["bytes"] / s["seconds"] / 1e6, s["seconds"], s["bytes"]))' \
		"$T/iperf3.json")
	echo "result fabric=$FABRIC mtu=$MTU qps=$QPS lb=tcp cc=- MBps=$mbps"
}

command -v iperf3 >/dev/null || fail "no iperf3"
[ -x "$UET_VERIFY" ] || fail "$UET_VERIFY not built (make -C tools)"
echo "# lbcc: N=$N bytes, timeout $TIMEOUT s a run; $(nproc) CPUs"
for FABRIC in $FABRICS; do
	progress "fabric $FABRIC"
	fabric_up "$FABRIC"
	for MTU in $MTUS; do
		set_mtu "$MTU"
		for QPS in $QPSS; do
			progress "$FABRIC, MTU $MTU, $QPS QP(s)"
			set_lbcc single none || fail "uet dev set"
			xfer $((4 * SIZE)) >"$T/first" || { cat "$T/first"; fail "the first WRITE"; }
			if [ "$FABRIC" = veth ]; then
				tcp || echo "# $FABRIC MTU $MTU $QPS QPs: TCP failed"
			fi
			for lb in $LBS; do
				for cc in $CCS; do
					progress "$FABRIC, MTU $MTU, $QPS QP(s): lb $lb cc $cc"
					combo "$lb" "$cc" ||
						echo "# $FABRIC MTU $MTU $QPS QPs lb $lb cc $cc failed"
				done
			done
		done
	done
	fabric_down
done
exit 0
