// SPDX-License-Identifier: GPL-2.0
/*
 * Requester: takes WQEs from the send ring, cuts them into packets in
 * the QP's PSN space, resends what the peer reports missing, answers the
 * peer's READs and atomics from the same PSN space, and retires WQEs
 * into completions in order.
 *
 * A packet is built once and kept until the peer acknowledges it, its
 * payload the pages of the MR it comes from, by reference (inline data
 * and scattered payloads are copied into page fragments the requester's
 * cache carves up); each transmission sends a copy of its headers
 * sharing the payload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/highmem.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <trace/events/uet.h>

#include "psn.h"
#include "qp.h"
#include "udp.h"
#include "uet_compat.h"

#define UET_REQ_HDR_LEN	(sizeof(struct uet_pds_req_hdr) + \
			 sizeof(struct uet_verbs_hdr_wire))

void uet_req_release_pkt(void *arg, u32 psn, void *cookie)
{
	kfree_skb(cookie);
}

/* Tell the peer's path states what the ACK being processed proved: one
 * update per entropy value, with its newest delivered packet, rather
 * than one (and a lock round trip) per packet.
 */
static void uet_req_good_flush(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;
	u64 hold = qp->tx.srtt_ns ?:
		   (u64)uet_param(qp->udev, rto_min_us) * NSEC_PER_USEC;
	u32 i;

	for (i = 0; i < req->ngood && qp->peer; i++)
		uet_peer_signal(qp->peer, req->good[i].ev, UET_EV_SIG_GOOD,
				req->ack_now, req->good[i].sent_ns, hold);
	req->ngood = 0;
}

/* A kept packet never leaves uet: the stack gets copies of it
 * (uet_req_xmit_psn()). One acknowledged is emptied and kept for the
 * next packet built, sparing an allocation and a free per packet
 * (emulated, 1 MiB WRITEs over a veth at MTU 1500: alloc_skb() and its
 * memsets took 11% of all samples).
 */
#define UET_REQ_SPARE	64

static void uet_req_recycle(struct uet_req *req, struct sk_buff *skb)
{
	struct skb_shared_info *si;
	u32 i;

	if (!skb)
		return;
	si = skb_shinfo(skb);
	if (skb_queue_len(&req->spare) >= UET_REQ_SPARE || skb_shared(skb) ||
	    skb_cloned(skb) || skb_has_frag_list(skb)) {
		consume_skb(skb);
		return;
	}
	for (i = 0; i < si->nr_frags; i++)
		__skb_frag_unref(&si->frags[i], false);
	si->nr_frags = 0;
	si->flags = 0;
	skb->data = skb->head;
	skb->len = 0;
	skb->data_len = 0;
	skb_reset_tail_pointer(skb);
	skb->truesize = SKB_TRUESIZE(skb_end_offset(skb));
	__skb_queue_head(&req->spare, skb);
}

/* The peer acknowledged psn: the path it took delivered it. */
static void uet_req_acked_pkt(void *arg, u32 psn, void *cookie)
{
	struct uet_qp *qp = arg;
	struct uet_req *req = qp->req;
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&qp->tx, psn);
	u32 i;

	uet_req_recycle(req, cookie);
	if (req->ack_ecn && psn == req->ack_psn)
		return;
	/* The load balancer hears of every packet (REPS recycles each). */
	uet_lb_feedback(&qp->lb, pkt->ev, UET_EV_SIG_GOOD, req->ack_now);
	for (i = 0; i < req->ngood; i++)
		if (req->good[i].ev == pkt->ev)
			break;
	if (i == ARRAY_SIZE(req->good)) {
		uet_req_good_flush(qp);
		i = 0;
	}
	if (i == req->ngood) {
		req->good[i].ev = pkt->ev;
		req->good[i].sent_ns = pkt->sent_ns;
		req->ngood++;
	} else {
		req->good[i].sent_ns = max(req->good[i].sent_ns, pkt->sent_ns);
	}
}

int uet_req_init(struct uet_qp *qp)
{
	struct uet_req *req;
	u32 slots = uet_queue_slots(&qp->sq);

	req = kzalloc(sizeof(*req), GFP_KERNEL_ACCOUNT);
	if (!req)
		return -ENOMEM;
	req->swqe_size = ALIGN(offsetof(struct uet_swqe, wqe) +
			       (1U << qp->sq.log2_elem_size), 8);
	req->swq = kvcalloc(slots, req->swqe_size, GFP_KERNEL_ACCOUNT);
	req->jobs = kcalloc(UET_REQ_JOBS_MIN, sizeof(*req->jobs),
			    GFP_KERNEL_ACCOUNT);
	if (!req->swq || !req->jobs) {
		kvfree(req->swq);
		kfree(req->jobs);
		kfree(req);
		return -ENOMEM;
	}
	req->swq_mask = slots - 1;
	req->jobs_mask = UET_REQ_JOBS_MIN - 1;
	__skb_queue_head_init(&req->spare);
	if (qp->is_user)
		req->memcg = get_mem_cgroup_from_mm(current->mm);
	qp->req = req;
	return 0;
}

void uet_req_free(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;

	if (!req)
		return;
	uet_train_drop(&req->train);
	__skb_queue_purge(&req->spare);
	page_frag_cache_drain(&req->frag);
	mem_cgroup_put(req->memcg);
	kvfree(req->swq);
	kfree(req->jobs);
	kfree(req);
	qp->req = NULL;
}

/* Back to a fresh QP (modify to RESET); the work item is idle. */
void uet_req_reset(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;

	uet_pdc_tx_drop_all(&qp->tx, uet_req_release_pkt, qp);
	req->head = 0;
	req->cur = 0;
	req->tail = 0;
	/* The responder of a reset peer expects message 0 again. */
	req->msn = 0;
	req->rd_atomic = 0;
	req->rmsg = 0;
	req->jobs_head = 0;
	req->jobs_tail = 0;
	req->backoff = 0;
	req->rnr_count = 0;
	req->rnr_until_ns = 0;
	req->error = false;
	/* Whatever the consumer left in the ring is gone too. */
	uet_queue_discard(&qp->sq);
}

static bool uet_req_is_inline(const struct uet_swqe *w)
{
	if (w->op->flags & UET_WR_WQE_DATA)
		return true;
	return (w->op->flags & UET_WR_INLINE) &&
	       (w->wqe.wr.send_flags & IB_SEND_INLINE);
}

static bool uet_req_signaled(const struct uet_qp *qp, const struct uet_swqe *w)
{
	return qp->sq_sig_all || (w->wqe.wr.send_flags & IB_SEND_SIGNALED);
}

/* Copy a WQE out of the ring before looking at it: userspace may rewrite
 * the slot at any time, so only the private copy is validated and used.
 */
