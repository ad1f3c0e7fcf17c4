// SPDX-License-Identifier: GPL-2.0
/*
 * Responder: every data packet names where its payload goes, so it is
 * checked and placed as it arrives, in any order. The delivery context
 * makes sure each PSN is applied once: duplicates are only acknowledged,
 * so SENDs and atomics happen exactly once. Receive WQEs are bound to
 * messages in message-number order and complete in that order.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <net/inet_ecn.h>

#include "mr.h"
#include "qp.h"
#include "psn.h"
#include "train.h"
#include "uc.h"
#include "udp.h"
#include "uet_compat.h"

int uet_resp_init(struct uet_qp *qp)
{
	struct uet_resp *resp;
	u32 max_sge, i;
	u8 *wqes;

	resp = kzalloc(sizeof(*resp), GFP_KERNEL_ACCOUNT);
	if (!resp)
		return -ENOMEM;
	max_sge = qp->srq ? qp->srq->max_sge : qp->cap.max_recv_sge;
	resp->rqe_size = ALIGN(sizeof(struct rxe_recv_wqe) +
			       max_sge * sizeof(struct rxe_sge), 8);
	resp->rmsg = kcalloc(UET_RMSG_MAX, sizeof(*resp->rmsg), GFP_KERNEL_ACCOUNT);
	wqes = kvcalloc(UET_RMSG_MAX, resp->rqe_size, GFP_KERNEL_ACCOUNT);
	if (!resp->rmsg || !wqes) {
		kfree(resp->rmsg);
		kvfree(wqes);
		kfree(resp);
		return -ENOMEM;
	}
	for (i = 0; i < UET_RMSG_MAX; i++)
		resp->rmsg[i].wqe = (struct rxe_recv_wqe *)(wqes + i * resp->rqe_size);
	qp->resp = resp;
	return 0;
}

void uet_resp_free(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;

	if (!resp)
		return;
	kvfree(resp->rmsg[0].wqe);
	kfree(resp->rmsg);
	kfree(resp);
	qp->resp = NULL;
}

void uet_resp_reset(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;

	resp->rmsg_done = 0;
	resp->rmsg_bound = 0;
	uet_ack_reset(&resp->ack);
	resp->uc_seen = false;
	resp->uc_open = false;
	if (!qp->srq)
		uet_queue_discard(&qp->rq);
}

/* Take the next receive WQE into m; -EAGAIN when none is posted. */
static int uet_resp_take_rqe(struct uet_qp *qp, struct uet_rmsg *m)
{
	struct uet_resp *resp = qp->resp;
	struct rxe_recv_wqe *wqe = m->wqe;
	u32 max_sge;
	int err;

	if (qp->srq) {
		err = uet_srq_take(qp->srq, wqe, resp->rqe_size);
		if (err == -ENOENT)
			return -EAGAIN;
		max_sge = qp->srq->max_sge;
	} else {
		if (!uet_queue_count(&qp->rq))
			return -EAGAIN;
		memcpy(wqe, uet_queue_consumer_addr(&qp->rq), resp->rqe_size);
		uet_queue_advance_consumer(&qp->rq);
		max_sge = qp->cap.max_recv_sge;
		err = 0;
	}
	m->bound = true;
	m->known = false;
	m->rcvd = 0;
	m->status = IB_WC_SUCCESS;
	if (err || wqe->dma.num_sge > max_sge) {
		wqe->dma.num_sge = 0;
		m->status = IB_WC_LOC_QP_OP_ERR;
	}
	wqe->dma.length = min_t(u64, uet_sge_total(wqe->dma.sge,
						   wqe->dma.num_sge), U32_MAX);
	return 0;
}

/* The receive WQE for message msn, binding WQEs up to it in order. */
static struct uet_rmsg *uet_resp_bind(struct uet_qp *qp, u32 msn, int *err)
{
	struct uet_resp *resp = qp->resp;

