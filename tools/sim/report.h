/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run measured, and printing it as text (one "name value" per
 * line, a line per flow) or JSON: every parameter and the seed first,
 * then the results; over several seeds, their means.
 */
#ifndef _SIM_REPORT_H
#define _SIM_REPORT_H

#include <stdio.h>

#include "sim.h"

struct run_result {
	u64 flows, flows_done;
	u64 end_ns;		/* the last flow done, or the run's end */
	u64 events;
	double focus_util;	/* line time / (ports x their busy span) */
	u64 focus_busy;		/* focus ports that carried data */
	u64 busy_uplinks;	/* leaf-to-spine ports that carried data */
	double jain;		/* of the flows' rates, bytes / FCT */
	double goodput_gbps;	/* all flows' bytes / end_ns */
	u64 fct_mean_ns, fct_p99_ns, fct_max_ns;
	u64 drops, marks, peak_queue;
	u64 retx, lost, timeouts, ecn_acks, cnps;
};

void report_collect(const struct sim *s, struct run_result *r);

struct report {
	FILE *out;
	bool json;
	u32 runs;
	struct run_result sum;
	u64 busy_min, busy_max;
	u64 *busy_hist;		/* [busy uplinks] runs */
	u32 hist_len;
};

/* Starts the report with the parameters, @s a run of them. */
void report_begin(struct report *rep, const struct sim *s);
/* One run: its results and flows when it is the only one. */
void report_run(struct report *rep, const struct sim *s,
		const struct run_result *r);
void report_end(struct report *rep);

#endif /* _SIM_REPORT_H */