static void uet_req_fetch(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;
	u32 elem = 1U << qp->sq.log2_elem_size;

	while (req->tail - req->head <= req->swq_mask &&
	       uet_queue_count(&qp->sq)) {
		struct uet_swqe *w = uet_swqe(req, req->tail);
		struct rxe_send_wqe *wqe = &w->wqe;
		u64 length = 0;

		/* The slot is larger than struct rxe_send_wqe: SGEs follow. */
		memcpy((u8 *)w + offsetof(struct uet_swqe, wqe),
		       uet_queue_consumer_addr(&qp->sq), elem);
		uet_queue_advance_consumer(&qp->sq);

		w->seq = req->seq++;
		w->opcode = wqe->wr.opcode;
		w->sent = 0;
		w->rcvd = 0;
		w->npkts_sent = 0;
		w->started = false;
		w->segmented = false;
		w->responded = false;
		w->status = IB_WC_SUCCESS;
		/* The whole u32: a user's 0x102 is no SEND. */
		w->op = uet_wr_op(wqe->wr.opcode, qp->is_user);
		w->rd_atomic = w->op && (w->op->flags & UET_WR_ANSWERED);
		w->consumes_rmsg = w->op && (w->op->flags & UET_WR_RECV);
		req->tail++;

		/* An opcode UC does not have fails as rdma_rxe fails it. */
		if (!w->op || (uet_qp_is_uc(qp) && !uet_wr_op_uc(w->op))) {
			w->status = IB_WC_LOC_QP_OP_ERR;
			continue;
		}
		if (w->op->flags & UET_WR_WQE_DATA) {
			/* The WQE holds 8 bytes, whatever its length says. */
			length = sizeof(u64);
		} else if (w->op->flags & UET_WR_RANGE) {
			/* The remote range's: no local buffer is read. */
			length = wqe->dma.length;
		} else if (uet_req_is_inline(w)) {
			length = wqe->dma.length;
			if (length > qp->cap.max_inline_data)
				w->status = IB_WC_LOC_LEN_ERR;
		} else {
			if (wqe->dma.num_sge > qp->cap.max_send_sge) {
				w->status = IB_WC_LOC_QP_OP_ERR;
				continue;
			}
			length = uet_sge_total(wqe->dma.sge, wqe->dma.num_sge);
		}
		if (length > UET_MAX_MSG_SIZE)
			w->status = IB_WC_LOC_LEN_ERR;
		if ((w->op->flags & UET_WR_ATOMIC) &&
		    (length != sizeof(u64) || wqe->dma.num_sge != 1))
			w->status = IB_WC_LOC_LEN_ERR;
		w->length = length;
	}
	req->sq_full = uet_queue_count(&qp->sq) != 0;
}

/* Gather len bytes at offset of a WQE's local buffers. */
static int uet_req_gather(struct uet_qp *qp, struct uet_swqe *w, u32 offset,
			  void *buf, u32 len)
{
	struct rxe_send_wqe *wqe = &w->wqe;
	struct uet_sge_io io = { .buf = buf, .dir = UET_COPY_FROM_MR };

	if (uet_req_is_inline(w)) {
		memcpy(buf, wqe->dma.inline_data + offset, len);
		return 0;
	}
	return uet_sge_copy(qp, wqe->dma.sge, wqe->dma.num_sge, offset, len, 0,
			    &io);
}

static int uet_req_fill_wqe(struct uet_qp *qp, void *arg, u32 done,
			    void *buf, u32 chunk)
{
	struct uet_swqe *w = arg;

	return uet_req_gather(qp, w, w->sent + done, buf, chunk);
}

static int uet_req_lend_wqe(struct uet_qp *qp, void *arg, struct sk_buff *skb,
			    u32 len)
{
	struct uet_swqe *w = arg;
	struct uet_sge_io io = { .lend = skb, .pfc = &qp->req->frag };

	return uet_sge_copy(qp, w->wqe.dma.sge, w->wqe.dma.num_sge, w->sent,
			    len, 0, &io);
}

/* A packet with room for its headers. */
static struct sk_buff *uet_req_new_pkt(struct uet_qp *qp)
{
	unsigned int headroom = UET_SKB_HEADROOM(qp->udev->ndev);
	struct sk_buff *skb = __skb_dequeue(&qp->req->spare);

	/* A spare one serves unless the netdev now wants more headroom. */
	if (skb && skb_end_offset(skb) >=
	    headroom + UET_REQ_HDR_LEN + UET_ATOMIC_REQ_LEN) {
		skb_reserve(skb, headroom);
	} else {
		/* Not a drop: nothing was lost with it. */
		consume_skb(skb);
		skb = uet_qp_alloc_skb(qp, UET_REQ_HDR_LEN + UET_ATOMIC_REQ_LEN);
		if (!skb)
			return NULL;
	}
	skb_put(skb, UET_REQ_HDR_LEN);
	return skb;
}

/* A fragment of the requester's page cache for chunk bytes, charged to
 * the QP's creator: a user's copies live until acknowledged, and one
 * that cannot be charged is not made. No __GFP_HIGH (GFP_ATOMIC's), which
 * lets a charge exceed memory.max.
 */
static void *uet_req_frag_alloc(struct uet_req *req, u32 chunk)
{
	struct mem_cgroup *old = set_active_memcg(req->memcg);
	void *buf;

	buf = page_frag_alloc(&req->frag, chunk,
			      GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT);
	set_active_memcg(old);
	return buf;
}

/* Fill skb with len bytes of payload. lend() attaches them by page
 * reference (uet_mr_lend()); where there is no lend() (inline data) or the
 * payload is too scattered for one skb's fragments, fill() copies them
 * into fragments of the requester's page cache (one page serves several
 * packets, as netdev_alloc_frag() does for receive buffers). A copied
 * fragment is a page at most: a larger one needs a high-order page a busy
 * host may not have.
 */
static int uet_req_add_payload(struct uet_qp *qp, struct sk_buff *skb,
			       u32 len,
			       int (*lend)(struct uet_qp *qp, void *arg,
					   struct sk_buff *skb, u32 len),
			       int (*fill)(struct uet_qp *qp, void *arg,
					   u32 done, void *buf, u32 chunk),
			       void *arg)
{
	u32 done = 0, chunk;
	struct page *page;
	void *buf;
	int err;

	if (lend) {
		err = lend(qp, arg, skb, len);
		if (err != -EMSGSIZE)
			goto out;
		skb->truesize -= skb->data_len;
		err = pskb_trim(skb, skb_headlen(skb));
		if (err)
			goto out;
		skb_shinfo(skb)->flags &= ~SKBFL_SHARED_FRAG;
	}
	for (err = 0; !err && done < len; done += chunk) {
		if (skb_shinfo(skb)->nr_frags == MAX_SKB_FRAGS)
			return -EMSGSIZE;
		chunk = min_t(u32, len - done, PAGE_SIZE);
		buf = uet_req_frag_alloc(qp->req, chunk);
		if (!buf) {
			err = -ENOMEM;
			break;
		}
		page = virt_to_head_page(buf);
		skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags, page,
				   buf - page_address(page), chunk);
		skb->len += chunk;
		skb->data_len += chunk;
		skb->truesize += chunk;
		err = fill(qp, arg, done, buf, chunk);
	}
out:
	if (err == -ENOMEM)
		uet_inc(qp->udev, UET_CNT_TX_NOMEM);
	return err;
}

static void uet_req_set_hdrs(struct uet_qp *qp, struct sk_buff *skb, u32 psn,
			     const struct uet_verbs_hdr *vh, bool ackreq)
{
	struct uet_pds_req pds = {
		.type = UET_PDS_RUD_REQ,
		.next_hdr = UET_NEXT_VERBS,
		.flags = ackreq ? UET_PDS_REQ_F_ACKREQ : 0,
		/* Everything before una is cleared (acknowledged). */
		.clear_psn_offset = qp->tx.una - psn,
		.psn = psn,
		.spdcid = qp->ibqp.qp_num,
		.dpdcid = qp->dest_qpn,
	};

	/* UC starts no stream: its responder takes any PSN. */
	if (uet_qp_is_uc(qp))
		pds.flags = UET_PDS_REQ_F_UC;
	else if (!qp->tx_synced)
		pds.flags |= UET_PDS_REQ_F_SYN;

	uet_pds_req_pack(&pds, skb->data, sizeof(struct uet_pds_req_hdr));
	uet_verbs_pack(vh, skb->data + sizeof(struct uet_pds_req_hdr),
		       sizeof(struct uet_verbs_hdr_wire));
}

