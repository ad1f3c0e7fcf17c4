/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load balancing: which entropy value (the UDP source port, which ECMP
 * switches hash on) each data packet of a QP carries. An algorithm is an
 * ops table chosen by name ("uet dev set DEV lb NAME", "uet qp set ...").
 * The values come from the peer's set (ev.h), whose states say which of
 * them may carry data. Pure logic, no ib_core and no sockets: KUnit
 * drives it.
 */
#ifndef _UET_LB_H
#define _UET_LB_H

#include <linux/prandom.h>
#include <linux/types.h>

#include "ev.h"

/* Flowcells per window when their length is auto: two per path on 4. */
#define UET_LB_FLOWCELLS	8
/* A flowcell's most packets: a train's (train.h). */
#define UET_LB_CELL_MAX		64

/* Entropy values come from the ephemeral port range. */
#define UET_LB_EV_FIRST		0xc000
#define UET_LB_EV_SPACE		0x4000
/* A spray set of 256 values: UET's oblivious spraying wants >= 256
 * (UE 1.0 section 3.6.16).
 */
#define UET_LB_EV_COUNT_DEFAULT	256
/* REPS: 16 values explored on leaving freeze, freeze left after 10 ms
 * (UE 1.0 section 3.6.16 and htsim's UecMpReps). htsim's ring holds 8
 * recyclable values; a frozen ring is replayed round-robin, and 8 values
 * land unevenly on a few paths: drawn at random over 3, half of them or
 * more share one in 3 rings of 4 (11% of rings of 32), which holds the
 * QP to 2/3 of the three paths' rate while frozen. A spine blackholed
 * under one REPS QP on 4 spines (multipath_reps), base RTTs until the
 * rate was back at 70%: with 32, 0, 0, 0, 0, 0, 0, 10, 10, 25, 51; with
 * 8, 0, 0, 14, 24, 24, 33, 34, 38, 44, 53.
 */
#define UET_LB_REPS_RING_MAX	32
#define UET_LB_REPS_RING_DEFAULT 32
#define UET_LB_REPS_EXPLORE	16
/* REPS takes a fresh value for one pick in UET_LB_FLOWCELLS, in place
 * of recycling one, so that the values a QP circulates turn over: with
 * flowcells a window holds only a few, and on a fabric that marks
 * nothing they would keep the paths they hashed to, unevenly, forever.
 */
#define UET_LB_REPS_REFRESH	UET_LB_FLOWCELLS
#define UET_LB_REPS_FREEZE_US_DEFAULT 10000

struct uet_lb;

/**
 * struct uet_lb_ops - a load balancing algorithm
 * @name: what "uet dev set DEV lb NAME" chooses it by
 * @sprays: picks a value per packet, or per flowcell (uet_lb_flowlet()),
 *	rather than keeping one while it works
 * @next: the next data packet's entropy value
 * @feedback: what became of a packet sent on @ev; NULL if not interested
 *
 * Called by the QP's engine, one at a time.
 */
struct uet_lb_ops {
	const char *name;
	bool sprays;
	u16 (*next)(struct uet_lb *lb, u64 now);
	void (*feedback)(struct uet_lb *lb, u16 ev, enum uet_ev_sig sig,
			 u64 now);
};

/* One QP's load balancer; owned by the QP's work after uet_lb_init(). */
struct uet_lb {
	const struct uet_lb_ops *ops;
	const struct uet_ev_table *evt;	/* the peer's states, or NULL */
	u16 base;		/* the set is [base, base + count) */
	u32 count;
	u16 cur;		/* single: the value in use */
	u16 last_good;		/* the value the latest delivery took */
	bool have_good;
	/* spray: round r visits index (mul * i + add) % count for i in
	 * [0, count): a permutation, since mul and count are coprime.
	 */
	u32 mul, add, pos;
	/* reps: values that came back unmarked, oldest at ring_head. */
	u16 ring[UET_LB_REPS_RING_MAX];
	u8 ring_size, ring_head, ring_len, replay;
	u8 explore;		/* random values still to try */
	bool frozen;		/* replaying the ring after a loss */
	u64 freeze_until_ns;
	u64 freeze_ns;
	u32 picks;		/* reps: values given, for the refresh */
	/* Flowcells on auto: at most cell_cap packets; a round is
	 * UET_LB_FLOWCELLS cells of cell_len, the length last given.
	 */
	u16 cell_len, cell_cap;
	u16 cell_heard;		/* packets heard of this round */
	bool cell_congested;	/* a mark, trim or loss this round */
	struct rnd_state rnd;
};

/* Per-algorithm settings a QP starts with (device parameters). */
struct uet_lb_conf {
	u32 reps_ring;
	u32 reps_freeze_us;
};

extern const struct uet_lb_ops uet_lb_single;
extern const struct uet_lb_ops uet_lb_spray;
extern const struct uet_lb_ops uet_lb_reps;

const struct uet_lb_ops *uet_lb_find(const char *name);
u16 uet_lb_set_base(u32 hash, u32 count);
void uet_lb_init(struct uet_lb *lb, const struct uet_lb_ops *ops, u32 hash,
		 u16 base, u32 count, const struct uet_ev_table *evt,
		 const struct uet_lb_conf *conf);

static inline u16 uet_lb_next(struct uet_lb *lb, u64 now)
{
	return lb->ops->next(lb, now);
}

void uet_lb_feedback(struct uet_lb *lb, u16 ev, enum uet_ev_sig sig,
		     u64 now);
u16 uet_lb_next_retx(struct uet_lb *lb, u64 now, u64 after_ns);

/* How many consecutive new packets may share one value (a train,
 * train.h). A spraying balancer's flowcell: the device's flowlet_pkts, or
 * at 0 (auto) an eighth of the @wnd packets the window lets be in
 * flight, so that a window spans UET_LB_FLOWCELLS of them and a large
 * one rides in whole trains, the unit a software host pays for (Presto's
 * flowcells, SIGCOMM 2015); at least one, and at most cell_cap, which
 * the fabric's signals set (uet_lb_feedback()). Of the window, not of
 * what is in flight: a burst starts from an empty pipe. Any number for
 * the others.
 */
static inline u32 uet_lb_flowlet(struct uet_lb *lb, u32 flowlet_pkts,
				 u32 wnd)
{
	if (!lb->ops->sprays)
		return U32_MAX;
	if (flowlet_pkts)
		return flowlet_pkts;
	lb->cell_len = clamp_t(u32, wnd / UET_LB_FLOWCELLS, 1, lb->cell_cap);
	return lb->cell_len;
}

#endif /* _UET_LB_H */