	*err = 0;
	if (msn - resp->rmsg_done >= UET_RMSG_MAX) {
		*err = -EINVAL;
		return NULL;
	}
	while (uet_psn_after_eq(msn, resp->rmsg_bound)) {
		*err = uet_resp_take_rqe(qp, &resp->rmsg[resp->rmsg_bound %
							 UET_RMSG_MAX]);
		if (*err)
			return NULL;
		resp->rmsg_bound++;
	}
	return &resp->rmsg[msn % UET_RMSG_MAX];
}

static void uet_resp_post_cqe(struct uet_qp *qp, struct uet_rmsg *m,
			      enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = m->wqe->wr_id,
		.status = status,
		.opcode = IB_WC_RECV,
		.byte_len = m->msg_len,
		.qp = &qp->ibqp,
		.src_qp = qp->dest_qpn,
		.port_num = UET_PORT,
	};

	if (status == IB_WC_SUCCESS) {
		if (m->opcode == UET_OP_WRITE_IMM) {
			wc.opcode = IB_WC_RECV_RDMA_WITH_IMM;
			wc.wc_flags = IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(m->imm);
		} else if (m->opcode == UET_OP_SEND_IMM) {
			wc.wc_flags = IB_WC_WITH_IMM;
			wc.ex.imm_data = cpu_to_be32(m->imm);
		} else if (m->opcode == UET_OP_SEND_INV) {
			wc.wc_flags = IB_WC_WITH_INVALIDATE;
			wc.ex.invalidate_rkey = m->imm;
		}
	} else {
		wc.byte_len = 0;
	}
	uet_cq_post(qp->rcq, &wc, m->flags & UET_VF_SOLICITED);
}

/* Complete receive WQEs whose messages are whole, in order. */
static void uet_resp_complete(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;

	while (resp->rmsg_done != resp->rmsg_bound) {
		struct uet_rmsg *m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];

		/* Whole, and so is everything sent before it: IB orders a
		 * receive completion after the data of earlier WRITEs
		 * (IBA 10.8.3), which uet places in any order.
		 */
		if (m->status == IB_WC_SUCCESS &&
		    (!(m->known && m->rcvd == m->msg_len) ||
		     !uet_psn_before(m->psn_hi, qp->rx.next)))
			break;
		if (m->status == IB_WC_SUCCESS && m->opcode == UET_OP_SEND_INV &&
		    (uet_key_is_mw(m->imm) ? uet_mw_invalidate(qp, m->imm, true) :
		     uet_mr_invalidate(qp->udev, qp->ibqp.pd, m->imm)))
			m->status = IB_WC_REM_INV_REQ_ERR;
		uet_resp_post_cqe(qp, m, m->status);
		m->bound = false;
		resp->rmsg_done++;
		if (m->status != IB_WC_SUCCESS) {
			uet_qp_error(qp);
			return;
		}
	}
}

static bool uet_resp_op_is_send(u8 opcode)
{
	return opcode == UET_OP_SEND || opcode == UET_OP_SEND_IMM ||
	       opcode == UET_OP_SEND_INV;
}

/* Account a packet of a receive-consuming message. Returns 0, -EAGAIN
 * (no receive WQE: RNR) or -EINVAL (inconsistent with earlier packets).
 */
static int uet_resp_rmsg(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
			 u32 psn, struct uet_rmsg **mp)
{
	struct uet_rmsg *m;
	int err;

	m = uet_resp_bind(qp, vh->msn, &err);
	if (!m)
		return err;
	if (!m->known || uet_psn_after(psn, m->psn_hi))
		m->psn_hi = psn;
	if (!m->known) {
		m->known = true;
		m->opcode = vh->opcode;
		m->flags = vh->flags;
		m->msg_len = vh->msg_len;
		m->imm = vh->imm;
	} else if (m->opcode != vh->opcode || m->msg_len != vh->msg_len) {
		return -EINVAL;
	}
	*mp = m;
	return 0;
}

/* Check a remote access of [va, va + len) and look its region (through a
 * window, or not) up into *mrp; *delta turns an address of the request
 * into the region's. An empty range reaches no region (*mrp NULL) and its
 * rkey is not checked, only the QP's right: the requester need not set
 * one (IBA C9-88, as rdma_rxe's check_rkey()). UET_VERR_REM_ACCESS if
 * refused.
 */
