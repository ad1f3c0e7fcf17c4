// SPDX-License-Identifier: GPL-2.0
/*
 * The prober (probe.h). The workloads run one flow per pair of hosts, so
 * a flow's table of values is its peer's, and so is its prober.
 */
#include <linux/kernel.h>
#include <linux/time64.h>

#include "host.h"
#include "probe.h"

/* Probes sent per round, so a dead spine costs a bounded burst: the
 * module's UET_PEER_PROBES_MAX (net/uet/peer.c).
 */
#define PROBE_ROUND_MAX		32

static void probe_round(void *a, void *b)
{
	struct flow *f = a;
	struct sim *s = f->sim;
	u64 now = s->evq.now;
	u64 interval = (u64)s->p->probe_us * NSEC_PER_USEC;
	u16 evs[PROBE_ROUND_MAX];
	u32 i, n;

	f->probing = false;
	n = uet_ev_probe_due(f->evt, now, interval, evs, ARRAY_SIZE(evs));
	for (i = 0; i < n; i++) {
		struct pkt *pkt = pkt_new(&s->pool);

		*pkt = (struct pkt){
			.kind = PKT_PROBE,
			.bytes = PKT_CTL_BYTES,
			.src = f->src,
			.dst = f->dst,
			.flow = f->id,
			.ev = evs[i],
		};
		port_enqueue(&s->topo.nic[f->src], pkt);
		f->probes++;
	}
	if (READ_ONCE(f->evt->nbad)) {
		f->probing = true;
		evq_at(&s->evq, now + interval, probe_round, f, NULL);
	}
}

void probe_arm(struct flow *f)
{
	if (!READ_ONCE(f->evt->nbad) || f->probing)
		return;
	f->probing = true;
	evq_at(&f->sim->evq, f->sim->evq.now, probe_round, f, NULL);
}

void probe_answered(struct flow *f, u16 ev)
{
	if (uet_ev_probe_ok(f->evt, ev))
		f->probe_oks++;
}
