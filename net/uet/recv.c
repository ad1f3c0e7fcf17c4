// SPDX-License-Identifier: GPL-2.0
/*
 * Receive demultiplexing, in softirq context: find the destination QP
 * of a packet, queue it to the QP and run the QP's engine here, unless
 * another owner runs it (engine.c). Only the fixed part of the PDS
 * header is read here; everything else is parsed by the engine's pass.
 */
#include <trace/events/uet.h>

#include "qp.h"
#include "recv.h"
#include "train.h"
#include "ud.h"
#include "udp.h"
#include "uet_compat.h"

/* Bytes that must be present for each PDS type uet accepts. */
static unsigned int uet_rcv_min_len(int type)
{
	switch (type) {
	case UET_PDS_RUD_REQ:
		return sizeof(struct uet_pds_req_hdr) +
		       sizeof(struct uet_verbs_hdr_wire);
	case UET_PDS_ACK_CC:
		return sizeof(struct uet_pds_ack_hdr);
	case UET_PDS_ACK_CCX:
		return sizeof(struct uet_pds_ackx_hdr);
	case UET_PDS_NACK:
		return sizeof(struct uet_pds_nack_hdr);
	case UET_PDS_CONTROL:
		return sizeof(struct uet_pds_ctl_hdr);
	default:
		return 0;
	}
}

void uet_rcv(struct uet_dev *udev, struct sk_buff *skb, bool run)
{
	unsigned int need;
	struct uet_qp *qp;
	bool train, light;
	u32 seg;
	int type;
	u16 dpdcid;

	uet_inc(udev, UET_CNT_RX_SKBS);
	uet_count(udev, UET_CNT_RX_BYTES, skb->len);
	/* A train is data packets of one QP, the first one's header
	 * stands for all of them here; the pass checks each on its own.
	 */
	train = skb_is_gso(skb);
	seg = uet_train_rx_seg(skb);
	if (train && seg < UET_DATA_HDR_LEN)
		goto malformed;
	uet_count(udev, UET_CNT_RX_PKTS,
		  train ? DIV_ROUND_UP(skb->len, seg) : 1);

	if (!pskb_may_pull(skb, sizeof(__be16)))
		goto malformed;
	type = uet_pds_type(skb->data, skb_headlen(skb));
	if (train && type != UET_PDS_RUD_REQ)
		goto malformed;
	/* Only a UD datagram may go to a multicast group. */
	if (UET_SKB_CB(skb)->mcast && type != UET_PDS_UUD_REQ)
		goto malformed;
	if (type == UET_PDS_UUD_REQ) {
		uet_ud_rcv(udev, skb);
		return;
	}
	if (type == UET_PDS_ACK ||
	    (type == UET_PDS_CONTROL &&
	     pskb_may_pull(skb, sizeof(struct uet_pds_ctl_hdr)) &&
	     uet_ctl_type(skb->data, skb_headlen(skb)) == UET_CTL_PROBE)) {
		uet_peer_rcv_probe(udev, skb);
		return;
	}
	need = uet_rcv_min_len(type);
	if (!need || !pskb_may_pull(skb, need))
		goto malformed;

	/* dpdcid sits at bytes 10..11 of all these headers: the QPN. */
	BUILD_BUG_ON(offsetof(struct uet_pds_req_hdr, dpdcid) != 10);
	BUILD_BUG_ON(offsetof(struct uet_pds_ack_hdr, dpdcid) != 10);
	BUILD_BUG_ON(offsetof(struct uet_pds_ackx_hdr, ack.dpdcid) != 10);
	BUILD_BUG_ON(offsetof(struct uet_pds_nack_hdr, dpdcid) != 10);
	BUILD_BUG_ON(offsetof(struct uet_pds_ctl_hdr, dpdcid) != 10);
	dpdcid = get_unaligned_be16(skb->data + 10);
	trace_uet_rx(udev->ibdev.index, dpdcid, skb,
		     UET_SKB_CB(skb)->dscp << 2 | UET_SKB_CB(skb)->ecn);

	/* Read before the packet is queued: its owner may free it. */
	light = !train && skb->len <= UET_RCV_LIGHT_LEN;
	qp = uet_qp_get(udev, dpdcid);
	if (!qp || uet_qp_is_ud(qp)) {
		uet_inc(udev, UET_CNT_DROP_NO_QP);
		if (qp)
			uet_qp_put(qp);
		kfree_skb(skb);
		return;
	}
	switch (uet_engine_queue(&qp->eng, &qp->rxq, skb,
				 uet_param(udev, rx_backlog))) {
	case 0:
		/* Run to completion here, in the receive softirq; a packet
		 * from this host (loopback) leaves it to the QP's work,
		 * unless it is light.
		 */
		if (run || light)
			uet_engine_run(&qp->eng, light);
		else
			uet_engine_kick(&qp->eng);
		break;
	case -ENOBUFS:
		uet_inc(udev, UET_CNT_DROP_BACKLOG);
		kfree_skb(skb);
		break;
	case -ERANGE:
		uet_inc(udev, UET_CNT_DROP_WINDOW);
		kfree_skb(skb);
		break;
	default:
		/* Not from the QP's peer (-EPERM); or the QP is in RESET,
		 * or being modified or destroyed.
		 */
		uet_inc(udev, UET_CNT_DROP_NO_QP);
		kfree_skb(skb);
		break;
	}
	uet_qp_put(qp);
	return;

malformed:
	uet_inc(udev, UET_CNT_DROP_MALFORMED);
	kfree_skb(skb);
}