/* The retransmit timeout after `backoff` expiries, by the device's bounds. */
static u64 uet_req_rto_ns(struct uet_qp *qp, u32 backoff)
{
	struct uet_dev *udev = qp->udev;

	return uet_pdc_rto_ns(&qp->tx,
			      (u64)uet_param(udev, rto_min_us) * NSEC_PER_USEC,
			      (u64)uet_param(udev, rto_max_us) * NSEC_PER_USEC,
			      backoff, uet_param(udev, rto_linear));
}

/* The retransmit timer is a lazy deadline: armed once, it is not moved
 * on every ACK; its expiry finds the packet that is really due
 * (uet_req_rto()) and waits for that. restart: the timeout got shorter
 * (the backoff was reset), so an armed timer may be too late.
 */
static void uet_req_arm_rto(struct uet_qp *qp, bool restart)
{
	struct uet_req *req = qp->req;
	u64 rto;

	if (!restart && hrtimer_is_queued(&qp->rto_timer))
		return;
	rto = uet_req_rto_ns(qp, req->backoff);
	hrtimer_start(&qp->rto_timer, ns_to_ktime(rto), HRTIMER_MODE_REL);
}

/* Report the algorithm's window or rate when it changed. */
static void uet_req_cc_trace(struct uet_qp *qp)
{
	struct uet_cc_stat st[UET_CC_STATS_MAX];

	if (!trace_uet_cc_enabled() || qp->cc.ops->get_info(&qp->cc, st) < 1 ||
	    st[0].value == qp->cc_traced)
		return;
	qp->cc_traced = st[0].value;
	trace_uet_cc(qp->udev->ibdev.index, qp->ibqp.qp_num, st[0].name,
		     st[0].value);
}

/* May a packet of bytes leave now? If not, the pacing timer or the next
 * ACK brings the work back.
 */
static bool uet_req_cc_ok(struct uet_qp *qp, u32 bytes, u64 now)
{
	u64 at = qp->cc.ops->send_at(&qp->cc, now, uet_pdc_tx_pipe(&qp->tx),
				     bytes);

	if (at <= now)
		return true;
	/* The window, not the pace, holds the sender: only ACKs open it. */
	if (at == U64_MAX)
		qp->req->need_ack = true;
	if (at != U64_MAX)
		uet_qp_timer_once(&qp->pace_timer, at - now);
	return false;
}

/* Hand the train being built to IP. */
static void uet_req_train_flush(struct uet_qp *qp)
{
	struct uet_train *t = &qp->req->train;
	u32 npkts = t->npkts;
	struct sk_buff *skb;

	skb = uet_train_finish(t);
	if (!skb)
		return;
	uet_qp_xmit_train(qp, skb, npkts,
			  uet_qp_tos(uet_param(qp->udev, dscp_data), true), t->ev);
	/* The next train's first packet reads it, if one comes. */
	qp->req->clock_ns = 0;
}

/* Packets the windows let be in flight: the peer's MPR, and congestion
 * control's window where it has one.
 */
static u32 uet_req_wnd_pkts(struct uet_qp *qp)
{
	u32 w = qp->tx.win;

	if (qp->cc.ops->wnd)
		w = min_t(u64, w, div_u64(qp->cc.ops->wnd(&qp->cc),
					  qp->cc.mtu));
	return w;
}

/* A flowcell is a train: lb.h bounds its cells by a train's most. */
static_assert(UET_LB_CELL_MAX == UET_TRAIN_MAX_PKTS);

/* Might the first transmission of pkt ride in a train: it has payload
 * fragments, and trains are on? Then the train it joins is open, and
 * true.
 */
static bool uet_req_train_open(struct uet_qp *qp, const struct sk_buff *pkt,
			       u64 sent_ns)
{
	struct uet_train *t = &qp->req->train;
	u32 fixed = uet_param(qp->udev, flowlet_pkts);
	/* The windows are read only where a flowcell is sized by them. */
	u32 wnd = qp->lb.ops->sprays && !fixed ? uet_req_wnd_pkts(qp) : 0;
	u32 max_pkts = min(uet_param(qp->udev, train_pkts),
			   uet_lb_flowlet(&qp->lb, fixed, wnd));
	u32 nr_frags = skb_shinfo(pkt)->nr_frags;

	/* A local destination's packets fill a train alone: they go
	 * straight to it (udp.c), not through IP and lo as a train would.
	 * A packet in MAX_SKB_FRAGS fragments leaves no room for its
	 * headers' fragment.
	 */
	if (!nr_frags || nr_frags == MAX_SKB_FRAGS || max_pkts < 2 ||
	    pkt->len > UET_TRAIN_MAX_BYTES)
		return false;
	if (uet_train_fits(t, pkt->len, nr_frags, max_pkts))
		return true;
	uet_req_train_flush(qp);
	/* An empty train takes it: it is within UET_TRAIN_MAX_BYTES and
	 * leaves a fragment for its headers. A netdev that cannot take a
	 * frag_list would have the stack cut a chained train in software
	 * (validate_xmit_skb()), where a NIC could have done it.
	 */
	return !uet_train_start(t, UET_SKB_HEADROOM(qp->udev->ndev),
				uet_lb_next(&qp->lb, sent_ns),
				qp->udev->ndev->features & NETIF_F_FRAGLIST);
}

/* A train's copies are charged as the payload copies are. */
static int uet_req_train_add(struct uet_qp *qp, const struct sk_buff *pkt,
			     u8 flags)
{
	struct mem_cgroup *old = set_active_memcg(qp->req->memcg);
	int err;

	err = uet_train_add(&qp->req->train, pkt, flags, &qp->req->frag);
	set_active_memcg(old);
	return err;
}

/* Send the kept packet psn, first time or again; a copy goes where a
 * packet that left after proven_after_ns was delivered, if any. A first
 * transmission joins the train being built if it can: the train's
 * entropy value is its own.
 */
static int uet_req_xmit_psn(struct uet_qp *qp, u32 psn, bool retx,
			    u64 proven_after_ns, bool ackreq)
{
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&qp->tx, psn);
	struct sk_buff *skb = NULL;
	bool train;
	u8 dscp = retx ? uet_param(qp->udev, dscp_retx) :
			 uet_param(qp->udev, dscp_data);

	train = !retx && uet_req_train_open(qp, pkt->cookie, pkt->sent_ns) &&
		!uet_req_train_add(qp, pkt->cookie,
				   ackreq ? UET_PDS_REQ_F_ACKREQ : 0);
	if (!train) {
		/* What was built before it leaves before it: the peer sees
		 * our packets in PSN order unless the network reorders them.
		 */
		uet_req_train_flush(qp);
		skb = pskb_copy(pkt->cookie, GFP_ATOMIC);
		if (!skb) {
			uet_inc(qp->udev, UET_CNT_TX_NOMEM);
			return -ENOMEM;
		}
	}
	if (train)
		pkt->ev = qp->req->train.ev;
	else if (retx)
		pkt->ev = uet_lb_next_retx(&qp->lb, pkt->sent_ns,
					   proven_after_ns);
	else
		pkt->ev = uet_lb_next(&qp->lb, pkt->sent_ns);
	if (qp->peer)
		uet_ev_sent(qp->peer->evt, pkt->ev);
	if (qp->cc.ops->on_send)
		qp->cc.ops->on_send(&qp->cc, pkt->sent_ns, pkt->bytes, retx);
	if (train)
		return 0;
	if (ackreq)
		skb->data[1] |= UET_PDS_REQ_F_ACKREQ;
	if (retx) {
		skb->data[1] |= UET_PDS_REQ_F_RETX;
		/* uet_pdc_tx_resent() counted this transmission already. */
		trace_uet_retransmit(qp->udev->ibdev.index, qp->ibqp.qp_num,
				     psn, pkt->nxmit);
		uet_inc(qp->udev, UET_CNT_RETX_PKTS);
		WRITE_ONCE(qp->nretx, qp->nretx + 1);
	}
	return uet_qp_xmit(qp, skb, uet_qp_tos(dscp, true), pkt->ev);
}

