// SPDX-License-Identifier: GPL-2.0
/*
 * The leaf-spine fabric (topo.h): its ports, its routing, and the port
 * settings UE 1.0 section 3.6.17 gives a switch in terms of the plane
 * BDP, the line rate times the base RTT, or uet tune's (tune_size.h).
 */
#include <stdlib.h>

#include <linux/math.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "alloc.h"
#include "hash.h"
#include "topo.h"
#include "tune_size.h"

/* Without trimming, a port drops at 5 plane BDPs: htsim's UEC queue
 * without trimming, the top of UE 1.0 section 3.6.17's 2 to 5.
 */
#define TOPO_LIMIT_BDPS		5
/* Probabilistic ECN from 0.2 to 0.8 plane BDP, up to certainty (UE 1.0
 * section 3.6.17).
 */
#define TOPO_KMIN_PCT		20
#define TOPO_KMAX_PCT		80
#define TOPO_PMAX_PCT		100

u64 topo_line_ns(u64 bytes, u64 rate_bps)
{
	return bytes * 8 * NSEC_PER_SEC / rate_bps;
}

static void topo_switch_port(struct topo *t, struct port *p)
{
	p->limit = t->limit;
	p->kmin = t->kmin;
	p->kmax = t->kmax;
	p->pmax = t->pmax;
	p->trim = t->trim;
}

/* A threshold of uet tune in bytes, as sch_uet converts what tc gives
 * it: a share of the limit, or a time at the line rate.
 */
static u32 topo_thresh(const struct tune_size *sz, u64 v, u64 rate_bps)
{
	u64 b = sz->pct ? div_u64(sz->limit * v, 100) :
		mul_u64_u64_div_u64(rate_bps / 8, v * NSEC_PER_USEC,
				    NSEC_PER_SEC);

	return min_t(u64, b, U32_MAX);
}

/* The ports of uet tune for the base RTT; a limit beyond what sch_uet
 * takes (32 bits) is cut to it.
 */
static void topo_tune(struct topo *t, const struct topo_cfg *cfg)
{
	struct tune_size sz;

	tune_size(cfg->rate_bps, t->base_rtt_ns, cfg->tune_dcqcn, &sz);
	sz.limit = min_t(u64, sz.limit, U32_MAX);
	t->limit = sz.limit;
	t->kmin = topo_thresh(&sz, sz.kmin, cfg->rate_bps);
	t->kmax = topo_thresh(&sz, sz.kmax, cfg->rate_bps);
	t->pmax = sz.pmax;
	t->trim = sz.trim;
}

/* Data one way, its ACK the other: four links each, across a spine. */
static u64 topo_base_rtt(const struct topo_cfg *cfg, u64 hop, u64 far)
{
	u64 rate = cfg->rate_bps;

	return 4 * topo_line_ns(cfg->mtu, rate) +
	       4 * topo_line_ns(PKT_CTL_BYTES, rate) + 6 * hop + 2 * far;
}

u64 topo_cfg_base_rtt(const struct topo_cfg *cfg)
{
	return topo_base_rtt(cfg, cfg->hop_ns, cfg->long_ns ?: cfg->hop_ns);
}

u64 topo_hop_for_rtt(const struct topo_cfg *cfg, u64 rtt_ns)
{
	u64 line = topo_base_rtt(cfg, 0, 0);

	return rtt_ns > line ? (rtt_ns - line) / 8 : 0;
}

void topo_fail_link(struct topo *t, u32 spine, u32 leaf)
{
	port_fail(&t->sdown[spine * t->leaves + leaf]);
}

void topo_slow_link(struct topo *t, u32 spine, u32 leaf, u32 pct)
{
	u64 rate = div_u64(t->rate_bps * pct, 100);

	t->up[leaf * t->spines + spine].rate_bps = rate;
	t->sdown[spine * t->leaves + leaf].rate_bps = rate;
}

static void topo_leaf_arrive(void *to, struct pkt *pkt)
{
	struct topo_switch *sw = to;
	struct topo *t = sw->topo;
	u32 s;

	if (topo_leaf_of(t, pkt->dst) == sw->index) {
		port_enqueue(&t->down[pkt->dst], pkt);
		return;
	}
	s = reciprocal_scale(sim_hash(t->ecmp_seed, sw->index, pkt->src,
				      pkt->dst, pkt->ev) >> 32, t->spines);
	port_enqueue(&t->up[sw->index * t->spines + s], pkt);
}

