#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Helpers for uet selftests. A test sources this file, runs its steps, and
# exits 0 (pass), 1 (fail) or $KSFT_SKIP. Hosts are network namespaces;
# everything a test creates is removed on exit.

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

# Where the built modules are: the tree itself for the stock kernel, a build
# directory for the debug kernel (set by tools/testing/check.sh).
UET_SELFTESTS=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
UET_KO_DIR=${UET_KO_DIR:-$UET_SELFTESTS/..}
UET_KO=$UET_KO_DIR/net/uet/rdma_uet.ko
UET_TEST_KO=$UET_KO_DIR/net/uet/rdma_uet_test.ko
UET_SCH_KO=$UET_KO_DIR/net/sched/sch_uet.ko
# The tools the tests run, the tree's (make -C tools) unless the
# environment names others, as UET_KO_DIR does for the modules: the uet
# command, uet-verify, and the directory of the test programs
# (qp_lifecycle, verbs_forge, ...). UET_TOOLS_DIR names another build of
# all of tools/ (the Debian 13 host's, vm/trixie-build.sh).
UET_TOOLS_DIR=${UET_TOOLS_DIR:-$UET_SELFTESTS/../tools}
UET=${UET:-$UET_TOOLS_DIR/uet/uet}
UET_VERIFY=${UET_VERIFY:-$UET_TOOLS_DIR/verify/uet-verify}
UET_TESTING_BIN=${UET_TESTING_BIN:-$UET_TOOLS_DIR/testing}

# Hosts are named a, b, sw, s1, ... in the tests; the namespace of host
# NAME is NAME-SUFFIX, one random SUFFIX per test run (as setup_ns of the
# kernel's selftests/net/lib.sh), so that a test never meets a namespace
# that was there before it, the machine's or another run's. Exported:
# in_ns runs in "bash -c" steps too.
UET_NS_SUFFIX=$(mktemp -u XXXXXX)
export UET_NS_SUFFIX
_uet_netns=()
_uet_cleanups=()

log() { printf '%s\n' "$*" | sed 's/^/# /'; }

fail() {
	echo "# FAIL: $*"
	exit "$KSFT_FAIL"
}

skip() {
	echo "# SKIP: $*"
	exit "$KSFT_SKIP"
}

# Run a step; a failing step fails the test with its output shown. A
# passing step shows its seconds and only its lines that start with "#"
# (its measurements).
step() {
	local desc=$1 out start=$SECONDS
	shift
	if out=$("$@" 2>&1); then
		log "ok: $desc ($((SECONDS - start)) s)"
		printf '%s\n' "$out" | sed -n 's/^# /#   /p'
	else
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/#   /'
		fail "$desc"
	fi
}

# The step must fail (a refused command); its message is shown.
step_fails() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		[ -z "$out" ] || printf '%s\n' "$out" | sed 's/^/#   /'
		fail "$desc (unexpectedly succeeded)"
	fi
	log "ok: $desc: $(printf '%s' "$out" | head -n1)"
}

# nap SECONDS: sleep without starting a program (a start costs the
# emulated VM 0.1 s, the debug kernel 0.5 s): read times out on a pipe
# that no one writes to, opened read-write so that it never ends. Without
# /dev/fd (process substitution), sleep.
_uet_nap_fd=
{ exec {_uet_nap_fd}<> <(:); } 2>/dev/null
nap() {
	if [ -n "$_uet_nap_fd" ]; then
		read -r -t "$1" -u "$_uet_nap_fd" _ || true
	else
		sleep "$1"
	fi
}

# wait_for SECONDS CMD...: poll CMD every 50 ms until it succeeds.
wait_for() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@" >/dev/null 2>&1; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		nap 0.05
	done
}