/* Send the new packet held back, asking for an ACK if it ends a burst
 * that only an ACK lets go on.
 */
static void uet_req_xmit_held(struct uet_qp *qp, bool ackreq)
{
	struct uet_req *req = qp->req;

	if (!req->held)
		return;
	req->held = false;
	uet_req_xmit_psn(qp, req->held_psn, false, 0, ackreq);
}

/* A new packet goes out once the next is built, so that the last of a
 * burst is known when it leaves (uet_req_send_new()).
 */
static void uet_req_push(struct uet_qp *qp, struct sk_buff *skb, u32 psn)
{
	struct uet_req *req = qp->req;

	qp->tx_used = true;
	/* UC keeps nothing to resend: the packet leaves now and is acknowledged
	 * at once, so the window never closes and its WQE completes when its
	 * last packet was sent (IBA vol 1 9.7.x; rxe completes a UC WQE
	 * once it is sent). One entropy value: no spraying to reorder
	 * packets that nothing reorders back.
	 */
	if (uet_qp_is_uc(qp)) {
		u8 tos = uet_qp_tos(uet_param(qp->udev, dscp_data), true);

		qp->tx.nxt++;
		qp->tx.una = qp->tx.nxt;
		qp->tx.sacked_hi = qp->tx.nxt;
		qp->tx.acked_hi = qp->tx.nxt;
		uet_qp_xmit(qp, skb, tos, qp->entropy);
		return;
	}
	/* The packets of a train leave together: the clock is read for its
	 * first packet, or for a packet sent on its own. (Emulated, a read
	 * costs as much as building a packet, and read_hpet was the top
	 * symbol of the bench's profile.)
	 */
	if (!req->train.skb || !req->clock_ns)
		req->clock_ns = ktime_get_ns();
	uet_pdc_tx_push(&qp->tx, skb, skb->len, req->clock_ns);
	uet_req_xmit_held(qp, false);
	req->held = true;
	req->held_psn = psn;
}

struct uet_req_read_src {
	struct uet_mr *mr;
	u64 iova;
};

static int uet_req_fill_read(struct uet_qp *qp, void *arg, u32 done,
			     void *buf, u32 chunk)
{
	struct uet_req_read_src *src = arg;

	return uet_mr_copy(src->mr, src->iova + done, buf, chunk, UET_COPY_FROM_MR);
}

static int uet_req_lend_read(struct uet_qp *qp, void *arg, struct sk_buff *skb,
			     u32 len)
{
	struct uet_req_read_src *src = arg;

	return uet_mr_lend(src->mr, src->iova, len, skb, &qp->req->frag);
}

/* One packet of a response we owe the peer. */
static int uet_req_job_pkt(struct uet_qp *qp, struct uet_rjob *job)
{
	u32 psn = qp->tx.nxt, len = 0;
	struct uet_verbs_hdr vh = {
		.opcode = job->opcode,
		.msn = job->seq,
		.msg_len = job->length,
		.offset = job->offset,
	};
	struct sk_buff *skb;
	int err = 0;

	if (job->opcode == UET_OP_READ_RESP)
		len = min(qp->seg, job->length - job->offset);
	skb = uet_req_new_pkt(qp);
	if (!skb)
		return -ENOMEM;
	if (job->opcode == UET_OP_ATOMIC_RESP) {
		vh.pay_len = UET_ATOMIC_RESP_LEN;
		put_unaligned_be64(job->orig, skb_put(skb, UET_ATOMIC_RESP_LEN));
	} else if (len) {
		struct uet_req_read_src src = {};

		/* Looked up again for each packet: an invalidation or a
		 * window's rebinding stops the rest of the READ.
		 */
		src.mr = uet_rkey_get(qp, job->rkey, IB_ACCESS_REMOTE_READ,
				      job->addr + job->offset, len, &src.iova);
		err = src.mr ? uet_req_add_payload(qp, skb, len,
						   uet_req_lend_read,
						   uet_req_fill_read, &src) :
		      -EACCES;
		if (src.mr)
			uet_mr_put(src.mr);
		if (err) {
			kfree_skb(skb);
			return err;
		}
		vh.pay_len = len;
	}
	uet_req_set_hdrs(qp, skb, psn, &vh, true);
	job->offset += len;
	uet_req_push(qp, skb, psn);
	return 0;
}

/* Build and send the next packet of WQE w. */
static int uet_req_wqe_pkt(struct uet_qp *qp, struct uet_swqe *w)
{
	struct rxe_send_wqe *wqe = &w->wqe;
	u32 psn = qp->tx.nxt, len = 0;
	struct uet_verbs_hdr vh = {
		.opcode = w->op->wire,
		.msn = w->consumes_rmsg || uet_qp_is_uc(qp) ? w->msn : w->seq,
		.msg_len = w->length,
		.offset = w->sent,
		.addr = wqe->iova,
		.rkey = wqe->wr.wr.rdma.rkey,
	};
	struct sk_buff *skb;
	bool last;
	int err;

	if (wqe->wr.send_flags & IB_SEND_SOLICITED)
		vh.flags |= UET_VF_SOLICITED;
	if (w->opcode == IB_WR_SEND_WITH_INV)
		vh.imm = wqe->wr.ex.invalidate_rkey;
	else
		vh.imm = be32_to_cpu(wqe->wr.ex.imm_data);
	if (!w->rd_atomic && !(w->op->flags & UET_WR_RANGE))
		len = min(qp->seg, w->length - w->sent);
#ifdef HAVE_IB_WR_FLUSH
	/* The range's key and the FETH from the flush WR, where librxe's
	 * wr_flush() puts them (rdma-core providers/rxe/rxe.c); its
	 * address is in iova, as every WQE's.
	 */
	if (w->opcode == IB_WR_FLUSH) {
		vh.rkey = wqe->wr.wr.flush.rkey;
		vh.imm = uet_feth(wqe->wr.wr.flush.type,
				  wqe->wr.wr.flush.level);
	}
#endif

	skb = uet_req_new_pkt(qp);
	if (!skb)
		return -ENOMEM;
	if (w->rd_atomic && w->opcode != IB_WR_RDMA_READ) {
		u8 *p = skb_put(skb, UET_ATOMIC_REQ_LEN);

		vh.addr = wqe->wr.wr.atomic.remote_addr;
		vh.rkey = wqe->wr.wr.atomic.rkey;
		put_unaligned_be64(wqe->wr.wr.atomic.compare_add, p);
		put_unaligned_be64(wqe->wr.wr.atomic.swap, p + 8);
		vh.pay_len = UET_ATOMIC_REQ_LEN;
	} else if (len) {
		/* A UC WQE completes once sent, its buffer the consumer's
		 * again while the packet may still wait in a queue: UC
		 * payloads are copied, not lent.
		 */
		err = uet_req_add_payload(qp, skb, len,
					  uet_req_is_inline(w) ||
					  uet_qp_is_uc(qp) ? NULL :
					  uet_req_lend_wqe,
					  uet_req_fill_wqe, w);
		if (err) {
			kfree_skb(skb);
			if (err != -ENOMEM)
				w->status = IB_WC_LOC_PROT_ERR;
			return err;
		}
		vh.pay_len = len;
	}

	w->sent += len;
	last = w->rd_atomic || (w->op->flags & UET_WR_RANGE) ||
	       w->sent == w->length;
	/* The end of a message whose completion someone waits for asks for
	 * an ACK at once; an unsignaled one (perftest signals one WQE in
	 * 100) is acknowledged with the packets around it, as ack_every
	 * and the receiver's hold have it. (Emulated, 64 KiB WRITEs at MTU
	 * 9000, eight packets each: an ACK per message was 1/8 per packet.)
	 */
	uet_req_set_hdrs(qp, skb, psn, &vh,
			 w->rd_atomic || (last && uet_req_signaled(qp, w)));
	if (!w->npkts_sent++)
		w->first_psn = psn;
	w->last_psn = psn;
	if (last)
		w->segmented = true;
	uet_req_push(qp, skb, psn);
	return 0;
}