static int uet_resp_mr(struct uet_qp *qp, u32 rkey, int access, u64 va,
		       u64 len, struct uet_mr **mrp, u64 *delta)
{
	u64 iova;

	*mrp = NULL;
	if ((qp->access & access) != access)
		return UET_VERR_REM_ACCESS;
	if (!len)
		return 0;
	*mrp = uet_rkey_get(qp, rkey, access, va, len, &iova);
	if (!*mrp)
		return UET_VERR_REM_ACCESS;
	*delta = iova - va;
	return 0;
}

/* FLUSH (IBA 1.5, A19.4.1; as rdma_rxe's check_rkey() and process_flush()
 * do it, rxe_resp.c of Linux 6.2+): a right per placement type asked for,
 * over the range, or, for a whole region, over the key alone; no
 * exemption for an empty range, which only READ and WRITE have (C9-88).
 * Every packet the requester sent before it is placed already: it is sent
 * only once they are all acknowledged (UET_WR_PLACED_AFTER), and a packet
 * is acknowledged once placed. What is left is making the stores visible
 * to every other agent, the barrier rdma_rxe issues; placing in ordinary
 * memory, through the CPU's coherent caches, needs nothing more for
 * global visibility, the one type uet grants (UET_MR_FLUSH).
 */
static int uet_resp_flush_req(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
			      u32 len)
{
	u32 plt = vh->imm & UET_FETH_PLT_MASK;
	u32 sel = (vh->imm & UET_FETH_SEL_MASK) >> UET_FETH_SEL_SHIFT;
	int access = uet_flush_access(plt, sel);
	struct uet_mr *mr;
	u64 iova;

	if (len || vh->offset ||
	    (vh->imm & ~(UET_FETH_PLT_MASK | UET_FETH_SEL_MASK)) || !access)
		return UET_VERR_REM_INV_REQ;
	if (sel == IB_FLUSH_MR) {
		mr = uet_key_is_mw(vh->rkey) ? NULL :
		     uet_mr_get(qp->udev, vh->rkey, true);
		if (mr && uet_mr_check_whole(mr, qp->ibqp.pd, access)) {
			uet_mr_put(mr);
			mr = NULL;
		}
	} else {
		mr = uet_rkey_get(qp, vh->rkey, access, vh->addr, vh->msg_len,
				  &iova);
	}
	if (!mr)
		return UET_VERR_REM_ACCESS;
	uet_mr_put(mr);
	/* The stores that placed earlier packets are ordered before the
	 * ACK that tells the requester they are visible.
	 */
	wmb();
	return 0;
}

/* Apply one new data packet. Returns 0 when applied (commit the PSN),
 * -EAGAIN when it must come again later (RNR), or a NACK vendor code
 * (> 0) for a verbs error.
 */
