// SPDX-License-Identifier: GPL-2.0
/*
 * A flow's receiver (responder.h), as net/uet/resp.c and ctl.c run the
 * PDC's receive side and the ACK policy of net/uet/ack.c; each function
 * names the one of the module whose calls it makes. A pass of the
 * module's engine per packet: the receive softirq runs one as each
 * arrives.
 */

#include "alloc.h"
#include "host.h"
#include "meter.h"
#include "responder.h"

/* uet_qp_ctl_entropy() */
static u16 resp_ctl_entropy(struct flow *f)
{
	return uet_ack_ctl_entropy(f->resp.evt, &f->resp.ctl_seq, flow_now(f));
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

/* uet_qp_send_ack(): the ACK uet_ack_fill() makes, in as many copies. */
static void resp_send_ack(struct flow *f, u64 now)
{
	struct uet_pds_ack ack = {};
	u32 copies = uet_ack_fill(&f->resp.ack, &f->resp.rx, now, &ack);

	while (copies--) {
		struct pkt *pkt = resp_ctl(f, PKT_ACK);

		pkt->ack = ack;
		resp_xmit(f, pkt);
		f->acks++;
		uet_ack_next_copy(&ack);
	}
}

/* uet_resp_ack(): the coalesced ACK when due, else its timer, as
 * uet_ack_due() says.
 */
static void resp_ack(struct flow *f, u64 now)
{
	struct resp *r = &f->resp;

	switch (uet_ack_due(&r->ack, now, RESP_ACK_EVERY,
			    timer_queued(&r->ack_timer))) {
	case UET_ACK_NONE:
		break;
	case UET_ACK_ARM:
		timer_start(&r->ack_timer, r->ack.deadline_ns);
		break;
	case UET_ACK_SEND:
		resp_send_ack(f, now);
		break;
	}
}

static void resp_ack_fire(void *arg)
{
	struct flow *f = arg;

	resp_ack(f, flow_now(f));
}

/* uet_resp_check_hole(): the NACK of a hole uet_ack_hole() asks for. */
static void resp_check_hole(struct flow *f, u64 now)
{
	struct resp *r = &f->resp;

	if (!uet_ack_hole(&r->ack, &r->rx, now, RESP_NACK_REORDER_PKTS,
			  RESP_NACK_REORDER_US))
		return;
	f->hole_nacks++;
	resp_send_nack(f, r->ack.hole_psn, UET_NACK_PKT_NOT_RCVD, 0);
}

/* uet_resp_data(), for a flow's WRITE. */
static void resp_data(struct flow *f, const struct pkt *pkt, u64 now)
{
	struct uet_ack_pkt ap = { .t = now, .psn = pkt->psn, .ev = pkt->ev };
	struct resp *r = &f->resp;
	struct sim *s = f->sim;

	uet_ack_arrived(&r->ack, pkt->flags & UET_PDS_REQ_F_RETX, pkt->ce);
	if (pkt->ce && f->rx_cc.ops->on_ce && f->rx_cc.ops->on_ce(&f->rx_cc, now))
		resp_send_cnp(f, pkt->psn);
	/* A switch cut the payload: ask for exactly this PSN again, now. */
	if (pkt->trimmed) {
		resp_send_nack(f, pkt->psn, UET_NACK_TRIMMED, pkt->ev);
		return;
	}
	switch (uet_pdc_rx_check(&r->rx, pkt->psn)) {
	case UET_PDC_DUP:
		f->dups++;
		uet_ack_dup(&r->ack, &ap);
		return;
	case UET_PDC_OUT_OF_WINDOW:
		return;
	case UET_PDC_NEW:
		break;
	}
	f->rcvd_bytes += pkt->bytes;
	if (s->meter)
		meter_add(s->meter, f->id, now, pkt->bytes);
	ap.in_order = pkt->psn == r->rx.next;
	uet_pdc_rx_commit(&r->rx, pkt->psn);
	resp_check_hole(f, now);
	ap.ackreq = pkt->flags & UET_PDS_REQ_F_ACKREQ;
	if (uet_ack_new(&r->ack, &ap, RESP_ACK_EVERY, RESP_ACK_DELAY_US,
			s->p->rto_min_us))
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
	if (uet_pdc_rx_init(&r->rx, UET_PDC_WIN_MAX, 0))
		sim_nomem("PDC receiver");
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
