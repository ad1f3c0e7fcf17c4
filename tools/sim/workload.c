// SPDX-License-Identifier: GPL-2.0
/*
 * Scenario traffic (workload.h). Every flow starts at time 0.
 */
#include <stdlib.h>

#include <linux/prandom.h>

#include "alloc.h"
#include "hash.h"
#include "host.h"
#include "workload.h"

static void wl_focus(struct sim *s, const char *name, u32 n)
{
	s->focus = sim_calloc(n, sizeof(*s->focus), "workload");
	s->nfocus = n;
	s->focus_name = name;
}

void wl_uplinks(struct sim *s)
{
	struct topo *t = &s->topo;
	u32 i;

	flows_alloc(s, t->hosts_per_leaf);
	for (i = 0; i < t->hosts_per_leaf; i++)
		flow_init(s, i, i, t->hosts_per_leaf + i, s->p->bytes);
	wl_focus(s, "leaf0_uplinks", t->spines);
	for (i = 0; i < t->spines; i++)
		s->focus[i] = &t->up[i];
}

void wl_incast(struct sim *s)
{
	struct topo *t = &s->topo;
	u32 i;

	flows_alloc(s, s->p->senders);
	for (i = 0; i < s->p->senders; i++)
		flow_init(s, i, t->hosts_per_leaf + i, 0, s->p->bytes);
	wl_focus(s, "receiver_port", 1);
	s->focus[0] = &t->down[0];
}

void wl_perm(struct sim *s)
{
	struct topo *t = &s->topo;
	u32 n = t->nhosts, i, j, *to;
	struct rnd_state rnd;

	to = sim_calloc(n, sizeof(*to), "workload");
	for (i = 0; i < n; i++)
		to[i] = i;
	/* Sattolo's shuffle: one cycle through every host, so none sends
	 * to itself.
	 */
	prandom_seed_state(&rnd, sim_hash(s->seed, 7, 0, 0, 0));
	for (i = n - 1; i > 0; i--) {
		j = prandom_u32_state(&rnd) % i;
		swap(to[i], to[j]);
	}
	flows_alloc(s, n);
	for (i = 0; i < n; i++)
		flow_init(s, i, i, to[i], s->p->bytes);
	free(to);
	wl_focus(s, "uplinks", t->leaves * t->spines);
	for (i = 0; i < t->leaves * t->spines; i++)
		s->focus[i] = &t->up[i];
}
