/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet sizes: the IB path MTU a netdev's MTU allows once uet's headers
 * are in, and the payload an RC packet carries. Pure code on the verbs
 * MTU enum, apart from wire.h, so that the wire format stays free of
 * ib_core.
 */
#ifndef _UET_MTU_H
#define _UET_MTU_H

#include <linux/sizes.h>
#include <rdma/ib_verbs.h>

/* The largest netdev MTU whose payload RC fills: IPv4's largest packet. */
#define UET_RC_SEG_MAX_MTU	65535
/* RC payload to a local destination: 16 pages, so within MAX_SKB_FRAGS. */
#define UET_RC_SEG_LOCAL	SZ_64K

enum ib_mtu uet_ib_mtu(unsigned int netdev_mtu);
u32 uet_rc_seg(enum ib_mtu path_mtu, unsigned int netdev_mtu, bool local);

#endif /* _UET_MTU_H */
