/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Entropy-value (EV) states of one peer: which UDP source ports, so which
 * paths through the fabric, may carry data to it. Shared by every QP to
 * that peer, as MRC shares path state per destination: one QP's loss
 * warns the others off a dead path. Pure logic, no ib_core and no
 * sockets: KUnit drives it with a fake clock.
 *
 * The states are the UAPI's enum uet_path_state:
 *
 *   GOOD         carries data.
 *   SKIP         lost a packet, or came back trimmed: left alone until
 *                its hold time (an RTT) ends, then GOOD again.
 *   ASSUMED_BAD  lost packets sent after the last one it delivered,
 *                UET_EV_BAD_LOSSES times: carries only probes until one
 *                is answered.
 *   DENIED       the operator's word; only the operator lifts it.
 */
#ifndef _UET_EV_H
#define _UET_EV_H

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uet.h>

/* What the sender learnt about a packet that used an EV. */
enum uet_ev_sig {
	UET_EV_SIG_GOOD,	/* acknowledged, not CE-marked */
	UET_EV_SIG_ECN,		/* acknowledged CE-marked */
	UET_EV_SIG_TRIM,	/* NACK TRIMMED: congested, not broken */
	UET_EV_SIG_LOSS,	/* lost (SACK rule or a receiver's NACK) */
	UET_EV_SIG_TIMEOUT,	/* lost by retransmit timeout */
};

/* Losses without a delivery in between that make an EV ASSUMED_BAD. */
#define UET_EV_BAD_LOSSES	2

struct uet_ev {
	atomic_t pkts;		/* data packets sent on it */
	/* Below under the table's lock. */
	u32 ecn;
	u32 nacks;		/* trimmed */
	u32 losses;
	u32 timeouts;
	u64 until_ns;		/* SKIP: hold ends; ASSUMED_BAD: next probe */
	u64 good_sent_ns;	/* send time of the latest packet delivered */
	u64 bad_ns;		/* when it became ASSUMED_BAD */
	u8 state;		/* enum uet_path_state; read locklessly */
	u8 fails;		/* losses since the last delivery */
};

struct uet_ev_table {
	spinlock_t lock;	/* protects the EVs' states and counters */
	u16 base;		/* the EVs are [base, base + count) */
	u32 count;
	u32 nbad;		/* EVs ASSUMED_BAD, under lock */
	struct uet_ev ev[];
};

struct uet_ev_table *uet_ev_table_alloc(u16 base, u32 count);
void uet_ev_table_free(struct uet_ev_table *t);

static inline struct uet_ev *uet_ev_get(struct uet_ev_table *t, u16 ev)
{
	u32 i = (u16)(ev - t->base);

	return i < t->count ? &t->ev[i] : NULL;
}

bool uet_ev_usable(const struct uet_ev_table *t, u16 ev, u64 now);
bool uet_ev_alive(const struct uet_ev_table *t, u16 ev);
bool uet_ev_failed(struct uet_ev_table *t, u16 ev, u64 sent_ns);
void uet_ev_sent(struct uet_ev_table *t, u16 ev);
void uet_ev_signal(struct uet_ev_table *t, u16 ev, enum uet_ev_sig sig,
		   u64 now, u64 sent_ns, u64 hold_ns);
int uet_ev_deny(struct uet_ev_table *t, u16 ev, bool deny);
u32 uet_ev_probe_due(struct uet_ev_table *t, u64 now, u64 interval_ns,
		     u16 *evs, u32 max);
bool uet_ev_probe_ok(struct uet_ev_table *t, u16 ev);
const char *uet_ev_state_name(u8 state);

#endif /* _UET_EV_H */
