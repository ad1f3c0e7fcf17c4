/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One simulation: its parameters, the fabric, the hosts and their flows,
 * driven by one event queue.
 */
#ifndef _SIM_SIM_H
#define _SIM_SIM_H

#include <linux/types.h>

#include "cc.h"
#include "event.h"
#include "fabric.h"
#include "lb.h"
#include "topo.h"

/* Groups of parameters and results a scenario prints beyond the common
 * ones.
 */
enum sim_group {
	SIM_G_TUNE = 1 << 0,	/* ports as uet tune sizes them */
	SIM_G_LONG = 1 << 1,	/* a long link, flows for a time */
	SIM_G_FAIL = 1 << 2,	/* a link fails or slows */
	SIM_G_PATHS = 1 << 3,	/* the entropy values' states at work */
	SIM_G_TIMING = 1 << 4,	/* wall time: never in expected.txt */
};

struct sim_params {
	const char *scenario;
	u32 groups;		/* enum sim_group */
	u64 seed;		/* of the first run */
	u32 seeds;		/* runs, seed, seed + 1, ... */
	u32 leaves, spines, hosts;	/* hosts per leaf */
	u32 rate_gbps;
	u32 mtu;		/* a full data packet on the wire */
	u32 hop_ns;		/* propagation per link */
	u64 rtt_ns;		/* a base RTT the hops are set for; 0: none */
	u32 km;			/* leaf 0's links to the spines, long */
	const struct uet_lb_ops *lb;
	const struct uet_cc_ops *cc;
	u32 cc_params[UET_CC_PARAMS_MAX];	/* cc's, in its order */
	u32 flowlet_pkts;	/* as the module's; 0: auto */
	u64 bytes;		/* per flow; 0: what the run can carry */
	u32 senders;		/* incast, longhaul */
	u32 mpr;		/* PSNs a flow may span */
	u32 rto_min_us;
	u64 max_ns;		/* a run stops here, flows done or not */
	bool tune;		/* ports sized by uet tune */
	/* A link of spine fail_spine to leaf 1 fails (slow_pct 0) or runs
	 * at slow_pct % of the rate from fail_ns on.
	 */
	u64 fail_ns;
	u32 fail_spine, slow_pct;
	u32 probe_us;		/* interval of a value's probes */
	u32 entropy_count;	/* values per peer, as the module's */
	u32 reps_ring;		/* REPS's recycled values, as the module's */
	u64 bin_ns;		/* the meter's and series' bins; 0: base RTT */
	const char *series;	/* a file for the time series, or NULL */
	bool json;
};

struct host;
struct flow;
struct meter;

struct sim {
	const struct sim_params *p;
	u64 seed;		/* this run's */
	struct evq evq;
	struct pkt_pool pool;
	struct topo topo;
	struct host *hosts;
	struct flow *flows;
	u32 nflows, flows_done;
	/* The ports whose use the scenario reports. */
	struct port **focus;
	u32 nfocus;
	const char *focus_name;
	struct meter *meter;	/* first copies delivered over time, or NULL */
	u64 warm_ns;		/* SIM_G_LONG: the focus ports' use from here */
	u64 warm_line_ns;	/* ... their line time then */
};

#endif /* _SIM_SIM_H */
