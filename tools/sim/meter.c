// SPDX-License-Identifier: GPL-2.0
/*
 * The delivery meter (meter.h). Bins are whole: a rate over part of one
 * would read low at the ends.
 */
#include <stdlib.h>
#include <string.h>

#include <linux/limits.h>
#include <linux/minmax.h>

#include "alloc.h"
#include "meter.h"

struct meter *meter_new(u64 bin_ns, u64 at_ns, u32 nflows)
{
	struct meter *m = sim_calloc(1, sizeof(*m), "meter");

	m->bin_ns = bin_ns;
	m->origin_ns = at_ns % bin_ns;
	m->nflows = nflows;
	return m;
}

void meter_free(struct meter *m)
{
	if (m)
		free(m->bytes);
	free(m);
}

/* Bin 0 ends at origin_ns; bin b spans the bin_ns before its end. */
static u32 meter_bin(const struct meter *m, u64 t)
{
	return (t + m->bin_ns - m->origin_ns) / m->bin_ns;
}

static u64 meter_bin_end(const struct meter *m, u32 b)
{
	return m->origin_ns + (u64)b * m->bin_ns;
}

void meter_add(struct meter *m, u32 flow, u64 now, u32 bytes)
{
	u32 b = meter_bin(m, now), n;

	if (b >= m->nbins) {
		n = max(2 * m->nbins, b + 1024);
		m->bytes = sim_realloc(m->bytes, (size_t)n * m->nflows *
				       sizeof(*m->bytes), "meter");
		memset(m->bytes + (size_t)m->nbins * m->nflows, 0,
		       (size_t)(n - m->nbins) * m->nflows * sizeof(*m->bytes));
		m->nbins = n;
	}
	m->bytes[(size_t)b * m->nflows + flow] += bytes;
}

static u64 meter_get(const struct meter *m, u32 flow, u32 b)
{
	u64 sum = 0;
	u32 i;

	if (b >= m->nbins)
		return 0;
	if (flow != U32_MAX)
		return m->bytes[(size_t)b * m->nflows + flow];
	for (i = 0; i < m->nflows; i++)
		sum += m->bytes[(size_t)b * m->nflows + i];
	return sum;
}

/* The mean of @w bins ending with bin @b. */
static u64 meter_window(const struct meter *m, u32 flow, u32 b, u32 w)
{
	u64 sum = 0;
	u32 i;

	for (i = 0; i < w; i++)
		sum += meter_get(m, flow, b - i);
	return sum / w;
}

void meter_recovery(const struct meter *m, u32 flow, u64 at_ns, u64 end_ns,
		    u32 pct, u32 w, struct meter_recovery *r)
{
	/* The whole bins in the half of the run before at_ns, and after. */
	u32 first = meter_bin(m, at_ns / 2) + 1, at = meter_bin(m, at_ns);
	u32 end = meter_bin(m, end_ns), b, last_low = 0, back = 0;
	u64 pre = 0, post = 0, low = U64_MAX, v;
	double per_bin;

	*r = (struct meter_recovery){ 0 };
	first = min(first, at - 1);
	for (b = first; b < at; b++)
		pre += meter_get(m, flow, b);
	if (!pre || end < at + w)
		return;
	per_bin = (double)pre / (at - first);
	r->pre_gbps = per_bin * 8 / m->bin_ns;
	for (b = at; b < end; b++)
		post += meter_get(m, flow, b);
	for (b = at + w - 1; b < end; b++) {
		v = meter_window(m, flow, b, w);
		low = min(low, v);
		if (v * 100 < per_bin * pct)
			last_low = b;
		else if (last_low && !back)
			back = b;
	}
	r->dip = low / per_bin;
	r->after = post / per_bin / (end - at);
	r->fell = last_low;
	if (last_low)
		r->recover_ns = meter_bin_end(m, last_low) - at_ns;
	/* Never back by the horizon: as long as it was watched. */
	if (last_low)
		r->back_ns = meter_bin_end(m, back ? back - 1 : last_low) -
			     at_ns;
}
