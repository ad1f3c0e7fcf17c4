// SPDX-License-Identifier: GPL-2.0
/*
 * UD and GSI QPs, of kernel consumers and of users (librxe writes the
 * rings, as for RC): each message is one UUD datagram. A receive lands
 * behind a 40-byte GRH area holding the IP header of the packet, as RoCE
 * v2 devices present it: the IB CM finds the peer's address there
 * (ib_init_ah_attr_from_wc()).
 *
 * Execution model, as for RC (engine.c): the engine's owner is the only
 * consumer of the send and receive rings. A kernel post_send only queues
 * WQEs and kicks the work item, because ib_mad posts with a spinlock held
 * and IRQs off, where the IP output path must not run; a user's doorbell
 * runs the pass. The receive path checks packets, queues them on qp->rxq
 * and runs the pass in softirq.
 *
 * The pass copies each WQE out of its ring before it reads a field of it
 * (qp->ud_swqe, qp->ud_rwqe), and judges only the copy: a user can rewrite
 * a slot at any time. Nothing a WQE says is taken as given: the length of
 * a send is its SGEs' (rdma_rxe trusts the ring's dma.length), every count
 * is bounded by the QP's capabilities, or the SRQ's.
 *
 * A UD QP may take its receive WQEs from an SRQ, as IBA allows, shared
 * with other QPs of any type: then it has no RQ ring, and uet_srq_take()
 * hands it one WQE at a time under the SRQ's lock.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <rdma/ib_mad.h>
#include <trace/events/uet.h>

#include "mcast.h"
#include "mtu.h"
#include "qp.h"
#include "recv.h"
#include "ud.h"
#include "udp.h"

/* Bytes in front of the payload of every receive. */
#define UET_UD_GRH_LEN		sizeof(union rdma_network_hdr)

/* The RoCE packet type an mlx5 CQE gives a user's UD receive in sl
 * (rdma-core providers/mlx5/cq.c; bit 3 a UDP header, bits 0..2 the L3
 * header, as UCX 1.11's src/uct/ib/ud/base/ud_iface.h quotes the PRM):
 * UCX's ud_verbs tells IPv4 from IPv6 by it.
 */
#define UET_UD_SL_ROCE_V2	BIT(3)
#define UET_UD_SL_IPV6		1	/* MLX5_CQE_ROCE_L3_HEADER_TYPE_IPV6 */
#define UET_UD_SL_IPV4		2	/* MLX5_CQE_ROCE_L3_HEADER_TYPE_IPV4 */

/* skb->cb of a datagram on qp->rxq: the IP part that udp.c filled, then
 * what the UUD header said (the header itself is pulled by then).
 */
struct uet_ud_cb {
	struct uet_skb_cb ip;
	u32 imm;
	u16 sqpn;
	u8 flags;
};

#define UET_UD_CB(skb)	((struct uet_ud_cb *)(skb)->cb)
static_assert(sizeof(struct uet_ud_cb) <= sizeof_field(struct sk_buff, cb));

/* The addresses of a WQE travel in its address vector, laid out as the rxe
 * provider lays out the one of a user UD WQE.
 */
static void uet_ud_addrs_to_av(const struct uet_addrs *addrs, struct rxe_av *av)
{
	av->port_num = UET_PORT;
	av->grh.hop_limit = addrs->hop_limit;
	if (addrs->family == AF_INET) {
		av->network_type = RXE_NETWORK_TYPE_IPV4;
		av->sgid_addr._sockaddr_in.sin_family = AF_INET;
		av->sgid_addr._sockaddr_in.sin_addr.s_addr = addrs->saddr.v4;
		av->dgid_addr._sockaddr_in.sin_family = AF_INET;
		av->dgid_addr._sockaddr_in.sin_addr.s_addr = addrs->daddr.v4;
	} else {
		av->network_type = RXE_NETWORK_TYPE_IPV6;
		av->sgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		av->sgid_addr._sockaddr_in6.sin6_addr = addrs->saddr.v6;
		av->dgid_addr._sockaddr_in6.sin6_family = AF_INET6;
		av->dgid_addr._sockaddr_in6.sin6_addr = addrs->daddr.v6;
	}
}

