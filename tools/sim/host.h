/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hosts and flows. A flow is one signaled WRITE from a host to another:
 * its sender (requester.h) runs the module's PDC, congestion control
 * (cc.h) and load balancer (lb.h, on an entropy-value table of ev.h) as
 * net/uet/req.c does, its receiver (responder.h) the PDC's receive side
 * and the ACK policy of net/uet/ack.c. A host's NIC sends its flows'
 * packets in turn, when free.
 */
#ifndef _SIM_HOST_H
#define _SIM_HOST_H

#include <linux/types.h>

#include "cc.h"
#include "ev.h"
#include "fabric.h"
#include "lb.h"
#include "requester.h"
#include "responder.h"
#include "sim.h"

/* PSNs a sender's window spans at most by default: the module's default
 * mpr (net/uet/params.c), all that cc "none" and DCQCN are held to.
 */
#define FLOW_MPR		256

struct flow {
	struct sim *sim;
	u32 id, src, dst;
	u64 bytes;
	u32 npkts;
	bool done;
	u64 done_ns;		/* the last ACK came */
	struct uet_cc cc;	/* the sender's */
	struct uet_cc rx_cc;	/* the receiver's: DCQCN's notification point */
	struct uet_lb lb;
	struct uet_ev_table *evt;	/* the sender's values towards dst */
	struct req req;
	struct resp resp;
	bool probing;		/* a round of the prober is pending */

	/* Sender. */
	u64 retx, lost, timeouts, ecn_acks, cnps, nacks;
	u64 probes, probe_oks;	/* sent; answered, the value back in use */
	/* Receiver. */
	u64 rcvd_bytes;		/* first copies */
	u64 acks;		/* sent, copies counted */
	u64 dups;		/* data packets that came again */
	u64 hole_nacks;		/* NACK PKT_NOT_RCVD sent */
};

struct host {
	struct sim *sim;
	u32 id;
	struct port *nic;
	struct flow **send;	/* the flows it sends */
	u32 nsend, rr;
	u64 wake_at;		/* a pacing wake-up is due; U64_MAX: none */
};

static inline u64 flow_now(const struct flow *f)
{
	return f->sim->evq.now;
}

/* Bytes of packet @psn: the last one holds what is left. */
static inline u32 flow_pkt_bytes(const struct flow *f, u32 psn)
{
	u32 mtu = f->sim->p->mtu;

	return psn + 1 < f->npkts ? mtu : f->bytes - (u64)psn * mtu;
}

void hosts_init(struct sim *s);
void hosts_free(struct sim *s);
/* The entropy values host @from uses towards host @to (its peer's). */
struct uet_ev_table *host_peer_values(const struct sim *s, u32 from, u32 to);
/* Room for @n flows; flow_init() sets each up. */
void flows_alloc(struct sim *s, u32 n);
void flow_init(struct sim *s, u32 i, u32 src, u32 dst, u64 bytes);
/* Every flow starts at time 0. */
void flows_start(struct sim *s);

#endif /* _SIM_HOST_H */
