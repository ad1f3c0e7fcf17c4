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

struct sim_params {
	const char *scenario;
	u64 seed;		/* of the first run */
	u32 seeds;		/* runs, seed, seed + 1, ... */
	u32 leaves, spines, hosts;	/* hosts per leaf */
	u32 rate_gbps;
	u32 mtu;		/* a full data packet on the wire, bytes */
	u32 hop_ns;		/* propagation per link */
	const struct uet_lb_ops *lb;
	const struct uet_cc_ops *cc;
	u32 cc_params[UET_CC_PARAMS_MAX];	/* cc's, in its order */
	u32 flowlet_pkts;	/* as the module's; 0: auto */
	u64 bytes;		/* per flow */
	u32 senders;		/* incast */
	u32 rto_min_us;
	u64 max_ns;		/* a run stops here, flows done or not */
	bool json;
};

struct host;
struct flow;

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
};

#endif /* _SIM_SIM_H */
