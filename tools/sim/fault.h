/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A link's fault in the middle of a run: the link between a spine and
 * the receivers' leaf (leaf 1) goes down, or runs slower, at a given time;
 * a meter of what the receivers get tells how the flows' rates came
 * back.
 */
#ifndef _SIM_FAULT_H
#define _SIM_FAULT_H

#include "sim.h"

/* The leaf whose link fails: the receivers' in the uplinks workload. */
#define FAULT_LEAF	1
/* The share of the rate before the fault that counts as recovered. */
#define FAULT_RECOVER_PCT	70
/* Rates are read as means over this many bins: a flow's packets in one
 * base RTT are too few (about 20 at 100 Gb/s) to tell a trend from
 * their spacing.
 */
#define FAULT_MEAN_BINS		4

void fault_schedule(struct sim *s);
void fault_free(struct sim *s);

#endif /* _SIM_FAULT_H */
