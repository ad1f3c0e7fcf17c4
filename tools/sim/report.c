// SPDX-License-Identifier: GPL-2.0
/*
 * Results of a run (report.h). Figures are integers where they can be,
 * ratios with 4 decimals: the same run prints the same bytes.
 */
#include <stddef.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "host.h"
#include "report.h"

enum field_type {
	F_U64,
	F_DBL,
	F_STR,
};

struct field {
	const char *name;
	enum field_type type;
	size_t off;
};

#define FIELD(st, m, t)	{ #m, t, offsetof(struct st, m) }

/* The parameters, given and derived, in the order they are printed. */
struct report_params {
	const char *scenario;
	u64 seed, seeds;
	u64 leaves, spines, hosts, rate_gbps, mtu, hop_ns;
	const char *lb, *cc;
	u64 flowlet_pkts, bytes, flows, rto_min_us, max_ns;
	u64 mpr, dupthresh, ctl_bytes;
	u64 entropy_count, reps_ring, reps_freeze_us;
	u64 base_rtt_ns, bdp, limit, kmin, kmax, pmax;
	const char *focus;
};

static const struct field report_param_fields[] = {
	FIELD(report_params, scenario, F_STR),
	FIELD(report_params, seed, F_U64),
	FIELD(report_params, seeds, F_U64),
	FIELD(report_params, leaves, F_U64),
	FIELD(report_params, spines, F_U64),
	FIELD(report_params, hosts, F_U64),
	FIELD(report_params, rate_gbps, F_U64),
	FIELD(report_params, mtu, F_U64),
	FIELD(report_params, hop_ns, F_U64),
	FIELD(report_params, lb, F_STR),
	FIELD(report_params, cc, F_STR),
	FIELD(report_params, flowlet_pkts, F_U64),
	FIELD(report_params, bytes, F_U64),
	FIELD(report_params, flows, F_U64),
	FIELD(report_params, rto_min_us, F_U64),
	FIELD(report_params, max_ns, F_U64),
	FIELD(report_params, mpr, F_U64),
	FIELD(report_params, dupthresh, F_U64),
	FIELD(report_params, ctl_bytes, F_U64),
	FIELD(report_params, entropy_count, F_U64),
	FIELD(report_params, reps_ring, F_U64),
	FIELD(report_params, reps_freeze_us, F_U64),
	FIELD(report_params, base_rtt_ns, F_U64),
	FIELD(report_params, bdp, F_U64),
	FIELD(report_params, limit, F_U64),
	FIELD(report_params, kmin, F_U64),
	FIELD(report_params, kmax, F_U64),
	FIELD(report_params, pmax, F_U64),
	FIELD(report_params, focus, F_STR),
};

static const struct field report_result_fields[] = {
	FIELD(run_result, flows, F_U64),
	FIELD(run_result, flows_done, F_U64),
	FIELD(run_result, end_ns, F_U64),
	FIELD(run_result, events, F_U64),
	FIELD(run_result, focus_util, F_DBL),
	FIELD(run_result, focus_busy, F_U64),
	FIELD(run_result, busy_uplinks, F_U64),
	FIELD(run_result, jain, F_DBL),
	FIELD(run_result, goodput_gbps, F_DBL),
	FIELD(run_result, fct_mean_ns, F_U64),
	FIELD(run_result, fct_p99_ns, F_U64),
	FIELD(run_result, fct_max_ns, F_U64),
	FIELD(run_result, drops, F_U64),
	FIELD(run_result, marks, F_U64),
	FIELD(run_result, peak_queue, F_U64),
	FIELD(run_result, retx, F_U64),
	FIELD(run_result, lost, F_U64),
	FIELD(run_result, timeouts, F_U64),
	FIELD(run_result, ecn_acks, F_U64),
	FIELD(run_result, cnps, F_U64),
};

struct report_flow {
	u64 id, src, dst, bytes, done, fct_ns;
	double gbps;
	u64 retx, lost, timeouts, ecn_acks, cnps;
};

static const struct field report_flow_fields[] = {
	FIELD(report_flow, id, F_U64),
	FIELD(report_flow, src, F_U64),
	FIELD(report_flow, dst, F_U64),
	FIELD(report_flow, bytes, F_U64),
	FIELD(report_flow, done, F_U64),
	FIELD(report_flow, fct_ns, F_U64),
	FIELD(report_flow, gbps, F_DBL),
	FIELD(report_flow, retx, F_U64),
	FIELD(report_flow, lost, F_U64),
	FIELD(report_flow, timeouts, F_U64),
	FIELD(report_flow, ecn_acks, F_U64),
	FIELD(report_flow, cnps, F_U64),
};

