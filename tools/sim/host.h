/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hosts and flows. A flow's sender is driven by the module's own
 * congestion control (cc.h) and load balancer (lb.h, on an entropy-value
 * table of ev.h); its receiver acknowledges every data packet at once,
 * echoing its CE mark, entropy value and send time, answers CE marks
 * with CNPs when the algorithm has a notification point (DCQCN), and a
 * trimmed packet with a NACK at once. A hole is lost when FLOW_DUPTHRESH
 * packets sent after it are acknowledged (RFC 6675's rule on
 * transmissions) and it is older than a reordering window (RFC 8985),
 * when the retransmission timer (RFC 6298) expires, or when it is
 * NACKed; lost packets are sent again before new ones.
 */
#ifndef _SIM_HOST_H
#define _SIM_HOST_H

#include <linux/types.h>

#include "cc.h"
#include "ev.h"
#include "fabric.h"
#include "lb.h"
#include "sim.h"

/* A hole is lost once this many packets sent after it are acknowledged:
 * TCP's duplicate-ACK threshold (RFC 5681), the module's default
 * dupthresh (net/uet/params.c).
 */
#define FLOW_DUPTHRESH		3
/* PSNs a sender's window spans at most by default: the module's default
 * mpr (net/uet/params.c), all that cc "none" and DCQCN are held to.
 */
#define FLOW_MPR		256

/* One transmission of a data packet. */
struct flow_tx {
	u64 sent_ns;
	u32 psn;
	u16 ev;
	u8 state;		/* enum flow_tx_state */
};

enum flow_tx_state {
	TX_OUT,
	TX_ACKED,
	TX_LOST,		/* by the SACK rule */
	TX_LOST_RTO,		/* by the timer */
	TX_TRIMMED,		/* NACKed: a switch cut it */
};

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
	struct uet_ev_table *evt;

	/* Sender. */
	u8 *pstate;		/* [psn]: enum flow_psn_state */
	u32 *ptx;		/* [psn]: its latest transmission */
	struct flow_tx *tx;	/* every transmission, in order */
	u32 ntx, txcap;
	u32 tx_una;		/* transmissions before it are resolved */
	u32 next_psn;		/* the next new packet */
	u32 una;		/* the least PSN not acknowledged */
	u32 nacked;
	u64 inflight;		/* bytes sent, not acked nor lost */
	u32 *rq;		/* ring of PSNs to send again */
	u32 rq_head, rq_len;
	u64 srtt, rttvar;	/* RFC 6298; 0: no sample yet */
	u32 backoff;
	u64 rto_at;		/* the timer's deadline; 0: not running */
	u64 rto_ev;		/* when its pending event fires; 0: none */
	u64 loss_ev;		/* a hole's reordering window ends; 0: none */
	u32 cell_left;		/* packets left on cell_ev */
	u16 cell_ev;
	bool probing;		/* a round of the prober is pending */

	/* Receiver. */
	u8 *rcvd;		/* [psn] */
	u32 nrcvd;
	u64 rcvd_bytes;		/* first copies */

	u64 retx, lost, timeouts, ecn_acks, cnps, nacks;
	u64 path_losses;	/* lost on a value that failed: not charged */
	u64 probes, probe_oks;	/* sent; answered, the value back in use */
};

struct host {
	struct sim *sim;
	u32 id;
	struct port *nic;
	struct flow **send;	/* the flows it sends */
	u32 nsend, rr;
	u64 wake_at;		/* a pacing wake-up is due; U64_MAX: none */
};

void hosts_init(struct sim *s);
void hosts_free(struct sim *s);
/* Room for @n flows; flow_init() sets each up. */
void flows_alloc(struct sim *s, u32 n);
void flow_init(struct sim *s, u32 i, u32 src, u32 dst, u64 bytes);
/* Every flow starts at time 0. */
void flows_start(struct sim *s);

#endif /* _SIM_HOST_H */