/* Bytes of qp->ud_rwqe: a slot of the RQ ring, or a WQE of the SRQ. */
static size_t uet_ud_rwqe_size(const struct uet_qp *qp)
{
	if (qp->srq)
		return sizeof(struct rxe_recv_wqe) +
		       qp->srq->max_sge * sizeof(struct rxe_sge);
	return 1U << qp->rq.log2_elem_size;
}

/* The oldest receive WQE copied into qp->ud_rwqe: taken off the SRQ, or
 * left in the RQ ring until uet_ud_rwqe_done(). -ENOENT if none is
 * posted; -EINVAL if it has more SGEs than the queue allows, its wr_id
 * valid.
 */
static int uet_ud_rwqe_get(struct uet_qp *qp)
{
	struct rxe_recv_wqe *wqe = qp->ud_rwqe;

	if (qp->srq)
		return uet_srq_take(qp->srq, wqe, uet_ud_rwqe_size(qp));
	if (!uet_queue_count(&qp->rq))
		return -ENOENT;
	memcpy(wqe, uet_queue_consumer_addr(&qp->rq), uet_ud_rwqe_size(qp));
	return wqe->dma.num_sge > qp->cap.max_recv_sge ? -EINVAL : 0;
}

static void uet_ud_rwqe_done(struct uet_qp *qp)
{
	if (!qp->srq)
		uet_queue_advance_consumer(&qp->rq);
}

/* A receive WQE that takes no datagram completes with status alone. */
static void uet_ud_recv_fail(struct uet_qp *qp, u64 wr_id,
			     enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.port_num = UET_PORT,
	};

	uet_cq_post(qp->rcq, &wc, false);
}

/* Consumes skb. Returns false if the QP went to the error state. */
static bool uet_ud_recv_one(struct uet_qp *qp, struct sk_buff *skb)
{
	struct uet_ud_cb *cb = UET_UD_CB(skb);
	union rdma_network_hdr grh = {};
	const struct uet_sge_io grh_src = { .buf = &grh, .dir = UET_COPY_TO_MR };
	const struct uet_sge_io pay_src = { .skb = skb };
	struct ib_wc wc = {
		.opcode = IB_WC_RECV,
		.qp = &qp->ibqp,
		.src_qp = cb->sqpn,
		.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE,
		.port_num = UET_PORT,
	};
	struct rxe_recv_wqe *wqe = qp->ud_rwqe;
	u32 num_sge, len = skb->len;
	u8 sl;
	int err;

	err = uet_ud_rwqe_get(qp);
	if (err == -ENOENT) {
		uet_inc(qp->udev, UET_CNT_DROP_BACKLOG);
		kfree_skb(skb);
		return true;
	}
	/* More SGEs than its queue allows: a malformed WQE, a local QP
	 * operation error, which on the receive side ends the QP (IBA).
	 */
	if (err) {
		uet_ud_rwqe_done(qp);
		uet_ud_recv_fail(qp, wqe->wr_id, IB_WC_LOC_QP_OP_ERR);
		kfree_skb(skb);
		uet_qp_error(qp);
		return false;
	}
	num_sge = wqe->dma.num_sge;
	if (UET_UD_GRH_LEN + len > uet_sge_total(wqe->dma.sge, num_sge)) {
		uet_inc(qp->udev, UET_CNT_DROP_ACCESS);
		kfree_skb(skb);
		/* IBA class D error: the datagram is dropped, the WQE waits
		 * for the next.
		 */
		if (!qp->srq)
			return true;
		/* Class E: the SRQ gave the WQE up, and may not have it back
		 * (another QP may have taken the ones after it): it completes
		 * in error, the QP goes on.
		 */
		uet_ud_recv_fail(qp, wqe->wr_id, IB_WC_LOC_LEN_ERR);
		return true;
	}

	/* IPv4: the header in the last 20 bytes of the 40; IPv6 fills them. */
	if (cb->ip.family == AF_INET) {
		memcpy(&grh.roce4grh, ip_hdr(skb), sizeof(grh.roce4grh));
		wc.network_hdr_type = RDMA_NETWORK_IPV4;
		sl = UET_UD_SL_ROCE_V2 | UET_UD_SL_IPV4;
	} else {
		memcpy(&grh.ibgrh, ipv6_hdr(skb), sizeof(grh.ibgrh));
		wc.network_hdr_type = RDMA_NETWORK_IPV6;
		sl = UET_UD_SL_ROCE_V2 | UET_UD_SL_IPV6;
	}
	/* A kernel consumer has network_hdr_type, and sl is the VLAN
	 * priority mlx5_ib gives it, 0 without a VLAN.
	 */
	if (qp->is_user)
		wc.sl = sl;
	err = uet_sge_copy(qp, wqe->dma.sge, num_sge, 0, UET_UD_GRH_LEN,
			   IB_ACCESS_LOCAL_WRITE, &grh_src);
	if (!err)
		err = uet_sge_copy(qp, wqe->dma.sge, num_sge, UET_UD_GRH_LEN,
				   len, IB_ACCESS_LOCAL_WRITE, &pay_src);

	wc.wr_id = wqe->wr_id;
	wc.status = err ? IB_WC_LOC_PROT_ERR : IB_WC_SUCCESS;
	wc.byte_len = UET_UD_GRH_LEN + len;
	if (cb->flags & UET_UUD_F_IMM) {
		wc.wc_flags |= IB_WC_WITH_IMM;
		wc.ex.imm_data = cpu_to_be32(cb->imm);
	}
	uet_ud_rwqe_done(qp);
	uet_cq_post(qp->rcq, &wc, cb->flags & UET_UUD_F_SOLICITED);
	if (err) {
		kfree_skb(skb);
		uet_qp_error(qp);
		return false;
	}
	consume_skb(skb);
	return true;
}

