// SPDX-License-Identifier: GPL-2.0
/*
 * Hosts and flows (host.h): the order of the calls into the module's
 * congestion control, load balancer and entropy-value states is the
 * transport's (net/uet/req.c): a lost packet's path hears of the loss
 * when the packet is sent again, before the copy picks its value;
 * congestion control hears of it when it is declared, unless the path
 * failed; an ACK's mark reaches the path states before its delivery,
 * and both before congestion control.
 */
#include <stdio.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "hash.h"
#include "host.h"
#include "meter.h"
#include "probe.h"

/* The retransmission timer's ceiling: the module's default rto_max_us
 * (net/uet/params.c).
 */
#define FLOW_RTO_MAX_NS		(2ULL * NSEC_PER_SEC)

enum flow_psn_state {
	PSN_OUT,		/* sent, neither acked nor lost (or unsent) */
	PSN_LOST,		/* to be sent again */
	PSN_ACKED,
};

static void *host_calloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p) {
		perror("uet-sim: hosts");
		exit(2);
	}
	return p;
}

static u64 flow_now(const struct flow *f)
{
	return f->sim->evq.now;
}

static u32 flow_pkt_bytes(const struct flow *f, u32 psn)
{
	u32 mtu = f->sim->p->mtu;

	return psn + 1 < f->npkts ? mtu : f->bytes - (u64)psn * mtu;
}

static u64 flow_rto_min(const struct flow *f)
{
	return (u64)f->sim->p->rto_min_us * NSEC_PER_USEC;
}

/* RFC 6298's RTO, doubled per expiry without progress. */
static u64 flow_rto(const struct flow *f)
{
	u64 rto = max(flow_rto_min(f), f->srtt + 4 * f->rttvar);

	return min(rto << min(f->backoff, 16U), FLOW_RTO_MAX_NS);
}

static void flow_rtt_sample(struct flow *f, u64 rtt)
{
	u64 d;

	if (!f->srtt) {
		f->srtt = rtt;
		f->rttvar = rtt / 2;
		return;
	}
	d = f->srtt > rtt ? f->srtt - rtt : rtt - f->srtt;
	f->rttvar = f->rttvar - f->rttvar / 4 + d / 4;
	f->srtt = f->srtt - f->srtt / 8 + rtt / 8;
}

/* What became of a packet sent on @ev at @sent_ns: for the peer's path
 * states, held aside for an RTT (UE 1.0 section 3.6.16), whose prober
 * starts when a value looks dead (the module's uet_peer_signal()), and
 * the load balancer.
 */
static void flow_path_signal(struct flow *f, u16 ev, enum uet_ev_sig sig,
			     u64 sent_ns)
{
	u64 hold = f->srtt ?: flow_rto_min(f);

	uet_ev_signal(f->evt, ev, sig, flow_now(f), sent_ns, hold);
	probe_arm(f);
	uet_lb_feedback(&f->lb, ev, sig, flow_now(f));
}

static void flow_rto_fire(void *a, void *b);

/* Starts the timer, or restarts it (on progress, RFC 6298 5.3). Its one
 * pending event is brought forward when the deadline moves earlier and
 * chases a later one when it fires.
 */
static void flow_arm_rto(struct flow *f, bool restart)
{
	if (f->rto_at && !restart)
		return;
	f->rto_at = flow_now(f) + flow_rto(f);
	if (!f->rto_ev || f->rto_ev > f->rto_at) {
		f->rto_ev = f->rto_at;
		evq_at(&f->sim->evq, f->rto_at, flow_rto_fire, f, NULL);
	}
}

static void flow_rq_push(struct flow *f, u32 psn)
{
	f->rq[(f->rq_head + f->rq_len++) % f->npkts] = psn;
}

/* Transmission @t is lost: its bytes leave the pipe; returns them when
 * congestion control is to pay for them, 0 when the path failed.
 */
static u32 flow_declare_lost(struct flow *f, struct flow_tx *t, bool rto)
{
	u32 bytes = flow_pkt_bytes(f, t->psn);

	t->state = rto ? TX_LOST_RTO : TX_LOST;
	f->pstate[t->psn] = PSN_LOST;
	flow_rq_push(f, t->psn);
	f->inflight -= bytes;
	f->lost++;
	if (!uet_ev_failed(f->evt, t->ev, t->sent_ns))
		return bytes;
	f->path_losses++;
	return 0;
}

static void flow_tx_advance(struct flow *f)
{
	while (f->tx_una < f->ntx && f->tx[f->tx_una].state != TX_OUT)
		f->tx_una++;
}

