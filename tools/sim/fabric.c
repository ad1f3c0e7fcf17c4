// SPDX-License-Identifier: GPL-2.0
/*
 * Ports and packets (fabric.h). Line time is kept exact over a run: the
 * part of a nanosecond a packet's serialisation leaves over is carried to
 * the next one.
 */
#include <stdlib.h>

#include <linux/time64.h>

#include "alloc.h"
#include "fabric.h"
#include "sch_uet_law.h"

#define PKT_SLAB	1024
/* What trimming keeps of a data packet: sch_uet's default trim size, the
 * SAI packet-trimming proposal's, never less than its IPv4 and UDP
 * headers (RFC 791, RFC 768).
 */
#define PORT_TRIM_SIZE		128
#define PORT_TRIM_HDR		(20 + 8)
/* The trim band holds a quarter of the data band's limit, as sch_uet's
 * (UET_TRIM_LIMIT_SHIFT).
 */
#define PORT_TRIM_LIMIT_SHIFT	2

struct pkt_slab {
	struct pkt_slab *next;
	struct pkt pkts[PKT_SLAB];
};

struct pkt *pkt_new(struct pkt_pool *pool)
{
	struct pkt *pkt;
	int i;

	if (!pool->free) {
		struct pkt_slab *s = sim_calloc(1, sizeof(*s), "packets");

		s->next = pool->slabs;
		pool->slabs = s;
		for (i = PKT_SLAB - 1; i >= 0; i--) {
			s->pkts[i].next = pool->free;
			pool->free = &s->pkts[i];
		}
	}
	pkt = pool->free;
	pool->free = pkt->next;
	*pkt = (struct pkt){ 0 };
	return pkt;
}

void pkt_put(struct pkt_pool *pool, struct pkt *pkt)
{
	pkt->next = pool->free;
	pool->free = pkt;
}

void pkt_pool_free(struct pkt_pool *pool)
{
	while (pool->slabs) {
		struct pkt_slab *s = pool->slabs;

		pool->slabs = s->next;
		free(s);
	}
	pool->free = NULL;
}

void port_init(struct port *p, struct evq *evq, struct pkt_pool *pool,
	       u64 rate_bps, u64 hop_ns, u64 seed)
{
	*p = (struct port){
		.evq = evq,
		.pool = pool,
		.rate_bps = rate_bps,
		.hop_ns = hop_ns,
		.st.first_ns = U64_MAX,
	};
	prandom_seed_state(&p->rnd, seed);
}

static void port_lose(struct port *p, struct pkt *pkt)
{
	p->st.blackholed++;
	pkt_put(p->pool, pkt);
}

/* As sch_uet's enqueue: a data packet the data band cannot take is cut
 * into the trim band when the port trims; each band has its limit.
 */
void port_enqueue(struct port *p, struct pkt *pkt)
{
	enum port_band b = pkt->kind != PKT_DATA ? PORT_PRIO :
			   pkt->trimmed ? PORT_TRIM : PORT_DATA;
	u32 limit;

	if (p->failed) {
		port_lose(p, pkt);
		return;
	}
	if (p->trim && b == PORT_DATA &&
	    p->backlog[b] + pkt->bytes > p->limit) {
		pkt->bytes = uet_trim_len(pkt->bytes, PORT_TRIM_HDR,
					  PORT_TRIM_SIZE);
		pkt->trimmed = true;
		p->st.trims++;
		b = PORT_TRIM;
	}
	limit = b == PORT_TRIM ? p->limit >> PORT_TRIM_LIMIT_SHIFT : p->limit;
	if (limit && p->backlog[b] + pkt->bytes > limit) {
		p->st.drops++;
		pkt_put(p->pool, pkt);
		return;
	}
	pkt->next = NULL;
	if (p->tail[b])
		p->tail[b]->next = pkt;
	else
		p->head[b] = pkt;
	p->tail[b] = pkt;
	p->backlog[b] += pkt->bytes;
	if (b == PORT_DATA) {
		p->st.peak = max(p->st.peak, p->backlog[b]);
		p->watch_peak = max(p->watch_peak, p->backlog[b]);
	}
	port_kick(p);
}

static void port_arrive(void *a, void *b)
{
	struct port *p = a;

	if (p->failed) {
		port_lose(p, b);
		return;
	}
	p->arrive(p->to, b);
}

void port_fail(struct port *p)
{
	enum port_band b;

	p->failed = true;
	for (b = 0; b < PORT_BANDS; b++) {
		while (p->head[b]) {
			struct pkt *pkt = p->head[b];

			p->head[b] = pkt->next;
			port_lose(p, pkt);
		}
		p->tail[b] = NULL;
		p->backlog[b] = 0;
	}
}

static void port_sent(void *a, void *b)
{
	struct port *p = a;

	evq_at(p->evq, p->evq->now + p->hop_ns, port_arrive, p, b);
	p->busy = false;
	port_kick(p);
}

static struct pkt *port_dequeue(struct port *p)
{
	struct pkt *pkt;
	enum port_band b;

	for (b = 0; b < PORT_BANDS; b++)
		if (p->head[b])
			break;
	if (b == PORT_BANDS)
		return p->pull ? p->pull(p->owner) : NULL;
	pkt = p->head[b];
	p->head[b] = pkt->next;
	if (!p->head[b])
		p->tail[b] = NULL;
	p->backlog[b] -= pkt->bytes;
	/* sch_uet marks at dequeue, on the queue the packet waited in. */
	if (b == PORT_DATA && p->pmax &&
	    uet_ecn_decide(p->backlog[b], p->kmin, p->kmax, p->pmax,
			   prandom_u32_state(&p->rnd))) {
		pkt->ce = true;
		p->st.marks++;
	}
	return pkt;
}

void port_kick(struct port *p)
{
	u64 now = p->evq->now, bitns, tx_ns;
	struct pkt *pkt;

	if (p->busy)
		return;
	pkt = port_dequeue(p);
	if (!pkt)
		return;
	bitns = (u64)pkt->bytes * 8 * NSEC_PER_SEC + p->carry;
	tx_ns = bitns / p->rate_bps;
	p->carry = bitns % p->rate_bps;
	p->busy = true;
	if (pkt->kind == PKT_DATA && !pkt->trimmed) {
		p->st.data_pkts++;
		p->st.data_bytes += pkt->bytes;
		p->st.first_ns = min(p->st.first_ns, now);
		p->st.last_ns = now + tx_ns;
		p->st.line_ns += tx_ns;
	} else {
		p->st.ctl_pkts++;
	}
	evq_at(p->evq, now + tx_ns, port_sent, p, pkt);
}