/* The payload of a send WQE (the engine's copy): its length, from what it
 * carries inline, bounded by the QP's cap, or from its SGEs, as many as
 * the QP's cap allows.
 */
static enum ib_wc_status uet_ud_send_len(struct uet_qp *qp,
					 const struct rxe_send_wqe *wqe,
					 u32 *len)
{
	u32 mtu = ib_mtu_enum_to_int(uet_ib_mtu(READ_ONCE(qp->udev->ndev->mtu)));
	u64 total;

	if (wqe->wr.send_flags & IB_SEND_INLINE) {
		total = wqe->dma.length;
		if (total > qp->cap.max_inline_data)
			return IB_WC_LOC_LEN_ERR;
	} else {
		if (wqe->dma.num_sge > qp->cap.max_send_sge)
			return IB_WC_LOC_QP_OP_ERR;
		total = uet_sge_total(wqe->dma.sge, wqe->dma.num_sge);
	}
	/* IBA: a UD message fits in one packet of the path MTU. */
	if (total > mtu)
		return IB_WC_LOC_LEN_ERR;
	*len = total;
	return IB_WC_SUCCESS;
}

static enum ib_wc_status uet_ud_send_one(struct uet_qp *qp,
					 const struct rxe_send_wqe *wqe,
					 u32 *byte_len)
{
	struct uet_dev *udev = qp->udev;
	bool mcast = wqe->wr.wr.ud.remote_qpn == IB_MULTICAST_QPN;
	struct uet_uud uud = {
		.flags = mcast ? UET_UUD_F_MCAST : 0,
		.spdcid = qp->ibqp.qp_num,
		.dpdcid = mcast ? 0 : wqe->wr.wr.ud.remote_qpn,
		.qkey = wqe->wr.wr.ud.remote_qkey,
	};
	struct uet_sge_io dst = { .dir = UET_COPY_FROM_MR };
	enum ib_wc_status status;
	struct uet_addrs addrs;
	struct sk_buff *skb;
	unsigned int skb_len;
	u32 len;

	/* The whole u32, as librxe writes it: only these two are UD's. */
	if (wqe->wr.opcode != IB_WR_SEND && wqe->wr.opcode != IB_WR_SEND_WITH_IMM)
		return IB_WC_LOC_QP_OP_ERR;
	status = uet_ud_send_len(qp, wqe, &len);
	if (status != IB_WC_SUCCESS)
		return status;
	/* A QPN no device can have: the wire's field is narrower than IB's.
	 * IBA: the multicast QPN goes with a group's address, and only it.
	 */
	if ((wqe->wr.wr.ud.remote_qpn > UET_MAX_QPN && !mcast) ||
	    uet_addrs_from_av(udev, &wqe->wr.wr.ud.av,
			      mcast ? UET_DEST_MCAST : UET_DEST_UNICAST, &addrs))
		return IB_WC_LOC_QP_OP_ERR;
	*byte_len = len;
	uud.pay_len = len;
	/* IBA: a Q_Key with the high bit set in the WR means the QP's own. */
	if (uud.qkey & BIT(31))
		uud.qkey = READ_ONCE(qp->qkey);
	if (wqe->wr.opcode == IB_WR_SEND_WITH_IMM) {
		uud.flags |= UET_UUD_F_IMM;
		uud.imm = be32_to_cpu(wqe->wr.ex.imm_data);
	}
	if (wqe->wr.send_flags & IB_SEND_SOLICITED)
		uud.flags |= UET_UUD_F_SOLICITED;

	/* Unreliable: a datagram we cannot allocate is one the network lost. */
	skb = uet_qp_alloc_skb(qp, sizeof(struct uet_uud_hdr) + len);
	if (!skb)
		return IB_WC_SUCCESS;
	uet_uud_pack(&uud, skb_put(skb, sizeof(struct uet_uud_hdr)),
		     sizeof(struct uet_uud_hdr));
	dst.buf = skb_put(skb, len);
	if (wqe->wr.send_flags & IB_SEND_INLINE) {
		memcpy(dst.buf, wqe->dma.inline_data, len);
	} else if (uet_sge_copy(qp, wqe->dma.sge, wqe->dma.num_sge, 0, len, 0,
				&dst)) {
		kfree_skb(skb);
		return IB_WC_LOC_PROT_ERR;
	}

	skb_len = skb->len;
	if (!uet_udp_xmit(udev, skb, &addrs, qp->entropy,
			  uet_qp_tos(uet_param(qp->udev, dscp_control), false),
			  NULL, false)) {
		uet_inc(udev, UET_CNT_TX_PKTS);
		uet_count(udev, UET_CNT_TX_BYTES, skb_len);
	}
	return IB_WC_SUCCESS;
}