/* Local operations run when they reach the front of the send queue,
 * after every WQE before them started, as rxe_do_local_ops() runs them.
 * A failure completes with the status rxe gives it and takes the QP to
 * error (uet_req_complete()).
 */
static void uet_req_local_op(struct uet_qp *qp, struct uet_swqe *w)
{
	struct rxe_send_wqe *wqe = &w->wqe;
	u32 key = wqe->wr.ex.invalidate_rkey;
	int err;

	if (w->opcode == IB_WR_BIND_MW) {
		if (uet_mw_bind(qp, wqe))
			w->status = IB_WC_MW_BIND_ERR;
		w->segmented = true;
		return;
	}
	if (w->opcode == IB_WR_LOCAL_INV) {
		err = uet_key_is_mw(key) ? uet_mw_invalidate(qp, key, false) :
		      uet_mr_invalidate(qp->udev, qp->ibqp.pd, key);
	} else {
		struct ib_reg_wr reg = {
			.mr = wqe->wr.wr.reg.mr,
			.key = wqe->wr.wr.reg.key,
			.access = wqe->wr.wr.reg.access,
		};

		err = uet_mr_fast_reg(qp->udev, qp->ibqp.pd, &reg);
	}
	if (err)
		w->status = IB_WC_LOC_QP_OP_ERR;
	w->segmented = true;
}

static void uet_req_resend(struct uet_qp *qp, int *budget, u64 now)
{
	u32 psn;

	while (*budget > 0 && uet_pdc_tx_next_lost(&qp->tx, &psn)) {
		struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&qp->tx, psn);
		enum uet_ev_sig sig = UET_EV_SIG_LOSS;
		u64 lost_sent;

		if (!uet_req_cc_ok(qp, pkt->bytes, now))
			break;
		if (pkt->flags & UET_PDC_TRIMMED)
			sig = UET_EV_SIG_TRIM;
		else if (pkt->flags & UET_PDC_RTO)
			sig = UET_EV_SIG_TIMEOUT;
		/* The path it took hears of it before the copy picks one. */
		lost_sent = pkt->sent_ns;
		uet_qp_path_signal(qp, pkt->ev, sig, lost_sent, now);
		uet_pdc_tx_resent(&qp->tx, psn, now);
		/* The window's left edge holds every new packet back, and
		 * while it waits little new is proven: it takes the freshest
		 * evidence there is, however old. The receiver answers a
		 * resend at once: recovery waits on it.
		 */
		uet_req_xmit_psn(qp, psn, true,
				 psn == qp->tx.una ? 0 : lost_sent, true);
		(*budget)--;
	}
}

/* May w start now? Ordering and resource rules of RC. */
static bool uet_req_may_start(struct uet_qp *qp, struct uet_swqe *w)
{
	struct uet_req *req = qp->req;

	if (qp->sq_draining)
		return false;
	if (w->rd_atomic && req->rd_atomic >= max_t(u32, qp->max_rd_atomic, 1))
		return false;
	if ((w->wqe.wr.send_flags & IB_SEND_FENCE) && req->rd_atomic)
		return false;
	/* The last packet before it asks for an ACK at once. */
	if ((w->op->flags & UET_WR_PLACED_AFTER) && qp->tx.una != qp->tx.nxt) {
		req->need_ack = true;
		return false;
	}
	if (w->consumes_rmsg && req->rmsg >= UET_RMSG_MAX)
		return false;
	return true;
}

/* Out of memory, or the creator's memory cgroup at its limit: the ACK or
 * timeout of a packet in flight, which may free some, brings the next
 * pass; with none in flight, a timer does, rather than a pass at once
 * that would fail again.
 */
static void uet_req_nomem(struct uet_qp *qp)
{
	if (!uet_pdc_tx_inflight(&qp->tx))
		uet_qp_timer_once(&qp->pace_timer, NSEC_PER_MSEC);
}

/* The sender's ring resized (grown for one more packet, or shrunk),
 * charged to the QP's creator. No __GFP_HIGH: see uet_req_frag_alloc().
 */
#define UET_REQ_RING_GFP	(GFP_NOWAIT | __GFP_NOWARN | __GFP_ACCOUNT)

static int uet_req_ring_reserve(struct uet_qp *qp)
{
	struct mem_cgroup *old = set_active_memcg(qp->req->memcg);
	int err = uet_pdc_tx_reserve(&qp->tx, UET_REQ_RING_GFP);

	set_active_memcg(old);
	return err;
}

static void uet_req_ring_shrink(struct uet_qp *qp)
{
	struct mem_cgroup *old = set_active_memcg(qp->req->memcg);

	uet_pdc_tx_shrink(&qp->tx, UET_REQ_RING_GFP);
	set_active_memcg(old);
}

/* May a new packet leave now: MPR window, room in the ring for it, and
 * congestion control.
 */
static bool uet_req_may_send(struct uet_qp *qp, u64 now)
{
	/* Without ACKs congestion control hears nothing: UC is not paced. */
	if (uet_qp_is_uc(qp))
		return true;
	if (!uet_pdc_tx_window_open(&qp->tx)) {
		qp->req->need_ack = true;
		return false;
	}
	if (uet_req_ring_reserve(qp)) {
		uet_req_nomem(qp);
		return false;
	}
	return uet_req_cc_ok(qp, qp->cc.mtu, now);
}

/* A responder in RTR answers the peer's READs and atomics before RTS gave
 * it an sq_psn (perftest's servers never leave RTR): its PSNs then start
 * where the peer's do (rq_psn), the one other start the peer takes from
 * an answer (uet_resp_rcv()), and one an off-path sender cannot guess.
 */
static void uet_req_rtr_start(struct uet_qp *qp)
{
	if (!qp->tx_used && uet_qp_state(qp) == IB_QPS_RTR)
		uet_pdc_tx_start(&qp->tx, qp->rq_psn);
}

/* New packets: responses we owe first, then the send queue's. A burst
 * that a closed window ends asks for an ACK on its last packet (ACKREQ),
 * so the receiver need not acknowledge every few packets in case the
 * sender waits; pacing ends a burst without one.
 */
static void uet_req_send_new(struct uet_qp *qp, int *budget, u64 now)
{
	struct uet_req *req = qp->req;

	req->need_ack = false;
	if (req->jobs_head != req->jobs_tail)
		uet_req_rtr_start(qp);
	while (*budget > 0 && req->jobs_head != req->jobs_tail &&
	       uet_req_may_send(qp, now)) {
		struct uet_rjob *job = &req->jobs[req->jobs_head & req->jobs_mask];
		int err = uet_req_job_pkt(qp, job);

		if (err == -ENOMEM) {
			/* Try again soon: the requester, whose request we
			 * acknowledged, would only time out.
			 */
			uet_req_nomem(qp);
			break;
		}
		if (err) {
			/* The region went away under the READ: drop it, the
			 * requester times out.
			 */
			req->jobs_head++;
			continue;
		}
		(*budget)--;
		if (job->offset == job->length)
			req->jobs_head++;
	}

	while (*budget > 0 && req->cur != req->tail) {
		struct uet_swqe *w = uet_swqe(req, req->cur);

		if (w->status != IB_WC_SUCCESS)
			break;
		if (w->op->flags & UET_WR_LOCAL) {
			uet_req_local_op(qp, w);
			req->cur++;
			continue;
		}
		if (!uet_req_may_send(qp, now))
			break;
		if (!w->started) {
			if (!uet_req_may_start(qp, w))
				break;
			if (w->rd_atomic && !req->rd_atomic++)
				req->rd_since_ns = now;
			/* UC numbers every message: its responder tells
			 * a lost one by the next one's number.
			 */
			if (w->consumes_rmsg || uet_qp_is_uc(qp))
				w->msn = req->msn++;
			if (w->consumes_rmsg)
				req->rmsg++;
			w->started = true;
		}
		if (uet_req_wqe_pkt(qp, w)) {
			if (w->status != IB_WC_SUCCESS)
				break;
			uet_req_nomem(qp);
			break;
		}
		(*budget)--;
		if (w->segmented)
			req->cur++;
	}
	uet_req_xmit_held(qp, req->need_ack);
	uet_req_train_flush(qp);
}