/* How long a hole may stay open before it is a loss: the smoothed RTT
 * plus twice its variation, at least a quarter of it on top (RACK's
 * reordering window, RFC 8985; the fixed part of the module's
 * uet_pdc_reo_ns()). Spraying reorders packets over queues of unequal
 * depth; the count of later deliveries alone would resend many.
 */
static u64 flow_reo_ns(const struct flow *f)
{
	return f->srtt + max(2 * f->rttvar, f->srtt / 4);
}

static void flow_loss_fire(void *a, void *b);

/* RFC 6675's IsLost() on transmissions, FLOW_DUPTHRESH acknowledged after
 * it, once it is out longer than the reordering window; the earliest
 * hole not yet that old is judged again when it is, ACKs or not.
 */
static void flow_detect_losses(struct flow *f)
{
	u64 now = flow_now(f), reo = flow_reo_ns(f), due = U64_MAX;
	u32 i, later = 0;
	u64 bytes = 0;

	for (i = f->ntx; i-- > f->tx_una;) {
		struct flow_tx *t = &f->tx[i];

		if (t->state == TX_ACKED) {
			later++;
		} else if (t->state == TX_OUT && later >= FLOW_DUPTHRESH) {
			if (now - t->sent_ns >= reo)
				bytes += flow_declare_lost(f, t, false);
			else
				due = min(due, t->sent_ns + reo);
		}
	}
	if (bytes && f->cc.ops->on_loss)
		f->cc.ops->on_loss(&f->cc, now, bytes, false);
	flow_tx_advance(f);
	if (due != U64_MAX && (!f->loss_ev || f->loss_ev > due)) {
		f->loss_ev = due;
		evq_at(&f->sim->evq, due, flow_loss_fire, f, NULL);
	}
}

static void flow_loss_fire(void *a, void *b)
{
	struct flow *f = a;

	if (flow_now(f) != f->loss_ev)
		return;
	f->loss_ev = 0;
	if (f->done)
		return;
	flow_detect_losses(f);
	port_kick(&f->sim->topo.nic[f->src]);
}

/* The timer expired: what left an RTO ago or earlier is lost. */
static void flow_timeout(struct flow *f)
{
	u64 now = flow_now(f), rto = flow_rto(f), bytes = 0;
	u32 i, n = 0;

	for (i = f->tx_una; i < f->ntx; i++) {
		struct flow_tx *t = &f->tx[i];

		if (t->state == TX_OUT && t->sent_ns + rto <= now) {
			bytes += flow_declare_lost(f, t, true);
			n++;
		}
	}
	if (n) {
		f->timeouts++;
		if (bytes && f->cc.ops->on_loss)
			f->cc.ops->on_loss(&f->cc, now, bytes, true);
		f->backoff++;
		flow_tx_advance(f);
		port_kick(&f->sim->topo.nic[f->src]);
	}
	/* The resends start it again; packets still out, an RTO from now. */
	f->rto_at = 0;
	if (f->inflight)
		flow_arm_rto(f, false);
}

static void flow_rto_fire(void *a, void *b)
{
	struct flow *f = a;
	u64 now = flow_now(f);

	if (now != f->rto_ev)
		return;
	f->rto_ev = 0;
	if (f->done || !f->rto_at)
		return;
	if (now < f->rto_at) {
		f->rto_ev = f->rto_at;
		evq_at(&f->sim->evq, f->rto_at, flow_rto_fire, f, NULL);
		return;
	}
	flow_timeout(f);
}

/* The next packet to send, a lost one first: false if none may go. */
static bool flow_next(struct flow *f, u32 *psn, bool *retx)
{
	while (f->rq_len) {
		*psn = f->rq[f->rq_head];
		*retx = true;
		if (f->pstate[*psn] == PSN_LOST)
			return true;
		f->rq_head = (f->rq_head + 1) % f->npkts;
		f->rq_len--;
	}
	*psn = f->next_psn;
	*retx = false;
	return f->next_psn < f->npkts && f->next_psn - f->una < f->sim->p->mpr;
}

/* Packets the windows let be in flight (the module's uet_req_wnd_pkts()). */
static u32 flow_wnd_pkts(const struct flow *f)
{
	u32 w = f->sim->p->mpr;

	if (f->cc.ops->wnd)
		w = min_t(u64, w, f->cc.ops->wnd(&f->cc) / f->cc.mtu);
	return w;
}

/* A new packet's entropy value: a spraying balancer's per flowcell
 * (uet_lb_flowlet()), the others' per packet.
 */
