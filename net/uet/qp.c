// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs: the verbs (create, modify, query, destroy, post), the pass
 * of each RC and UC QP's engine with the timers that ask for it, and packet
 * transmission.
 *
 * Execution model (engine.c): whoever brings work runs the pass, one
 * owner at a time. A user doorbell runs it in post_send, a received
 * packet in the receive softirq; timers and kernel posts kick the work
 * item. modify_qp and destroy stop the engine before they touch its
 * state, so nothing a pass owns changes under it; a QP in RESET keeps
 * its engine stopped and drops what arrives.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/hash.h>
#include <net/inet_ecn.h>
#include <trace/events/uet.h>

#include "mtu.h"
#include "psn.h"
#include "qp.h"
#include "ud.h"
#include "udp.h"
#include "uet_compat_verbs.h"

struct uet_qp *uet_qp_get(struct uet_dev *udev, u32 qpn)
{
	struct uet_qp_ref *ref;
	struct uet_qp *qp = NULL;

	rcu_read_lock();
	ref = xa_load(&udev->qps, qpn);
	if (ref && refcount_inc_not_zero(&ref->count))
		qp = ref->qp;
	rcu_read_unlock();
	return qp;
}

void uet_qp_put(struct uet_qp *qp)
{
	if (refcount_dec_and_test(&qp->ref->count))
		complete(&qp->free);
}

/* The QP's entry for the QP table (struct uet_qp_ref), holding the
 * table's reference.
 */
int uet_qp_ref_alloc(struct uet_qp *qp)
{
	qp->ref = kmalloc(sizeof(*qp->ref), GFP_KERNEL_ACCOUNT);
	if (!qp->ref)
		return -ENOMEM;
	refcount_set(&qp->ref->count, 1);
	qp->ref->qp = qp;
	init_completion(&qp->free);
	return 0;
}

/* Take the QP out of the table, then wait for the lookups holding it. */
void uet_qp_unpublish(struct uet_qp *qp)
{
	xa_erase(&qp->udev->qps, qp->ibqp.qp_num);
	uet_qp_put(qp);
	wait_for_completion(&qp->free);
	kfree_rcu(qp->ref, rcu);
}

u8 uet_qp_tos(u8 dscp, bool ect)
{
	return dscp << 2 | (ect ? INET_ECN_ECT_0 : INET_ECN_NOT_ECT);
}

struct sk_buff *uet_qp_alloc_skb(struct uet_qp *qp, unsigned int hdr_len)
{
	unsigned int headroom = UET_SKB_HEADROOM(qp->udev->ndev);
	struct sk_buff *skb;

	/* Passes run with bottom halves off (engine.c). */
	skb = alloc_skb(headroom + hdr_len, GFP_ATOMIC);
	if (!skb) {
		uet_inc(qp->udev, UET_CNT_TX_NOMEM);
		return NULL;
	}
	skb_reserve(skb, headroom);
	return skb;
}

int uet_qp_xmit_train(struct uet_qp *qp, struct sk_buff *skb, u32 npkts,
		      u8 tos, u16 entropy)
{
	struct uet_dev *udev = qp->udev;
	unsigned int len = skb->len;
	int err;

	trace_uet_tx(udev->ibdev.index, qp->ibqp.qp_num, skb, tos);
	err = uet_udp_xmit(udev, skb, &qp->addrs, entropy, tos, &qp->dst_cache,
			   true);
	if (!err) {
		uet_count(udev, UET_CNT_TX_PKTS, npkts);
		uet_count(udev, UET_CNT_TX_BYTES, len);
		uet_inc(udev, UET_CNT_TX_SKBS);
	}
	return err;
}

int uet_qp_xmit(struct uet_qp *qp, struct sk_buff *skb, u8 tos, u16 entropy)
{
	return uet_qp_xmit_train(qp, skb, 1, tos, entropy);
}

/* What became of a packet sent on ev, for the peer's path states and the
 * QP's load balancer. An EV set aside is held for an RTT (UE 1.0
 * §3.6.16, path-aware spraying: skip a value with ECN or NACK feedback
 * for at least one RTT), the minimum RTO before a sample.
 */
void uet_qp_path_signal(struct uet_qp *qp, u16 ev, enum uet_ev_sig sig,
			u64 sent_ns, u64 now)
{
	u64 hold = qp->tx.srtt_ns ?:
		   (u64)uet_param(qp->udev, rto_min_us) * NSEC_PER_USEC;

	if (qp->peer)
		uet_peer_signal(qp->peer, ev, sig, now, sent_ns, hold);
	uet_lb_feedback(&qp->lb, ev, sig, now);
}

