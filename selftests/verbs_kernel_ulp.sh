#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A kernel ULP over uet: NVMe over RDMA (nvmet-rdma target, nvme-rdma host)
# on one uet device, connected through rdma_cm. It exercises the kernel
# verbs path: fast registration (REG_MR, LOCAL_INV, SEND with invalidate),
# RDMA READ/WRITE from the target, SENDs both ways. Data written and read
# back through the block device is compared byte for byte with the file
# that backs the namespace. Kernel ULPs use rdma_cm in init_net only, so
# the host and the target share the initial namespace and one device
# (packets loop through lo).
. "$(dirname "$0")/lib.sh"

nqn=uet-selftest
cfg=/sys/kernel/config/nvmet
img=/tmp/uet-nvme.img
mib=16

modprobe -a nvmet nvmet-rdma nvme-rdma 2>/dev/null ||
	skip "nvmet-rdma/nvme-rdma not available in this kernel"
[ -d "$cfg" ] || mount -t configfs none /sys/kernel/config
[ -d "$cfg" ] || skip "no nvmet configfs"

ip link add uetv0 type veth peer name uetv1 || fail "veth pair"
on_exit "ip link del uetv0"
ip addr add 10.0.9.1/24 dev uetv0
ip link set uetv0 up
ip link set uetv1 up
uet_load
step "rdma link add uet0 (init_net)" rdma link add uet0 type uet netdev uetv0
on_exit "rdma link delete uet0"

dd if=/dev/urandom of="$img" bs=1M count=$mib status=none || fail "backing file"
on_exit "rm -f $img /tmp/uet-nvme.read /tmp/uet-nvme.new"

mkdir "$cfg/subsystems/$nqn" || fail "nvmet subsystem"
on_exit "rmdir $cfg/subsystems/$nqn"
echo 1 >"$cfg/subsystems/$nqn/attr_allow_any_host"
mkdir "$cfg/subsystems/$nqn/namespaces/1"
on_exit "rmdir $cfg/subsystems/$nqn/namespaces/1"
echo -n "$img" >"$cfg/subsystems/$nqn/namespaces/1/device_path"
echo 1 >"$cfg/subsystems/$nqn/namespaces/1/buffered_io"
echo 1 >"$cfg/subsystems/$nqn/namespaces/1/enable" || fail "nvmet namespace"
on_exit "echo 0 > $cfg/subsystems/$nqn/namespaces/1/enable"

port=$cfg/ports/1
mkdir "$port"
on_exit "rmdir $port"
echo rdma >"$port/addr_trtype"
echo ipv4 >"$port/addr_adrfam"
echo 10.0.9.1 >"$port/addr_traddr"
echo 4420 >"$port/addr_trsvcid"
step "nvmet-rdma listens on 10.0.9.1:4420 over uet0" \
	ln -s "$cfg/subsystems/$nqn" "$port/subsystems/$nqn"
on_exit "rm -f $port/subsystems/$nqn"

connect() {
	echo "transport=rdma,traddr=10.0.9.1,trsvcid=4420,nqn=$nqn" >/dev/nvme-fabrics
}
step "nvme-rdma connects through rdma_cm" connect
ctrl=$(grep -l "^$nqn\$" /sys/class/nvme/nvme*/subsysnqn 2>/dev/null | head -1)
ctrl=${ctrl%/subsysnqn}
[ -n "$ctrl" ] || fail "no nvme controller for $nqn"
on_exit "echo 1 > $ctrl/delete_controller"
log "controller ${ctrl##*/}, transport $(cat "$ctrl/transport")"
# The namespace's block device (the multipath head, nvmeXnY, with native
# multipath) is the one under the subsystem the controller belongs to.
ns_blk() {
	local d
	for d in /sys/block/nvme*n1; do
		[[ ${d##*/} =~ ^nvme[0-9]+n1$ ]] || continue
		[ -e "$d/device/subsysnqn" ] &&
			[ "$(cat "$d/device/subsysnqn")" = "$nqn" ] && { basename "$d"; return; }
		grep -qx "$nqn" "$d"/device/*/subsysnqn 2>/dev/null && { basename "$d"; return; }
	done
	return 1
}
step "namespace block device appears" wait_for 10 ns_blk
blk=/dev/$(ns_blk)
step "$blk is $mib MiB" test "$(blockdev --getsize64 "$blk")" -eq $((mib << 20))

# Reads: the target RDMA-WRITEs data into the host's fast-registered MRs.
step "read $mib MiB (O_DIRECT) and compare with the backing file" bash -c "
	dd if=$blk of=/tmp/uet-nvme.read bs=1M count=$mib iflag=direct status=none &&
	cmp /tmp/uet-nvme.read $img"

# Writes: the target RDMA-READs the data from the host's MRs.
step "write $mib MiB (O_DIRECT), read it back, compare with the backing file" bash -c "
	dd if=/dev/urandom of=/tmp/uet-nvme.new bs=1M count=$mib status=none &&
	dd if=/tmp/uet-nvme.new of=$blk bs=1M count=$mib oflag=direct status=none &&
	dd if=$blk of=/tmp/uet-nvme.read bs=1M count=$mib iflag=direct status=none &&
	cmp /tmp/uet-nvme.read /tmp/uet-nvme.new && sync && cmp $img /tmp/uet-nvme.new"

step "mixed block sizes: 4 KiB random-offset writes read back" bash -c "
	for i in 1 2 3 4 5 6 7 8; do
		off=\$((RANDOM % ($mib * 256)))
		dd if=/dev/urandom of=/tmp/uet-nvme.new bs=4k count=1 status=none
		dd if=/tmp/uet-nvme.new of=$blk bs=4k seek=\$off count=1 oflag=direct status=none
		dd if=$blk bs=4k skip=\$off count=1 iflag=direct status=none |
			cmp - /tmp/uet-nvme.new || exit 1
	done"

c=$(rdma statistic show link uet0/1)
log "$c"
step "no malformed or refused packets" bash -c "
	rdma statistic show link uet0/1 | grep -q 'drop_malformed 0 ' &&
	rdma statistic show link uet0/1 | grep -q 'drop_access 0 '"
step "disconnect" bash -c "echo 1 > $ctrl/delete_controller"
step "controller gone" wait_for 10 bash -c "! grep -qx $nqn /sys/class/nvme/nvme*/subsysnqn"
exit 0
