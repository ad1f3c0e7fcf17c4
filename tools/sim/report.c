// SPDX-License-Identifier: GPL-2.0
/*
 * What a run measured (report.h): the flows, the ports, and what the
 * scenario's groups add.
 */
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "alloc.h"
#include "fault.h"
#include "host.h"
#include "meter.h"
#include "report.h"

static int report_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void report_flows(const struct sim *s, struct run_result *r)
{
	double sum = 0, sq = 0;
	u64 *fct, total = 0;
	u32 i, n = 0;

	fct = sim_calloc(s->nflows, sizeof(*fct), "report");
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flows[i];
		double rate;

		r->retx += f->retx;
		r->lost += f->lost;
		r->timeouts += f->timeouts;
		r->ecn_acks += f->ecn_acks;
		r->cnps += f->cnps;
		r->acks += f->acks;
		r->dups += f->dups;
		r->hole_nacks += f->hole_nacks;
		r->nacks += f->nacks;
		r->path_losses += f->req.tx.path_losses;
		r->probes += f->probes;
		r->probe_oks += f->probe_oks;
		/* Every flow starts at 0: its FCT is when its last ACK came. */
		if (!f->done)
			continue;
		fct[n++] = f->done_ns;
		total += f->done_ns;
		rate = (double)f->bytes / f->done_ns;
		sum += rate;
		sq += rate * rate;
	}
	r->flows = s->nflows;
	r->flows_done = n;
	if (n) {
		/* Jain's index (Jain, Chiu and Hawe, DEC-TR-301, 1984). */
		r->jain = sum * sum / (n * sq);
		qsort(fct, n, sizeof(*fct), report_cmp_u64);
		r->fct_mean_ns = total / n;
		/* The nearest-rank 99th percentile. */
		r->fct_p99_ns = fct[DIV_ROUND_UP(99 * n, 100) - 1];
		r->fct_max_ns = fct[n - 1];
	}
	free(fct);
}

static void report_switch_port(const struct port_stats *st,
			       struct run_result *r)
{
	r->drops += st->drops;
	r->marks += st->marks;
	r->trims += st->trims;
	r->blackholed += st->blackholed;
	r->peak_queue = max_t(u64, r->peak_queue, st->peak);
}

static void report_ports(const struct sim *s, struct run_result *r)
{
	const struct topo *t = &s->topo;
	u64 first = U64_MAX, last = 0, line = 0, up_bytes = 0;
	u32 i, nup = t->leaves * t->spines;

	for (i = 0; i < s->nfocus; i++) {
		const struct port_stats *st = &s->focus[i]->st;

		if (!st->data_pkts)
			continue;
		r->focus_busy++;
		first = min(first, st->first_ns);
		last = max(last, st->last_ns);
		line += st->line_ns;
	}
	if (last > first)
		r->focus_util = (double)line / ((double)s->nfocus *
						(last - first));
	for (i = 0; i < nup; i++)
		r->busy_uplinks += !!t->up[i].st.data_pkts;
	for (i = 0; i < t->spines; i++)
		up_bytes += t->up[i].st.data_bytes;
	for (i = 0; up_bytes && i < t->spines; i++) {
		double share = (double)t->up[i].st.data_bytes / up_bytes;

		r->up_share_min = i ? min(r->up_share_min, share) : share;
		r->up_share_max = max(r->up_share_max, share);
	}
	/* Drops, marks and the peak queue: every switch port. */
	for (i = 0; i < t->nhosts; i++)
		report_switch_port(&t->down[i].st, r);
	for (i = 0; i < nup; i++) {
		report_switch_port(&t->up[i].st, r);
		report_switch_port(&t->sdown[i].st, r);
	}
}

/* Flows that run for the whole run: the second half's use of the focus
 * ports, what the flows delivered, and how evenly.
 */
static void report_long(const struct sim *s, struct run_result *r)
{
	u64 end = s->flows_done == s->nflows ? r->end_ns : s->p->max_ns;
	u64 line = 0;
	double sum = 0, sq = 0, b;
	u32 i;

	for (i = 0; i < s->nfocus; i++)
		line += s->focus[i]->st.line_ns;
	if (end > s->warm_ns && s->nfocus)
		r->util_steady = (double)(line - s->warm_line_ns) /
				 ((double)s->nfocus * (end - s->warm_ns));
	r->peak_rtts = (double)r->peak_queue / s->topo.bdp;
	for (i = 0; i < s->nflows; i++) {
		b = s->flows[i].rcvd_bytes;
		sum += b;
		sq += b * b;
	}
	if (end)
		r->delivered_gbps = sum * 8 / end;
	if (sq)
		r->jain_delivered = sum * sum / (s->nflows * sq);
}

/* All flows' rate until the first is done, and each flow's until it is,
 * against what it was before the fault.
 */
static void report_fault(const struct sim *s, struct run_result *r)
{
	const struct sim_params *p = s->p;
	u64 rtt = s->topo.base_rtt_ns, first = s->evq.now, end;
	struct meter_recovery m;
	u32 i;

	for (i = 0; i < s->nflows; i++)
		if (s->flows[i].done)
			first = min(first, s->flows[i].done_ns);
	meter_recovery(s->meter, U32_MAX, p->fail_ns, first, FAULT_RECOVER_PCT,
		       FAULT_MEAN_BINS, &m);
	r->pre_gbps = m.pre_gbps;
	r->back_ns = m.back_ns;
	r->back_rtts = (double)m.back_ns / rtt;
	r->recover_ns = m.recover_ns;
	r->recover_rtts = (double)m.recover_ns / rtt;
	r->dip = m.dip;
	r->after = m.after;
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flows[i];

		/* The last RTTs of a flow drain its window. */
		end = f->done ? f->done_ns - min(f->done_ns, 2 * rtt) :
		      s->evq.now;
		meter_recovery(s->meter, i, p->fail_ns, end, FAULT_RECOVER_PCT,
			       FAULT_MEAN_BINS, &m);
		if (!m.fell)
			continue;
		r->flows_fell++;
		r->worst_back_ns = max(r->worst_back_ns, m.back_ns);
		r->worst_recover_ns = max(r->worst_recover_ns, m.recover_ns);
	}
	r->worst_back_rtts = (double)r->worst_back_ns / rtt;
	r->worst_recover_rtts = (double)r->worst_recover_ns / rtt;
}

void report_collect(const struct sim *s, struct run_result *r)
{
	u64 bytes = 0;
	u32 i;

	*r = (struct run_result){ 0 };
	report_flows(s, r);
	report_ports(s, r);
	r->end_ns = s->flows_done == s->nflows ? r->fct_max_ns : s->evq.now;
	r->events = s->evq.seq;
	for (i = 0; i < s->nflows; i++)
		bytes += s->flows[i].bytes;
	if (r->end_ns)
		r->goodput_gbps = (double)bytes * 8 / r->end_ns;
	if (s->p->groups & SIM_G_LONG)
		report_long(s, r);
	if (s->p->groups & SIM_G_FAIL)
		report_fault(s, r);
}