static int uet_resp_execute(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
			    u32 psn, struct sk_buff *skb, int off, u32 len)
{
	struct uet_sge_io pkt = { .skb = skb, .skb_off = off };
	struct uet_rmsg *m = NULL;
	struct uet_rjob job = {};
	struct uet_mr *mr;
	u64 iova = vh->addr + vh->offset, delta;
	u8 buf[UET_ATOMIC_REQ_LEN];
	int err;

	switch (vh->opcode) {
	case UET_OP_SEND:
	case UET_OP_SEND_IMM:
	case UET_OP_SEND_INV:
	case UET_OP_WRITE_IMM:
		if (len > vh->msg_len - vh->offset)
			return UET_VERR_REM_INV_REQ;
		err = uet_resp_rmsg(qp, vh, psn, &m);
		if (err == -EAGAIN)
			return err;
		if (err)
			return UET_VERR_REM_INV_REQ;
		if (m->status != IB_WC_SUCCESS)
			return UET_VERR_REM_OP;
		if (uet_resp_op_is_send(vh->opcode)) {
			if (vh->msg_len > m->wqe->dma.length) {
				m->status = IB_WC_LOC_LEN_ERR;
				return UET_VERR_REM_INV_REQ;
			}
			err = uet_sge_copy(qp, m->wqe->dma.sge,
					   m->wqe->dma.num_sge, vh->offset, len,
					   IB_ACCESS_LOCAL_WRITE, &pkt);
			if (err) {
				m->status = IB_WC_LOC_PROT_ERR;
				return UET_VERR_REM_OP;
			}
			m->rcvd += len;
			return 0;
		}
		fallthrough;
	case UET_OP_WRITE:
		if (len > vh->msg_len - vh->offset || iova < vh->addr)
			return UET_VERR_REM_INV_REQ;
		/* The whole message must fit, as IB checks it on the first
		 * packet: no packet of an out-of-bounds WRITE lands, whichever
		 * arrives first.
		 */
		err = uet_resp_mr(qp, vh->rkey, IB_ACCESS_REMOTE_WRITE, vh->addr,
				  vh->msg_len, &mr, &delta);
		if (err)
			return err;
		if (mr) {
			err = uet_mr_copy_skb(mr, iova + delta, skb, off, len);
			uet_mr_put(mr);
			if (err)
				return UET_VERR_REM_ACCESS;
		}
		if (m)
			m->rcvd += len;
		return 0;

	case UET_OP_READ_REQ:
		if (len || vh->offset)
			return UET_VERR_REM_INV_REQ;
		err = uet_resp_mr(qp, vh->rkey, IB_ACCESS_REMOTE_READ, vh->addr,
				  vh->msg_len, &mr, &delta);
		if (err)
			return err;
		if (mr)
			uet_mr_put(mr);
		err = uet_req_job_room(qp);
		if (err)
			return err == -ENOMEM ? -EAGAIN : UET_VERR_REM_INV_REQ;
		job.opcode = UET_OP_READ_RESP;
		job.seq = vh->msn;
		job.addr = vh->addr;
		job.rkey = vh->rkey;
		job.length = vh->msg_len;
		uet_req_queue_job(qp, &job);
		return 0;

	case UET_OP_CMP_SWAP:
	case UET_OP_FETCH_ADD:
		if (len != UET_ATOMIC_REQ_LEN || vh->offset ||
		    skb_copy_bits(skb, off, buf, sizeof(buf)))
			return UET_VERR_REM_INV_REQ;
		/* Room first: the atomic must not be applied unanswered. */
		err = uet_req_job_room(qp);
		if (err)
			return err == -ENOMEM ? -EAGAIN : UET_VERR_REM_INV_REQ;
		err = uet_resp_mr(qp, vh->rkey, IB_ACCESS_REMOTE_ATOMIC, vh->addr,
				  sizeof(u64), &mr, &delta);
		if (err)
			return err;
		err = uet_mr_atomic(mr, vh->addr + delta,
				    vh->opcode == UET_OP_CMP_SWAP ?
				    UET_ATOMIC_CMP_SWAP : UET_ATOMIC_FETCH_ADD,
				    get_unaligned_be64(buf),
				    get_unaligned_be64(buf + 8), &job.orig);
		uet_mr_put(mr);
		if (err)
			return UET_VERR_REM_INV_REQ;
		job.opcode = UET_OP_ATOMIC_RESP;
		job.seq = vh->msn;
		uet_req_queue_job(qp, &job);
		return 0;

	case UET_OP_ATOMIC_WRITE:
		/* IBA 1.5 (memory placement extensions): 8 bytes to an
		 * aligned address, by remote write right, as rdma_rxe checks.
		 */
		if (len != sizeof(u64) || vh->msg_len != sizeof(u64) ||
		    vh->offset || skb_copy_bits(skb, off, buf, sizeof(u64)))
			return UET_VERR_REM_INV_REQ;
		err = uet_resp_mr(qp, vh->rkey, IB_ACCESS_REMOTE_WRITE, vh->addr,
				  sizeof(u64), &mr, &delta);
		if (err)
			return err;
		err = uet_mr_atomic(mr, vh->addr + delta, UET_ATOMIC_WRITE,
				    get_unaligned((u64 *)buf), 0, NULL);
		uet_mr_put(mr);
		return err ? UET_VERR_REM_INV_REQ : 0;

	case UET_OP_FLUSH:
		return uet_resp_flush_req(qp, vh, len);

	default:
		return UET_VERR_REM_INV_REQ;
	}
}

