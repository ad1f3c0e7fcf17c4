/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A leaf-spine fabric: hosts_per_leaf hosts under each of the leaves,
 * every leaf linked to every spine, all links of one rate and one
 * propagation delay but leaf 0's to the spines, which may be long (a
 * site's link to another far away). A leaf sends a packet for another
 * leaf up to the spine an ECMP hash of (source, destination, entropy
 * value) picks, a spine down to the destination's leaf. Switch ports are
 * sized from the base RTT as UE 1.0 section 3.6.17 sizes them, or as
 * uet tune does.
 */
#ifndef _SIM_TOPO_H
#define _SIM_TOPO_H

#include <linux/types.h>

#include "fabric.h"

struct topo;

struct topo_switch {
	struct topo *topo;
	u32 index;		/* leaf or spine number */
};

struct topo {
	u32 leaves, spines, hosts_per_leaf, nhosts;
	u64 rate_bps;
	u64 ecmp_seed;
	struct port *nic;	/* [host]: host to its leaf */
	struct port *down;	/* [host]: leaf to host */
	struct port *up;	/* [leaf * spines + spine] */
	struct port *sdown;	/* [spine * leaves + leaf] */
	struct topo_switch *leaf, *spine;
	/* The unloaded RTT across a spine, a full data packet out and an
	 * ACK back, and the plane BDP it makes at the line rate.
	 */
	u64 base_rtt_ns;
	u32 bdp;
	/* Every switch port's data band: a limit, and an ECN ramp. */
	u32 limit, kmin, kmax, pmax;
	bool trim;
};

struct topo_cfg {
	u32 leaves, spines, hosts_per_leaf;
	u64 rate_bps;
	u64 hop_ns;
	u64 long_ns;		/* leaf 0's links to the spines; 0: hop_ns */
	u32 mtu;		/* a full data packet, bytes on the wire */
	u64 seed;
	bool tune;		/* ports as uet tune sizes them ... */
	bool tune_dcqcn;	/* ... for DCQCN's hosts, else NSCC's */
};

void topo_init(struct topo *t, const struct topo_cfg *cfg, struct evq *evq,
	       struct pkt_pool *pool);
void topo_free(struct topo *t);

static inline u32 topo_leaf_of(const struct topo *t, u32 host)
{
	return host / t->hosts_per_leaf;
}

/* Serialisation of @bytes at @rate_bps, ns, rounded down. */
u64 topo_line_ns(u64 bytes, u64 rate_bps);
/* The unloaded RTT across a spine of @cfg's fabric, leaf 0 to leaf 1. */
u64 topo_cfg_base_rtt(const struct topo_cfg *cfg);
/* The hop delay that makes the base RTT @rtt_ns, at most, of @cfg's
 * rate and packets; 0 when the packets' line time alone exceeds it.
 */
u64 topo_hop_for_rtt(const struct topo_cfg *cfg, u64 rtt_ns);
/* The link from @spine down to @leaf fails: its port blackholes. */
void topo_fail_link(struct topo *t, u32 spine, u32 leaf);
/* The link between @spine and @leaf runs at @pct % of its rate, both
 * ways, from now on.
 */
void topo_slow_link(struct topo *t, u32 spine, u32 leaf, u32 pct);

#endif /* _SIM_TOPO_H */
