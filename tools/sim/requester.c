// SPDX-License-Identifier: GPL-2.0
/*
 * A flow's sender (requester.h), as net/uet/req.c runs the PDC; each
 * function names the one of the module it mirrors. A flow is one
 * signaled WRITE of its bytes. The module's retry_cnt is not modelled:
 * a flow never fails.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/time64.h>

#include "alloc.h"
#include "host.h"
#include "probe.h"
#include "psn.h"
#include "requester.h"

static u64 req_rto_min_ns(const struct flow *f)
{
	return (u64)f->sim->p->rto_min_us * NSEC_PER_USEC;
}

static struct port *req_nic(const struct flow *f)
{
	return &f->sim->topo.nic[f->src];
}

/* uet_qp_path_failed(): a loss on a value that failed is the load
 * balancer's to answer, not congestion control's.
 */
static bool req_path_failed(void *arg, const struct uet_pdc_pkt *pkt)
{
	struct flow *f = arg;

	return uet_ev_failed(f->evt, pkt->ev, pkt->sent_ns);
}

/* uet_peer_signal(): the peer's path states, held aside for an RTT (UE
 * 1.0 section 3.6.16), and its prober, which starts when a value looks
 * dead.
 */
static void req_peer_signal(struct flow *f, u16 ev, enum uet_ev_sig sig,
			    u64 sent_ns)
{
	u64 hold = f->req.tx.srtt_ns ?: req_rto_min_ns(f);

	uet_ev_signal(f->evt, ev, sig, flow_now(f), sent_ns, hold);
	probe_arm(f);
}

/* uet_qp_path_signal(): the path states, then the load balancer. */
static void req_path_signal(struct flow *f, u16 ev, enum uet_ev_sig sig,
			    u64 sent_ns)
{
	req_peer_signal(f, ev, sig, sent_ns);
	uet_lb_feedback(&f->lb, ev, sig, flow_now(f));
}

/* uet_req_good_flush(): one update per value an ACK proved, with its
 * newest delivered packet.
 */
static void req_good_flush(struct flow *f)
{
	struct req *r = &f->req;
	u32 i;

	for (i = 0; i < r->ngood; i++)
		req_peer_signal(f, r->good[i].ev, UET_EV_SIG_GOOD,
				r->good[i].sent_ns);
	r->ngood = 0;
}

/* uet_req_acked_pkt(): the path psn took delivered it; the packet whose
 * mark the ACK reports went to the path states as ECN already.
 */
static void req_acked_pkt(void *arg, u32 psn, void *cookie)
{
	struct flow *f = arg;
	struct req *r = &f->req;
	const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(&r->tx, psn);
	u32 i;

	if (r->ack_ecn && psn == r->ack_psn)
		return;
	uet_lb_feedback(&f->lb, pkt->ev, UET_EV_SIG_GOOD, flow_now(f));
	for (i = 0; i < r->ngood; i++)
		if (r->good[i].ev == pkt->ev)
			break;
	if (i == ARRAY_SIZE(r->good)) {
		req_good_flush(f);
		i = 0;
	}
	if (i == r->ngood) {
		r->good[i].ev = pkt->ev;
		r->good[i].sent_ns = pkt->sent_ns;
		r->ngood++;
	} else {
		r->good[i].sent_ns = max(r->good[i].sent_ns, pkt->sent_ns);
	}
}

/* uet_req_rto_ns() */
static u64 req_rto_ns(const struct flow *f, u32 backoff)
{
	return uet_pdc_rto_ns(&f->req.tx, req_rto_min_ns(f),
			      (u64)REQ_RTO_MAX_US * NSEC_PER_USEC, backoff,
			      REQ_RTO_LINEAR);
}

/* uet_req_arm_rto(): a lazy deadline, not moved by every packet sent;
 * restart moves it, after an expiry or when progress reset the backoff.
 */
static void req_arm_rto(struct flow *f, bool restart)
{
	struct req *r = &f->req;

	if (!restart && timer_queued(&r->rto_timer))
		return;
	timer_start(&r->rto_timer, flow_now(f) + req_rto_ns(f, r->backoff));
}

/* uet_req_cc_loss(): congestion control pays for what no failed path
 * explains.
 */
static void req_cc_loss(struct flow *f, u32 marked, u32 path_losses0,
			bool timeout)
{
	u32 failed = f->req.tx.path_losses - path_losses0;

	if (marked > failed && f->cc.ops->on_loss)
		f->cc.ops->on_loss(&f->cc, flow_now(f),
				   (marked - failed) * f->cc.mtu, timeout);
}

/* uet_req_detect_loss(): the SACK rule, and its timer for the next hole
 * to ripen, started only if none is queued (uet_qp_timer_once()).
 */