/* Send (RTS) or flush (SQE) up to a budget of WQEs; true if some are left. */
static bool uet_ud_send(struct uet_qp *qp)
{
	struct rxe_send_wqe *wqe = qp->ud_swqe;
	enum ib_qp_state state;
	unsigned long flags;
	struct ib_wc wc;
	bool signaled;
	int n;

	for (n = 0; n < UET_WORK_BUDGET; n++) {
		state = uet_qp_state(qp);
		if ((state != IB_QPS_RTS && state != IB_QPS_SQE) ||
		    !uet_queue_count(&qp->sq))
			return false;
		/* The slot is the client's again once copied. */
		memcpy(wqe, uet_queue_consumer_addr(&qp->sq),
		       1U << qp->sq.log2_elem_size);
		uet_queue_advance_consumer(&qp->sq);
		memset(&wc, 0, sizeof(wc));
		wc.wr_id = wqe->wr.wr_id;
		wc.opcode = IB_WC_SEND;
		wc.qp = &qp->ibqp;
		signaled = qp->sq_sig_all ||
			   (wqe->wr.send_flags & IB_SEND_SIGNALED);
		wc.status = state == IB_QPS_SQE ? IB_WC_WR_FLUSH_ERR :
			    uet_ud_send_one(qp, wqe, &wc.byte_len);
		/* IBA: a send error takes a UD QP to SQE, which flushes the
		 * WQEs after it until the consumer moves the QP back to RTS
		 * (as ib_mad does when it sees the error).
		 */
		if (wc.status != IB_WC_SUCCESS && state == IB_QPS_RTS) {
			spin_lock_irqsave(&qp->state_lock, flags);
			if (qp->state == IB_QPS_RTS) {
				trace_uet_qp_state(qp->udev->ibdev.index,
						   qp->ibqp.qp_num, IB_QPS_RTS,
						   IB_QPS_SQE);
				qp->state = IB_QPS_SQE;
			}
			spin_unlock_irqrestore(&qp->state_lock, flags);
		}
		if (wc.status != IB_WC_SUCCESS || signaled)
			uet_cq_post(qp->scq, &wc, false);
	}
	return uet_queue_count(&qp->sq) != 0;
}

