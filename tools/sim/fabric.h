/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packets and egress ports. A port is a sch_uet port: a band of trimmed
 * packets served first, then a priority band for control packets, then a
 * data band with a byte limit (a packet that does not fit is dropped, or
 * cut to its headers into the trim band when the port trims), ECN marked
 * on a data packet as it leaves, by sch_uet_law.h on the backlog it
 * leaves behind, and the line rate. What is at the far end of its link is
 * a callback. A link that fails drops whatever is on it or comes to it,
 * silently.
 */
#ifndef _SIM_FABRIC_H
#define _SIM_FABRIC_H

#include <linux/prandom.h>
#include <linux/types.h>

#include "event.h"
#include "wire.h"

/* A control packet (ACK, NACK, CNP, probe): a minimum Ethernet frame
 * (IEEE 802.3).
 */
#define PKT_CTL_BYTES	64

enum pkt_kind {
	PKT_DATA,
	PKT_ACK,
	PKT_CNP,
	PKT_NACK,
	PKT_PROBE,		/* of an entropy value assumed bad */
	PKT_PROBE_ANSWER,
};

struct pkt {
	struct pkt *next;	/* in a band, or the pool's free list */
	enum pkt_kind kind;
	u32 bytes;		/* on the wire */
	u32 src, dst;		/* hosts */
	u32 flow;
	u32 psn;		/* data: its number */
	u16 ev;			/* the entropy value it travels on */
	u8 flags;		/* data: UET_PDS_REQ_F_* */
	bool ce;		/* data: CE-marked */
	bool trimmed;		/* data: cut to its headers */
	/* What the module's ACK_CCX and NACK headers carry (wire.h). */
	union {
		struct uet_pds_ack ack;
		struct uet_pds_nack nack;
	};
};

/* Packets are allocated in slabs and kept until the run ends. */
struct pkt_pool {
	struct pkt *free;
	struct pkt_slab *slabs;
};

void pkt_pool_free(struct pkt_pool *pool);
struct pkt *pkt_new(struct pkt_pool *pool);
void pkt_put(struct pkt_pool *pool, struct pkt *pkt);

enum port_band {
	PORT_TRIM,
	PORT_PRIO,
	PORT_DATA,
	PORT_BANDS,
};

struct port_stats {
	u64 data_pkts, data_bytes, ctl_pkts;
	u64 drops, marks, trims;
	u64 blackholed;		/* packets the failed link lost */
	u32 peak;		/* data band backlog, bytes */
	u64 first_ns;		/* a data packet started (U64_MAX: none) */
	u64 last_ns;		/* ... and the last one ended */
	u64 line_ns;		/* time spent sending data */
};

struct port {
	struct evq *evq;
	struct pkt_pool *pool;
	u64 rate_bps;
	u64 hop_ns;		/* propagation to the far end */
	u32 limit;		/* data band bytes; 0: unlimited */
	u32 kmin, kmax, pmax;	/* ECN ramp; pmax 0: no marking */
	bool trim;		/* cut what the data band cannot take */
	bool failed;		/* the link is down */
	struct pkt *head[PORT_BANDS], *tail[PORT_BANDS];
	u32 backlog[PORT_BANDS];
	bool busy;
	u64 carry;		/* bit-ns of line time not yet whole ns */
	struct rnd_state rnd;	/* marking draws */
	/* The far end takes a packet that crossed the link. */
	void (*arrive)(void *to, struct pkt *pkt);
	void *to;
	/* With nothing queued, the owner may give a packet to send now. */
	struct pkt *(*pull)(void *owner);
	void *owner;
	struct port_stats st;
	/* The data band's peak backlog since a series last read it. */
	u32 watch_peak;
};

void port_init(struct port *p, struct evq *evq, struct pkt_pool *pool,
	       u64 rate_bps, u64 hop_ns, u64 seed);
/* Queues @pkt (control packets in the priority band) or drops it. */
void port_enqueue(struct port *p, struct pkt *pkt);
/* Starts sending if idle and there is something to send. */
void port_kick(struct port *p);
/* The link goes down: what is queued and what comes is lost. */
void port_fail(struct port *p);

#endif /* _SIM_FABRIC_H */