/* UC (IBA vol 1 9.7.x, as rdma_rxe's responder drops a message): a
 * message that cannot be received whole is dropped. Its receive WQE, if
 * it took one, stays for the next message; what a WRITE placed before
 * stays placed.
 */
static void uet_resp_uc_drop(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;

	if (resp->uc_open)
		uet_inc(qp->udev, UET_CNT_UC_MSG_DROP);
	resp->uc_open = false;
	if (resp->rmsg_done != resp->rmsg_bound) {
		struct uet_rmsg *m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];

		m->known = false;
		m->rcvd = 0;
	}
}

/* The receive WQE of the UC message msn begins, bound if none is. */
static struct uet_rmsg *uet_resp_uc_rqe(struct uet_qp *qp,
					const struct uet_verbs_hdr *vh)
{
	struct uet_resp *resp = qp->resp;
	struct uet_rmsg *m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];

	if (resp->rmsg_done == resp->rmsg_bound) {
		if (uet_resp_take_rqe(qp, m))
			return NULL;
		resp->rmsg_bound++;
	}
	m->known = true;
	m->opcode = vh->opcode;
	m->flags = vh->flags;
	m->msg_len = vh->msg_len;
	m->imm = vh->imm;
	m->rcvd = 0;
	return m;
}

/* The UC message msn ended whole: its receive WQE, if any, completes. */
static void uet_resp_uc_done(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;
	struct uet_rmsg *m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];

	resp->uc_open = false;
	if (resp->uc_opcode == UET_OP_WRITE)
		return;
	if (resp->uc_opcode == UET_OP_SEND_INV &&
	    (uet_key_is_mw(m->imm) ? uet_mw_invalidate(qp, m->imm, true) :
	     uet_mr_invalidate(qp->udev, qp->ibqp.pd, m->imm)))
		m->status = IB_WC_REM_INV_REQ_ERR;
	uet_resp_post_cqe(qp, m, m->status);
	m->bound = false;
	resp->rmsg_done++;
	if (m->status != IB_WC_SUCCESS)
		uet_qp_error(qp);
}

/* A UC data packet of len bytes. There is no ACK and no resend, so a
 * message is received whole or not at all: its packets are placed as
 * they arrive, in any order, and it ends when its bytes are all there.
 * A packet of a later message (a larger msn) ends it too (uc.h): if it
 * is not whole then, a packet of it was lost and it is dropped, and a
 * packet of it that comes after that is discarded. The requester sends
 * a QP's packets in order on one entropy value, so one path: a message
 * is dropped for reordering only if the network reorders one path's
 * packets across a message boundary. Errors drop the message as rdma_rxe
 * does for UC (no receive WQE, a SEND longer than it, an rkey refused:
 * class D); a receive WQE that cannot be written completes in error
 * (class A).
 */
static void uet_resp_uc(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
			struct sk_buff *skb, int off, u32 len)
{
	struct uet_sge_io pkt = { .skb = skb, .skb_off = off };
	struct uet_resp *resp = qp->resp;
	struct uet_dev *udev = qp->udev;
	struct uet_rmsg *m = NULL;
	struct uet_mr *mr;
	u64 delta;

	switch (vh->opcode) {
	case UET_OP_SEND:
	case UET_OP_SEND_IMM:
	case UET_OP_SEND_INV:
	case UET_OP_WRITE:
	case UET_OP_WRITE_IMM:
		break;
	default:
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		return;
	}
	if (vh->offset > vh->msg_len || len > vh->msg_len - vh->offset) {
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		return;
	}