/* The QP is in error: every WQE still in the rings completes with a flush
 * status, a budget's worth of each a pass: the producers are the user's
 * to move, so a pass must end, and a doorbell makes up to 256 of them
 * (engine.c). True if a ring has more.
 */
static bool uet_ud_flush(struct uet_qp *qp)
{
	struct ib_wc wc = {
		.status = IB_WC_WR_FLUSH_ERR,
		.qp = &qp->ibqp,
	};
	u32 n;

	wc.opcode = IB_WC_SEND;
	for (n = UET_WORK_BUDGET; n && uet_queue_count(&qp->sq); n--) {
		wc.wr_id = ((struct rxe_send_wqe *)
			    uet_queue_consumer_addr(&qp->sq))->wr.wr_id;
		uet_queue_advance_consumer(&qp->sq);
		uet_cq_post(qp->scq, &wc, false);
	}
	/* An SRQ's WQEs are the SRQ's, for its other QPs. */
	if (qp->srq)
		return uet_queue_count(&qp->sq);
	wc.opcode = IB_WC_RECV;
	for (n = UET_WORK_BUDGET; n && uet_queue_count(&qp->rq); n--) {
		wc.wr_id = ((struct rxe_recv_wqe *)
			    uet_queue_consumer_addr(&qp->rq))->wr_id;
		uet_queue_advance_consumer(&qp->rq);
		uet_cq_post(qp->rcq, &wc, false);
	}
	return uet_queue_count(&qp->sq) || uet_queue_count(&qp->rq);
}

static bool uet_ud_pass(struct uet_engine *eng)
{
	struct uet_qp *qp = container_of(eng, struct uet_qp, eng);
	enum ib_qp_state state = uet_qp_state(qp);
	struct sk_buff *skb;
	bool more;
	int n;

	if (!uet_qp_pass_open(qp, state))
		return state == IB_QPS_ERR && uet_ud_flush(qp);

	for (n = 0; n < UET_WORK_BUDGET && (skb = skb_dequeue(&qp->rxq)); n++)
		if (!uet_ud_recv_one(qp, skb))
			return false;
	more = uet_ud_send(qp);
	return more || !skb_queue_empty(&qp->rxq);
}

void uet_ud_deliver(struct uet_dev *udev, struct uet_qp *qp,
		    struct sk_buff *skb, u32 qkey)
{
	/* Read before the packet is queued: its owner may free it. */
	bool light = skb->len <= UET_RCV_LIGHT_LEN;

	/* IBA: QP1 takes the well-known Q_Key, whatever it was given. */
	if (qkey != (qp->ibqp.qp_num == UET_GSI_QPN ? IB_QP1_QKEY :
		     READ_ONCE(qp->qkey))) {
		uet_inc(udev, UET_CNT_DROP_ACCESS);
		kfree_skb(skb);
		return;
	}
	switch (uet_engine_queue(&qp->eng, &qp->rxq, skb,
				 uet_param(udev, rx_backlog))) {
	case 0:
		uet_engine_run(&qp->eng, light);
		return;
	case -ENOBUFS:
		uet_inc(udev, UET_CNT_DROP_BACKLOG);
		break;
	default:
		uet_inc(udev, UET_CNT_DROP_NO_QP);
		break;
	}
	kfree_skb(skb);
}

