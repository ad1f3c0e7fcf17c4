// SPDX-License-Identifier: GPL-2.0
/*
 * Printing a run (report.h). Figures are integers where they can be,
 * ratios with 4 decimals: the same run prints the same bytes.
 */
#include <stddef.h>
#include <stdlib.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "alloc.h"
#include "fault.h"
#include "host.h"
#include "meter.h"
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

/* Fields printed when a run's groups hold @group, always if 0. */
struct field_set {
	u32 group;
	const struct field *f;
	size_t n;
};

/* The parameters, given and derived, in the order they are printed. */
struct report_params {
	const char *scenario;
	u64 seed, seeds;
	u64 leaves, spines, hosts, rate_gbps, mtu, hop_ns;
	const char *lb, *cc;
	u64 flowlet_pkts, bytes, flows, rto_min_us, max_ns;
	u64 mpr, dupthresh, rto_max_us, rto_linear;
	u64 ack_every, ack_delay_us, nack_reorder_pkts, nack_reorder_us;
	u64 ctl_bytes;
	u64 entropy_count, reps_ring, reps_freeze_us;
	u64 base_rtt_ns, bdp, limit, kmin, kmax, pmax;
	const char *focus;
	/* SIM_G_TUNE */
	const char *tune_cc;
	u64 trim, rtt_target_ns;
	/* SIM_G_LONG */
	u64 km, long_ns, warm_ns;
	/* SIM_G_FAIL */
	u64 fail_ns, fail_spine, fail_leaf, slow_pct, probe_us, bin_ns;
	u64 recover_pct;
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
	FIELD(report_params, rto_max_us, F_U64),
	FIELD(report_params, rto_linear, F_U64),
	FIELD(report_params, ack_every, F_U64),
	FIELD(report_params, ack_delay_us, F_U64),
	FIELD(report_params, nack_reorder_pkts, F_U64),
	FIELD(report_params, nack_reorder_us, F_U64),
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

static const struct field report_tune_params[] = {
	FIELD(report_params, tune_cc, F_STR),
	FIELD(report_params, trim, F_U64),
	FIELD(report_params, rtt_target_ns, F_U64),
};

static const struct field report_long_params[] = {
	FIELD(report_params, km, F_U64),
	FIELD(report_params, long_ns, F_U64),
	FIELD(report_params, warm_ns, F_U64),
};

static const struct field report_fail_params[] = {
	FIELD(report_params, fail_ns, F_U64),
	FIELD(report_params, fail_spine, F_U64),
	FIELD(report_params, fail_leaf, F_U64),
	FIELD(report_params, slow_pct, F_U64),
	FIELD(report_params, probe_us, F_U64),
	FIELD(report_params, bin_ns, F_U64),
	FIELD(report_params, recover_pct, F_U64),
};

/* After the algorithm's parameters, which come between. */
static const struct field_set report_group_params[] = {
	{ SIM_G_TUNE, report_tune_params, ARRAY_SIZE(report_tune_params) },
	{ SIM_G_LONG, report_long_params, ARRAY_SIZE(report_long_params) },
	{ SIM_G_FAIL, report_fail_params, ARRAY_SIZE(report_fail_params) },
};

static const struct field report_result_fields[] = {
	FIELD(run_result, flows, F_U64),
	FIELD(run_result, flows_done, F_U64),
	FIELD(run_result, end_ns, F_U64),
	FIELD(run_result, events, F_U64),
	FIELD(run_result, focus_util, F_DBL),
	FIELD(run_result, focus_busy, F_U64),
	FIELD(run_result, busy_uplinks, F_U64),
	FIELD(run_result, up_share_min, F_DBL),
	FIELD(run_result, up_share_max, F_DBL),
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
	FIELD(run_result, acks, F_U64),
	FIELD(run_result, dups, F_U64),
	FIELD(run_result, hole_nacks, F_U64),
};

static const struct field report_tune_results[] = {
	FIELD(run_result, trims, F_U64),
	FIELD(run_result, nacks, F_U64),
};

static const struct field report_long_results[] = {
	FIELD(run_result, util_steady, F_DBL),
	FIELD(run_result, peak_rtts, F_DBL),
	FIELD(run_result, delivered_gbps, F_DBL),
	FIELD(run_result, jain_delivered, F_DBL),
};

static const struct field report_fail_results[] = {
	FIELD(run_result, pre_gbps, F_DBL),
	FIELD(run_result, back_ns, F_U64),
	FIELD(run_result, back_rtts, F_DBL),
	FIELD(run_result, recover_ns, F_U64),
	FIELD(run_result, recover_rtts, F_DBL),
	FIELD(run_result, dip, F_DBL),
	FIELD(run_result, after, F_DBL),
	FIELD(run_result, flows_fell, F_U64),
	FIELD(run_result, worst_back_ns, F_U64),
	FIELD(run_result, worst_back_rtts, F_DBL),
	FIELD(run_result, worst_recover_ns, F_U64),
	FIELD(run_result, worst_recover_rtts, F_DBL),
};

static const struct field report_paths_results[] = {
	FIELD(run_result, path_losses, F_U64),
	FIELD(run_result, blackholed, F_U64),
	FIELD(run_result, probes, F_U64),
	FIELD(run_result, probe_oks, F_U64),
};

static const struct field report_timing_results[] = {
	FIELD(run_result, wall_ms, F_DBL),
	FIELD(run_result, events_per_s, F_DBL),
};

static const struct field_set report_results[] = {
	{ 0, report_result_fields, ARRAY_SIZE(report_result_fields) },
	{ SIM_G_TUNE, report_tune_results, ARRAY_SIZE(report_tune_results) },
	{ SIM_G_LONG, report_long_results, ARRAY_SIZE(report_long_results) },
	{ SIM_G_FAIL, report_fail_results, ARRAY_SIZE(report_fail_results) },
	{ SIM_G_PATHS, report_paths_results, ARRAY_SIZE(report_paths_results) },
	{ SIM_G_TIMING, report_timing_results,
	  ARRAY_SIZE(report_timing_results) },
};

struct report_flow {
	u64 id, src, dst, bytes, done, fct_ns;
	double gbps;
	u64 retx, lost, timeouts, ecn_acks, cnps, acks, dups;
	u64 nacks, rcvd_bytes, path_losses, probes, probe_oks;
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
	FIELD(report_flow, acks, F_U64),
	FIELD(report_flow, dups, F_U64),
};

static const struct field report_tune_flow[] = {
	FIELD(report_flow, nacks, F_U64),
};

static const struct field report_long_flow[] = {
	FIELD(report_flow, rcvd_bytes, F_U64),
};

static const struct field report_paths_flow[] = {
	FIELD(report_flow, path_losses, F_U64),
	FIELD(report_flow, probes, F_U64),
	FIELD(report_flow, probe_oks, F_U64),
};

static const struct field_set report_flow_sets[] = {
	{ 0, report_flow_fields, ARRAY_SIZE(report_flow_fields) },
	{ SIM_G_TUNE, report_tune_flow, ARRAY_SIZE(report_tune_flow) },
	{ SIM_G_LONG, report_long_flow, ARRAY_SIZE(report_long_flow) },
	{ SIM_G_PATHS, report_paths_flow, ARRAY_SIZE(report_paths_flow) },
};

static bool report_shows(const struct report *rep, const struct field_set *s)
{
	return !s->group || (rep->groups & s->group);
}

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

/* Fields of @base in the sets the run shows: a line each as text, unless
 * @inline_text (one line, space separated); a JSON object's members,
 * @first when none came before them.
 */
static void report_sets(struct report *rep, const void *base,
			const struct field_set *sets, size_t nsets,
			bool inline_text, bool first)
{
	size_t i, j;

	for (j = 0; j < nsets; j++) {
		const struct field *f = sets[j].f;

		if (!report_shows(rep, &sets[j]))
			continue;
		for (i = 0; i < sets[j].n; i++) {
			const char *sep;

			if (rep->json)
				sep = first ? "" : ", ";
			else
				sep = inline_text ? " " : "";
			first = false;
			report_put(rep, sep, f[i].name, "", f[i].type,
				   (const char *)base + f[i].off);
			if (!rep->json && !inline_text)
				fputc('\n', rep->out);
		}
	}
}

static void report_cc_params(struct report *rep, const struct sim_params *p)
{
	u32 i;

	/* The algorithm's own, named cc_NAME. */
	for (i = 0; i < p->cc->nparams; i++) {
		u64 v = p->cc_params[i];
		char name[64];

		snprintf(name, sizeof(name), "cc_%s", p->cc->params[i].name);
		report_put(rep, rep->json ? ", " : "", name, "", F_U64, &v);
		if (!rep->json)
			fputc('\n', rep->out);
	}
}

void report_begin(struct report *rep, const struct sim *s)
{
	const struct sim_params *p = s->p;
	const struct topo *t = &s->topo;
	const struct field_set base = {
		0, report_param_fields, ARRAY_SIZE(report_param_fields)
	};
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
		.mpr = p->mpr,
		.dupthresh = REQ_DUPTHRESH,
		.rto_max_us = REQ_RTO_MAX_US,
		.rto_linear = REQ_RTO_LINEAR,
		.ack_every = RESP_ACK_EVERY,
		.ack_delay_us = RESP_ACK_DELAY_US,
		.nack_reorder_pkts = RESP_NACK_REORDER_PKTS,
		.nack_reorder_us = RESP_NACK_REORDER_US,
		.ctl_bytes = PKT_CTL_BYTES,
		.entropy_count = p->entropy_count,
		.reps_ring = p->reps_ring,
		.reps_freeze_us = UET_LB_REPS_FREEZE_US_DEFAULT,
		.base_rtt_ns = t->base_rtt_ns,
		.bdp = t->bdp,
		.limit = t->limit,
		.kmin = t->kmin,
		.kmax = t->kmax,
		.pmax = t->pmax,
		.focus = s->focus_name,
		.tune_cc = p->cc == &uet_cc_dcqcn ? "dcqcn" : "nscc",
		.trim = t->trim,
		.rtt_target_ns = p->rtt_ns,
		.km = p->km,
		.long_ns = s->topo.up[0].hop_ns,
		.warm_ns = s->warm_ns,
		.fail_ns = p->fail_ns,
		.fail_spine = p->fail_spine,
		.fail_leaf = FAULT_LEAF,
		.slow_pct = p->slow_pct,
		.probe_us = p->probe_us,
		.bin_ns = s->meter ? s->meter->bin_ns : 0,
		.recover_pct = FAULT_RECOVER_PCT,
	};

