// SPDX-License-Identifier: GPL-2.0
/*
 * The scenarios (scenario.h) and their defaults.
 */
#include <string.h>

#include <linux/kernel.h>
#include <linux/time64.h>

#include "pdc.h"
#include "scenario.h"
#include "workload.h"

#define SIM_MIB			(1024ULL * 1024)

static void sc_uplinks(struct sim_params *p)
{
	p->lb = &uet_lb_single;
	p->bytes = SIM_MIB;
	p->seeds = 100;
}

/* htsim's SMaRTT incast (arXiv 2404.01630), scaled down: 8 senders of
 * 4 MiB each at 100 Gb/s, 4 KiB packets, 700 ns a hop.
 */
static void sc_incast(struct sim_params *p)
{
	p->bytes = 4 * SIM_MIB;
}

static void sc_perm(struct sim_params *p)
{
	p->bytes = SIM_MIB;
}

/* The REPS paper's failure (arXiv 2407.21625): a spine's link to the
 * receivers' leaf fails under 8 flows once they run at their rate; each
 * long enough to run 5 times as long after it.
 */
static void sc_blackhole(struct sim_params *p)
{
	p->bytes = 8 * SIM_MIB;
	p->fail_ns = 100 * NSEC_PER_USEC;
}

/* The same link runs at a quarter of its rate, as a port that came up at
 * 100 Gb/s in a 400 Gb/s fabric.
 */
static void sc_slowspine(struct sim_params *p)
{
	sc_blackhole(p);
	p->slow_pct = 25;
}

/* The scale-across testbed of a long-haul DCQCN study: 4 senders of one
 * site into one link to another D km away, 4:1, the link's port sized
 * for the path's RTT as uet tune sizes it (2.5 RTT of buffer, ECN from
 * 0.75 to 1.5 RTT), each sender's window one BDP (the study's offered
 * load at 4:1) as far as the module lets a QP's be (mpr 0: auto): flows
 * that run for the whole run.
 */
static void sc_longhaul(struct sim_params *p)
{
	p->spines = 1;
	p->hosts = 4;
	p->km = 50;
	p->cc = &uet_cc_dcqcn;
	p->lb = &uet_lb_single;
	p->tune = true;
	p->mpr = 0;
	p->bytes = 0;
	p->max_ns = 0;
	/* The module's default rto_min_us (net/uet/params.c): the least it
	 * takes, the common default's, is shorter than these paths' RTT.
	 */
	p->rto_min_us = 50000;
}

/* SMaRTT's fabric (arXiv 2404.01630): 1024 hosts, 32 leaves of 32 under
 * 32 spines, 800 Gb/s, 4 KiB packets, 700 ns a hop.
 */
static void sc_scale(struct sim_params *p)
{
	p->leaves = 32;
	p->spines = 32;
	p->hosts = 32;
	p->rate_gbps = 800;
}

static void sc_scale_perm(struct sim_params *p)
{
	sc_scale(p);
	sc_perm(p);
}

static void sc_scale_incast(struct sim_params *p)
{
	sc_scale(p);
	sc_incast(p);
}

const struct scenario sim_scenarios[] = {
	{ "uplinks", "a flow from each host of leaf 0 to leaf 1",
	  wl_uplinks, 2, 0, sc_uplinks },
	{ "incast", "senders outside leaf 0 to its host 0",
	  wl_incast, 2, 0, sc_incast },
	{ "perm", "every host to another, a random cyclic permutation",
	  wl_perm, 1, 0, sc_perm },
	{ "blackhole", "uplinks, a spine's link to leaf 1 fails",
	  wl_uplinks, 2, SIM_G_FAIL | SIM_G_PATHS, sc_blackhole },
	{ "slowspine", "uplinks, a spine's link to leaf 1 slows",
	  wl_uplinks, 2, SIM_G_FAIL | SIM_G_PATHS, sc_slowspine },
	{ "longhaul", "uplinks of 4 hosts into one link of --km km",
	  wl_uplinks, 2, SIM_G_TUNE | SIM_G_LONG | SIM_G_PATHS,
	  sc_longhaul },
	{ "scale-perm", "perm on 1024 hosts at 800 Gb/s",
	  wl_perm, 1, SIM_G_PATHS, sc_scale_perm },
	{ "scale-incast", "incast on 1024 hosts at 800 Gb/s",
	  wl_incast, 2, SIM_G_PATHS, sc_scale_incast },
};

const size_t sim_nscenarios = ARRAY_SIZE(sim_scenarios);

const struct scenario *scenario_find(const char *name)
{
	size_t i;

	for (i = 0; i < sim_nscenarios; i++)
		if (!strcmp(name, sim_scenarios[i].name))
			return &sim_scenarios[i];
	return NULL;
}
