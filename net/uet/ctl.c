// SPDX-License-Identifier: GPL-2.0
/*
 * Control packets of an RC QP's engine: the coalesced ACK with its SACK
 * bitmap (ack.c decides when and what it says), NACKs and DCQCN's CNP.
 * They spread over the peer's entropy set, with the control DSCP.
 */
#include <trace/events/uet.h>

#include "qp.h"

/* The entropy value of a control packet (ACK, NACK, CNP): the next of
 * the peer's set that looks usable (uet_ack_ctl_entropy()), or the QP's
 * own without a peer. ctl_seq is owned by the work, like the load
 * balancer.
 */
static u16 uet_qp_ctl_entropy(struct uet_qp *qp, u64 now)
{
	const struct uet_ev_table *t = qp->peer ? qp->peer->evt : NULL;

	if (!t)
		return qp->entropy;
	return uet_ack_ctl_entropy(t, &qp->ctl_seq, now);
}

/* A CE-marked packet, psn, arrived and this QP's congestion control,
 * DCQCN's notification point, asks for a CNP (both ends are set up alike,
 * as RoCE NICs are). The CNP names psn: its receiver takes it only for a
 * PSN it sent (uet_qp_admit()).
 */
void uet_qp_send_cnp(struct uet_qp *qp, u32 psn, u64 now)
{
	struct sk_buff *skb;

	skb = uet_qp_alloc_skb(qp, sizeof(struct uet_pds_ctl_hdr));
	if (!skb)
		return;
	uet_cnp_pack(qp->ibqp.qp_num, qp->dest_qpn, psn,
		     skb_put(skb, sizeof(struct uet_pds_ctl_hdr)),
		     sizeof(struct uet_pds_ctl_hdr));
	uet_inc(qp->udev, UET_CNT_CNP_TX);
	uet_qp_xmit(qp, skb, uet_qp_tos(uet_param(qp->udev, dscp_control), false),
		    uet_qp_ctl_entropy(qp, now));
}

/* The ACK uet_ack_fill() makes of what arrived, in as many copies as it
 * says. now: the time of the pass, from which the ACK says how long its
 * newest packet was held here.
 */
int uet_qp_send_ack(struct uet_qp *qp, u64 now)
{
	struct uet_pds_ack ack = {
		.spdcid = qp->ibqp.qp_num,
		.dpdcid = qp->dest_qpn,
	};
	struct sk_buff *skb;
	int err = 0;
	u32 copies;

	copies = uet_ack_fill(&qp->resp->ack, &qp->rx, now, &ack);
	while (copies-- && !err) {
		skb = uet_qp_alloc_skb(qp, sizeof(struct uet_pds_ackx_hdr));
		if (!skb)
			return -ENOMEM;
		uet_pds_ack_pack(&ack,
				 skb_put(skb, sizeof(struct uet_pds_ackx_hdr)),
				 sizeof(struct uet_pds_ackx_hdr));
		uet_inc(qp->udev, UET_CNT_ACK_TX);
		err = uet_qp_xmit(qp, skb,
				  uet_qp_tos(uet_param(qp->udev, dscp_control),
					     false),
				  uet_qp_ctl_entropy(qp, now));
		uet_ack_next_copy(&ack);
	}
	return err;
}

int uet_qp_send_nack(struct uet_qp *qp, u32 psn, u8 code, u8 vendor,
		     u32 payload)
{
	struct uet_pds_nack nack = {
		.code = code,
		.vendor_code = vendor,
		.psn = psn,
		.spdcid = qp->ibqp.qp_num,
		.dpdcid = qp->dest_qpn,
		.payload = payload,
	};
	struct sk_buff *skb;

	skb = uet_qp_alloc_skb(qp, sizeof(struct uet_pds_nack_hdr));
	if (!skb)
		return -ENOMEM;
	uet_pds_nack_pack(&nack, skb_put(skb, sizeof(struct uet_pds_nack_hdr)),
			  sizeof(struct uet_pds_nack_hdr));
	uet_inc(qp->udev, UET_CNT_NACK_TX);
	trace_uet_nack(qp->udev->ibdev.index, qp->ibqp.qp_num, psn, code, true);
	return uet_qp_xmit(qp, skb,
			   uet_qp_tos(uet_param(qp->udev, dscp_control), false),
			   uet_qp_ctl_entropy(qp, ktime_get_ns()));
}
