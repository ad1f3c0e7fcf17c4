// SPDX-License-Identifier: GPL-2.0
/*
 * The time series (series.h). A row is written once the first event of
 * a later bin comes: every event of the bin has run, and none after it.
 * Figures are integers or rates with 3 decimals: the same run writes the
 * same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/kernel.h>

#include "alloc.h"
#include "host.h"
#include "series.h"

struct series {
	struct sim *s;
	const char *path;
	FILE *out;
	u64 bin_ns;
	u64 start_ns, end_ns;	/* the bin being filled */
	u64 marks, drops;	/* the focus ports' when it started */
	u64 *rcvd;		/* [flow] first copies' bytes then */
};

static void series_fail(const struct series *sr)
{
	fprintf(stderr, "uet-sim: --series %s: %s\n", sr->path,
		strerror(errno));
	exit(2);
}

/* "# KEY VALUE" lines a plot reads its titles and thresholds from, then
 * the columns' names.
 */
static void series_header(const struct series *sr)
{
	const struct sim *s = sr->s;
	const struct sim_params *p = s->p;
	const struct topo *t = &s->topo;
	FILE *out = sr->out;
	u32 i;

	fprintf(out, "# uet-sim %s --series: a row per bin: its start, the largest\n"
		"# data backlog of a focus port in it, the focus ports' marks and\n"
		"# drops in it, the rate each flow delivered in it\n",
		p->scenario);
	fprintf(out, "# scenario %s\n# cc %s\n# lb %s\n# seed %llu\n",
		p->scenario, p->cc->name, p->lb->name,
		(unsigned long long)s->seed);
	fprintf(out, "# flows %u\n# rate_gbps %u\n# bin_ns %llu\n",
		s->nflows, p->rate_gbps, (unsigned long long)sr->bin_ns);
	fprintf(out, "# base_rtt_ns %llu\n# bdp %u\n",
		(unsigned long long)t->base_rtt_ns, t->bdp);
	fprintf(out, "# limit %u\n# kmin %u\n# kmax %u\n# pmax %u\n",
		t->limit, t->kmin, t->kmax, t->pmax);
	fprintf(out, "# focus %s\n# focus_ports %u\n", s->focus_name,
		s->nfocus);
	fprintf(out, "# fail_ns %llu\n# slow_pct %u\n",
		(unsigned long long)p->fail_ns, p->slow_pct);
	fputs("# t_us backlog_bytes marks drops", out);
	for (i = 0; i < s->nflows; i++)
		fprintf(out, " flow%u_gbps", i);
	fputc('\n', out);
}

/* The row of the bin being filled, @span_ns of it run; the next starts. */
static void series_row(struct series *sr, u64 span_ns)
{
	const struct sim *s = sr->s;
	u64 marks = 0, drops = 0, rcvd;
	u32 peak = 0, i;

	for (i = 0; i < s->nfocus; i++) {
		struct port *p = s->focus[i];

		peak = max(peak, p->watch_peak);
		/* The next bin starts with what is queued now. */
		p->watch_peak = p->backlog[PORT_DATA];
		marks += p->st.marks;
		drops += p->st.drops;
	}
	fprintf(sr->out, "%llu.%03llu %u %llu %llu",
		(unsigned long long)sr->start_ns / 1000,
		(unsigned long long)sr->start_ns % 1000, peak,
		(unsigned long long)(marks - sr->marks),
		(unsigned long long)(drops - sr->drops));
	sr->marks = marks;
	sr->drops = drops;
	for (i = 0; i < s->nflows; i++) {
		rcvd = s->flows[i].rcvd_bytes;
		fprintf(sr->out, " %.3f",
			(double)(rcvd - sr->rcvd[i]) * 8 / span_ns);
		sr->rcvd[i] = rcvd;
	}
	fputc('\n', sr->out);
	sr->start_ns += span_ns;
}

/* Before an event at @t: the bins that ended by then are done. */
static u64 series_watch(void *ctx, u64 t)
{
	struct series *sr = ctx;

	while (t >= sr->end_ns) {
		series_row(sr, sr->end_ns - sr->start_ns);
		sr->end_ns += sr->bin_ns;
	}
	return sr->end_ns;
}

struct series *series_open(struct sim *s, const char *path, u64 bin_ns,
			   u64 at_ns)
{
	struct series *sr = sim_calloc(1, sizeof(*sr), "--series");

	sr->rcvd = sim_calloc(s->nflows, sizeof(*sr->rcvd), "--series");
	sr->s = s;
	sr->path = path;
	sr->bin_ns = bin_ns;
	sr->end_ns = at_ns % bin_ns ?: bin_ns;
	sr->out = fopen(path, "w");
	if (!sr->out)
		series_fail(sr);
	series_header(sr);
	s->evq.watch = series_watch;
	s->evq.watch_ctx = sr;
	s->evq.watch_ns = sr->end_ns;
	return sr;
}

void series_close(struct series *sr, u64 end_ns)
{
	series_watch(sr, end_ns);
	if (end_ns > sr->start_ns)
		series_row(sr, end_ns - sr->start_ns);
	if (ferror(sr->out) || fclose(sr->out))
		series_fail(sr);
	sr->s->evq.watch = NULL;
	free(sr->rcvd);
	free(sr);
}