	switch (uet_uc_classify(resp->uc_seen, resp->uc_open, resp->uc_msn,
				vh->msn)) {
	case UET_UC_PKT_LATE:
		uet_inc(udev, UET_CNT_DROP_WINDOW);
		return;
	case UET_UC_PKT_CUR:
		if (vh->opcode != resp->uc_opcode ||
		    vh->msg_len != resp->uc_len) {
			uet_inc(udev, UET_CNT_DROP_MALFORMED);
			uet_resp_uc_drop(qp);
			return;
		}
		break;
	case UET_UC_PKT_NEW:
		uet_resp_uc_drop(qp);
		resp->uc_seen = true;
		resp->uc_open = true;
		resp->uc_msn = vh->msn;
		resp->uc_opcode = vh->opcode;
		resp->uc_len = vh->msg_len;
		resp->uc_rcvd = 0;
		if (vh->opcode != UET_OP_WRITE) {
			m = uet_resp_uc_rqe(qp, vh);
			if (!m) {
				uet_inc(udev, UET_CNT_DROP_BACKLOG);
				uet_resp_uc_drop(qp);
				return;
			}
			if (m->status != IB_WC_SUCCESS) {
				uet_resp_uc_done(qp);
				return;
			}
			if (uet_resp_op_is_send(vh->opcode) &&
			    vh->msg_len > m->wqe->dma.length) {
				uet_inc(udev, UET_CNT_DROP_ACCESS);
				uet_resp_uc_drop(qp);
				return;
			}
		}
		break;
	}
	if (vh->opcode != UET_OP_WRITE)
		m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];

	if (uet_resp_op_is_send(vh->opcode)) {
		if (uet_sge_copy(qp, m->wqe->dma.sge, m->wqe->dma.num_sge,
				 vh->offset, len, IB_ACCESS_LOCAL_WRITE, &pkt)) {
			m->status = IB_WC_LOC_PROT_ERR;
			uet_resp_uc_done(qp);
			return;
		}
	} else {
		if (uet_resp_mr(qp, vh->rkey, IB_ACCESS_REMOTE_WRITE, vh->addr,
				vh->msg_len, &mr, &delta) ||
		    vh->addr + vh->offset < vh->addr ||
		    (mr && uet_mr_copy_skb(mr, vh->addr + vh->offset + delta,
					   skb, off, len))) {
			if (mr)
				uet_mr_put(mr);
			uet_inc(udev, UET_CNT_DROP_ACCESS);
			uet_resp_uc_drop(qp);
			return;
		}
		if (mr)
			uet_mr_put(mr);
	}
	resp->uc_rcvd += len;
	if (resp->uc_rcvd == resp->uc_len)
		uet_resp_uc_done(qp);
}

/* A hole that packets keep overtaking, for longer than reordering
 * explains, is NACKed at once as uet_ack_hole() says, instead of waiting
 * for the sender to infer it. The clock is read only for a hole.
 */
static void uet_resp_check_hole(struct uet_qp *qp)
{
	struct uet_ack *a = &qp->resp->ack;

	if (uet_pdc_rx_has_hole(&qp->rx) &&
	    uet_ack_hole(a, &qp->rx, ktime_get_ns(),
			 uet_param(qp->udev, nack_reorder_pkts),
			 uet_param(qp->udev, nack_reorder_us)))
		uet_qp_send_nack(qp, a->hole_psn, UET_NACK_PKT_NOT_RCVD, 0, 0);
}

/* The data packet of pkt_len bytes at pkt in skb. False once the QP
 * went into error: the rest of a train is not applied.
 */
