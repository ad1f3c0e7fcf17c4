/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A receiver's acknowledgment policy: when the coalesced ACK of an RC
 * QP goes, what it carries, when a hole is NACKed, and on which entropy
 * value a control packet answers. resp.c and ctl.c build and send what
 * it decides; uet-sim (tools/sim) compiles it unchanged. Pure logic: no
 * ib_core, no sockets, no clock of its own (callers pass times in ns),
 * so KUnit drives it.
 */
#ifndef _UET_ACK_H
#define _UET_ACK_H

#include <linux/types.h>

#include "pdc.h"
#include "wire.h"

struct uet_ev_table;

/* Values a control packet tries before it takes one not usable. */
#define UET_ACK_CTL_TRIES	4

/* What the next ACK answers, and when it is due. Its holder's owner
 * alone touches it (resp.c: the engine's).
 */
struct uet_ack {
	u32 pending;		/* new packets not yet acknowledged */
	bool now;		/* due at the end of the pass */
	bool ecn;		/* a CE mark arrived since the last ACK */
	bool dup;		/* a duplicate arrived since the last ACK */
	bool retx;		/* a retransmission arrived since then */
	u32 psn;		/* the packet the next ACK answers */
	u16 ev;			/* ... the entropy value it arrived on */
	u64 rx_ns;		/* ... its arrival */
	u64 deadline_ns;	/* the oldest unacknowledged packet's ACK is due */
	struct uet_pdc_ack_hold hold;
	/* The first hole, for NACK PKT_NOT_RCVD. */
	u32 hole_psn;
	u64 hole_since_ns;	/* when it was first seen; 0: none yet */
	bool hole_nacked;
};

/* A data packet the PDC took (UET_PDC_NEW) or knew (UET_PDC_DUP). */
struct uet_ack_pkt {
	u64 t;			/* its arrival */
	u32 psn;
	u16 ev;			/* the entropy value it arrived on */
	bool in_order;		/* it was the lowest PSN missing */
	bool ackreq;		/* the sender asked for an ACK (ACKREQ) */
};

/* What a pass does about the coalesced ACK (uet_ack_due()). */
enum uet_ack_action {
	UET_ACK_NONE,		/* nothing, or the queued timer will */
	UET_ACK_ARM,		/* start the timer to fire at deadline_ns */
	UET_ACK_SEND,		/* send it now (uet_ack_fill()) */
};

static inline void uet_ack_reset(struct uet_ack *a)
{
	*a = (struct uet_ack){};
}

/* The QP is in error: nothing is due until a packet comes after a reset. */
static inline void uet_ack_cancel(struct uet_ack *a)
{
	a->pending = 0;
	a->now = false;
}

/* After each copy of an ACK: one mark, one congestion signal. */
static inline void uet_ack_next_copy(struct uet_pds_ack *ack)
{
	ack->flags &= ~UET_PDS_ACK_F_ECN;
}

void uet_ack_arrived(struct uet_ack *a, bool retx, bool ce);
void uet_ack_dup(struct uet_ack *a, const struct uet_ack_pkt *pkt);
bool uet_ack_new(struct uet_ack *a, const struct uet_ack_pkt *pkt, u32 every,
		 u32 delay_us, u32 rto_min_us);
bool uet_ack_hole(struct uet_ack *a, const struct uet_pdc_rx *rx, u64 now,
		  u32 reorder_pkts, u32 reorder_us);
enum uet_ack_action uet_ack_due(const struct uet_ack *a, u64 now, u32 every,
				bool timer_queued);
u32 uet_ack_fill(struct uet_ack *a, const struct uet_pdc_rx *rx, u64 now,
		 struct uet_pds_ack *ack);
u16 uet_ack_ctl_entropy(const struct uet_ev_table *t, u32 *seq, u64 now);

#endif /* _UET_ACK_H */