static u16 flow_next_ev(struct flow *f)
{
	u32 fixed = f->sim->p->flowlet_pkts;

	if (!f->lb.ops->sprays)
		return uet_lb_next(&f->lb, flow_now(f));
	if (!f->cell_left) {
		f->cell_left = uet_lb_flowlet(&f->lb, fixed,
					      fixed ? 0 : flow_wnd_pkts(f));
		f->cell_ev = uet_lb_next(&f->lb, flow_now(f));
	}
	f->cell_left--;
	return f->cell_ev;
}

static struct pkt *flow_send(struct flow *f, u32 psn, bool retx)
{
	struct sim *s = f->sim;
	u32 bytes = flow_pkt_bytes(f, psn);
	u64 now = flow_now(f);
	struct pkt *pkt;
	u16 ev;

	if (retx) {
		const struct flow_tx *lost = &f->tx[f->ptx[psn]];
		enum uet_ev_sig sig = UET_EV_SIG_LOSS;

		if (lost->state == TX_LOST_RTO)
			sig = UET_EV_SIG_TIMEOUT;
		else if (lost->state == TX_TRIMMED)
			sig = UET_EV_SIG_TRIM;
		f->rq_head = (f->rq_head + 1) % f->npkts;
		f->rq_len--;
		flow_path_signal(f, lost->ev, sig, lost->sent_ns);
		/* The oldest hole takes the freshest evidence, however old. */
		ev = uet_lb_next_retx(&f->lb, now,
				      psn == f->una ? 0 : lost->sent_ns);
		f->retx++;
	} else {
		ev = flow_next_ev(f);
		f->next_psn++;
	}
	uet_ev_sent(f->evt, ev);
	if (f->cc.ops->on_send)
		f->cc.ops->on_send(&f->cc, now, bytes, retx);

	if (f->ntx == f->txcap) {
		f->txcap = f->txcap ? 2 * f->txcap : 2 * f->npkts;
		f->tx = realloc(f->tx, f->txcap * sizeof(*f->tx));
		if (!f->tx) {
			perror("uet-sim: transmissions");
			exit(2);
		}
	}
	f->tx[f->ntx] = (struct flow_tx){ now, psn, ev, TX_OUT };
	f->ptx[psn] = f->ntx++;
	f->pstate[psn] = PSN_OUT;
	f->inflight += bytes;
	flow_arm_rto(f, false);

	pkt = pkt_new(&s->pool);
	*pkt = (struct pkt){
		.kind = PKT_DATA,
		.bytes = bytes,
		.src = f->src,
		.dst = f->dst,
		.flow = f->id,
		.psn = psn,
		.tx = f->ptx[psn],
		.ev = ev,
		.sent_ns = now,
	};
	return pkt;
}

static void host_wake(void *a, void *b)
{
	struct host *h = a;

	if (h->sim->evq.now != h->wake_at)
		return;
	h->wake_at = U64_MAX;
	port_kick(h->nic);
}

/* The NIC is idle: the next flow in turn that may send gives a packet;
 * if pacing holds them all, the NIC is woken when the first may.
 */
static struct pkt *host_pull(void *owner)
{
	struct host *h = owner;
	u64 now = h->sim->evq.now, wake = U64_MAX;
	u32 i;

	for (i = 0; i < h->nsend; i++) {
		struct flow *f = h->send[(h->rr + i) % h->nsend];
		bool retx;
		u32 psn;
		u64 at;

		if (!flow_next(f, &psn, &retx))
			continue;
		at = f->cc.ops->send_at(&f->cc, now, f->inflight,
					flow_pkt_bytes(f, psn));
		if (at > now) {
			wake = min(wake, at);
			continue;
		}
		h->rr = (h->rr + i + 1) % h->nsend;
		return flow_send(f, psn, retx);
	}
	if (wake != U64_MAX && wake < h->wake_at) {
		h->wake_at = wake;
		evq_at(&h->sim->evq, wake, host_wake, h, NULL);
	}
	return NULL;
}

/* A packet turns into the control packet that answers it, keeping what
 * it echoes, and goes back to its sender.
 */
static void flow_answer(struct flow *f, struct pkt *pkt, enum pkt_kind kind)
{
	pkt->kind = kind;
	pkt->bytes = PKT_CTL_BYTES;
	pkt->src = f->dst;
	pkt->dst = f->src;
	port_enqueue(&f->sim->topo.nic[f->dst], pkt);
}