static bool uet_resp_data(struct uet_qp *qp, struct sk_buff *skb, u32 pkt,
			  u32 pkt_len)
{
	struct uet_dev *udev = qp->udev;
	struct uet_resp *resp = qp->resp;
	const struct uet_skb_cb *cb = UET_SKB_CB(skb);
	u8 buf[UET_DATA_HDR_LEN];
	struct uet_ack_pkt ap = {};
	struct uet_pds_req pds;
	struct uet_verbs_hdr vh;
	const u8 *hdr;
	u32 len;
	int ret;

	/* A train's headers after the first packet's may sit in fragments.
	 * Only the first packet's addressing was checked on receive.
	 */
	hdr = pkt_len < UET_DATA_HDR_LEN ? NULL :
	      skb_header_pointer(skb, pkt, UET_DATA_HDR_LEN, buf);
	if (!hdr || uet_pds_req_parse(hdr, UET_DATA_HDR_LEN, &pds) < 0 ||
	    pds.next_hdr != UET_NEXT_VERBS ||
	    pds.spdcid != qp->dest_qpn || pds.dpdcid != qp->ibqp.qp_num ||
	    uet_verbs_parse(hdr + sizeof(struct uet_pds_req_hdr),
			    UET_DATA_HDR_LEN - sizeof(struct uet_pds_req_hdr),
			    &vh) < 0 ||
	    pkt_len - UET_DATA_HDR_LEN > vh.pay_len) {
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		return true;
	}
	len = pkt_len - UET_DATA_HDR_LEN;
	/* A UC request only to a UC QP, and to it nothing else. */
	if (!(pds.flags & UET_PDS_REQ_F_UC) != !uet_qp_is_uc(qp)) {
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		return true;
	}
	if (uet_qp_is_uc(qp)) {
		/* A trimmed packet is lost: nothing asks for it again. */
		if (cb->dscp == uet_param(udev, dscp_trimmed) ||
		    len < vh.pay_len)
			uet_inc(udev, UET_CNT_TRIMMED_RX);
		else
			uet_resp_uc(qp, &vh, skb, pkt + UET_DATA_HDR_LEN, len);
		return uet_qp_state(qp) != IB_QPS_ERR;
	}
	uet_ack_arrived(&resp->ack, pds.flags & UET_PDS_REQ_F_RETX,
			cb->ecn == INET_ECN_CE);
	if (cb->ecn == INET_ECN_CE) {
		u64 now = ktime_get_ns();

		uet_inc(udev, UET_CNT_ECN_CE_RX);
		if (qp->cc.ops->on_ce && qp->cc.ops->on_ce(&qp->cc, now))
			uet_qp_send_cnp(qp, pds.psn, now);
	}

	/* A switch cut the payload: ask for exactly this PSN again, now. */
	if (cb->dscp == uet_param(udev, dscp_trimmed) || len < vh.pay_len) {
		uet_inc(udev, UET_CNT_TRIMMED_RX);
		uet_qp_send_nack(qp, pds.psn, UET_NACK_TRIMMED, 0, cb->sport);
		return true;
	}

	if (!qp->rx_synced) {
		/* The first packets carry SYN and where the stream starts,
		 * which is where modify_qp said (rq_psn): a stray or forged
		 * SYN does not get to choose. Answers to our READs and
		 * atomics may also start where our own PSNs did (sq_psn):
		 * a peer in RTR has no sq_psn yet (uet_req_rtr_start()).
		 */
		u32 start = pds.psn + pds.clear_psn_offset;
		bool answer = (vh.opcode == UET_OP_READ_RESP ||
			       vh.opcode == UET_OP_ATOMIC_RESP) &&
			      qp->req->rd_atomic;

		if (!(pds.flags & UET_PDS_REQ_F_SYN) ||
		    pds.psn - start >= qp->rx.win ||
		    (start != qp->rq_psn &&
		     !(answer && start == qp->sq_psn))) {
			uet_inc(udev, UET_CNT_DROP_WINDOW);
			return true;
		}
		qp->rx.next = start;
		qp->rx.high = start;
		bitmap_zero(qp->rx.map, qp->rx.mask + 1);
		qp->rx_synced = true;
	}

	ap.t = ktime_to_ns(skb->tstamp);
	ap.psn = pds.psn;
	ap.ev = cb->sport;
	switch (uet_pdc_rx_check(&qp->rx, pds.psn)) {
	case UET_PDC_DUP:
		uet_inc(udev, UET_CNT_DUP_RX);
		uet_ack_dup(&resp->ack, &ap);
		return true;
	case UET_PDC_OUT_OF_WINDOW:
		uet_inc(udev, UET_CNT_DROP_WINDOW);
		return true;
	case UET_PDC_NEW:
		break;
	}

	if (vh.opcode == UET_OP_READ_RESP || vh.opcode == UET_OP_ATOMIC_RESP) {
		if (uet_req_rcv_resp(qp, &vh, skb, pkt + UET_DATA_HDR_LEN,
				     len)) {
			uet_inc(udev, UET_CNT_DROP_MALFORMED);
			return true;
		}
		ret = 0;
	} else {
		ret = uet_resp_execute(qp, &vh, pds.psn, skb,
				       pkt + UET_DATA_HDR_LEN, len);
	}
	if (ret == -EAGAIN) {
		uet_inc(udev, UET_CNT_RNR_NACK_TX);
		uet_qp_send_nack(qp, pds.psn, UET_NACK_NO_SES_MSG_AVAIL, 0,
				 qp->min_rnr_timer);
		return true;
	}
	if (ret > 0) {
		uet_inc(udev, UET_CNT_DROP_ACCESS);
		uet_qp_send_nack(qp, pds.psn, UET_NACK_EXP_ERR, ret, 0);
		uet_pdc_rx_commit(&qp->rx, pds.psn);
		uet_resp_complete(qp);
		uet_qp_error(qp);
		return false;
	}

	ap.in_order = pds.psn == qp->rx.next;
	if (!ap.in_order)
		uet_inc(udev, UET_CNT_OOO_RX);
	uet_pdc_rx_commit(&qp->rx, pds.psn);
	uet_resp_check_hole(qp);
	ap.ackreq = pds.flags & UET_PDS_REQ_F_ACKREQ;
	/* A mark since the last ACK: the ACK goes before the next packet. */
	if (uet_ack_new(&resp->ack, &ap, uet_param(udev, ack_every),
			uet_param(udev, ack_delay_us),
			uet_param(udev, rto_min_us)))
		uet_qp_send_ack(qp, ap.t);
	uet_resp_complete(qp);
	return true;
}

