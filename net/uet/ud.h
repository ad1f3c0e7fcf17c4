/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unreliable datagram QPs: UD QPs of kernel consumers and of users, and
 * the GSI QP (QP1) through which ib_mad, and with it the IB CM and
 * rdma_cm, exchange MADs. qp.c
 * hands the verbs of these QP types to ud.c; recv.c hands it UUD packets.
 */
#ifndef _UET_UD_H
#define _UET_UD_H

#include "uet.h"

/* The QPN of the GSI QP, the same on every device. */
#define UET_GSI_QPN		1

static inline bool uet_qp_is_ud(const struct uet_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UD || qp->ibqp.qp_type == IB_QPT_GSI;
}

/* Verbs of UD and GSI QPs, called by their qp.c counterparts; same
 * contexts and return codes. post_recv needs nothing of its own: qp.c's
 * kernel ring producer serves both QP types (librxe fills a user QP's
 * ring itself). For a kernel QP uet_ud_post_send() never sleeps (ib_mad
 * posts with IRQs off): it queues the WQE and the QP's work item sends
 * it; for a user QP it is librxe's doorbell and runs the engine.
 */
int uet_ud_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		     struct ib_udata *udata);
int uet_ud_modify_qp(struct uet_qp *qp, struct ib_qp_attr *attr, int mask);
void uet_ud_query_qp(struct uet_qp *qp, struct ib_qp_attr *attr,
		     struct ib_qp_init_attr *init);
void uet_ud_destroy_qp(struct uet_qp *qp);
int uet_ud_post_send(struct uet_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr);

/* recv.c, softirq: a packet whose PDS type is UUD_REQ, skb->data at its
 * PDS header. Consumes the skb.
 */
void uet_ud_rcv(struct uet_dev *udev, struct sk_buff *skb);

/* Softirq: queue a datagram (header pulled, uet_ud_cb filled) that
 * carries qkey to qp, a UD or GSI QP the caller holds or knows attached
 * to a group (mcast.c), under RCU. Consumes the skb.
 */
void uet_ud_deliver(struct uet_dev *udev, struct uet_qp *qp,
		    struct sk_buff *skb, u32 qkey);

#endif /* _UET_UD_H */