void uet_ud_rcv(struct uet_dev *udev, struct sk_buff *skb)
{
	struct uet_ud_cb *cb = UET_UD_CB(skb);
	struct uet_uud uud;
	struct uet_qp *qp;

	/* A datagram to a group says so, and travels to a group address:
	 * one without the other is not a sender's.
	 */
	if (!pskb_may_pull(skb, sizeof(struct uet_uud_hdr)) ||
	    uet_uud_parse(skb->data, skb_headlen(skb), &uud) < 0 ||
	    uud.pay_len != skb->len - sizeof(struct uet_uud_hdr) ||
	    !(uud.flags & UET_UUD_F_MCAST) != !cb->ip.mcast) {
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		kfree_skb(skb);
		return;
	}
	cb->imm = uud.imm;
	cb->sqpn = uud.spdcid;
	cb->flags = uud.flags;
	__skb_pull(skb, sizeof(struct uet_uud_hdr));
	if (uud.flags & UET_UUD_F_MCAST) {
		uet_mcast_rcv(udev, skb, uud.qkey);
		return;
	}

	qp = uet_qp_get(udev, uud.dpdcid);
	if (!qp || !uet_qp_is_ud(qp)) {
		uet_inc(udev, UET_CNT_DROP_NO_QP);
		if (qp)
			uet_qp_put(qp);
		kfree_skb(skb);
		return;
	}
	uet_ud_deliver(udev, qp, skb, uud.qkey);
	uet_qp_put(qp);
}

/* Kernel consumers: a WR becomes a WQE of the ring; the work sends it. In
 * the error state WRs are only flushed, and any WR is taken as it comes,
 * so that ib_drain_sq() can post its marker.
 */
static int uet_ud_post_one(struct uet_qp *qp, const struct ib_send_wr *wr,
			   bool flush)
{
	const struct ib_ud_wr *uwr = ud_wr(wr);
	struct rxe_send_wqe *wqe;
	struct uet_addrs addrs;
	bool mcast;
	int err;

	if (wr->num_sge > qp->cap.max_send_sge)
		return -EINVAL;
	if (!flush) {
		if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
			return -EINVAL;
		mcast = uwr->remote_qpn == IB_MULTICAST_QPN;
		if (!uwr->ah || (uwr->remote_qpn > UET_MAX_QPN && !mcast))
			return -EINVAL;
		err = uet_addrs_from_ah(qp->udev, &to_uah(uwr->ah)->attr,
					mcast ? UET_DEST_MCAST : UET_DEST_UNICAST,
					&addrs);
		if (err)
			return err;
	}
	if (uet_queue_client_full(&qp->sq))
		return -ENOMEM;

	wqe = uet_queue_client_producer_addr(&qp->sq);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	if (!flush) {
		wqe->wr.ex.imm_data = wr->ex.imm_data;
		wqe->wr.wr.ud.remote_qpn = uwr->remote_qpn;
		wqe->wr.wr.ud.remote_qkey = uwr->remote_qkey;
		uet_ud_addrs_to_av(&addrs, &wqe->wr.wr.ud.av);
		err = uet_sge_from_wr(&wqe->dma, wr->sg_list, wr->num_sge,
				      wr->send_flags & IB_SEND_INLINE,
				      qp->cap.max_inline_data);
		if (err)
			return err;
	}
	uet_queue_client_advance_producer(&qp->sq);
	return 0;
}

int uet_ud_post_send(struct uet_qp *qp, const struct ib_send_wr *wr,
		     const struct ib_send_wr **bad_wr)
{
	enum ib_qp_state state = uet_qp_state(qp);
	unsigned long flags;
	int err = 0;

	/* librxe's doorbell: the WQEs are in the ring already. Before RTS
	 * it fails, as rdma_rxe's does (IBA: nothing may be posted to the
	 * send queue then), and the move to RTS discards what librxe wrote.
	 */
	if (qp->is_user && state >= IB_QPS_RTS) {
		uet_engine_run_task(&qp->eng);
		return 0;
	}
	if (state < IB_QPS_RTS) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq_lock, flags);
	for (; wr; wr = wr->next) {
		err = uet_ud_post_one(qp, wr, state == IB_QPS_ERR);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	uet_engine_kick(&qp->eng);
	return err;
}