	rep->groups = p->groups;
	rep->runs = 0;
	rep->sum = (struct run_result){ 0 };
	rep->busy_min = U64_MAX;
	rep->busy_max = 0;
	rep->hist_len = t->leaves * t->spines + 1;
	rep->busy_hist = sim_calloc(rep->hist_len, sizeof(*rep->busy_hist),
				    "report");
	fputs(rep->json ? "{\"params\": {" : "", rep->out);
	report_sets(rep, &rp, &base, 1, false, true);
	report_cc_params(rep, p);
	report_sets(rep, &rp, report_group_params,
		    ARRAY_SIZE(report_group_params), false, false);
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
		.acks = f->acks,
		.dups = f->dups,
		.nacks = f->nacks,
		.rcvd_bytes = f->rcvd_bytes,
		.path_losses = f->req.tx.path_losses,
		.probes = f->probes,
		.probe_oks = f->probe_oks,
	};
	int i, n = f->cc.ops->get_info(&f->cc, st);

	fputs(rep->json ? (first ? "\n  {" : ",\n  {") : "flow", rep->out);
	report_sets(rep, &rf, report_flow_sets, ARRAY_SIZE(report_flow_sets),
		    true, true);
	fputs(rep->json ? ", \"cc\": {" : "", rep->out);
	for (i = 0; i < n; i++)
		report_put(rep, rep->json && i ? ", " : " ", st[i].name,
			   "", F_U64, &st[i].value);
	fputs(rep->json ? "}}" : "\n", rep->out);
}

