// SPDX-License-Identifier: GPL-2.0
/*
 * The fault (fault.h). The meter's bins are a base RTT long unless
 * given: the REPS paper reads recovery in base RTTs.
 */
#include "fault.h"
#include "meter.h"

static void fault_fire(void *a, void *b)
{
	struct sim *s = a;
	const struct sim_params *p = s->p;

	if (p->slow_pct)
		topo_slow_link(&s->topo, p->fail_spine, FAULT_LEAF,
			       p->slow_pct);
	else
		topo_fail_link(&s->topo, p->fail_spine, FAULT_LEAF);
}

void fault_schedule(struct sim *s)
{
	const struct sim_params *p = s->p;

	s->meter = meter_new(p->bin_ns ?: s->topo.base_rtt_ns, p->fail_ns,
			     s->nflows);
	evq_at(&s->evq, p->fail_ns, fault_fire, s, NULL);
}

void fault_free(struct sim *s)
{
	meter_free(s->meter);
	s->meter = NULL;
}