static void flow_rx_data(struct flow *f, struct pkt *pkt)
{
	struct sim *s = f->sim;
	struct port *nic = &s->topo.nic[f->dst];

	/* A trimmed packet is NACKed at once (UE 1.0 NACK TRIMMED, as the
	 * module's resp.c sends it).
	 */
	if (pkt->trimmed) {
		flow_answer(f, pkt, PKT_NACK);
		return;
	}
	if (!f->rcvd[pkt->psn]) {
		f->rcvd[pkt->psn] = 1;
		f->nrcvd++;
		f->rcvd_bytes += pkt->bytes;
		if (s->meter)
			meter_add(s->meter, f->id, flow_now(f), pkt->bytes);
	}
	if (pkt->ce && f->rx_cc.ops->on_ce &&
	    f->rx_cc.ops->on_ce(&f->rx_cc, flow_now(f))) {
		struct pkt *cnp = pkt_new(&s->pool);

		*cnp = (struct pkt){
			.kind = PKT_CNP,
			.bytes = PKT_CTL_BYTES,
			.src = f->dst,
			.dst = f->src,
			.flow = f->id,
			.ev = pkt->ev,
		};
		port_enqueue(nic, cnp);
	}
	flow_answer(f, pkt, PKT_ACK);
}

static void flow_finish(struct flow *f)
{
	struct sim *s = f->sim;

	f->done = true;
	f->done_ns = flow_now(f);
	f->rto_at = 0;
	if (++s->flows_done == s->nflows)
		evq_stop(&s->evq);
}

static void flow_rx_ack(struct flow *f, const struct pkt *pkt)
{
	struct uet_cc_ack cca = {
		.now = flow_now(f),
		.ecn = pkt->ce,
		.entropy = pkt->ev,
	};
	u32 psn = pkt->psn, bytes = flow_pkt_bytes(f, psn);

	/* A copy of a packet acknowledged already tells nothing new. */
	if (f->done || f->pstate[psn] == PSN_ACKED)
		return;
	f->tx[pkt->tx].state = TX_ACKED;
	flow_rtt_sample(f, cca.now - pkt->sent_ns);
	if (pkt->ce) {
		f->ecn_acks++;
		flow_path_signal(f, pkt->ev, UET_EV_SIG_ECN, pkt->sent_ns);
	} else {
		flow_path_signal(f, pkt->ev, UET_EV_SIG_GOOD, pkt->sent_ns);
	}
	if (f->pstate[psn] == PSN_OUT) {
		f->tx[f->ptx[psn]].state = TX_ACKED;
		f->inflight -= bytes;
	} else if (f->cc.ops->on_late) {
		/* Declared lost, not yet sent again: it was only late. */
		f->cc.ops->on_late(&f->cc, cca.now, bytes);
	}
	f->pstate[psn] = PSN_ACKED;
	f->nacked++;
	while (f->una < f->npkts && f->pstate[f->una] == PSN_ACKED)
		f->una++;
	f->backoff = 0;

	cca.acked_bytes = bytes;
	cca.inflight_bytes = f->inflight;
	cca.rtt_ns = cca.now - pkt->sent_ns;
	cca.srtt_ns = f->srtt;
	uet_cc_ack(&f->cc, &cca);

	if (f->nacked == f->npkts) {
		flow_finish(f);
		return;
	}
	flow_detect_losses(f);
	/* Progress restarts the timer; nothing out stops it (RFC 6298). */
	f->rto_at = 0;
	if (f->inflight)
		flow_arm_rto(f, true);
	port_kick(&f->sim->topo.nic[f->src]);
}

/* NACK TRIMMED: the packet is lost, as the module's uet_pdc_tx_nack()
 * marks it, unless acknowledged or lost already; congestion control
 * hears of it at once, its path when it is sent again.
 */
static void flow_rx_nack(struct flow *f, const struct pkt *pkt)
{
	u32 psn = pkt->psn, bytes = flow_pkt_bytes(f, psn);
	struct flow_tx *t = &f->tx[f->ptx[psn]];

	f->nacks++;
	if (f->done || f->pstate[psn] != PSN_OUT)
		return;
	t->state = TX_TRIMMED;
	f->pstate[psn] = PSN_LOST;
	flow_rq_push(f, psn);
	f->inflight -= bytes;
	if (f->cc.ops->on_nack)
		f->cc.ops->on_nack(&f->cc, flow_now(f), bytes, true,
				   f->inflight);
	flow_tx_advance(f);
	port_kick(&f->sim->topo.nic[f->src]);
}

