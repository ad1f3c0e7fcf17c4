#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs as root in the VM, chrooted into the read-only host root. Makes the
# writable places tools expect, runs the command from /mnt/env, leaves its
# exit status in /mnt/rc and powers off whatever happens.
poweroff_now() {
	sync
	busybox poweroff -f
}
trap poweroff_now EXIT

# shellcheck source=/dev/null
. /mnt/env

mount -t tmpfs run /run
if [ -n "${UET_VM_SHARED:-}" ]; then
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 shared /mnt/shared ||
		exit 1
fi
# A writable /tmp that still shows the host's directories there (a clone or
# a cache may live in /tmp): the host's entries are bound back, read-only.
mkdir /run/hosttmp
mount --bind /tmp /run/hosttmp
mount -t tmpfs tmp /tmp
for d in /run/hosttmp/*/; do
	d=${d%/}
	mkdir "/tmp/${d##*/}" && mount --bind "$d" "/tmp/${d##*/}"
done
mount -t tmpfs varlib /var/tmp
mkdir -p /dev/pts /dev/shm
# What udev makes on a booted system: bash's process substitution opens
# /dev/fd/N.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs shm /dev/shm
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# Modules of the booted kernel, not the host's (autoload needs them); a
# root of its own has its kernel's.
[ -z "$UET_VM_MODDIR" ] || mount --bind "$UET_VM_MODDIR" /lib/modules
ip link set lo up
hostname uet-vm
export HOME=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export UET_VM=1 UET_VM_KERNEL

cd "$UET_VM_CWD" || exit 1
# For the host's boot watchdog (run).
: >/mnt/started
bash -c "$UET_VM_CMD"
echo $? >/mnt/rc
