// SPDX-License-Identifier: GPL-2.0
/*
 * Hosts and flows (host.h): the NIC's turns among a host's flows, what
 * arrives at a host, and the flows' life.
 */
#include <stdlib.h>

#include <linux/kernel.h>

#include "alloc.h"
#include "hash.h"
#include "host.h"
#include "probe.h"

struct uet_ev_table *host_peer_values(const struct sim *s, u32 from, u32 to)
{
	u32 count = s->p->entropy_count;
	/* Where the values start: a hash of the pair, as peer.c's. */
	u32 hash = sim_hash(s->seed, 6, from, to, 0) >> 32;
	struct uet_ev_table *t;

	t = uet_ev_table_alloc(uet_lb_set_base(hash, count), count);
	if (!t)
		sim_nomem("entropy values");
	return t;
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
		u32 psn, bytes;
		bool retx;
		u64 at;

		if (!req_next(f, &psn, &retx, &bytes))
			continue;
		at = f->cc.ops->send_at(&f->cc, now,
					uet_pdc_tx_pipe(&f->req.tx), bytes);
		if (at > now) {
			wake = min(wake, at);
			continue;
		}
		h->rr = (h->rr + i + 1) % h->nsend;
		return req_send(f, psn, retx);
	}
	if (wake != U64_MAX && wake < h->wake_at) {
		h->wake_at = wake;
		evq_at(&h->sim->evq, wake, host_wake, h, NULL);
	}
	return NULL;
}

/* A probe is answered on its value without any state (peer.c). */
static void host_answer_probe(struct flow *f, struct pkt *pkt)
{
	pkt->kind = PKT_PROBE_ANSWER;
	pkt->bytes = PKT_CTL_BYTES;
	pkt->src = f->dst;
	pkt->dst = f->src;
	port_enqueue(&f->sim->topo.nic[f->dst], pkt);
}

static void host_arrive(void *to, struct pkt *pkt)
{
	struct host *h = to;
	struct flow *f = &h->sim->flows[pkt->flow];

	switch (pkt->kind) {
	case PKT_DATA:
		resp_rcv(f, pkt);
		break;
	case PKT_ACK:
		req_rcv_ack(f, pkt);
		break;
	case PKT_CNP:
		req_rcv_cnp(f);
		break;
	case PKT_NACK:
		req_rcv_nack(f, pkt);
		break;
	case PKT_PROBE:
		host_answer_probe(f, pkt);
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

	s->hosts = sim_calloc(s->topo.nhosts, sizeof(*s->hosts), "hosts");
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
	s->flows = sim_calloc(n, sizeof(*s->flows), "hosts");
	s->nflows = n;
}

void flow_init(struct sim *s, u32 i, u32 src, u32 dst, u64 bytes)
{
	const struct sim_params *p = s->p;
	const struct uet_lb_conf conf = {
		.reps_ring = p->reps_ring,
		.reps_freeze_us = UET_LB_REPS_FREEZE_US_DEFAULT,
	};
	u32 mbps = p->rate_gbps * 1000;
	struct flow *f = &s->flows[i];
	/* The seed of the flow's choices. */
	u32 hash = sim_hash(s->seed, 5, i, 0, 0) >> 32;

	f->sim = s;
	f->id = i;
	f->src = src;
	f->dst = dst;
	f->bytes = bytes;
	f->npkts = DIV_ROUND_UP(bytes, p->mtu);
	/* The workloads never run two flows between one pair of hosts:
	 * the peer's table of values is the flow's own.
	 */
	f->evt = host_peer_values(s, src, dst);
	uet_lb_init(&f->lb, p->lb, hash, f->evt->base, f->evt->count, f->evt,
		    &conf);
	uet_cc_init(&f->cc, p->cc, p->mtu, p->cc_params, mbps, NULL, 0);
	uet_cc_init(&f->rx_cc, p->cc, p->mtu, p->cc_params, mbps, NULL, 0);
	req_init(f);
	resp_init(f);
}

static void flows_start_host(void *a, void *b)
{
	port_kick(((struct host *)a)->nic);
}

/* The flow from f's receiver back to its sender, if there is one: its
 * values are the receiving host's towards the sender.
 */
static struct flow *flow_back(const struct sim *s, const struct flow *f)
{
	const struct host *h = &s->hosts[f->dst];
	u32 i;

	for (i = 0; i < h->nsend; i++)
		if (h->send[i]->dst == f->src)
			return h->send[i];
	return NULL;
}

void flows_start(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->nflows; i++) {
		struct host *h = &s->hosts[s->flows[i].src];

		if (!h->send)
			h->send = sim_calloc(s->nflows, sizeof(*h->send), "hosts");
		h->send[h->nsend++] = &s->flows[i];
	}
	for (i = 0; i < s->nflows; i++)
		resp_start(&s->flows[i], flow_back(s, &s->flows[i]));
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

		req_free(f);
		resp_free(f);
		uet_ev_table_free(f->evt);
	}
	for (i = 0; i < s->topo.nhosts; i++)
		free(s->hosts[i].send);
	free(s->flows);
	free(s->hosts);
}