/* Asked by the PDC for each packet it declares lost. A loss on a failed
 * path is the load balancer's to answer, not congestion control's: a
 * dead spine would otherwise cost the window a packet for each value
 * tried on it until the value is known bad.
 */
static bool uet_qp_path_failed(void *arg, const struct uet_pdc_pkt *pkt)
{
	struct uet_qp *qp = arg;

	return qp->peer && uet_ev_failed(qp->peer->evt, pkt->ev, pkt->sent_ns);
}

/* (Re)start congestion control with ops and the device's parameters for
 * it, from what the QPs to the same peer measured; windows count bytes
 * as the PDC does, headers included.
 */
static void uet_qp_cc_start(struct uet_qp *qp, const struct uet_cc_ops *ops)
{
	u32 link = uet_param(qp->udev, link_mbps);
	u32 params[UET_CC_PARAMS_MAX];
	int i, idx = uet_cc_index(ops);
	struct uet_cc_meas meas = {};
	u64 now = ktime_get_ns();

	for (i = 0; i < UET_CC_PARAMS_MAX; i++)
		params[i] = READ_ONCE(qp->udev->params.cc_params[idx][i]);
	if (qp->peer)
		uet_peer_meas_seed(qp->peer, &meas, now);
	uet_cc_init(&qp->cc, ops, qp->seg + UET_DATA_HDR_LEN, params,
		    link ?: READ_ONCE(qp->udev->link_mbps), &meas, now);
	qp->cc_traced = 0;
}

/* (Re)start the load balancer on the peer's entropy set. */
static void uet_qp_lb_start(struct uet_qp *qp, const struct uet_lb_ops *ops)
{
	struct uet_dev *udev = qp->udev;
	struct uet_lb_conf conf = {
		.reps_ring = uet_param(udev, reps_ring),
		.reps_freeze_us = uet_param(udev, reps_freeze_us),
	};
	const struct uet_ev_table *evt = qp->peer->evt;

	uet_lb_init(&qp->lb, ops, hash_32(qp->ibqp.qp_num << 16 | qp->dest_qpn, 32),
		    evt->base, evt->count, evt, &conf);
	qp->entropy = qp->lb.cur;
}

enum ib_qp_state uet_qp_state(struct uet_qp *qp)
{
	enum ib_qp_state state;
	unsigned long flags;

	spin_lock_irqsave(&qp->state_lock, flags);
	state = qp->state;
	spin_unlock_irqrestore(&qp->state_lock, flags);
	return state;
}

/* Move to the error state from the engine (a fatal completion). */
void uet_qp_error(struct uet_qp *qp)
{
	unsigned long flags;
	bool changed;

	spin_lock_irqsave(&qp->state_lock, flags);
	changed = qp->state != IB_QPS_ERR && qp->state != IB_QPS_RESET;
	if (changed) {
		trace_uet_qp_state(qp->udev->ibdev.index, qp->ibqp.qp_num,
				   qp->state, IB_QPS_ERR);
		qp->state = IB_QPS_ERR;
	}
	spin_unlock_irqrestore(&qp->state_lock, flags);
	if (changed)
		uet_nl_qp_error(qp);
	if (changed && qp->ibqp.event_handler) {
		struct ib_event ev = {
			.device = qp->ibqp.device,
			.element.qp = &qp->ibqp,
			.event = IB_EVENT_QP_FATAL,
		};

		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
	}
	uet_engine_kick(&qp->eng);
}

/* How far from this end's PSN bases a packet of the peer may be. The
 * peer sends within a window of what we received, and acknowledges
 * within a window of what we sent; read outside the pass that moves
 * them, the bases may lag by what a pass did since, less than a window.
 */
#define UET_QP_PSN_SLACK	(2 * UET_PDC_WIN_MAX)

/* The receive softirq asks before a packet may take a place in the QP's
 * backlog (uet_engine_queue()), so that junk is dropped before it can
 * crowd out the peer's packets: a packet must come from the peer's
 * address to this QP's, name the peer's QPN as its source PDC, and
 * carry a PSN near where this end is. What passes is parsed in full by
 * the pass. (All RC header types have spdcid at bytes 8..9 and a PSN at
 * 4..7; uet_rcv() pulled the header.)
 */