static void uet_req_post_cqe(struct uet_qp *qp, struct uet_swqe *w,
			     enum ib_wc_status status)
{
	struct ib_wc wc = {
		.wr_id = w->wqe.wr.wr_id,
		.status = status,
		/* An opcode the requester does not take completes as a SEND. */
		.opcode = w->op ? w->op->wc : IB_WC_SEND,
		.byte_len = w->length,
		.qp = &qp->ibqp,
		.port_num = UET_PORT,
	};

	uet_cq_post(qp->scq, &wc, false);
}

static bool uet_req_wqe_done(struct uet_qp *qp, struct uet_swqe *w)
{
	if (!w->segmented)
		return false;
	if (w->npkts_sent && !uet_psn_before(w->last_psn, qp->tx.una))
		return false;
	return !w->rd_atomic || w->responded;
}

/* Retire finished WQEs in order; a failed one takes the QP to error. */
static void uet_req_complete(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;

	while (req->head != req->tail) {
		struct uet_swqe *w = uet_swqe(req, req->head);

		if (w->status != IB_WC_SUCCESS) {
			uet_req_post_cqe(qp, w, w->status);
			req->head++;
			if (req->cur - req->head > req->tail - req->head)
				req->cur = req->head;
			req->error = true;
			uet_qp_error(qp);
			return;
		}
		if (req->head == req->cur || !uet_req_wqe_done(qp, w))
			break;
		if (w->rd_atomic)
			req->rd_atomic--;
		if (w->consumes_rmsg)
			req->rmsg--;
		if (uet_req_signaled(qp, w))
			uet_req_post_cqe(qp, w, IB_WC_SUCCESS);
		req->head++;
	}
}

/* marked packets were declared lost, of which the PDC's path_losses grew
 * by failed since path_losses0: congestion control hears of the others.
 */
static void uet_req_cc_loss(struct uet_qp *qp, u64 now, u32 marked,
			    u32 path_losses0, bool timeout)
{
	u32 failed = qp->tx.path_losses - path_losses0;

	if (marked > failed && qp->cc.ops->on_loss)
		qp->cc.ops->on_loss(&qp->cc, now, (marked - failed) * qp->cc.mtu,
				    timeout);
}

/* Declare holes lost by the SACK rule; come back when the next one ripens. */
static void uet_req_detect_loss(struct uet_qp *qp, u64 now)
{
	u32 dupthresh = uet_param(qp->udev, dupthresh), marked;
	u32 path_losses = qp->tx.path_losses;
	u64 when;

	marked = uet_pdc_tx_detect_loss(&qp->tx, now, dupthresh);
	uet_count(qp->udev, UET_CNT_RETX_SACK, marked);
	uet_req_cc_loss(qp, now, marked, path_losses, false);
	when = uet_pdc_tx_loss_deadline(&qp->tx, dupthresh);
	if (when)
		uet_qp_timer_once(&qp->reo_timer, when > now ? when - now : 0);
}

/* Might a pass send something: a loss to repair, a response we owe, a
 * WQE not yet sent (the window or the pace may still hold them back).
 */
static bool uet_req_may_have_tx(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;

	return qp->tx.nlost || req->jobs_head != req->jobs_tail ||
	       req->cur != req->tail;
}

/* One pass of the requester at time now (the clock is read once a pass:
 * emulated, as under QEMU, a read can cost as much as a packet's
 * processing); true if work is left: the budget ran out, or sending was
 * not allowed (may_send) and there may be some.
 */
bool uet_req_run(struct uet_qp *qp, bool sq_active, bool may_send, u64 now)
{
	struct uet_req *req = qp->req;
	int budget = UET_WORK_BUDGET;
	bool tx_left = false;

	uet_req_detect_loss(qp, now);
	/* New WQEs come with a doorbell, whose pass fetches them: one that
	 * cannot send (the receive softirq's) fetches only what a full table
	 * left in the ring, rather than hand the work item what the doorbell
	 * on its way sends itself.
	 */
	if (sq_active && (may_send || req->sq_full))
		uet_req_fetch(qp);
	if (!req->error && now >= req->rnr_until_ns) {
		if (may_send) {
			uet_req_resend(qp, &budget, now);
			uet_req_send_new(qp, &budget, now);
		} else {
			tx_left = uet_req_may_have_tx(qp);
		}
	}
	uet_req_complete(qp);
	uet_req_cc_trace(qp);

	/* Timers are the engine's: a stop cancelled them, a pass re-arms
	 * what the state needs (an idle RTO expires and finds nothing due).
	 */
	if (uet_pdc_tx_inflight(&qp->tx) || req->rd_atomic)
		uet_req_arm_rto(qp, false);
	if (req->rnr_until_ns > now)
		uet_qp_timer_once(&qp->rnr_timer, req->rnr_until_ns - now);
	return !budget || tx_left;
}

static struct uet_swqe *uet_req_find_psn(struct uet_qp *qp, u32 psn)
{
	struct uet_req *req = qp->req;
	u32 i;

	for (i = req->head; i != req->cur + (req->cur != req->tail); i++) {
		struct uet_swqe *w = uet_swqe(req, i);

		if (w->npkts_sent && !uet_psn_before(psn, w->first_psn) &&
		    !uet_psn_after(psn, w->last_psn))
			return w;
	}
	return NULL;
}

/* The packet psn failed for good: fail the WQE it belongs to. */
static void uet_req_fail_psn(struct uet_qp *qp, u32 psn,
			     enum ib_wc_status status)
{
	struct uet_swqe *w = uet_req_find_psn(qp, psn);

	if (w)
		w->status = status;
	else
		uet_qp_error(qp);
}

/* The network's part of the RTT of the packet that triggered an ACK, if
 * it was sent once and this is its first acknowledgment; else 0. From its
 * send to the ACK's arrival here (not to when we got round to it), less
 * the time the peer held it (service_ns): what is left is wire and queues.
 */
static u64 uet_req_ack_rtt(struct uet_qp *qp, u32 psn, u64 arrived,
			   u64 service_ns)
{
	const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&qp->tx, psn);
	u64 rtt;

	if (!uet_psn_in_window(psn, qp->tx.una, uet_pdc_tx_inflight(&qp->tx)) ||
	    (pkt->flags & UET_PDC_ACKED) || pkt->nxmit != 1 ||
	    arrived < pkt->sent_ns)
		return 0;
	rtt = arrived - pkt->sent_ns;
	return rtt > service_ns ? rtt - service_ns : 0;
}

