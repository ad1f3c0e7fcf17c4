/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a run measured (report.c), and printing it (report_print.c) as
 * text (one "name value" per line, a line per flow) or JSON: every
 * parameter and the seed first, then the results; over several seeds,
 * their means. A scenario's groups (enum sim_group) add parameters and
 * results of their own.
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
	/* Leaf 0's uplinks: the least and the most of its data bytes one
	 * of them carried up.
	 */
	double up_share_min, up_share_max;
	double jain;		/* of the flows' rates, bytes / FCT */
	double goodput_gbps;	/* all flows' bytes / end_ns */
	u64 fct_mean_ns, fct_p99_ns, fct_max_ns;
	u64 drops, marks, peak_queue;
	u64 retx, lost, timeouts, ecn_acks, cnps;
	u64 acks;		/* the receivers sent */
	u64 dups;		/* data packets that arrived again */
	u64 hole_nacks;		/* holes the receivers NACKed */
	/* SIM_G_TUNE */
	u64 trims, nacks;
	/* SIM_G_LONG: the second half of the run */
	double util_steady;	/* the focus ports' line time / its span */
	double peak_rtts;	/* peak_queue / BDP */
	double delivered_gbps;	/* first copies received / run time */
	double jain_delivered;	/* of the bytes each flow delivered */
	/* SIM_G_FAIL: rates after the fault against before it */
	double pre_gbps;	/* all flows' */
	u64 back_ns;		/* until all flows' is first back at 70 % */
	double back_rtts;
	u64 recover_ns;		/* ... and stays there */
	double recover_rtts;
	double dip;		/* the least bin's, of pre_gbps */
	double after;		/* after the fault, of pre_gbps */
	u64 flows_fell;		/* flows whose own rate fell below 70 % */
	u64 worst_back_ns;	/* the slowest of them to come back */
	double worst_back_rtts;
	u64 worst_recover_ns;	/* ... and to stay back */
	double worst_recover_rtts;
	/* SIM_G_PATHS */
	u64 path_losses;	/* losses on values that failed: not charged */
	u64 blackholed;		/* packets the failed link lost */
	u64 probes, probe_oks;
	/* SIM_G_TIMING: never in expected.txt */
	u64 wall_ns;
	double wall_ms;
	double events_per_s;
};

void report_collect(const struct sim *s, struct run_result *r);

struct report {
	FILE *out;
	bool json;
	u32 groups;
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