static int uet_qp_admit(struct uet_engine *eng, const struct sk_buff *skb)
{
	struct uet_qp *qp = container_of(eng, struct uet_qp, eng);
	u32 psn = get_unaligned_be32(skb->data + 4);
	struct uet_addrs from;
	s32 d;

	BUILD_BUG_ON(offsetof(struct uet_pds_req_hdr, spdcid) != 8);
	BUILD_BUG_ON(offsetof(struct uet_pds_ack_hdr, spdcid) != 8);
	BUILD_BUG_ON(offsetof(struct uet_pds_nack_hdr, spdcid) != 8);
	BUILD_BUG_ON(offsetof(struct uet_pds_ctl_hdr, spdcid) != 8);
	BUILD_BUG_ON(offsetof(struct uet_pds_req_hdr, psn) != 4);
	BUILD_BUG_ON(offsetof(struct uet_pds_ack_hdr, cack_psn) != 4);
	BUILD_BUG_ON(offsetof(struct uet_pds_nack_hdr, nack_psn) != 4);
	BUILD_BUG_ON(offsetof(struct uet_pds_ctl_hdr, psn) != 4);
	uet_skb_cb_addrs(UET_SKB_CB(skb), &from);
	if (!qp->peer || !uet_peer_match(qp->peer, &from) ||
	    get_unaligned_be16(skb->data + 8) != qp->dest_qpn)
		return -EPERM;

	/* Nothing answers a UC QP: it takes its peer's UC requests only,
	 * at whatever PSN (the message rule of uet_resp_uc() judges them).
	 */
	if (uet_qp_is_uc(qp))
		return uet_pds_type(skb->data, skb_headlen(skb)) ==
		       UET_PDS_RUD_REQ &&
		       (get_unaligned_be16(skb->data) & UET_PDS_REQ_F_UC) ?
		       0 : -ERANGE;
	switch (uet_pds_type(skb->data, skb_headlen(skb))) {
	case UET_PDS_RUD_REQ:
		/* Until a SYN said where the stream starts, nothing else. */
		if (!READ_ONCE(qp->rx_synced))
			return get_unaligned_be16(skb->data) &
			       UET_PDS_REQ_F_SYN ? 0 : -ERANGE;
		d = uet_psn_diff(psn, READ_ONCE(qp->rx.next));
		return d > -UET_QP_PSN_SLACK && d < UET_QP_PSN_SLACK ?
		       0 : -ERANGE;
	case UET_PDS_ACK_CC:
	case UET_PDS_ACK_CCX:
		/* Every PSN up to cack_psn arrived: one past it was sent. */
		psn++;
		fallthrough;
	case UET_PDS_NACK:
	case UET_PDS_CONTROL:	/* a CNP names the marked packet's PSN */
		d = uet_psn_diff(psn, READ_ONCE(qp->tx.nxt));
		return d > -UET_QP_PSN_SLACK && d <= UET_PDC_WIN_MAX ?
		       0 : -ERANGE;
	default:
		return 0;
	}
}

/* A packet the receive path queued to this QP, to the side it is for:
 * acknowledgements and control packets to the requester (req.c), data
 * to the responder (resp.c).
 */
static void uet_qp_rcv(struct uet_qp *qp, struct sk_buff *skb)
{
	switch (uet_pds_type(skb->data, skb_headlen(skb))) {
	case UET_PDS_ACK_CC:
	case UET_PDS_ACK_CCX:
		uet_req_rcv_ack(qp, skb);
		break;
	case UET_PDS_CONTROL:
		uet_req_rcv_ctl(qp, skb);
		break;
	case UET_PDS_NACK:
		uet_req_rcv_nack(qp, skb);
		break;
	case UET_PDS_RUD_REQ:
		uet_resp_rcv(qp, skb);
		break;
	default:
		uet_inc(qp->udev, UET_CNT_DROP_MALFORMED);
		consume_skb(skb);
		break;
	}
}

/* What the pass of every QP type does first: in RESET and INIT no packet
 * is taken (what came before the peer was known is dropped), nor in ERR,
 * whose work requests the caller then flushes. True if the pass goes on.
 */
bool uet_qp_pass_open(struct uet_qp *qp, enum ib_qp_state state)
{
	if (state != IB_QPS_RESET && state != IB_QPS_INIT &&
	    state != IB_QPS_ERR)
		return true;
	skb_queue_purge(&qp->rxq);
	return false;
}