/* A data packet (RUD request) from the QP's peer, or a train of them. */
void uet_resp_rcv(struct uet_qp *qp, struct sk_buff *skb)
{
	u32 seg = uet_train_rx_seg(skb), pkt;

	for (pkt = 0; pkt < skb->len; pkt += seg)
		if (!uet_resp_data(qp, skb, pkt, min(seg, skb->len - pkt)))
			break;
	consume_skb(skb);
}

/* At the end of a pass: send the coalesced ACK when due, or make sure
 * its timer will, as uet_ack_due() says.
 */
void uet_resp_ack(struct uet_qp *qp, u64 now)
{
	struct uet_ack *a = &qp->resp->ack;

	switch (uet_ack_due(a, now, uet_param(qp->udev, ack_every),
			    hrtimer_is_queued(&qp->ack_timer))) {
	case UET_ACK_NONE:
		break;
	case UET_ACK_ARM:
		hrtimer_start(&qp->ack_timer, ns_to_ktime(a->deadline_ns - now),
			      HRTIMER_MODE_REL);
		break;
	case UET_ACK_SEND:
		uet_qp_send_ack(qp, now);
		break;
	}
}

/* The QP is in error: receive WQEs complete with a flush status, a
 * budget's worth a pass (as uet_req_flush()). True if the ring has more.
 */
bool uet_resp_flush(struct uet_qp *qp)
{
	struct uet_resp *resp = qp->resp;
	struct uet_rmsg *m;
	u32 n;

	hrtimer_try_to_cancel(&qp->ack_timer);
	uet_ack_cancel(&resp->ack);
	while (resp->rmsg_done != resp->rmsg_bound) {
		m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];
		uet_resp_post_cqe(qp, m, IB_WC_WR_FLUSH_ERR);
		m->bound = false;
		resp->rmsg_done++;
	}
	if (qp->srq)
		return false;
	m = &resp->rmsg[resp->rmsg_done % UET_RMSG_MAX];
	for (n = UET_WORK_BUDGET; n && uet_queue_count(&qp->rq); n--) {
		memcpy(m->wqe, uet_queue_consumer_addr(&qp->rq),
		       sizeof(struct rxe_recv_wqe));
		uet_queue_advance_consumer(&qp->rq);
		uet_resp_post_cqe(qp, m, IB_WC_WR_FLUSH_ERR);
	}
	return uet_queue_count(&qp->rq);
}
