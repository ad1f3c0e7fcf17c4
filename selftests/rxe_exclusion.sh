#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rdma_uet and rdma_rxe share the rxe driver id and must never be loaded
# together: each refuses while the other is there, with a clear message.
. "$(dirname "$0")/lib.sh"

modprobe -n rdma_rxe 2>/dev/null || skip "no rdma_rxe module in this kernel"
grep -q '^rdma_uet ' /proc/modules && fail "rdma_uet is already loaded"
modprobe ib_core && modprobe ib_uverbs || fail "cannot load the RDMA core"

step "modprobe rdma_rxe" modprobe rdma_rxe
on_exit "rmmod rdma_rxe"
dmesg -C
step_fails "insmod rdma_uet is refused while rdma_rxe is loaded" insmod "$UET_KO"
step "dmesg says why" bash -c 'dmesg | grep -q "rdma_uet: rdma_rxe is loaded"'
log "$(dmesg | grep rdma_uet:)"
step "rmmod rdma_rxe" rmmod rdma_rxe

uet_load
dmesg -C
step_fails "modprobe rdma_rxe is refused while rdma_uet is loaded" modprobe rdma_rxe
step "dmesg says why" bash -c 'dmesg | grep -q "rdma_uet: refusing to load rdma_rxe"'
log "$(dmesg | grep rdma_uet:)"
step "rdma_rxe is not loaded" bash -c '! grep -q "^rdma_rxe " /proc/modules'
step "rmmod rdma_uet" rmmod rdma_uet
step "rdma_rxe loads again once rdma_uet is gone" modprobe rdma_rxe
exit 0