static void req_detect_loss(struct flow *f)
{
	struct uet_pdc_tx *tx = &f->req.tx;
	u32 path_losses = tx->path_losses, marked;
	u64 now = flow_now(f), when;

	marked = uet_pdc_tx_detect_loss(tx, now, REQ_DUPTHRESH);
	f->lost += marked;
	req_cc_loss(f, marked, path_losses, false);
	when = uet_pdc_tx_loss_deadline(tx, REQ_DUPTHRESH);
	if (when && !timer_queued(&f->req.reo_timer))
		timer_start(&f->req.reo_timer, max(when, now));
}

/* A pass of the QP's engine for its sender (uet_req_run()): the SACK
 * rule, then what the windows let go (the NIC takes it when free), then
 * the retransmit timer.
 */
static void req_pass(struct flow *f)
{
	if (f->done)
		return;
	req_detect_loss(f);
	port_kick(req_nic(f));
	if (uet_pdc_tx_inflight(&f->req.tx))
		req_arm_rto(f, false);
}

/* uet_req_rto(): an expiry that finds nothing due waits for what is;
 * else what is an RTO old is lost, one packet of it goes at once.
 */
static void req_rto(struct flow *f)
{
	struct req *r = &f->req;
	u64 now = flow_now(f), rto = req_rto_ns(f, r->backoff), due;
	u32 marked, path_losses = r->tx.path_losses;

	if (!uet_pdc_tx_inflight(&r->tx))
		return;
	due = uet_pdc_tx_rto_due(&r->tx, rto);
	if (due > now) {
		timer_start(&r->rto_timer, due);
		return;
	}
	f->timeouts++;
	r->backoff++;
	marked = uet_pdc_tx_timeout(&r->tx, now, rto);
	f->lost += marked;
	req_cc_loss(f, marked, path_losses, true);
	req_arm_rto(f, true);
}

static void req_rto_fire(void *arg)
{
	struct flow *f = arg;

	if (f->done)
		return;
	req_rto(f);
	req_pass(f);
}

static void req_reo_fire(void *arg)
{
	req_pass(arg);
}

/* Every packet acknowledged: the WQE completes, the flow is done. */
static void req_complete(struct flow *f)
{
	struct sim *s = f->sim;

	f->done = true;
	f->done_ns = flow_now(f);
	timer_cancel(&f->req.rto_timer);
	timer_cancel(&f->req.reo_timer);
	if (++s->flows_done == s->nflows)
		evq_stop(&s->evq);
}

void req_init(struct flow *f)
{
	struct req *r = &f->req;

	if (uet_pdc_tx_init(&r->tx, f->sim->p->mpr, 0)) {
		fputs("uet-sim: the PDC refused the window\n", stderr);
		exit(2);
	}
	r->tx.path_failed = req_path_failed;
	r->tx.path_arg = f;
	timer_init(&r->rto_timer, &f->sim->evq, req_rto_fire, f);
	timer_init(&r->reo_timer, &f->sim->evq, req_reo_fire, f);
}

/* A packet's cookie is its flow: nothing to free with it. */
static void req_release(void *arg, u32 psn, void *cookie)
{
}

void req_free(struct flow *f)
{
	uet_pdc_tx_free(&f->req.tx, req_release, f);
}

/* uet_req_wnd_pkts(): the MPR window, and congestion control's. */
static u32 req_wnd_pkts(const struct flow *f)
{
	u32 w = f->req.tx.win;

	if (f->cc.ops->wnd)
		w = min_t(u64, w, f->cc.ops->wnd(&f->cc) / f->cc.mtu);
	return w;
}

/* A new packet's entropy value: a spraying balancer's per flowcell
 * (uet_lb_flowlet(), the module's trains), the others' per packet.
 */
static u16 req_next_ev(struct flow *f)
{
	u32 fixed = f->sim->p->flowlet_pkts;
	struct req *r = &f->req;

	if (!f->lb.ops->sprays)
		return uet_lb_next(&f->lb, flow_now(f));
	if (!r->cell_left) {
		r->cell_left = uet_lb_flowlet(&f->lb, fixed,
					      fixed ? 0 : req_wnd_pkts(f));
		r->cell_ev = uet_lb_next(&f->lb, flow_now(f));
	}
	r->cell_left--;
	return r->cell_ev;
}