static void flow_rx_cnp(struct flow *f)
{
	f->cnps++;
	if (f->done || !f->cc.ops->on_cnp)
		return;
	f->cc.ops->on_cnp(&f->cc, flow_now(f));
	port_kick(&f->sim->topo.nic[f->src]);
}

static void host_arrive(void *to, struct pkt *pkt)
{
	struct host *h = to;
	struct flow *f = &h->sim->flows[pkt->flow];

	switch (pkt->kind) {
	case PKT_DATA:
		flow_rx_data(f, pkt);
		return;
	case PKT_ACK:
		flow_rx_ack(f, pkt);
		break;
	case PKT_CNP:
		flow_rx_cnp(f);
		break;
	case PKT_NACK:
		flow_rx_nack(f, pkt);
		break;
	case PKT_PROBE:
		flow_answer(f, pkt, PKT_PROBE_ANSWER);
		return;
	case PKT_PROBE_ANSWER:
		probe_answered(f, pkt->ev);
		break;
	}
	pkt_put(&h->sim->pool, pkt);
}

void hosts_init(struct sim *s)
{
	u32 i;

	s->hosts = host_calloc(s->topo.nhosts, sizeof(*s->hosts));
	for (i = 0; i < s->topo.nhosts; i++) {
		struct host *h = &s->hosts[i];

		h->sim = s;
		h->id = i;
		h->nic = &s->topo.nic[i];
		h->wake_at = U64_MAX;
		h->nic->pull = host_pull;
		h->nic->owner = h;
		s->topo.down[i].arrive = host_arrive;
		s->topo.down[i].to = h;
	}
}

void flows_alloc(struct sim *s, u32 n)
{
	s->flows = host_calloc(n, sizeof(*s->flows));
	s->nflows = n;
}

void flow_init(struct sim *s, u32 i, u32 src, u32 dst, u64 bytes)
{
	const struct sim_params *p = s->p;
	const struct uet_lb_conf conf = {
		.reps_ring = UET_LB_REPS_RING_DEFAULT,
		.reps_freeze_us = UET_LB_REPS_FREEZE_US_DEFAULT,
	};
	u32 count = UET_LB_EV_COUNT_DEFAULT, mbps = p->rate_gbps * 1000;
	struct flow *f = &s->flows[i];
	u32 npkts = DIV_ROUND_UP(bytes, p->mtu);
	/* Where the peer's values start; the seed of the flow's choices. */
	u32 peer = sim_hash(s->seed, 6, src, dst, 0) >> 32;
	u32 hash = sim_hash(s->seed, 5, i, 0, 0) >> 32;

	f->sim = s;
	f->id = i;
	f->src = src;
	f->dst = dst;
	f->bytes = bytes;
	f->npkts = npkts;
	f->pstate = host_calloc(npkts, sizeof(*f->pstate));
	f->ptx = host_calloc(npkts, sizeof(*f->ptx));
	f->rq = host_calloc(npkts, sizeof(*f->rq));
	f->rcvd = host_calloc(npkts, sizeof(*f->rcvd));
	/* The workloads never run two flows between one pair of hosts:
	 * the peer's table of values is the flow's own.
	 */
	f->evt = uet_ev_table_alloc(uet_lb_set_base(peer, count), count);
	if (!f->evt) {
		perror("uet-sim: entropy values");
		exit(2);
	}
	uet_lb_init(&f->lb, p->lb, hash, f->evt->base, f->evt->count, f->evt,
		    &conf);
	uet_cc_init(&f->cc, p->cc, p->mtu, p->cc_params, mbps, NULL, 0);
	uet_cc_init(&f->rx_cc, p->cc, p->mtu, p->cc_params, mbps, NULL, 0);
}

static void flows_start_host(void *a, void *b)
{
	port_kick(((struct host *)a)->nic);
}

void flows_start(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->nflows; i++) {
		struct host *h = &s->hosts[s->flows[i].src];

		if (!h->send)
			h->send = host_calloc(s->nflows, sizeof(*h->send));
		h->send[h->nsend++] = &s->flows[i];
	}
	for (i = 0; i < s->topo.nhosts; i++)
		if (s->hosts[i].nsend)
			evq_at(&s->evq, 0, flows_start_host, &s->hosts[i],
			       NULL);
}

void hosts_free(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->nflows; i++) {
		struct flow *f = &s->flows[i];

		free(f->pstate);
		free(f->ptx);
		free(f->rq);
		free(f->rcvd);
		free(f->tx);
		uet_ev_table_free(f->evt);
	}
	for (i = 0; i < s->topo.nhosts; i++)
		free(s->hosts[i].send);
	free(s->flows);
	free(s->hosts);
}
