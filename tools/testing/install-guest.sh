#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In the VM, for install-test.sh and install-test-trixie.sh: uet as the
# .debs and DKMS installed it, nothing from the build tree.
#
#   install-guest.sh [ROOT]
#
# ROOT (default /mnt/sysroot, install-test.sh's scratch root on the host's
# Debian 12): its module tree (the booted kernel's modules and DKMS's
# updates/dkms, one depmod over both) becomes /lib/modules, so modprobe and
# the kernel's autoload find the modules where a host's would; uet,
# uet-verify and q_uet.so run from its /usr. ROOT / (the Debian 13 root
# dpkg installed the packages into, booted as the VM's own): all of it is
# in place already, and tc finds q_uet.so in its own directory. The tree's
# selftests/lib.sh only builds the namespaces.
root=${1:-/mnt/sysroot}
root=${root%/}
TC_LIB_DIR=$(dirname "$(echo "$root"/usr/lib/*/tc/q_uet.so)")
UET=$root/usr/sbin/uet
UET_VERIFY=$root/usr/bin/uet-verify
export TC_LIB_DIR UET UET_VERIFY
# shellcheck source=selftests/lib.sh
. "$(dirname "$(readlink -f "$0")")/../../selftests/lib.sh"

dkms_ko=/lib/modules/$(uname -r)/updates/dkms
T=$(mktemp -d)
on_exit "rm -rf $T"

[ -z "$root" ] ||
	step "the installed module tree in place" mount --bind "$root/lib/modules" /lib/modules
# DKMS compresses the modules as the kernel's own are (Debian 13: .ko.xz).
kernel_ko=$(modinfo -n ib_core)
ko_suffix=.ko${kernel_ko##*.ko}
log "the kernel's modules are *$ko_suffix: ib_core is $kernel_ko"

# modprobe takes the module DKMS installed, and the module loaded is that
# file (srcversion: a hash of its sources).
installed_rdma_uet() {
	[ "$(modinfo -n rdma_uet)" = "$dkms_ko/rdma_uet$ko_suffix" ] || return 1
	[ "$(cat /sys/module/rdma_uet/srcversion)" = \
		"$(modinfo -F srcversion "$dkms_ko/rdma_uet$ko_suffix")" ]
}
step "modprobe rdma_uet" modprobe rdma_uet
step "rdma_uet loaded from $dkms_ko" installed_rdma_uet
step "modprobe -r rdma_uet" modprobe -r rdma_uet
[ ! -d /sys/module/rdma_uet ] || fail "rdma_uet still loaded"

# rdma link add loads ib_core (the RDMA netlink family) and rdma_uet
# (alias rdma-link-uet) by itself.
veth_pair
on_exit "modprobe -r rdma_uet"
step "rdma link add uet0 autoloads rdma_uet" in_ns a rdma link add uet0 type uet netdev veth0
step "rdma_uet autoloaded from $dkms_ko" installed_rdma_uet
step "rdma link add uet1" in_ns b rdma link add uet1 type uet netdev veth1
wait_for 10 pair_active || fail "the ports of uet0 and uet1 never became ACTIVE"

dev_show() {
	local out
	out=$(in_ns a "$UET" dev show uet0) || return 1
	echo "$out"
	[[ $out == "uet0: netdev veth0 "*" udp_port 4793"* ]]
}
step "installed uet dev show uet0" dev_show

step "installed uet-verify: write, send, read, every byte checked" \
	uet_verify b uet1 a uet0 10.0.0.2 "$T/verify" -o all -b 4M

# tc finds the plugin in TC_LIB_DIR (the host's tc directory has no
# q_uet.so) or, on its own root, in tc's own directory, where uet-tools
# put it; the kernel loads sch_uet for the qdisc kind "uet".
tc_env=()
[ -n "$root" ] || tc_env=(env -u TC_LIB_DIR)
[ ! -d /sys/module/sch_uet ] || fail "sch_uet loaded before tc asked for it"
on_exit "modprobe -r sch_uet"
step "tc qdisc add uet autoloads sch_uet" \
	in_ns a "${tc_env[@]}" tc qdisc add dev veth0 root uet rate 1gbit limit 200kb trim on
[ "$(modinfo -n sch_uet)" = "$dkms_ko/sch_uet$ko_suffix" ] || fail "sch_uet is not the DKMS module"
# q_uet.so prints the options back (tc without it: "[Unknown qdisc ...]").
tc_shows_uet() {
	local out
	out=$(in_ns a "${tc_env[@]}" tc qdisc show dev veth0) || return 1
	echo "$out"
	[[ $out == *"qdisc uet "*" limit "*" trim on"* ]]
}
step "tc qdisc show prints the uet options (q_uet.so loaded)" tc_shows_uet
step "uet-verify through the uet qdisc" \
	uet_verify b uet1 a uet0 10.0.0.2 "$T/verify.qdisc" -o write -b 1M
sent=$(qdisc_stat a veth0 dequeued)
log "uet qdisc on veth0: $sent packets dequeued"
[ "$sent" -gt 0 ] || fail "nothing went through the uet qdisc"
exit 0