static bool uet_qp_pass(struct uet_engine *eng)
{
	struct uet_qp *qp = container_of(eng, struct uet_qp, eng);
	enum ib_qp_state state = uet_qp_state(qp);
	const struct uet_lb_ops *lb;
	const struct uet_cc_ops *cc;
	struct sk_buff *skb;
	u64 now = 0;
	bool more;
	int n;

	if (!uet_qp_pass_open(qp, state)) {
		if (state != IB_QPS_ERR)
			return false;
		more = uet_req_flush(qp);
		return uet_resp_flush(qp) || more;
	}

	lb = xchg(&qp->lb_set, NULL);
	if (lb && qp->peer)
		uet_qp_lb_start(qp, lb);
	cc = xchg(&qp->cc_set, NULL);
	if (cc)
		uet_qp_cc_start(qp, cc);

	for (n = 0; n < UET_WORK_BUDGET && (skb = skb_dequeue(&qp->rxq)); n++) {
		now = max_t(u64, now, ktime_to_ns(skb->tstamp));
		uet_qp_rcv(qp, skb);
	}
	/* The clock is read once a pass: emulated, as under QEMU, a read
	 * can cost as much as a packet's processing. The receive softirq's
	 * pass takes the arrival of what it just processed for now; it
	 * sends no data, so paces nothing by it.
	 */
	if (!now || !in_serving_softirq())
		now = ktime_get_ns();

	if (atomic_xchg(&qp->rto_pending, 0))
		uet_req_rto(qp);
	/* An RTR QP sends only responses to the peer's READs and atomics.
	 * The receive softirq leaves sending to the work item (engine.c).
	 */
	more = uet_req_run(qp, state != IB_QPS_RTR, !in_serving_softirq(), now);
	uet_resp_ack(qp, now);
	return more || !skb_queue_empty(&qp->rxq);
}

static enum hrtimer_restart uet_qp_rto_timer(struct hrtimer *t)
{
	struct uet_qp *qp = container_of(t, struct uet_qp, rto_timer);