/* Adds every result of @r, shown or not, into the sums. */
static void report_add(struct report *rep, const struct run_result *r)
{
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(report_results); j++) {
		const struct field *f = report_results[j].f;

		for (i = 0; i < report_results[j].n; i++) {
			char *sum = (char *)&rep->sum + f[i].off;
			const char *v = (const char *)r + f[i].off;

			if (f[i].type == F_DBL)
				*(double *)sum += *(const double *)v;
			else
				*(u64 *)sum += *(const u64 *)v;
		}
	}
}

void report_run(struct report *rep, const struct sim *s,
		const struct run_result *r)
{
	u32 j;

	rep->runs++;
	report_add(rep, r);
	rep->busy_min = min(rep->busy_min, r->busy_uplinks);
	rep->busy_max = max(rep->busy_max, r->busy_uplinks);
	rep->busy_hist[r->busy_uplinks]++;
	if (s->p->seeds > 1)
		return;
	fputs(rep->json ? ",\n \"results\": {" : "\n", rep->out);
	report_sets(rep, r, report_results, ARRAY_SIZE(report_results), false,
		    true);
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
	u64 minmax[2] = { rep->busy_min, rep->busy_max };
	bool first = true;
	double mean;
	size_t i, j;

	fputs(rep->json ? ",\n \"means\": {" : "\n", rep->out);
	for (j = 0; j < ARRAY_SIZE(report_results); j++) {
		const struct field *f = report_results[j].f;

		if (!report_shows(rep, &report_results[j]))
			continue;
		for (i = 0; i < report_results[j].n; i++) {
			const char *sum = (const char *)&rep->sum + f[i].off;

			mean = f[i].type == F_DBL ? *(const double *)sum :
			       (double)*(const u64 *)sum;
			mean /= rep->runs;
			report_put(rep, rep->json && !first ? ", " : "",
				   f[i].name, "_mean", F_DBL, &mean);
			first = false;
			if (!rep->json)
				fputc('\n', rep->out);
		}
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