/* One "name value" as text (@sep before it, @suffix after the name) or
 * as a JSON member (@sep: the comma or nothing).
 */
static void report_put(struct report *rep, const char *sep, const char *name,
		       const char *suffix, enum field_type type,
		       const void *v)
{
	const char *q = rep->json ? "\"" : "";

	fprintf(rep->out, "%s%s%s%s%s%s", sep, q, name, suffix, q,
		rep->json ? ": " : " ");
	switch (type) {
	case F_U64:
		fprintf(rep->out, "%llu", (unsigned long long)*(const u64 *)v);
		break;
	case F_DBL:
		fprintf(rep->out, "%.4f", *(const double *)v);
		break;
	case F_STR:
		fprintf(rep->out, "%s%s%s", q, *(const char * const *)v, q);
		break;
	}
}

/* Fields of @base: a line each as text, unless @inline (one line, space
 * separated); a JSON object's members.
 */
static void report_fields(struct report *rep, const void *base,
			  const struct field *f, size_t n, const char *suffix,
			  bool inline_text)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *sep;

		if (rep->json)
			sep = i ? ", " : "";
		else
			sep = inline_text ? " " : "";
		report_put(rep, sep, f[i].name, suffix, f[i].type,
			   (const char *)base + f[i].off);
		if (!rep->json && !inline_text)
			fputc('\n', rep->out);
	}
}

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

	fct = calloc(s->nflows, sizeof(*fct));
	if (!fct) {
		perror("uet-sim: report");
		exit(2);
	}
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flows[i];
		double rate;

		r->retx += f->retx;
		r->lost += f->lost;
		r->timeouts += f->timeouts;
		r->ecn_acks += f->ecn_acks;
		r->cnps += f->cnps;
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

static void report_ports(const struct sim *s, struct run_result *r)
{
	const struct topo *t = &s->topo;
	u64 first = U64_MAX, last = 0, line = 0;
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
	/* Drops, marks and the peak queue: every switch port. */
	for (i = 0; i < t->nhosts; i++) {
		r->drops += t->down[i].st.drops;
		r->marks += t->down[i].st.marks;
		r->peak_queue = max_t(u64, r->peak_queue, t->down[i].st.peak);
	}
	for (i = 0; i < nup; i++) {
		const struct port_stats *u = &t->up[i].st, *d = &t->sdown[i].st;

		r->drops += u->drops + d->drops;
		r->marks += u->marks + d->marks;
		r->peak_queue = max_t(u64, r->peak_queue, max(u->peak, d->peak));
	}
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
}

void report_begin(struct report *rep, const struct sim *s)
{
	const struct sim_params *p = s->p;
	const struct topo *t = &s->topo;
	u32 i;
	const struct report_params rp = {
		.scenario = p->scenario,
		.seed = p->seed,
		.seeds = p->seeds,
		.leaves = p->leaves,
		.spines = p->spines,
		.hosts = p->hosts,
		.rate_gbps = p->rate_gbps,
		.mtu = p->mtu,
		.hop_ns = p->hop_ns,
		.lb = p->lb->name,
		.cc = p->cc->name,
		.flowlet_pkts = p->flowlet_pkts,
		.bytes = p->bytes,
		.flows = s->nflows,
		.rto_min_us = p->rto_min_us,
		.max_ns = p->max_ns,
		.mpr = FLOW_MPR,
		.dupthresh = FLOW_DUPTHRESH,
		.ctl_bytes = PKT_CTL_BYTES,
		.entropy_count = UET_LB_EV_COUNT_DEFAULT,
		.reps_ring = UET_LB_REPS_RING_DEFAULT,
		.reps_freeze_us = UET_LB_REPS_FREEZE_US_DEFAULT,
		.base_rtt_ns = t->base_rtt_ns,
		.bdp = t->bdp,
		.limit = t->limit,
		.kmin = t->kmin,
		.kmax = t->kmax,
		.pmax = t->pmax,
		.focus = s->focus_name,
	};

	rep->runs = 0;
	rep->sum = (struct run_result){ 0 };
	rep->busy_min = U64_MAX;
	rep->busy_max = 0;
	rep->hist_len = t->leaves * t->spines + 1;
	rep->busy_hist = calloc(rep->hist_len, sizeof(*rep->busy_hist));
	if (!rep->busy_hist) {
		perror("uet-sim: report");
		exit(2);
	}
	fputs(rep->json ? "{\"params\": {" : "", rep->out);
	report_fields(rep, &rp, report_param_fields,
		      ARRAY_SIZE(report_param_fields), "", false);
	/* The algorithm's own, named cc_NAME. */
	for (i = 0; i < p->cc->nparams; i++) {
		u64 v = p->cc_params[i];
		char name[64];

		snprintf(name, sizeof(name), "cc_%s", p->cc->params[i].name);
		report_put(rep, rep->json ? ", " : "", name, "", F_U64, &v);
		if (!rep->json)
			fputc('\n', rep->out);
	}
	fputs(rep->json ? "}" : "", rep->out);
}