# pid_gone PID: the process has ended (for wait_for, without a shell). A
# child of this shell that ended stays a zombie, which kill -0 would
# still find, until the shell reaps it: bash may defer that until it next
# forks or waits, which a poll of builtins never does.
pid_gone() {
	local stat
	read -r stat <"/proc/$1/stat" 2>/dev/null || return 0
	# "PID (COMM) STATE ...": COMM may hold spaces and parentheses.
	stat=${stat##*) }
	[ "${stat%% *}" = Z ]
}

# on_exit CMD: run CMD (a string) at exit, last registered first.
on_exit() { _uet_cleanups=("$1" "${_uet_cleanups[@]}"); }

_uet_cleanup() {
	local c ns
	for c in "${_uet_cleanups[@]}"; do eval "$c" >/dev/null 2>&1; done
	for ns in "${_uet_netns[@]}"; do ip netns del "$ns" 2>/dev/null; done
}
trap _uet_cleanup EXIT

# ns_add NAME...: fresh namespaces for hosts NAME..., with lo up
# (perftest's TCP handshake needs it).
ns_add() {
	local ns
	for ns in "$@"; do
		ns=$ns-$UET_NS_SUFFIX
		ip netns add "$ns" || fail "ip netns add $ns"
		_uet_netns+=("$ns")
		ip -n "$ns" link set lo up
	done
}

# in_ns NAME CMD...: CMD in the network namespace of host NAME. nsenter
# only enters it; "ip netns exec" also makes a mount namespace with a
# sysfs of its own, which triples the cost of a start (in the stock VM
# 0.18 s against 0.57 s, where /bin/true takes 0.11 s; the debug kernel
# some 1.4 s a start, hundreds of them a suite).
in_ns() {
	local ns=$1
	shift
	nsenter --net="/run/netns/$ns-$UET_NS_SUFFIX" "$@"
}

# in_ns_sys NAME CMD...: as in_ns, for a CMD that reads the namespace's
# network devices under /sys/class/net, which the mount of sysfs shows
# from the namespace that mounted it.
in_ns_sys() {
	local ns=$1
	shift
	ip netns exec "$ns-$UET_NS_SUFFIX" "$@"
}

# ns_name NAME: the namespace of host NAME, for what must name it itself:
# ip netns pids or del, a /run/netns path, and a command started in the
# background whose pid is killed: "ip netns exec "$(ns_name b)" CMD &"
# leaves CMD's pid in $!, "in_ns b CMD &" that of a shell running in_ns.
ns_name() { printf '%s\n' "$1-$UET_NS_SUFFIX"; }

# ns_ip NAME ARGS...: "ip -n" for host NAME. "in_ns NAME ip ARGS" does
# the same with two programs started (ip netns exec, then ip), and each
# start costs the emulated VM about 0.1 s, the debug kernel more: the
# fabrics below run dozens.
ns_ip() {
	local ns=$1
	shift
	ip -n "$ns-$UET_NS_SUFFIX" "$@"
}

# slow_kernel_rto NS:DEV...: on the debug kernel, retransmit timeouts ten
# times the defaults. It processes some 130 packets a second, so the
# packets of 8 QPs in the receive backlog wait there seconds: 50 ms RTOs
# then fire while nothing is lost, the copies deepen the queue, and
# 7 retries (6.4 s at the defaults) ran out (ib_write_bw -q 8, RETRY_EXC).
slow_kernel_rto() {
	local d
	stock_kernel && return 0
	for d in "$@"; do
		in_ns "${d%%:*}" "$UET" dev set "${d#*:}" \
			rto_min_us 500000 rto_max_us 8000000 || fail "longer RTOs on ${d#*:}"
	done
}

# veth_pair [v6]: hosts a (10.0.0.1 on veth0) and b (10.0.0.2 on veth1) on
# one cable; v6 adds fd00::1/64 and fd00::2/64 (nodad: usable at once).
veth_pair() {
	ns_add a b
	veth_link a veth0 10.0.0.1/24 b veth1 10.0.0.2/24 || fail "veth pair"
	if [ "${1:-}" = v6 ]; then
		ns_ip a addr add fd00::1/64 dev veth0 nodad &&
			ns_ip b addr add fd00::2/64 dev veth1 nodad || fail "IPv6 addresses"
	fi
}

# pair_active, pair_gids: uet_pair's ports are ACTIVE; they have the GIDs
# of the pair's IPv4 addresses (for wait_for, without a shell).
pair_active() { ibdev_port_is uet0 PORT_ACTIVE && ibdev_port_is uet1 PORT_ACTIVE; }
pair_gids() {
	ibdev_gid_index uet0 10.0.0.1 >/dev/null && ibdev_gid_index uet1 10.0.0.2 >/dev/null
}

# uet_pair [v6]: veth_pair's hosts and cable, with uet0 on veth0 and uet1
# on veth1, both ports ACTIVE; v6 also waits for uet1's IPv6 GID.
uet_pair() {
	veth_pair "${1:-}"
	uet_load
	in_ns a rdma link add uet0 type uet netdev veth0 || fail "rdma link add uet0"
	in_ns b rdma link add uet1 type uet netdev veth1 || fail "rdma link add uet1"
	# A veth's carrier comes up through linkwatch, some time after "ip
	# link set up": a verbs program started at once found the port DOWN.
	wait_for 10 pair_active || fail "the ports of uet0 and uet1 never became ACTIVE"
	[ "${1:-}" != v6 ] || wait_for 10 ibdev_gid_index uet1 fd00::2 ||
		fail "no IPv6 GID on uet1"
}

# shown CMD...: CMD, every line of its output shown (as measurements,
# which step shows of a passing command); CMD's status.
shown() {
	local out rc=0

	out=$("$@" 2>&1) || rc=$?
	printf '%s\n' "$out" | sed 's/^/# /'
	return "$rc"
}

# reordered_run TOOL ROUNDS WHAT REFUSED: the one-process test TOOL run
# as "TOOL uet0 GID uet1 GID ROUNDS" between uet_pair's devices, as step
# WHAT, uet0 sending single packets through netem on veth0 that holds
# each 0 to 10 ms, so that packets overtake those held longer; then
# packets did arrive out of order at uet1, and it counted at least
# REFUSED requests in drop_access.
reordered_run() {
	local ooo_was drops_was ooo drops

	step "GIDs of 10.0.0.1 and 10.0.0.2 are in the tables" \
		wait_for 5 pair_gids
	step "uet0 sends single packets" in_ns a "$UET" dev set uet0 train_pkts 1
	step "netem reorders on veth0" \
		in_ns a tc qdisc add dev veth0 root netem delay 5ms 5ms
	ooo_was=$(uet_counter uet1 out_of_order_received)
	drops_was=$(uet_counter uet1 drop_access)
	step "$3" shown "$1" uet0 "$(ibdev_gid_index uet0 10.0.0.1)" \
		uet1 "$(ibdev_gid_index uet1 10.0.0.2)" "$2"
	ooo=$(($(uet_counter uet1 out_of_order_received) - ooo_was))
	drops=$(($(uet_counter uet1 drop_access) - drops_was))
	log "uet1 out_of_order_received: +$ooo, drop_access: +$drops"
	step "packets did overtake others" test "$ooo" -gt 0
	step "the responder counted the $4 refused request(s)" test "$drops" -ge "$4"
}

# leaf_spine N: hosts a (10.0.1.1 on a0) and b (10.0.2.1 on b0), each behind
# its leaf switch (l1, l2), the leaves joined by N spines s1..sN. Spine i
# reaches l1 on si-a and l2 on si-b. The leaves spread traffic to the other
# host over all spines by ECMP on the 5-tuple (fib_multipath_hash_policy 1):
# the UDP source port, a packet's entropy value, picks its spine.
leaf_spine() {
	local n=$1 i l hops1="" hops2=""
	ns_add a b l1 l2
	veth_link a a0 10.0.1.1/24 l1 l1-h 10.0.1.254/24 || return 1
	veth_link b b0 10.0.2.1/24 l2 l2-h 10.0.2.254/24 || return 1
	ns_ip a route add default via 10.0.1.254 || return 1
	ns_ip b route add default via 10.0.2.254 || return 1
	for ((i = 1; i <= n; i++)); do
		ns_add "s$i"
		veth_link l1 "l1-s$i" "10.1.$i.1/24" "s$i" "s$i-a" "10.1.$i.2/24" || return 1
		veth_link l2 "l2-s$i" "10.2.$i.1/24" "s$i" "s$i-b" "10.2.$i.2/24" || return 1
		ns_ip "s$i" route add 10.0.1.0/24 via "10.1.$i.1" || return 1
		ns_ip "s$i" route add 10.0.2.0/24 via "10.2.$i.1" || return 1
		in_ns "s$i" sysctl -qw net.ipv4.ip_forward=1 || return 1
		hops1+=" nexthop via 10.1.$i.2"
		hops2+=" nexthop via 10.2.$i.2"
	done
	for l in l1 l2; do
		in_ns $l sysctl -qw net.ipv4.ip_forward=1 \
			net.ipv4.fib_multipath_hash_policy=1 || return 1
	done
	# shellcheck disable=SC2086 # one word per nexthop keyword
	ns_ip l1 route add 10.0.2.0/24 $hops1 && ns_ip l2 route add 10.0.1.0/24 $hops2
}

# leaf_mgmt: a cable of its own between leaf_spine's leaves for TCP, as a
# management network would carry a verbs program's control channel: the
# spines then carry only the QPs' packets.
leaf_mgmt() {
	veth_link l1 l1-m 10.9.0.1/24 l2 l2-m 10.9.0.2/24 &&
		ns_ip l1 rule add ipproto tcp table 100 &&
		ns_ip l1 route add 10.0.2.0/24 via 10.9.0.2 table 100 &&
		ns_ip l2 rule add ipproto tcp table 100 &&
		ns_ip l2 route add 10.0.1.0/24 via 10.9.0.1 table 100
}

# star N [MTU]: hosts h1..hN (10.3.i.1 on hi-0) and r (10.4.0.1 on r0), all
# cabled to one switch, sw; sw's port towards r is sw-r, the one a test
# shapes to make an incast bottleneck. Every cable has MTU (default 1500).
star() {
	local n=$1 mtu=${2:-1500} i
	ns_add r sw
	veth_link r r0 10.4.0.1/24 sw sw-r 10.4.0.254/24 || return 1
	ns_ip r link set r0 mtu "$mtu" && ns_ip sw link set sw-r mtu "$mtu" ||
		return 1
	ns_ip r route add default via 10.4.0.254 || return 1
	in_ns sw sysctl -qw net.ipv4.ip_forward=1 || return 1
	for ((i = 1; i <= n; i++)); do
		ns_add "h$i"
		veth_link "h$i" "h$i-0" "10.3.$i.1/24" sw "sw-h$i" "10.3.$i.254/24" ||
			return 1
		ns_ip "h$i" link set "h$i-0" mtu "$mtu" &&
			ns_ip sw link set "sw-h$i" mtu "$mtu" || return 1
		ns_ip "h$i" route add default via "10.3.$i.254" || return 1
	done
}

# spine_bytes N: bytes each of leaf_spine's N spines sent towards b, one line.
spine_bytes() {
	local i
	for ((i = 1; i <= $1; i++)); do
		in_ns_sys "s$i" cat "/sys/class/net/s$i-b/statistics/tx_bytes"
	done | paste -sd' '
}

# veth_link NS1 IF1 ADDR1/LEN NS2 IF2 ADDR2/LEN: a cable between two hosts.
veth_link() {
	ip link add "$2" netns "$1-$UET_NS_SUFFIX" type veth \
		peer name "$5" netns "$4-$UET_NS_SUFFIX" || return 1
	# One ip per end (a batch): fabrics have dozens of ends.
	printf 'addr add %s dev %s\nlink set %s up\n' "$3" "$2" "$2" | ns_ip "$1" -b - &&
		printf 'addr add %s dev %s\nlink set %s up\n' "$6" "$5" "$5" | ns_ip "$4" -b -
}

uet_load() {
	modprobe -a ib_core ib_uverbs udp_tunnel ip6_udp_tunnel ||
		fail "cannot load the RDMA core and UDP tunnel modules"
	if ! [ -d /sys/module/rdma_uet ]; then
		insmod "$UET_KO" || fail "insmod $UET_KO"
	fi
	on_exit "rmmod rdma_uet"
}

sch_uet_load() {
	[ -d /sys/module/sch_uet ] || insmod "$UET_SCH_KO" || fail "insmod $UET_SCH_KO"
	on_exit "rmmod sch_uet"
}

# Port state of an RDMA device as ibv_devinfo names it (PORT_ACTIVE,
# PORT_DOWN), read from sysfs ("4: ACTIVE") without starting a program:
# tests poll it, and ibv_devinfo with sed took 3.5 s a poll on the debug
# kernel.
ibdev_port_state() {
	local s
	read -r s <"/sys/class/infiniband/$1/ports/1/state" || return 1
	printf 'PORT_%s\n' "${s#*: }"
}

ibdev_port_is() { [ "$(ibdev_port_state "$1")" = "$2" ]; }

ibdev_exists() { [ -e "/sys/class/infiniband/$1" ]; }

# ibdevs_gone DEV...: none of the RDMA devices exists; no_ibdevs: no RDMA
# device at all.
ibdevs_gone() {
	local d
	for d in "$@"; do
		! ibdev_exists "$d" || return 1
	done
}
no_ibdevs() { ! compgen -G '/sys/class/infiniband/*' >/dev/null; }

# The helpers above run inside "bash -c" steps too.
export -f in_ns in_ns_sys ns_name ns_ip ibdev_port_state ibdev_port_is ibdev_exists
export -f ibdevs_gone no_ibdevs

# The tc plugin for the uet qdisc, straight from the tree.
export TC_LIB_DIR=${TC_LIB_DIR:-$UET_TOOLS_DIR/tc}
UET_UDP=$UET_SELFTESTS/udp.py
# samples.py: interpolation of sampled counters, for the tests' python3.
export PYTHONPATH=$UET_SELFTESTS${PYTHONPATH:+:$PYTHONPATH}

# qdisc_stat NS DEV KEY: a field of the uet qdisc's "tc -s -j" object.
qdisc_stat() {
	in_ns "$1" tc -s -j qdisc show dev "$2" | python3 -c '
import json, sys
print([q for q in json.load(sys.stdin) if q["kind"] == "uet"][0][sys.argv[1]])' "$3"
}

qdisc_idle() { in_ns "$1" tc -s qdisc show dev "$2" | grep -q "backlog 0b 0p"; }
export -f qdisc_stat qdisc_idle

# stock_kernel: the VM runs a distribution's kernel (Debian 12's or 13's),
# not the debug one.
stock_kernel() { [ "${UET_VM_KERNEL:-stock}" != debug ]; }

# Throughput means nothing under KASAN and lockdep: measure it on stock only.
require_stock_kernel() {
	stock_kernel || skip "throughput is measured on the stock kernel only"
}

# gid_of ADDR: the GID of an IPv4 address (IPv4-mapped) or an IPv6 one,
# written as sysfs shows GIDs: eight groups of four hex digits.
gid_of() {
	local a=$1 g out='' i
	local -a o h t
	if [[ $a != *:* ]]; then
		IFS=. read -ra o <<<"$a"
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' "${o[@]}"
		return
	fi
	if [[ $a == *::* ]]; then
		IFS=: read -ra h <<<"${a%%::*}"
		IFS=: read -ra t <<<"${a#*::}"
		for ((i = ${#h[@]} + ${#t[@]}; i < 8; i++)); do
			h+=(0)
		done
		h+=("${t[@]}")
	else
		IFS=: read -ra h <<<"$a"
	fi
	for g in "${h[@]}"; do
		printf -v g '%04x' "0x$g"
		out+=${out:+:}$g
	done
	printf '%s\n' "$out"
}

# ibdev_gid_index DEV ADDR: index of ADDR in port 1's GID table (an IPv4
# address is found as its IPv4-mapped GID), read from sysfs without
# starting a program (tests poll it).
ibdev_gid_index() {
	local want gid i dir=/sys/class/infiniband/$1/ports/1/gids
	want=$(gid_of "$2")
	for ((i = 0; ; i++)); do
		[ -e "$dir/$i" ] || return 1
		read -r gid <"$dir/$i" 2>/dev/null || continue
		[ "$gid" != "$want" ] || break
	done
	echo "$i"
}

# uet_counter DEV NAME: a counter of port 1 of a uet device, what "rdma
# statistic show link DEV/1" shows, read from sysfs without starting a
# program (tests poll counters; rdma and awk cost the debug kernel 2 s).
# sysfs rereads the counters when its copy is 10 ms old (the hw_counters'
# lifespan).
uet_counter() {
	local v
	read -r v <"/sys/class/infiniband/$1/ports/1/hw_counters/$2" || return 1
	echo "$v"
}

# uet_counters DEV: every counter of port 1 of a uet device, "name value".
uet_counters() {
	local f v
	for f in "/sys/class/infiniband/$1/ports/1/hw_counters/"*; do
		[ "${f##*/}" != lifespan ] || continue
		read -r v <"$f" && echo "${f##*/} $v"
	done
}

# uet_tshark ARGS...: tshark ARGS with tools/wireshark/uet.lua, run as
# nobody: Wireshark runs no Lua script for root unless a system init.lua
# allows it (Debian 12 ships one that does, Debian 13 none). nobody opens
# none of the test's files, so a capture comes on stdin (-r -), and HOME
# is nobody's, which does not exist (one it cannot read fills stderr
# with errors, and crashed tshark 4.0). -X comes last: tshark takes -G
# only as its first option.
uet_tshark() {
	HOME=/nonexistent setpriv --reuid=65534 --regid=65534 --clear-groups \
		tshark "$@" -X "lua_script:$UET_SELFTESTS/../tools/wireshark/uet.lua"
}

# uet_proto: the name uet.lua registered, the prefix of its fields: uetk
# where Wireshark has a uet dissector of its own (5.0 and later), else uet.
uet_proto() {
	uet_tshark -G protocols | awk -F'\t' '
		$1 ~ /^uet transport / { print $3; found = 1 } END { exit !found }'
}

# tcp_listens PID PORT: something listens on TCP PORT in the network
# namespace of process PID, as /proc/PID/net/tcp and tcp6 show it: tests
# poll their servers, and ss with grep in the namespace cost the debug
# kernel 5 s a poll. PID must be in the namespace: "ip netns exec NS CMD &"
# leaves such a PID in $!, "in_ns NS CMD &" that of a shell outside it.
tcp_listens() {
	local f laddr st port
	printf -v port '%04X' "$2"
	for f in "/proc/$1/net/tcp" "/proc/$1/net/tcp6"; do
		# Columns: sl local_address rem_address st; 0A is LISTEN.
		while read -r _ laddr _ st _; do
			[ "$st" != 0A ] || [ "${laddr##*:}" != "$port" ] || return 0
		done <"$f"
	done 2>/dev/null
	return 1
}
export -f gid_of ibdev_gid_index uet_counter uet_counters tcp_listens

# perftest_pair OUT TOOL ARGS...: a perftest or ibv_*_pingpong TOOL's
# server on uet1 in b, then its client on uet0 in a connecting to
# 10.0.0.2 (port PORT, GIDs GID_B and GID_A), both with ARGS; perftest
# takes PERF_OPTS too (e.g. "-c UD"). Outputs in OUT.srv and OUT. Returns
# 0; 2 if perftest only failed to calibrate its clock ("Can't produce a
# report", which emulated CPUs make frequent); 1 on any other failure,
# both outputs shown.
perftest_pair() {
	local out=$1 tool=$2 srv rc=0 src=0
	local -a sa ca opts
	shift 2
	read -ra opts <<<"${PERF_OPTS:-}"
	case $tool in
	*_pingpong)
		sa=(-d uet1 -g "$GID_B") ca=(-d uet0 -g "$GID_A") ;;
	*)
		sa=(--use_old_post_send "${opts[@]}" -d uet1 -x "$GID_B")
		ca=(--use_old_post_send "${opts[@]}" -d uet0 -x "$GID_A") ;;
	esac
	ip netns exec "$(ns_name b)" timeout 200 "$tool" "${sa[@]}" -p "$PORT" "$@" \
		>"$out.srv" 2>&1 &
	srv=$!
	if ! wait_for 30 tcp_listens "$srv" "$PORT"; then
		kill "$srv"
		wait "$srv"
		echo "the $tool server never listened:"
		cat "$out.srv"
		return 1
	fi
	in_ns a timeout 150 "$tool" "${ca[@]}" -p "$PORT" "$@" 10.0.0.2 >"$out" 2>&1 || rc=$?
	# A server whose client failed may wait for traffic for ever.
	[ "$rc" -eq 0 ] || wait_for 10 pid_gone "$srv" || kill "$srv"
	wait "$srv" || src=$?
	[ "$rc" -ne 0 ] || [ "$src" -ne 0 ] || return 0
	grep -q "Can't produce a report" "$out" "$out.srv" && return 2
	echo "$tool $*: client exit $rc, server exit $src"
	sed 's/^/client: /' "$out"
	sed 's/^/server: /' "$out.srv"
	return 1
}

# perftest_retry OUT TOOL ARGS...: perftest_pair until perftest gets its
# report, RETRIES times at most.
perftest_retry() {
	local i rc
	for ((i = 1; i <= RETRIES; i++)); do
		rc=0
		perftest_pair "$@" || rc=$?
		[ "$rc" -eq 2 ] || return "$rc"
		echo "# $2 ${*:3}: clock calibration failed (try $i)"
	done
	echo "$2: perftest could not calibrate its clock in $RETRIES tries"
	return 1
}

# uet_verify SNS SDEV CNS CDEV ADDR OUT ARGS...: uet-verify's server on SDEV
# in namespace SNS, then its client on CDEV in CNS, connecting to ADDR, with
# ARGS; their outputs in OUT and OUT.srv. Both must exit 0: every byte
# verified. Prints the client's results as "# " lines. Both sleep on
# completion events: busy polling would take the VM's two CPUs from the
# softirqs that move the packets.
uet_verify() {
	local sns=$1 sdev=$2 cns=$3 cdev=$4 addr=$5 out=$6 srv rc=0 src=0
	shift 6
	ip netns exec "$(ns_name "$sns")" "$UET_VERIFY" -d "$sdev" -e -T 1200 >"$out.srv" 2>&1 &
	srv=$!
	if ! wait_for 30 tcp_listens "$srv" 18515; then
		kill "$srv"
		wait "$srv"
		echo "the uet-verify server never listened:"
		cat "$out.srv"
		return 1
	fi
	in_ns "$cns" "$UET_VERIFY" -d "$cdev" -e "$@" "$addr" >"$out" 2>&1 || rc=$?
	[ "$rc" -eq 0 ] || wait_for 10 pid_gone "$srv" || kill "$srv"
	wait "$srv" || src=$?
	sed -n 's/^op=/# op=/p' "$out"
	[ "$rc" -eq 0 ] && [ "$src" -eq 0 ] && return 0
	echo "uet-verify $*: client exit $rc, server exit $src"
	sed 's/^/client: /' "$out"
	sed 's/^/server: /' "$out.srv"
	return 1
}