	atomic_set(&qp->rto_pending, 1);
	uet_engine_kick(&qp->eng);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart uet_qp_ack_timer(struct hrtimer *t)
{
	uet_engine_kick(&container_of(t, struct uet_qp, ack_timer)->eng);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart uet_qp_rnr_timer(struct hrtimer *t)
{
	uet_engine_kick(&container_of(t, struct uet_qp, rnr_timer)->eng);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart uet_qp_pace_timer(struct hrtimer *t)
{
	uet_engine_kick(&container_of(t, struct uet_qp, pace_timer)->eng);
	return HRTIMER_NORESTART;
}

static enum hrtimer_restart uet_qp_reo_timer(struct hrtimer *t)
{
	uet_engine_kick(&container_of(t, struct uet_qp, reo_timer)->eng);
	return HRTIMER_NORESTART;
}

/* The capabilities asked of a new QP of any type; with an SRQ it has no
 * RQ, and says so as rdma_rxe does. A queue of no WRs is allowed, as on
 * rdma_rxe (qperf asks for one): its ring of one slot is always full, so
 * a post to it fails with ENOMEM.
 */
int uet_qp_check_cap(struct ib_qp_init_attr *init)
{
	struct ib_qp_cap *cap = &init->cap;

	if (cap->max_send_wr > UET_MAX_QP_WR ||
	    cap->max_send_sge > UET_MAX_SGE ||
	    cap->max_inline_data > UET_MAX_INLINE)
		return -EINVAL;
	if (init->srq) {
		cap->max_recv_wr = 0;
		cap->max_recv_sge = 0;
	} else if (cap->max_recv_wr > UET_MAX_QP_WR ||
		   cap->max_recv_sge > UET_MAX_SGE) {
		return -EINVAL;
	}
	return 0;
}

int uet_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata)
{
	struct uet_dev *udev = to_udev(ibqp->device);
	struct uet_qp *qp = to_uqp(ibqp);
	struct rxe_create_qp_resp __user *uresp = NULL;
	unsigned int n, sq_space;
	u32 qpn;
	int err;

	if (init->qp_type == IB_QPT_UD || init->qp_type == IB_QPT_GSI)
		return uet_ud_create_qp(ibqp, init, udata);
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC)
		return -EOPNOTSUPP;
	if (init->create_flags)
		return -EOPNOTSUPP;
	err = uet_qp_check_cap(init);
	if (err)
		return err;
	if (udata) {
		if (udata->inlen)
			return -EINVAL;
		if (udata->outlen < sizeof(*uresp))
			return -EINVAL;
		uresp = udata->outbuf;
		qp->is_user = true;
	}

	qp->udev = udev;
	mutex_init(&qp->ctl_lock);
	spin_lock_init(&qp->state_lock);
	spin_lock_init(&qp->sq_lock);
	spin_lock_init(&qp->rq_lock);
	qp->state = IB_QPS_RESET;
	qp->scq = to_ucq(init->send_cq);
	qp->rcq = to_ucq(init->recv_cq);
	qp->srq = init->srq ? to_usrq(init->srq) : NULL;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->mtu = ib_mtu_enum_to_int(IB_MTU_1024);
	qp->seg = qp->mtu;
	qp->retry_cnt = 7;
	qp->rnr_retry = 7;
	uet_engine_init(&qp->eng, uet_qp_pass, uet_qp_admit);
	skb_queue_head_init(&qp->rxq);
	hrtimer_setup(&qp->rto_timer, uet_qp_rto_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	hrtimer_setup(&qp->ack_timer, uet_qp_ack_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	hrtimer_setup(&qp->rnr_timer, uet_qp_rnr_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	hrtimer_setup(&qp->reo_timer, uet_qp_reo_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	hrtimer_setup(&qp->pace_timer, uet_qp_pace_timer, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	uet_qp_cc_start(qp, &uet_cc_none);

	/* Inline data and the SGE list share the WQE's tail, as in rxe. */
	sq_space = max_t(u32, init->cap.max_send_sge * sizeof(struct rxe_sge),
			 init->cap.max_inline_data);
	init->cap.max_send_sge = sq_space / sizeof(struct rxe_sge);
	init->cap.max_inline_data = sq_space;
	n = init->cap.max_send_wr;
	err = uet_queue_init(&qp->sq, &n, sizeof(struct rxe_send_wqe) + sq_space,
			     UET_QUEUE_FROM_CLIENT);
	if (err)
		return err;
	init->cap.max_send_wr = n;
	qp->cap = init->cap;

	if (!qp->srq) {
		n = init->cap.max_recv_wr;
		err = uet_queue_init(&qp->rq, &n, sizeof(struct rxe_recv_wqe) +
				     init->cap.max_recv_sge * sizeof(struct rxe_sge),
				     UET_QUEUE_FROM_CLIENT);
		if (err)
			goto err_sq;
		init->cap.max_recv_wr = n;
		qp->cap.max_recv_wr = n;
	}

	qp->lb.ops = uet_param(udev, lb);
	err = dst_cache_init(&qp->dst_cache, GFP_KERNEL_ACCOUNT);
	if (err)
		goto err_rq;
	err = uet_pdc_tx_init(&qp->tx, uet_param(udev, mpr), 0);
	if (err)
		goto err_dst;
	qp->tx.path_failed = uet_qp_path_failed;
	qp->tx.path_arg = qp;
	/* Receive whatever window a peer with any mpr setting may use. */
	err = uet_pdc_rx_init(&qp->rx, UET_PDC_WIN_MAX, 0);
	if (err)
		goto err_tx;
	err = uet_req_init(qp);
	if (err)
		goto err_rx;
	err = uet_resp_init(qp);
	if (err)
		goto err_req;

	if (uresp) {
		if (!qp->srq) {
			err = uet_queue_mmap_out(udev, &qp->rq, udata, &uresp->rq_mi);
			if (err)
				goto err_resp;
		}
		err = uet_queue_mmap_out(udev, &qp->sq, udata, &uresp->sq_mi);
		if (err)
			goto err_resp;
	}

	err = uet_qp_ref_alloc(qp);
	if (err)
		goto err_resp;
	err = xa_alloc_cyclic(&udev->qps, &qpn, NULL,
			      XA_LIMIT(UET_MIN_QPN, UET_MAX_QPN), &udev->qp_next,
			      GFP_KERNEL);
	if (err < 0)
		goto err_ref;
	ibqp->qp_num = qpn;
	/* Visible to the receive path only now that it is whole. */
	xa_store(&udev->qps, qpn, qp->ref, GFP_KERNEL);
	return 0;

err_ref:
	kfree(qp->ref);
err_resp:
	uet_resp_free(qp);
err_req:
	uet_req_free(qp);
err_rx:
	uet_pdc_rx_free(&qp->rx);
err_tx:
	uet_pdc_tx_free(&qp->tx, uet_req_release_pkt, qp);
err_dst:
	dst_cache_destroy(&qp->dst_cache);
err_rq:
	if (!qp->srq)
		uet_queue_cleanup(&qp->rq);
err_sq:
	uet_queue_cleanup(&qp->sq);
	return err;
}

/* Stop the engine; on return nothing of it runs or is armed: no pass,
 * no work, no timer (only a pass arms them), no packet queued.
 */
static void uet_qp_stop(struct uet_qp *qp)
{
	uet_engine_stop(&qp->eng);
	hrtimer_cancel(&qp->rto_timer);
	hrtimer_cancel(&qp->ack_timer);
	hrtimer_cancel(&qp->rnr_timer);
	hrtimer_cancel(&qp->reo_timer);
	hrtimer_cancel(&qp->pace_timer);
	atomic_set(&qp->rto_pending, 0);
}

int uet_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct uet_qp *qp = to_uqp(ibqp);

	if (uet_qp_is_ud(qp)) {
		uet_ud_destroy_qp(qp);
		return 0;
	}
	uet_qp_unpublish(qp);
	uet_qp_stop(qp);
	skb_queue_purge(&qp->rxq);
	uet_resp_free(qp);
	uet_req_free(qp);
	uet_pdc_rx_free(&qp->rx);
	uet_pdc_tx_free(&qp->tx, uet_req_release_pkt, qp);
	dst_cache_destroy(&qp->dst_cache);
	if (!qp->srq)
		uet_queue_cleanup(&qp->rq);
	uet_queue_cleanup(&qp->sq);
	if (qp->peer)
		uet_peer_put(qp->peer);
	mutex_destroy(&qp->ctl_lock);
	return 0;
}

/* IB RNR timer encoding (IBA table 45) in microseconds. */
static const u32 uet_rnr_usec[32] = {
	655360, 10, 20, 30, 40, 60, 80, 120, 160, 240, 320, 480, 640, 960,
	1280, 1920, 2560, 3840, 5120, 7680, 10240, 15360, 20480, 30720,
	40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520,
};

u64 uet_qp_rnr_ns(u8 timer)
{
	return (u64)uet_rnr_usec[timer & 31] * NSEC_PER_USEC;
}

static int uet_qp_check_attr(struct uet_qp *qp, struct ib_qp_attr *attr,
			     int mask)
{
	if ((mask & IB_QP_PORT) && attr->port_num != UET_PORT)
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) && attr->pkey_index)
		return -EINVAL;
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > UET_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > UET_MAX_RD_ATOMIC)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_MIN_RNR_TIMER) && attr->min_rnr_timer > 31)
		return -EINVAL;
	if ((mask & IB_QP_DEST_QPN) &&
	    (attr->dest_qp_num < UET_MIN_QPN || attr->dest_qp_num > UET_MAX_QPN))
		return -EINVAL;
	/* The flush rights too, which rdma-core's tests give every RC QP
	 * (tests/test_qpex.py): as on rdma_rxe, a FLUSH is checked against
	 * the region's rights alone (uet_resp_flush_req()).
	 */
	if ((mask & IB_QP_ACCESS_FLAGS) &&
	    (attr->qp_access_flags & ~(IB_ACCESS_REMOTE_WRITE |
				       IB_ACCESS_REMOTE_READ |
				       IB_ACCESS_REMOTE_ATOMIC |
				       IB_ACCESS_LOCAL_WRITE |
				       IB_ACCESS_FLUSH_GLOBAL |
				       IB_ACCESS_FLUSH_PERSISTENT)))
		return -EINVAL;
	return 0;
}