static void report_flow_line(struct report *rep, const struct flow *f,
			     bool first)
{
	struct uet_cc_stat st[UET_CC_STATS_MAX];
	const struct report_flow rf = {
		.id = f->id,
		.src = f->src,
		.dst = f->dst,
		.bytes = f->bytes,
		.done = f->done,
		.fct_ns = f->done ? f->done_ns : 0,
		.gbps = f->done ? (double)f->bytes * 8 / f->done_ns : 0,
		.retx = f->retx,
		.lost = f->lost,
		.timeouts = f->timeouts,
		.ecn_acks = f->ecn_acks,
		.cnps = f->cnps,
	};
	int i, n = f->cc.ops->get_info(&f->cc, st);

	fputs(rep->json ? (first ? "\n  {" : ",\n  {") : "flow", rep->out);
	report_fields(rep, &rf, report_flow_fields,
		      ARRAY_SIZE(report_flow_fields), "", true);
	fputs(rep->json ? ", \"cc\": {" : "", rep->out);
	for (i = 0; i < n; i++)
		report_put(rep, rep->json && i ? ", " : " ", st[i].name,
			   "", F_U64, &st[i].value);
	fputs(rep->json ? "}}" : "\n", rep->out);
}

void report_run(struct report *rep, const struct sim *s,
		const struct run_result *r)
{
	const struct field *f = report_result_fields;
	size_t i;
	u32 j;

	rep->runs++;
	for (i = 0; i < ARRAY_SIZE(report_result_fields); i++) {
		char *sum = (char *)&rep->sum + f[i].off;
		const char *v = (const char *)r + f[i].off;

		if (f[i].type == F_DBL)
			*(double *)sum += *(const double *)v;
		else
			*(u64 *)sum += *(const u64 *)v;
	}
	rep->busy_min = min(rep->busy_min, r->busy_uplinks);
	rep->busy_max = max(rep->busy_max, r->busy_uplinks);
	rep->busy_hist[r->busy_uplinks]++;
	if (s->p->seeds > 1)
		return;
	fputs(rep->json ? ",\n \"results\": {" : "\n", rep->out);
	report_fields(rep, r, f, ARRAY_SIZE(report_result_fields), "", false);
	fputs(rep->json ? "},\n \"flows\": [" : "\n", rep->out);
	for (j = 0; j < s->nflows; j++)
		report_flow_line(rep, &s->flows[j], !j);
	fputs(rep->json ? "]" : "", rep->out);
}

/* Over several seeds: the mean of every result, the spread of the busy
 * uplinks.
 */
static void report_means(struct report *rep)
{
	const struct field *f = report_result_fields;
	u64 minmax[2] = { rep->busy_min, rep->busy_max };
	double mean;
	size_t i;

	fputs(rep->json ? ",\n \"means\": {" : "\n", rep->out);
	for (i = 0; i < ARRAY_SIZE(report_result_fields); i++) {
		const char *sum = (const char *)&rep->sum + f[i].off;

		mean = f[i].type == F_DBL ? *(const double *)sum :
		       (double)*(const u64 *)sum;
		mean /= rep->runs;
		report_put(rep, rep->json && i ? ", " : "", f[i].name, "_mean",
			   F_DBL, &mean);
		if (!rep->json)
			fputc('\n', rep->out);
	}
	report_put(rep, rep->json ? ", " : "", "busy_uplinks_min", "", F_U64,
		   &minmax[0]);
	report_put(rep, rep->json ? ", " : "\n", "busy_uplinks_max", "",
		   F_U64, &minmax[1]);
	fputs(rep->json ? ", \"busy_uplinks_hist\": [" :
			  "\nbusy_uplinks_hist", rep->out);
	for (i = 0; i < rep->hist_len; i++)
		fprintf(rep->out, "%s%llu", rep->json && i ? ", " : " ",
			(unsigned long long)rep->busy_hist[i]);
	fputs(rep->json ? "]}" : "\n", rep->out);
}

void report_end(struct report *rep)
{
	if (rep->runs > 1)
		report_means(rep);
	fputs(rep->json ? "}\n" : "", rep->out);
	free(rep->busy_hist);
	rep->busy_hist = NULL;
}
