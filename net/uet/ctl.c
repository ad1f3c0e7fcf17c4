// SPDX-License-Identifier: GPL-2.0
/*
 * Control packets of an RC QP's engine: the coalesced ACK with its SACK
 * bitmap (uet_resp_ack() decides when), NACKs and DCQCN's CNP. They
 * spread over the peer's entropy set, with the control DSCP.
 */
#include <trace/events/uet.h>

#include "qp.h"

/* The entropy value of a control packet (ACK, NACK, CNP): the next of
 * the peer's set that looks usable, so control packets spread over every
 * path and a dead one costs only the few that took it, not every ACK.
 * Owned by the work, like the load balancer.
 */
static u16 uet_qp_ctl_entropy(struct uet_qp *qp, u64 now)
{
	const struct uet_ev_table *t = qp->peer ? qp->peer->evt : NULL;
	int tries;
	u16 ev;

	if (!t)
		return qp->entropy;
	for (tries = 0; tries < 4; tries++) {
		ev = t->base + qp->ctl_seq++ % t->count;
		if (uet_ev_usable(t, ev, now))
			break;
	}
	return ev;
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

/* now: the time of the pass, from which the ACK says how long its newest
 * packet was held here.
 */
int uet_qp_send_ack(struct uet_qp *qp, u64 now)
{
	struct uet_resp *resp = qp->resp;
	struct uet_pds_ack ack = {
		.spdcid = qp->ibqp.qp_num,
		.dpdcid = qp->dest_qpn,
	};
	struct sk_buff *skb;
	int copies, err = 0;
	u64 service_us;
	u32 base;
	s32 off;

	uet_pdc_rx_sack(&qp->rx, resp->ack_psn, &ack.cack_psn, &base,
			&ack.sack_bitmap);
	off = resp->ack_psn - ack.cack_psn;
	ack.ack_psn_offset = clamp_t(s32, off, S16_MIN, S16_MAX);
	ack.sack_psn_offset = base - ack.cack_psn;
	ack.mpr = min_t(u32, qp->rx.win, U8_MAX);
	if (resp->ack_ecn)
		ack.flags |= UET_PDS_ACK_F_ECN;
	if (resp->ack_dup)
		ack.flags |= UET_PDS_ACK_F_DUP;
	ack.ccx = true;
	ack.ccx_flags = UET_ACKX_F_ENTROPY;
	ack.entropy = resp->ack_ev;
	/* How long the packet that triggered it waited here (coalescing,
	 * a busy host): the sender takes it off its RTT sample, so delay
	 * means queues in the network (NSCC's service time).
	 */
	service_us = now > resp->ack_rx_ns ?
		     div_u64(now - resp->ack_rx_ns, NSEC_PER_USEC) : 0;
	ack.cc_type = UET_ACK_CC_NSCC;
	ack.cc_state = uet_nscc_state_pack(min_t(u64, service_us, U16_MAX));

	/* A retransmission means the sender is waiting on this ACK, maybe
	 * because the last one died on a broken path: nothing tells the
	 * receiver which of its return paths work, so it takes two.
	 */
	copies = resp->ack_retx ? 2 : 1;
	resp->ack_pending = 0;
	resp->ack_now = false;
	resp->ack_ecn = false;
	resp->ack_dup = false;
	resp->ack_retx = false;
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
		/* One mark, one congestion signal. */
		ack.flags &= ~UET_PDS_ACK_F_ECN;
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