int uet_ud_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		     struct ib_udata *udata)
{
	struct uet_dev *udev = to_udev(ibqp->device);
	struct uet_qp *qp = to_uqp(ibqp);
	struct rxe_create_qp_resp __user *uresp = NULL;
	struct ib_qp_cap *cap = &init->cap;
	unsigned int n, sq_space;
	u32 qpn;
	int err;

	/* QP1 receives what ib_mad posts to it, on its own RQ. */
	if (init->create_flags || (init->srq && init->qp_type == IB_QPT_GSI))
		return -EOPNOTSUPP;
	if (init->qp_type == IB_QPT_GSI && init->port_num != UET_PORT)
		return -EINVAL;
	/* As for RC: librxe sends nothing, and maps the rings it is told of. */
	if (udata) {
		if (init->qp_type != IB_QPT_UD || udata->inlen ||
		    udata->outlen < sizeof(*uresp))
			return -EINVAL;
		uresp = udata->outbuf;
		qp->is_user = true;
	}
	err = uet_qp_check_cap(init);
	if (err)
		return err;

	qp->udev = udev;
	mutex_init(&qp->ctl_lock);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	qp->state = IB_QPS_RESET;
	qp->scq = to_ucq(init->send_cq);
	qp->rcq = to_ucq(init->recv_cq);
	/* ib_core holds the SRQ for us: it refuses to destroy it while a
	 * QP uses it (srq->usecnt).
	 */
	qp->srq = init->srq ? to_usrq(init->srq) : NULL;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	uet_engine_init(&qp->eng, uet_ud_pass, NULL);
	skb_queue_head_init(&qp->rxq);

	/* Inline data and the SGE list share the WQE's tail, as in rxe. */
	sq_space = max_t(u32, cap->max_send_sge * sizeof(struct rxe_sge),
			 cap->max_inline_data);
	cap->max_send_sge = sq_space / sizeof(struct rxe_sge);
	cap->max_inline_data = sq_space;
	n = cap->max_send_wr;
	err = uet_queue_init(&qp->sq, &n, sizeof(struct rxe_send_wqe) + sq_space,
			     UET_QUEUE_FROM_CLIENT);
	if (err)
		return err;
	cap->max_send_wr = n;
	if (!qp->srq) {
		n = cap->max_recv_wr;
		err = uet_queue_init(&qp->rq, &n, sizeof(struct rxe_recv_wqe) +
				     cap->max_recv_sge * sizeof(struct rxe_sge),
				     UET_QUEUE_FROM_CLIENT);
		if (err)
			goto err_sq;
		cap->max_recv_wr = n;
	}
	qp->cap = *cap;

	qp->ud_swqe = kmalloc(1U << qp->sq.log2_elem_size, GFP_KERNEL_ACCOUNT);
	qp->ud_rwqe = kmalloc(uet_ud_rwqe_size(qp), GFP_KERNEL_ACCOUNT);
	if (!qp->ud_swqe || !qp->ud_rwqe) {
		err = -ENOMEM;
		goto err_copies;
	}
	if (uresp) {
		/* librxe maps no RQ for a QP with an SRQ. */
		if (!qp->srq) {
			err = uet_queue_mmap_out(udev, &qp->rq, udata,
						 &uresp->rq_mi);
			if (err)
				goto err_copies;
		}
		err = uet_queue_mmap_out(udev, &qp->sq, udata, &uresp->sq_mi);
		if (err)
			goto err_copies;
	}

	err = uet_qp_ref_alloc(qp);
	if (err)
		goto err_copies;
	/* Datagrams are independent: one fixed UDP source port per QP. */
	if (init->qp_type == IB_QPT_GSI) {
		qpn = UET_GSI_QPN;
		qp->entropy = 0xc000 | qpn;
		ibqp->qp_num = qpn;
		/* -EBUSY: the port has its GSI QP already. */
		err = xa_insert(&udev->qps, qpn, qp->ref, GFP_KERNEL);
		if (err)
			goto err_ref;
		return 0;
	}
	err = xa_alloc_cyclic(&udev->qps, &qpn, NULL,
			      XA_LIMIT(UET_MIN_QPN, UET_MAX_QPN), &udev->qp_next,
			      GFP_KERNEL);
	if (err < 0)
		goto err_ref;
	qp->entropy = 0xc000 | (qpn & 0x3fff);
	ibqp->qp_num = qpn;
	/* Visible to the receive path only now that it is whole. */
	xa_store(&udev->qps, qpn, qp->ref, GFP_KERNEL);
	return 0;

err_ref:
	kfree(qp->ref);
err_copies:
	kfree(qp->ud_rwqe);
	kfree(qp->ud_swqe);
	if (!qp->srq)
		uet_queue_cleanup(&qp->rq);
err_sq:
	uet_queue_cleanup(&qp->sq);
	return err;
}

