/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A delivery meter: the bytes of data each flow's receiver got for the
 * first time, in bins of time aligned on an event (a link's failure), and
 * how long the rate took to come back after it.
 */
#ifndef _SIM_METER_H
#define _SIM_METER_H

#include <linux/types.h>

struct meter {
	u64 bin_ns;
	u64 origin_ns;		/* a bin starts here */
	u32 nflows;
	u32 nbins;		/* bins allocated */
	u64 *bytes;		/* [bin * nflows + flow] */
};

/* What a flow's rate, or all flows' (flow U32_MAX), did after @at_ns. */
struct meter_recovery {
	double pre_gbps;	/* over the half of the run before @at_ns */
	bool fell;		/* a bin after it fell below the threshold */
	u64 back_ns;		/* from @at_ns to where it is first back */
	u64 recover_ns;		/* from @at_ns to where it stays above */
	double dip;		/* the least mean's rate, of pre_gbps */
	double after;		/* the rate from @at_ns to the horizon, of it */
};

struct meter *meter_new(u64 bin_ns, u64 at_ns, u32 nflows);
void meter_free(struct meter *m);
void meter_add(struct meter *m, u32 flow, u64 now, u32 bytes);
/* The recovery of @flow's rate to @pct % of what it was before @at_ns,
 * judged on its means over @w bins, the whole bins up to @end_ns: until
 * the end of the last mean below it before one at or above it, and of
 * the last below it.
 */
void meter_recovery(const struct meter *m, u32 flow, u64 at_ns, u64 end_ns,
		    u32 pct, u32 w, struct meter_recovery *r);

#endif /* _SIM_METER_H */