static void topo_spine_arrive(void *to, struct pkt *pkt)
{
	struct topo_switch *sw = to;
	struct topo *t = sw->topo;

	port_enqueue(&t->sdown[sw->index * t->leaves +
			       topo_leaf_of(t, pkt->dst)], pkt);
}

void topo_init(struct topo *t, const struct topo_cfg *cfg, struct evq *evq,
	       struct pkt_pool *pool)
{
	u32 nhosts = cfg->leaves * cfg->hosts_per_leaf, i, j;
	u64 seed = cfg->seed, hop = cfg->hop_ns, rate = cfg->rate_bps;
	u64 far = cfg->long_ns ?: hop;

	*t = (struct topo){
		.leaves = cfg->leaves,
		.spines = cfg->spines,
		.hosts_per_leaf = cfg->hosts_per_leaf,
		.nhosts = nhosts,
		.rate_bps = rate,
		.ecmp_seed = sim_hash(seed, 0, 0, 0, 1),
	};
	/* Four links each way, host to host across a spine. */
	t->base_rtt_ns = topo_cfg_base_rtt(cfg);
	t->bdp = rate / 8 * t->base_rtt_ns / NSEC_PER_SEC;
	if (cfg->tune) {
		topo_tune(t, cfg);
	} else {
		t->limit = min_t(u64, (u64)TOPO_LIMIT_BDPS * t->bdp, U32_MAX);
		t->kmin = t->bdp * TOPO_KMIN_PCT / 100;
		t->kmax = t->bdp * TOPO_KMAX_PCT / 100;
		t->pmax = TOPO_PMAX_PCT;
	}

	t->leaf = sim_calloc(cfg->leaves, sizeof(*t->leaf), "topology");
	t->spine = sim_calloc(cfg->spines, sizeof(*t->spine), "topology");
	t->nic = sim_calloc(nhosts, sizeof(*t->nic), "topology");
	t->down = sim_calloc(nhosts, sizeof(*t->down), "topology");
	t->up = sim_calloc(cfg->leaves * cfg->spines, sizeof(*t->up), "topology");
	t->sdown = sim_calloc(cfg->leaves * cfg->spines, sizeof(*t->sdown), "topology");

	for (i = 0; i < cfg->leaves; i++)
		t->leaf[i] = (struct topo_switch){ t, i };
	for (i = 0; i < cfg->spines; i++)
		t->spine[i] = (struct topo_switch){ t, i };
	for (i = 0; i < nhosts; i++) {
		struct port *p = &t->nic[i];

		/* A NIC sends what its host gives it: nothing to mark. */
		port_init(p, evq, pool, rate, hop, sim_hash(seed, 1, i, 0, 0));
		p->arrive = topo_leaf_arrive;
		p->to = &t->leaf[topo_leaf_of(t, i)];
		p = &t->down[i];
		port_init(p, evq, pool, rate, hop, sim_hash(seed, 2, i, 0, 0));
		topo_switch_port(t, p);
	}
	for (i = 0; i < cfg->leaves; i++) {
		for (j = 0; j < cfg->spines; j++) {
			struct port *p = &t->up[i * cfg->spines + j];
			u64 d = i ? hop : far;

			port_init(p, evq, pool, rate, d,
				  sim_hash(seed, 3, i, j, 0));
			topo_switch_port(t, p);
			p->arrive = topo_spine_arrive;
			p->to = &t->spine[j];
			p = &t->sdown[j * cfg->leaves + i];
			port_init(p, evq, pool, rate, d,
				  sim_hash(seed, 4, j, i, 0));
			topo_switch_port(t, p);
			p->arrive = topo_leaf_arrive;
			p->to = &t->leaf[i];
		}
	}
}

void topo_free(struct topo *t)
{
	free(t->leaf);
	free(t->spine);
	free(t->nic);
	free(t->down);
	free(t->up);
	free(t->sdown);
}