int uet_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata)
{
	struct uet_qp *qp = to_uqp(ibqp);
	struct uet_dev *udev = qp->udev;
	struct uet_peer *peer = NULL;
	enum ib_qp_state cur, new;
	bool local = false;
	struct uet_addrs addrs;
	unsigned long flags;
	int err;

	if (uet_qp_is_ud(qp))
		return uet_ud_modify_qp(qp, attr, mask);
	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	/* The caller's CUR_STATE is a claim, checked against the real state:
	 * trusted, it would take a QP from RESET to RTS with no peer.
	 */
	cur = uet_qp_state(qp);
	if ((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur)
		return -EINVAL;
	new = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	if (!ib_modify_qp_is_ok(cur, new, qp->ibqp.qp_type, mask))
		return -EINVAL;
	err = uet_qp_check_attr(qp, attr, mask);
	if (err)
		return err;
	if (mask & IB_QP_AV) {
		err = uet_addrs_from_ah(udev, &attr->ah_attr, UET_DEST_UNICAST,
					&addrs);
		if (err)
			return err;
		peer = uet_peer_get(udev, &addrs);
		if (!peer)
			return -ENOMEM;
	}

	/* Engine state changes below only with the engine stopped. Since
	 * cur was read, another modify may have run, or the engine moved
	 * the QP to ERR (a WQE out of retries); stopped, it no longer can:
	 * the transition is judged again from where the QP is now, so that
	 * RESET or ERR, allowed from anywhere, never fails. An RC QP leaves
	 * for RTR or RTS only with a peer: sending needs one.
	 */
	mutex_lock(&qp->ctl_lock);
	uet_qp_stop(qp);
	if (uet_qp_state(qp) != cur) {
		cur = uet_qp_state(qp);
		if (!(mask & IB_QP_STATE))
			new = cur;
	}
	if (((mask & IB_QP_CUR_STATE) && attr->cur_qp_state != cur) ||
	    !ib_modify_qp_is_ok(cur, new, qp->ibqp.qp_type, mask) ||
	    (new >= IB_QPS_RTR && new != IB_QPS_ERR && !peer && !qp->peer)) {
		if (cur != IB_QPS_RESET) {
			uet_engine_start(&qp->eng);
			uet_engine_kick(&qp->eng);
		}
		mutex_unlock(&qp->ctl_lock);
		if (peer)
			uet_peer_put(peer);
		return -EINVAL;
	}
	if (mask & (IB_QP_AV | IB_QP_PATH_MTU))
		local = uet_udp_is_local(udev, (mask & IB_QP_AV) ?
					 &addrs : &qp->addrs);

	spin_lock_irqsave(&qp->state_lock, flags);
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access = attr->qp_access_flags;
	if (mask & IB_QP_AV) {
		qp->addrs = addrs;
		dst_cache_reset(&qp->dst_cache);
	}
	if (mask & (IB_QP_AV | IB_QP_PATH_MTU)) {
		unsigned int ndev_mtu = READ_ONCE(udev->ndev->mtu);
		enum ib_mtu pmtu = (mask & IB_QP_PATH_MTU) ? attr->path_mtu :
				   ib_mtu_int_to_enum(qp->mtu);

		qp->mtu = ib_mtu_enum_to_int(min(pmtu, uet_ib_mtu(ndev_mtu)));
		/* A new address may be local, or no longer. */
		qp->seg = uet_rc_seg(pmtu, ndev_mtu, local);
	}
	if (mask & IB_QP_TIMEOUT)
		qp->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num;
	if (peer) {
		swap(qp->peer, peer);
		qp->entropy = qp->peer->evt->base;
	}
	/* Distinct QPs take distinct entropy values, so paths. */
	if ((mask & (IB_QP_AV | IB_QP_DEST_QPN)) && qp->peer)
		uet_qp_lb_start(qp, qp->lb.ops);
	if (new == IB_QPS_RTR && cur != IB_QPS_RTR)
		uet_qp_cc_start(qp, uet_param(udev, cc));
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_RQ_PSN)
		qp->rq_psn = attr->rq_psn;
	if (mask & IB_QP_SQ_PSN)
		qp->sq_psn = attr->sq_psn;
	if ((mask & IB_QP_SQ_PSN) && !qp->tx_used)
		uet_pdc_tx_start(&qp->tx, attr->sq_psn);
	if (mask & IB_QP_STATE) {
		trace_uet_qp_state(qp->udev->ibdev.index, qp->ibqp.qp_num,
				   qp->state, new);
		qp->state = new;
		qp->sq_draining = new == IB_QPS_SQD;
	}
	spin_unlock_irqrestore(&qp->state_lock, flags);
	if (peer)
		uet_peer_put(peer);
	/* A QP in RESET keeps nothing; what was let in for another peer is
	 * not for this one.
	 */
	if (new == IB_QPS_RESET || (mask & (IB_QP_AV | IB_QP_DEST_QPN)))
		skb_queue_purge(&qp->rxq);

	if (new == IB_QPS_RESET) {
		qp->tx_used = false;
		qp->tx_synced = false;
		qp->rx_synced = false;
		uet_req_reset(qp);
		uet_resp_reset(qp);
	} else {
		uet_engine_start(&qp->eng);
		/* A pass re-arms the timers the stop cancelled. */
		uet_engine_kick(&qp->eng);
	}
	mutex_unlock(&qp->ctl_lock);
	return 0;
}

