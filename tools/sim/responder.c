// SPDX-License-Identifier: GPL-2.0
/*
 * A flow's receiver (responder.h), as net/uet/resp.c and ctl.c run the
 * PDC's receive side; each function names the one of the module it
 * mirrors. A pass of the module's engine per packet: the receive
 * softirq runs one as each arrives.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "host.h"
#include "meter.h"
#include "responder.h"

/* Values uet_qp_ctl_entropy() tries before it takes one not usable. */
#define RESP_CTL_TRIES		4

/* uet_qp_ctl_entropy(): the next of the peer's values that looks
 * usable, so control packets spread over every path and a dead one
 * costs only the few that took it.
 */
static u16 resp_ctl_entropy(struct flow *f)
{
	const struct uet_ev_table *t = f->resp.evt;
	int tries;
	u16 ev = 0;

	for (tries = 0; tries < RESP_CTL_TRIES; tries++) {
		ev = t->base + f->resp.ctl_seq++ % t->count;
		if (uet_ev_usable(t, ev, flow_now(f)))
			break;
	}
	return ev;
}

/* A control packet of @kind back to the sender, in the priority band. */
static struct pkt *resp_ctl(struct flow *f, enum pkt_kind kind)
{
	struct pkt *pkt = pkt_new(&f->sim->pool);

	pkt->kind = kind;
	pkt->bytes = PKT_CTL_BYTES;
	pkt->src = f->dst;
	pkt->dst = f->src;
	pkt->flow = f->id;
	pkt->ev = resp_ctl_entropy(f);
	return pkt;
}

static void resp_xmit(struct flow *f, struct pkt *pkt)
{
	port_enqueue(&f->sim->topo.nic[f->dst], pkt);
}

/* uet_qp_send_nack() */
static void resp_send_nack(struct flow *f, u32 psn, u8 code, u32 payload)
{
	struct pkt *pkt = resp_ctl(f, PKT_NACK);

	pkt->nack.code = code;
	pkt->nack.psn = psn;
	pkt->nack.payload = payload;
	resp_xmit(f, pkt);
}

/* uet_qp_send_cnp() */
static void resp_send_cnp(struct flow *f, u32 psn)
{
	struct pkt *pkt = resp_ctl(f, PKT_CNP);

	pkt->psn = psn;
	resp_xmit(f, pkt);
}

/* uet_qp_send_ack(): the cumulative PSN and the bitmap around the packet
 * that triggered it, how long that packet waited here (NSCC's service
 * time, in whole microseconds), and two copies after a retransmission
 * arrived, the sender maybe waiting on it.
 */
static void resp_send_ack(struct flow *f, u64 now)
{
	struct resp *r = &f->resp;
	struct uet_pds_ack ack = {};
	int copies;
	u64 service_us;
	u32 base;
	s32 off;

	uet_pdc_rx_sack(&r->rx, r->ack_psn, &ack.cack_psn, &base,
			&ack.sack_bitmap);
	off = r->ack_psn - ack.cack_psn;
	ack.ack_psn_offset = clamp_t(s32, off, S16_MIN, S16_MAX);
	ack.sack_psn_offset = base - ack.cack_psn;
	ack.mpr = min_t(u32, r->rx.win, U8_MAX);
	if (r->ack_ecn)
		ack.flags |= UET_PDS_ACK_F_ECN;
	if (r->ack_dup)
		ack.flags |= UET_PDS_ACK_F_DUP;
	ack.ccx = true;
	ack.ccx_flags = UET_ACKX_F_ENTROPY;
	ack.entropy = r->ack_ev;
	service_us = now > r->ack_rx_ns ? (now - r->ack_rx_ns) / NSEC_PER_USEC :
		     0;
	ack.cc_type = UET_ACK_CC_NSCC;
	ack.cc_state = uet_nscc_state_pack(min_t(u64, service_us, U16_MAX));

	copies = r->ack_retx ? 2 : 1;
	r->ack_pending = 0;
	r->ack_now = false;
	r->ack_ecn = false;
	r->ack_dup = false;
	r->ack_retx = false;
	while (copies--) {
		struct pkt *pkt = resp_ctl(f, PKT_ACK);

		pkt->ack = ack;
		resp_xmit(f, pkt);
		f->acks++;
		/* One mark, one congestion signal. */
		ack.flags &= ~UET_PDS_ACK_F_ECN;
	}
}

/* uet_resp_ack(): the coalesced ACK when due, else its timer, a lazy
 * backstop: started only when none is queued, never cancelled.
 */
static void resp_ack(struct flow *f, u64 now)
{
	struct resp *r = &f->resp;

	if (!r->ack_now && !r->ack_pending)
		return;
	if (!r->ack_now && r->ack_pending < RESP_ACK_EVERY) {
		if (timer_queued(&r->ack_timer))
			return;
		if (now < r->ack_deadline_ns) {
			timer_start(&r->ack_timer, r->ack_deadline_ns);
			return;
		}
	}
	resp_send_ack(f, now);
}

