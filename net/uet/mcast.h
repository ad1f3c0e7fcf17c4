/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Multicast groups of UD QPs: attach and detach (verbs), and the delivery
 * of a datagram sent to a group to the QPs attached to it.
 */
#ifndef _UET_MCAST_H
#define _UET_MCAST_H

#include "uet.h"

/* Verbs; process context, may sleep (they take RTNL to join or leave the
 * group's address on the netdev). -EINVAL for a QP that is not UD or a GID
 * that is not a multicast address, or on detach for a QP not attached;
 * -ENOMEM past UET_MAX_MCAST_*.
 */
int uet_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);
int uet_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid);

/* ud.c, softirq: a UUD datagram with UET_UUD_F_MCAST, its header pulled
 * and its uet_ud_cb filled; qkey as the sender gave it. A copy goes to
 * each QP attached to the group of the IP destination. Consumes the skb.
 */
void uet_mcast_rcv(struct uet_dev *udev, struct sk_buff *skb, u32 qkey);

/* Device life: before registration, and once every QP is destroyed. */
void uet_mcast_init(struct uet_dev *udev);
void uet_mcast_release(struct uet_dev *udev);

#endif /* _UET_MCAST_H */