int uet_ud_modify_qp(struct uet_qp *qp, struct ib_qp_attr *attr, int mask)
{
	enum ib_qp_state cur, new;
	unsigned long flags;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	/* The caller's CUR_STATE is a claim, checked against the real state. */
	cur = uet_qp_state(qp);
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		return -EINVAL;
	new = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, qp->ibqp.qp_type, mask))
		return -EINVAL;
	if ((mask & IB_QP_PORT) && attr->port_num != UET_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;

	mutex_lock(&qp->ctl_lock);
	if (uet_qp_state(qp) != cur) {
		mutex_unlock(&qp->ctl_lock);
		return -EINVAL;
	}
	/* With the engine stopped, no pass uses the rings or the state. */
	uet_engine_stop(&qp->eng);
	spin_lock_irqsave(&qp->state_lock, flags);
	if (mask & IB_QP_QKEY)
		WRITE_ONCE(qp->qkey, attr->qkey);
	/* Datagrams carry no PSN; kept for query_qp, as rdma_rxe does. */
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn & 0xffffff;
	if (mask & IB_QP_STATE) {
		trace_uet_qp_state(qp->udev->ibdev.index, qp->ibqp.qp_num,
				   qp->state, new);
		qp->state = new;
	}
	spin_unlock_irqrestore(&qp->state_lock, flags);

	if (new == IB_QPS_RESET) {
		skb_queue_purge(&qp->rxq);
		uet_queue_discard(&qp->sq);
		if (!qp->srq)
			uet_queue_discard(&qp->rq);
		mutex_unlock(&qp->ctl_lock);
		return 0;
	}
	/* Sends a user wrote before RTS were refused at their doorbell. */
	if (new == IB_QPS_RTS && cur < IB_QPS_RTS)
		uet_queue_discard(&qp->sq);
	/* Sends leave as a pass takes them: with none running, none is in
	 * flight and the SQ is drained.
	 */
	if (new == IB_QPS_SQD && (mask & IB_QP_EN_SQD_ASYNC_NOTIFY) &&
	    attr->en_sqd_async_notify && qp->ibqp.event_handler) {
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_SQ_DRAINED,
		};

		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	uet_engine_start(&qp->eng);
	uet_engine_kick(&qp->eng);
	mutex_unlock(&qp->ctl_lock);
	return 0;
}

void uet_ud_query_qp(struct uet_qp *qp, struct ib_qp_attr *attr,
		     struct ib_qp_init_attr *init)
{
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	spin_lock_irqsave(&qp->state_lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->qkey = qp->qkey;
	attr->sq_psn = qp->sq_psn;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	attr->path_mtu = uet_ib_mtu(READ_ONCE(qp->udev->ndev->mtu));
	attr->cap = qp->cap;
	attr->port_num = UET_PORT;

	memset(init, 0, sizeof(*init));
	init->send_cq = qp->ibqp.send_cq;
	init->recv_cq = qp->ibqp.recv_cq;
	init->srq = qp->ibqp.srq;
	init->cap = qp->cap;
	init->qp_type = qp->ibqp.qp_type;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	init->port_num = UET_PORT;
}

void uet_ud_destroy_qp(struct uet_qp *qp)
{
	/* No receive path lookup holds the QP after this. */
	uet_qp_unpublish(qp);
	uet_engine_stop(&qp->eng);
	skb_queue_purge(&qp->rxq);
	if (!qp->srq)
		uet_queue_cleanup(&qp->rq);
	uet_queue_cleanup(&qp->sq);
	kfree(qp->ud_rwqe);
	kfree(qp->ud_swqe);
	mutex_destroy(&qp->ctl_lock);
}