/* uet_req_may_send() for a new packet, less congestion control. */
bool req_next(struct flow *f, u32 *psn, bool *retx, u32 *bytes)
{
	struct uet_pdc_tx *tx = &f->req.tx;

	if (f->done)
		return false;
	if (uet_pdc_tx_next_lost(tx, psn)) {
		*retx = true;
		*bytes = uet_pdc_tx_pkt(tx, *psn)->bytes;
		return true;
	}
	if (tx->nxt == f->npkts || !uet_pdc_tx_window_open(tx))
		return false;
	*psn = tx->nxt;
	*retx = false;
	*bytes = f->cc.mtu;
	return true;
}

/* The new packet psn, just recorded, asks for an ACK at once if it ends
 * the message (signaled: its completion is awaited) or a burst that only
 * an ACK lets go on: the MPR window or congestion control's is full
 * (uet_req_send_new()'s need_ack, uet_req_cc_ok()). Pacing ends a burst
 * without one.
 */
static bool req_ackreq(struct flow *f, u32 psn)
{
	const struct uet_pdc_tx *tx = &f->req.tx;

	if (psn + 1 == f->npkts)
		return true;
	return !uet_pdc_tx_window_open(tx) ||
	       f->cc.ops->send_at(&f->cc, flow_now(f), uet_pdc_tx_pipe(tx),
				  f->cc.mtu) == U64_MAX;
}

/* uet_req_resend()'s for one lost packet: its path hears of the loss
 * before the copy picks a value; the oldest hole takes the freshest
 * evidence, however old.
 */
static struct uet_pdc_pkt *req_resend(struct flow *f, u32 psn)
{
	struct uet_pdc_tx *tx = &f->req.tx;
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);
	enum uet_ev_sig sig = UET_EV_SIG_LOSS;
	u64 lost_sent = pkt->sent_ns;

	if (pkt->flags & UET_PDC_TRIMMED)
		sig = UET_EV_SIG_TRIM;
	else if (pkt->flags & UET_PDC_RTO)
		sig = UET_EV_SIG_TIMEOUT;
	req_path_signal(f, pkt->ev, sig, lost_sent);
	uet_pdc_tx_resent(tx, psn, flow_now(f));
	pkt->ev = uet_lb_next_retx(&f->lb, pkt->sent_ns,
				   psn == tx->una ? 0 : lost_sent);
	f->retx++;
	return pkt;
}

/* uet_req_push() and uet_req_xmit_psn() for a new packet. */
static struct uet_pdc_pkt *req_push(struct flow *f, u32 psn, u8 *flags)
{
	struct uet_pdc_tx *tx = &f->req.tx;
	struct uet_pdc_pkt *pkt;

	if (uet_pdc_tx_reserve(tx, GFP_KERNEL_ACCOUNT))
		sim_nomem("PDC ring");
	uet_pdc_tx_push(tx, f, flow_pkt_bytes(f, psn), flow_now(f));
	if (req_ackreq(f, psn))
		*flags |= UET_PDS_REQ_F_ACKREQ;
	pkt = uet_pdc_tx_pkt(tx, psn);
	pkt->ev = req_next_ev(f);
	return pkt;
}

struct pkt *req_send(struct flow *f, u32 psn, bool retx)
{
	struct sim *s = f->sim;
	u8 flags = retx ? UET_PDS_REQ_F_RETX | UET_PDS_REQ_F_ACKREQ : 0;
	struct uet_pdc_pkt *p = retx ? req_resend(f, psn) :
				       req_push(f, psn, &flags);
	struct pkt *pkt;

	uet_ev_sent(f->evt, p->ev);
	if (f->cc.ops->on_send)
		f->cc.ops->on_send(&f->cc, p->sent_ns, p->bytes, retx);
	req_arm_rto(f, false);

	pkt = pkt_new(&s->pool);
	*pkt = (struct pkt){
		.kind = PKT_DATA,
		.bytes = p->bytes,
		.src = f->src,
		.dst = f->dst,
		.flow = f->id,
		.psn = psn,
		.ev = p->ev,
		.flags = flags,
	};
	return pkt;
}

/* uet_req_ack_rtt(): the network's part of the RTT of the packet that
 * triggered the ACK, if sent once and not acknowledged before.
 */
static u64 req_ack_rtt(const struct uet_pdc_tx *tx, u32 psn, u64 arrived,
		       u64 service_ns)
{
	const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);
	u64 rtt;

	if (!uet_psn_in_window(psn, tx->una, uet_pdc_tx_inflight(tx)) ||
	    (pkt->flags & UET_PDC_ACKED) || pkt->nxmit != 1 ||
	    arrived < pkt->sent_ns)
		return 0;
	rtt = arrived - pkt->sent_ns;
	return rtt > service_ns ? rtt - service_ns : 0;
}