void uet_req_rcv_ack(struct uet_qp *qp, struct sk_buff *skb)
{
	struct uet_req *req = qp->req;
	struct uet_cc_ack cca = {};
	struct uet_pds_ack ack;
	u64 now = ktime_get_ns();
	u64 inflight, service_ns = 0;
	u32 psn;
	int newly;

	if (uet_pds_ack_parse(skb->data, skb_headlen(skb), &ack) < 0) {
		uet_inc(qp->udev, UET_CNT_DROP_MALFORMED);
		goto out;
	}
	/* Nothing acts on an ACK for PSNs never sent (uet_qp_admit() let
	 * in what is near): it may only be a forgery.
	 */
	psn = ack.cack_psn + ack.ack_psn_offset;
	if (uet_psn_after(ack.cack_psn + 1, qp->tx.nxt) ||
	    !uet_psn_before(psn, qp->tx.nxt)) {
		uet_inc(qp->udev, UET_CNT_DROP_WINDOW);
		goto out;
	}
	uet_inc(qp->udev, UET_CNT_ACK_RX);
	/* srtt learns only from packets that arrived in order: one that
	 * overtook others triggers an ACK at once and would pull it below
	 * what the held-back ones take. Every sample tells the loss window
	 * how slow a delivery can be (uet_pdc_tx_rtt_sample()).
	 */
	uet_pdc_tx_rtt_sample(&qp->tx, psn, now, !ack.ack_psn_offset);
	if (ack.flags & UET_PDS_ACK_F_DUP)
		uet_pdc_tx_dup_seen(&qp->tx, now);
	/* A CE mark makes the receiver acknowledge at once: it concerns
	 * the packet that triggered the ACK, whose entropy value the ACK
	 * reflects; every other packet it acknowledges arrived unmarked.
	 */
	req->ack_ecn = ack.flags & UET_PDS_ACK_F_ECN;
	req->ack_psn = psn;
	req->ack_now = now;
	inflight = qp->tx.inflight_bytes;
	if (ack.cc_type == UET_ACK_CC_NSCC) {
		service_ns = (u64)uet_nscc_state_service_us(ack.cc_state) *
			     NSEC_PER_USEC;
		cca.rcv_cwnd_pend = uet_nscc_state_pend(ack.cc_state);
	}
	cca.rtt_ns = uet_req_ack_rtt(qp, psn, ktime_to_ns(skb->tstamp),
				     service_ns);
	/* The mark is news only of a packet still tracked. */
	if (req->ack_ecn &&
	    !uet_psn_in_window(psn, qp->tx.una, uet_pdc_tx_inflight(&qp->tx)))
		req->ack_ecn = false;
	if (req->ack_ecn) {
		const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&qp->tx, psn);
		u16 ev = ack.ccx_flags & UET_ACKX_F_ENTROPY ? ack.entropy :
							      pkt->ev;

		uet_qp_path_signal(qp, ev, UET_EV_SIG_ECN, pkt->sent_ns, now);
	}
	newly = uet_pdc_tx_ack(&qp->tx, ack.cack_psn,
			       ack.cack_psn + ack.sack_psn_offset,
			       ack.sack_bitmap, uet_req_acked_pkt, qp);
	uet_req_good_flush(qp);
	uet_req_ring_shrink(qp);
	if (qp->tx.nlate && qp->cc.ops->on_late)
		qp->cc.ops->on_late(&qp->cc, now, qp->tx.nlate * qp->cc.mtu);
	qp->tx.nlate = 0;
	/* The peer acknowledged what we sent: it knows where we start. */
	if (newly > 0)
		qp->tx_synced = true;
	/* Progress: the timeout is back to its base, which an armed timer
	 * may exceed only when it was backed off.
	 */
	if (newly > 0 && req->backoff) {
		req->backoff = 0;
		if (uet_pdc_tx_inflight(&qp->tx))
			uet_req_arm_rto(qp, true);
	}
	if (newly > 0 || req->ack_ecn) {
		cca.now = now;
		cca.acked_bytes = inflight - qp->tx.inflight_bytes;
		cca.inflight_bytes = uet_pdc_tx_pipe(&qp->tx);
		cca.srtt_ns = qp->tx.srtt_ns;
		cca.ecn = req->ack_ecn;
		cca.entropy = ack.ccx_flags & UET_ACKX_F_ENTROPY ? ack.entropy : 0;
		if (qp->peer)
			cca.probe_rtt_ns = uet_peer_rtt_probe(qp->peer,
							      &qp->rtt_probe_seen,
							      now,
							      cca.entropy ?:
							      qp->entropy);
		uet_cc_ack(&qp->cc, &cca);
		if (cca.meas_changed && qp->peer)
			uet_peer_meas_publish(qp->peer, &qp->cc.meas);
	}
out:
	consume_skb(skb);
}

/* A control packet for this QP: DCQCN's congestion notification. */
void uet_req_rcv_ctl(struct uet_qp *qp, struct sk_buff *skb)
{
	if (uet_ctl_type(skb->data, skb_headlen(skb)) != UET_CTL_CNP) {
		uet_inc(qp->udev, UET_CNT_DROP_MALFORMED);
	} else {
		uet_inc(qp->udev, UET_CNT_CNP_RX);
		if (qp->cc.ops->on_cnp)
			qp->cc.ops->on_cnp(&qp->cc, ktime_get_ns());
	}
	consume_skb(skb);
}

static void uet_req_cc_nack(struct uet_qp *qp, u32 psn, bool trimmed)
{
	if (qp->cc.ops->on_nack)
		qp->cc.ops->on_nack(&qp->cc, ktime_get_ns(),
				    uet_pdc_tx_pkt(&qp->tx, psn)->bytes, trimmed,
				    uet_pdc_tx_pipe(&qp->tx));
}

void uet_req_rcv_nack(struct uet_qp *qp, struct sk_buff *skb)
{
	struct uet_req *req = qp->req;
	struct uet_pds_nack nack;

	if (uet_pds_nack_parse(skb->data, skb_headlen(skb), &nack) < 0) {
		uet_inc(qp->udev, UET_CNT_DROP_MALFORMED);
		goto out;
	}
	uet_inc(qp->udev, UET_CNT_NACK_RX);
	trace_uet_nack(qp->udev->ibdev.index, qp->ibqp.qp_num, nack.psn,
		       nack.code, false);
	switch (nack.code) {
	case UET_NACK_PKT_NOT_RCVD:
		if (uet_pdc_tx_nack_hole(&qp->tx, nack.psn, ktime_get_ns())) {
			uet_inc(qp->udev, UET_CNT_RETX_NACK);
			uet_req_cc_nack(qp, nack.psn, false);
		}
		break;
	case UET_NACK_TRIMMED:
	case UET_NACK_TRIMMED_LASTHOP:
		if (uet_pdc_tx_nack(&qp->tx, nack.psn, true)) {
			uet_inc(qp->udev, UET_CNT_RETX_NACK);
			uet_req_cc_nack(qp, nack.psn, true);
		}
		break;
	case UET_NACK_PSN_OOR_WINDOW:
		if (uet_pdc_tx_nack(&qp->tx, nack.psn, false))
			uet_inc(qp->udev, UET_CNT_RETX_NACK);
		break;
	case UET_NACK_NO_SES_MSG_AVAIL:
		uet_inc(qp->udev, UET_CNT_RNR_NACK_RX);
		/* Only for a packet in flight (one sent twice may be RNR
		 * NACKed twice): a NACK for any other PSN proves nothing.
		 */
		if (!uet_pdc_tx_nack(&qp->tx, nack.psn, false))
			break;
		/* The peer is alive: RNR waits are counted by rnr_retry only. */
		req->backoff = 0;
		uet_req_arm_rto(qp, true);
		/* rnr_retry 7 means retry for ever (IBA 9.7.5.2.8). */
		if (qp->rnr_retry != 7 && ++req->rnr_count > qp->rnr_retry) {
			uet_req_fail_psn(qp, nack.psn, IB_WC_RNR_RETRY_EXC_ERR);
			break;
		}
		req->rnr_until_ns = ktime_get_ns() +
				    uet_qp_rnr_ns(nack.payload & 31);
		hrtimer_start(&qp->rnr_timer,
			      ns_to_ktime(uet_qp_rnr_ns(nack.payload & 31)),
			      HRTIMER_MODE_REL);
		break;
	case UET_NACK_EXP_ERR:
		if (!uet_pdc_tx_nack(&qp->tx, nack.psn, false))
			break;
		switch (nack.vendor_code) {
		case UET_VERR_REM_ACCESS:
			uet_req_fail_psn(qp, nack.psn, IB_WC_REM_ACCESS_ERR);
			break;
		case UET_VERR_REM_INV_REQ:
			uet_req_fail_psn(qp, nack.psn, IB_WC_REM_INV_REQ_ERR);
			break;
		default:
			uet_req_fail_psn(qp, nack.psn, IB_WC_REM_OP_ERR);
			break;
		}
		break;
	default:
		break;
	}
out:
	consume_skb(skb);
}