int uet_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct uet_qp *qp = to_uqp(ibqp);
	unsigned long flags;

	if (uet_qp_is_ud(qp)) {
		uet_ud_query_qp(qp, attr, init);
		return 0;
	}
	memset(attr, 0, sizeof(*attr));
	spin_lock_irqsave(&qp->state_lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = ib_mtu_int_to_enum(qp->mtu);
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = qp->qkey;
	attr->rq_psn = qp->rx_synced ? qp->rx.next : qp->rq_psn;
	attr->sq_psn = qp->tx.nxt;
	attr->dest_qp_num = qp->dest_qpn;
	attr->qp_access_flags = qp->access;
	attr->cap = qp->cap;
	attr->port_num = UET_PORT;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->min_rnr_timer = qp->min_rnr_timer;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->retry_cnt;
	attr->rnr_retry = qp->rnr_retry;
	attr->sq_draining = qp->sq_draining;
	spin_unlock_irqrestore(&qp->state_lock, flags);

	memset(init, 0, sizeof(*init));
	init->send_cq = qp->ibqp.send_cq;
	init->recv_cq = qp->ibqp.recv_cq;
	init->srq = qp->ibqp.srq;
	init->cap = qp->cap;
	init->qp_type = qp->ibqp.qp_type;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

/* Kernel consumers: a WR becomes a WQE in the same ring users write. */
static int uet_post_one_send(struct uet_qp *qp, const struct ib_send_wr *wr)
{
	const struct uet_wr_op *op;
	struct rxe_send_wqe *wqe;
	bool inl;
	int err;

	if (wr->num_sge > qp->cap.max_send_sge)
		return -EINVAL;
	if (uet_queue_client_full(&qp->sq))
		return -ENOMEM;
	wqe = uet_queue_client_producer_addr(&qp->sq);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.wr_id = wr->wr_id;
	wqe->wr.opcode = wr->opcode;
	wqe->wr.send_flags = wr->send_flags;
	wqe->wr.ex.imm_data = wr->ex.imm_data;

	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
	case IB_WR_RDMA_READ:
		wqe->wr.wr.rdma.remote_addr = rdma_wr(wr)->remote_addr;
		wqe->wr.wr.rdma.rkey = rdma_wr(wr)->rkey;
		wqe->iova = rdma_wr(wr)->remote_addr;
		break;
	case IB_WR_ATOMIC_CMP_AND_SWP:
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		wqe->wr.wr.atomic.remote_addr = atomic_wr(wr)->remote_addr;
		wqe->wr.wr.atomic.compare_add = atomic_wr(wr)->compare_add;
		wqe->wr.wr.atomic.swap = atomic_wr(wr)->swap;
		wqe->wr.wr.atomic.rkey = atomic_wr(wr)->rkey;
		wqe->iova = atomic_wr(wr)->remote_addr;
		break;
	case IB_WR_LOCAL_INV:
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_SEND_WITH_INV:
		wqe->wr.ex.invalidate_rkey = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
		wqe->wr.wr.reg.mr = reg_wr(wr)->mr;
		wqe->wr.wr.reg.key = reg_wr(wr)->key;
		wqe->wr.wr.reg.access = reg_wr(wr)->access;
		break;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_IMM:
		break;
	default:
		return -EINVAL;
	}

	op = uet_wr_op(wr->opcode, false);
	if (op && uet_qp_is_uc(qp) && !uet_wr_op_uc(op))
		return -EINVAL;
	inl = (wr->send_flags & IB_SEND_INLINE) && op &&
	      (op->flags & UET_WR_INLINE);
	err = uet_sge_from_wr(&wqe->dma, wr->sg_list, wr->num_sge, inl,
			      qp->cap.max_inline_data);
	if (err)
		return err;
	uet_queue_client_advance_producer(&qp->sq);
	return 0;
}