/* uet_req_rcv_ack() */
void req_rcv_ack(struct flow *f, const struct pkt *pkt)
{
	const struct uet_pds_ack *ack = &pkt->ack;
	struct req *r = &f->req;
	struct uet_pdc_tx *tx = &r->tx;
	struct uet_cc_ack cca = {};
	u64 now = flow_now(f), inflight, service_ns;
	u32 psn;
	int newly;

	if (f->done)
		return;
	psn = ack->cack_psn + ack->ack_psn_offset;
	if (uet_psn_after(ack->cack_psn + 1, tx->nxt) ||
	    !uet_psn_before(psn, tx->nxt))
		return;
	uet_pdc_tx_rtt_sample(tx, psn, now, !ack->ack_psn_offset);
	if (ack->flags & UET_PDS_ACK_F_DUP)
		uet_pdc_tx_dup_seen(tx, now);
	r->ack_ecn = ack->flags & UET_PDS_ACK_F_ECN;
	r->ack_psn = psn;
	inflight = tx->inflight_bytes;
	service_ns = (u64)uet_nscc_state_service_us(ack->cc_state) *
		     NSEC_PER_USEC;
	cca.rcv_cwnd_pend = uet_nscc_state_pend(ack->cc_state);
	cca.rtt_ns = req_ack_rtt(tx, psn, now, service_ns);
	/* The mark is news only of a packet still tracked. */
	if (r->ack_ecn &&
	    !uet_psn_in_window(psn, tx->una, uet_pdc_tx_inflight(tx)))
		r->ack_ecn = false;
	if (r->ack_ecn) {
		const struct uet_pdc_pkt *p = uet_pdc_tx_pkt(tx, psn);
		u16 ev = ack->ccx_flags & UET_ACKX_F_ENTROPY ? ack->entropy :
							       p->ev;

		f->ecn_acks++;
		req_path_signal(f, ev, UET_EV_SIG_ECN, p->sent_ns);
	}
	newly = uet_pdc_tx_ack(tx, ack->cack_psn,
			       ack->cack_psn + ack->sack_psn_offset,
			       ack->sack_bitmap, req_acked_pkt, f);
	req_good_flush(f);
	uet_pdc_tx_shrink(tx, GFP_KERNEL_ACCOUNT);
	if (tx->nlate && f->cc.ops->on_late)
		f->cc.ops->on_late(&f->cc, now, tx->nlate * f->cc.mtu);
	tx->nlate = 0;
	/* Progress: the timeout is back to its base. */
	if (newly > 0 && r->backoff) {
		r->backoff = 0;
		if (uet_pdc_tx_inflight(tx))
			req_arm_rto(f, true);
	}
	if (newly > 0 || r->ack_ecn) {
		cca.now = now;
		cca.acked_bytes = inflight - tx->inflight_bytes;
		cca.inflight_bytes = uet_pdc_tx_pipe(tx);
		cca.srtt_ns = tx->srtt_ns;
		cca.ecn = r->ack_ecn;
		cca.entropy = ack->ccx_flags & UET_ACKX_F_ENTROPY ?
			      ack->entropy : 0;
		uet_cc_ack(&f->cc, &cca);
	}
	if (tx->una == f->npkts) {
		req_complete(f);
		return;
	}
	req_pass(f);
}

/* uet_req_cc_nack() */
static void req_cc_nack(struct flow *f, u32 psn, bool trimmed)
{
	const struct uet_pdc_tx *tx = &f->req.tx;

	if (f->cc.ops->on_nack)
		f->cc.ops->on_nack(&f->cc, flow_now(f),
				   uet_pdc_tx_pkt(tx, psn)->bytes, trimmed,
				   uet_pdc_tx_pipe(tx));
}

/* uet_req_rcv_nack(), for the codes the responder sends here. */
void req_rcv_nack(struct flow *f, const struct pkt *pkt)
{
	const struct uet_pds_nack *nack = &pkt->nack;
	struct uet_pdc_tx *tx = &f->req.tx;

	f->nacks++;
	if (f->done)
		return;
	switch (nack->code) {
	case UET_NACK_PKT_NOT_RCVD:
		if (uet_pdc_tx_nack_hole(tx, nack->psn, flow_now(f))) {
			f->lost++;
			req_cc_nack(f, nack->psn, false);
		}
		break;
	case UET_NACK_TRIMMED:
		if (uet_pdc_tx_nack(tx, nack->psn, true))
			req_cc_nack(f, nack->psn, true);
		break;
	default:
		break;
	}
	req_pass(f);
}

/* uet_req_rcv_ctl(): DCQCN's congestion notification. */
void req_rcv_cnp(struct flow *f)
{
	f->cnps++;
	if (f->done)
		return;
	if (f->cc.ops->on_cnp)
		f->cc.ops->on_cnp(&f->cc, flow_now(f));
	req_pass(f);
}
