/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenarios uet-sim runs: each a workload on a fabric, with defaults
 * of its own that the options override.
 */
#ifndef _SIM_SCENARIO_H
#define _SIM_SCENARIO_H

#include <stddef.h>

#include "sim.h"

struct scenario {
	const char *name;
	const char *what;
	void (*workload)(struct sim *s);
	/* Leaves it needs: traffic crosses the spines. */
	u32 min_leaves;
	u32 groups;		/* enum sim_group it prints */
	/* Sets the scenario's own defaults over the common ones. */
	void (*defaults)(struct sim_params *p);
};

extern const struct scenario sim_scenarios[];
extern const size_t sim_nscenarios;

const struct scenario *scenario_find(const char *name);

#endif /* _SIM_SCENARIO_H */