int uet_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr)
{
	struct uet_qp *qp = to_uqp(ibqp);
	enum ib_qp_state state = uet_qp_state(qp);
	unsigned long flags;
	int err = 0;

	if (uet_qp_is_ud(qp))
		return uet_ud_post_send(qp, wr, bad_wr);
	/* librxe's doorbell: the WQEs are already in the shared ring. */
	if (qp->is_user) {
		uet_engine_run_task(&qp->eng);
		return 0;
	}
	if (state < IB_QPS_RTS && state != IB_QPS_ERR) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->sq_lock, flags);
	for (; wr; wr = wr->next) {
		err = uet_post_one_send(qp, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&qp->sq_lock, flags);
	/* Not inline: a kernel consumer may post holding a lock its
	 * completion handler takes, and a pass may complete.
	 */
	uet_engine_kick(&qp->eng);
	return err;
}

int uet_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr)
{
	struct uet_qp *qp = to_uqp(ibqp);
	struct rxe_recv_wqe *wqe;
	unsigned long flags;
	int err = 0;

	if (qp->srq || uet_qp_state(qp) == IB_QPS_RESET) {
		*bad_wr = wr;
		return -EINVAL;
	}
	spin_lock_irqsave(&qp->rq_lock, flags);
	for (; wr; wr = wr->next) {
		if (wr->num_sge > qp->cap.max_recv_sge)
			err = -EINVAL;
		else if (uet_queue_client_full(&qp->rq))
			err = -ENOMEM;
		if (err) {
			*bad_wr = wr;
			break;
		}
		wqe = uet_queue_client_producer_addr(&qp->rq);
		wqe->wr_id = wr->wr_id;
		uet_sge_from_wr(&wqe->dma, wr->sg_list, wr->num_sge, false, 0);
		uet_queue_client_advance_producer(&qp->rq);
	}
	spin_unlock_irqrestore(&qp->rq_lock, flags);
	if (uet_qp_state(qp) == IB_QPS_ERR)
		uet_engine_kick(&qp->eng);
	return err;
}