void uet_req_rto(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;
	u64 now = ktime_get_ns(), rto = uet_req_rto_ns(qp, req->backoff), due;
	u32 marked, path_losses = qp->tx.path_losses;

	if (!uet_pdc_tx_inflight(&qp->tx) && !req->rd_atomic)
		return;
	/* The timer runs from the last progress; what was resent since is
	 * not due yet, and an expiry that finds nothing due is no timeout
	 * (nor a reason for congestion control to start over).
	 */
	due = uet_pdc_tx_rto_due(&qp->tx, rto);
	/* Requests acknowledged, responses still owed: the peer is alive
	 * while they keep coming; the same timeout bounds a silence (as on
	 * rxe, whose retransmit timer also waits for READ responses).
	 */
	if (!due && req->rd_atomic)
		due = req->rd_since_ns + rto;
	if (due > now) {
		hrtimer_start(&qp->rto_timer, ns_to_ktime(due - now),
			      HRTIMER_MODE_REL);
		return;
	}
	uet_inc(qp->udev, UET_CNT_RTO);
	WRITE_ONCE(qp->nrto, qp->nrto + 1);
	if (++req->backoff > qp->retry_cnt) {
		struct uet_swqe *w = req->head != req->tail ?
				     uet_swqe(req, req->head) : NULL;

		if (w)
			w->status = IB_WC_RETRY_EXC_ERR;
		else
			uet_qp_error(qp);
		return;
	}
	marked = uet_pdc_tx_timeout(&qp->tx, now, rto);
	uet_count(qp->udev, UET_CNT_RETX_RTO, marked);
	uet_req_cc_loss(qp, now, marked, path_losses, true);
	trace_uet_rto(qp->udev->ibdev.index, qp->ibqp.qp_num, req->backoff,
		      uet_pdc_tx_inflight(&qp->tx), marked);
	uet_req_arm_rto(qp, true);
}

/* A response to one of our READs or atomics arrived (new, not trimmed).
 * Returns 0 when placed, or a negative errno for a response that matches
 * nothing we asked for; the caller then drops it undelivered.
 */
int uet_req_rcv_resp(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
		     struct sk_buff *skb, int off, u32 len)
{
	struct uet_req *req = qp->req;
	struct uet_swqe *w = NULL;
	u32 i;
	int err;

	for (i = req->head; i != req->cur + (req->cur != req->tail); i++) {
		w = uet_swqe(req, i);
		if (w->npkts_sent && w->rd_atomic && w->seq == vh->msn)
			break;
		w = NULL;
	}
	if (!w || w->responded)
		return -ENOENT;

	if (vh->opcode == UET_OP_READ_RESP) {
		struct uet_sge_io io = { .skb = skb, .skb_off = off };

		if (w->opcode != IB_WR_RDMA_READ || vh->msg_len != w->length ||
		    len > w->length - vh->offset)
			return -EINVAL;
		err = uet_sge_copy(qp, w->wqe.dma.sge, w->wqe.dma.num_sge,
				   vh->offset, len, IB_ACCESS_LOCAL_WRITE, &io);
		if (err) {
			w->status = IB_WC_LOC_PROT_ERR;
			return 0;
		}
		w->rcvd += len;
		if (w->rcvd == w->length)
			w->responded = true;
	} else {
		u8 val[UET_ATOMIC_RESP_LEN];
		struct uet_sge_io io = { .buf = val, .dir = UET_COPY_TO_MR };
		u64 orig;

		if (w->opcode == IB_WR_RDMA_READ || len != UET_ATOMIC_RESP_LEN)
			return -EINVAL;
		if (skb_copy_bits(skb, off, val, sizeof(val)))
			return -EINVAL;
		orig = get_unaligned_be64(val);
		/* The original value lands in host order, as on rxe. */
		memcpy(val, &orig, sizeof(orig));
		err = uet_sge_copy(qp, w->wqe.dma.sge, 1, 0, sizeof(val),
				   IB_ACCESS_LOCAL_WRITE, &io);
		if (err)
			w->status = IB_WC_LOC_PROT_ERR;
		w->responded = true;
	}
	req->backoff = 0;
	req->rd_since_ns = ktime_get_ns();
	return 0;
}

/**
 * uet_req_job_room() - make room for one more response to owe the peer
 * @qp: the QP, whose peer asked a READ or an atomic
 *
 * At most max_dest_rd_atomic responses are owed; the table grows for
 * them, charged to the QP's creator.
 *
 * Return: 0; -ENOSPC if the peer asked past the limit, -ENOMEM if the
 * table could not grow (the peer may ask again).
 */
int uet_req_job_room(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;
	u32 n = req->jobs_tail - req->jobs_head, size, i;
	struct mem_cgroup *old;
	struct uet_rjob *jobs;

	if (n >= max_t(u32, qp->max_dest_rd_atomic, 1))
		return -ENOSPC;
	if (n <= req->jobs_mask)
		return 0;
	size = min_t(u32, 2 * (req->jobs_mask + 1), UET_MAX_RD_ATOMIC);
	old = set_active_memcg(req->memcg);
	jobs = kmalloc_array(size, sizeof(*jobs), UET_REQ_RING_GFP);
	set_active_memcg(old);
	if (!jobs)
		return -ENOMEM;
	for (i = req->jobs_head; i != req->jobs_tail; i++)
		jobs[i & (size - 1)] = req->jobs[i & req->jobs_mask];
	kfree(req->jobs);
	req->jobs = jobs;
	req->jobs_mask = size - 1;
	return 0;
}

/* Owe the peer a response; the caller made room (uet_req_job_room()). */
void uet_req_queue_job(struct uet_qp *qp, const struct uet_rjob *job)
{
	struct uet_req *req = qp->req;

	req->jobs[req->jobs_tail & req->jobs_mask] = *job;
	req->jobs_tail++;
}

/* The QP is in error: every WQE, taken or still in the ring, is flushed,
 * a budget's worth a pass: the ring's producer is the user's to move, so
 * a pass must end, and a doorbell makes up to 256 of them (engine.c).
 * True if there are more.
 */
bool uet_req_flush(struct uet_qp *qp)
{
	struct uet_req *req = qp->req;
	int n;

	hrtimer_try_to_cancel(&qp->rto_timer);
	uet_pdc_tx_drop_all(&qp->tx, uet_req_release_pkt, qp);
	req->jobs_head = req->jobs_tail;
	uet_req_fetch(qp);
	for (n = UET_WORK_BUDGET; n && req->head != req->tail; n--) {
		struct uet_swqe *w = uet_swqe(req, req->head);

		uet_req_post_cqe(qp, w, IB_WC_WR_FLUSH_ERR);
		req->head++;
	}
	req->cur = req->head;
	req->rd_atomic = 0;
	req->rmsg = 0;
	return req->head != req->tail || uet_queue_count(&qp->sq);
}