static void resp_ack_fire(void *arg)
{
	struct flow *f = arg;

	resp_ack(f, flow_now(f));
}

/* uet_resp_check_hole(): a hole that packets keep overtaking for longer
 * than reordering explains is reported at once, once.
 */
static void resp_check_hole(struct flow *f, u64 now)
{
	struct resp *r = &f->resp;

	if (!uet_pdc_rx_has_hole(&r->rx))
		return;
	if (r->rx.next != r->hole_psn || !r->hole_since_ns) {
		r->hole_psn = r->rx.next;
		r->hole_since_ns = now;
		r->hole_nacked = false;
		return;
	}
	if (r->hole_nacked ||
	    r->rx.high - r->rx.next < RESP_NACK_REORDER_PKTS ||
	    now - r->hole_since_ns < (u64)RESP_NACK_REORDER_US * NSEC_PER_USEC)
		return;
	r->hole_nacked = true;
	f->hole_nacks++;
	resp_send_nack(f, r->hole_psn, UET_NACK_PKT_NOT_RCVD, 0);
}

/* uet_resp_ack_hold(): a new packet's ACK waits as uet_pdc_ack_hold()
 * says, at most ack_delay_us and a quarter of rto_min_us.
 */
static void resp_ack_hold(struct flow *f, u64 t)
{
	struct resp *r = &f->resp;
	u64 cap = min_t(u64, (u64)RESP_ACK_DELAY_US * NSEC_PER_USEC,
			(u64)f->sim->p->rto_min_us * NSEC_PER_USEC / 4);
	u64 hold = uet_pdc_ack_hold(&r->hold, t, cap, RESP_ACK_EVERY);

	if (!r->ack_pending++)
		r->ack_deadline_ns = t + hold;
}

/* uet_resp_ack_trigger() */
static void resp_ack_trigger(struct resp *r, const struct pkt *pkt, u64 t)
{
	r->ack_psn = pkt->psn;
	r->ack_ev = pkt->ev;
	r->ack_rx_ns = t;
}

/* uet_resp_data(), for a flow's WRITE. */
static void resp_data(struct flow *f, const struct pkt *pkt, u64 now)
{
	struct resp *r = &f->resp;
	struct sim *s = f->sim;

	if (pkt->flags & UET_PDS_REQ_F_RETX)
		r->ack_retx = true;
	if (pkt->ce) {
		r->ack_ecn = true;
		if (f->rx_cc.ops->on_ce && f->rx_cc.ops->on_ce(&f->rx_cc, now))
			resp_send_cnp(f, pkt->psn);
	}
	/* A switch cut the payload: ask for exactly this PSN again, now. */
	if (pkt->trimmed) {
		resp_send_nack(f, pkt->psn, UET_NACK_TRIMMED, pkt->ev);
		return;
	}
	switch (uet_pdc_rx_check(&r->rx, pkt->psn)) {
	case UET_PDC_DUP:
		f->dups++;
		resp_ack_trigger(r, pkt, now);
		r->ack_now = true;
		r->ack_dup = true;
		return;
	case UET_PDC_OUT_OF_WINDOW:
		return;
	case UET_PDC_NEW:
		break;
	}
	f->rcvd_bytes += pkt->bytes;
	if (s->meter)
		meter_add(s->meter, f->id, now, pkt->bytes);
	if (pkt->psn != r->rx.next)
		r->ack_now = true;
	uet_pdc_rx_commit(&r->rx, pkt->psn);
	resp_check_hole(f, now);
	resp_ack_hold(f, now);
	resp_ack_trigger(r, pkt, now);
	if (pkt->flags & UET_PDS_REQ_F_ACKREQ)
		r->ack_now = true;
	/* The ACK tells which path marked the packet only while it is the
	 * newest the ACK covers.
	 */
	if (r->ack_ecn)
		resp_send_ack(f, now);
}

void resp_rcv(struct flow *f, const struct pkt *pkt)
{
	u64 now = flow_now(f);

	resp_data(f, pkt, now);
	resp_ack(f, now);
}

void resp_init(struct flow *f)
{
	struct resp *r = &f->resp;

	/* Whatever window a peer with any mpr setting may use (qp.c). */
	if (uet_pdc_rx_init(&r->rx, UET_PDC_WIN_MAX, 0)) {
		perror("uet-sim: PDC receiver");
		exit(2);
	}
	timer_init(&r->ack_timer, &f->sim->evq, resp_ack_fire, f);
}

void resp_start(struct flow *f, struct flow *back)
{
	struct resp *r = &f->resp;

	r->own_evt = !back;
	r->evt = back ? back->evt : host_peer_values(f->sim, f->dst, f->src);
}

void resp_free(struct flow *f)
{
	uet_pdc_rx_free(&f->resp.rx);
	if (f->resp.own_evt)
		uet_ev_table_free(f->resp.evt);
}
