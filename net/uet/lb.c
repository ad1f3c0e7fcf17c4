// SPDX-License-Identifier: GPL-2.0
/*
 * Load balancing algorithms (UE 1.0 section 3.6.16; the REPS paper).
 *
 * "single" keeps one entropy value per QP, so the fabric's ECMP hash pins
 * the QP to one path, as RoCE does; it moves to another value only when
 * its own stops being usable (failover, not balancing).
 *
 * "spray" gives each packet the next value of a pseudo-random permutation
 * of the set, re-drawn every round, so every path carries an equal share
 * (UET oblivious spraying); values that are not usable are passed over.
 *
 * "reps" (Recycled Entropy Packet Spraying) sends on values whose packets
 * came back unmarked, from a small ring, and explores random ones when
 * the ring runs dry: congested paths stop being chosen because their
 * values are not recycled. A loss freezes: the ring's known-good values
 * are replayed rather than used once, and none is explored, until the
 * freeze ends.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "lb.h"

static bool uet_lb_usable(const struct uet_lb *lb, u16 ev, u64 now)
{
	return !lb->evt || uet_ev_usable(lb->evt, ev, now);
}

/* A random usable value of the set; after a few misses, any value: when
 * most paths look bad it is better to try one than to stop.
 */
static u16 uet_lb_random(struct uet_lb *lb, u64 now)
{
	u16 ev = lb->base;
	int tries;

	for (tries = 0; tries < 8; tries++) {
		ev = lb->base + prandom_u32_state(&lb->rnd) % lb->count;
		if (uet_lb_usable(lb, ev, now))
			break;
	}
	return ev;
}

static u16 uet_lb_single_next(struct uet_lb *lb, u64 now)
{
	/* Congestion does not move a single-path QP, a broken path does. */
	if (lb->evt && !uet_ev_alive(lb->evt, lb->cur))
		lb->cur = uet_lb_random(lb, now);
	return lb->cur;
}

const struct uet_lb_ops uet_lb_single = {
	.name = "single",
	.next = uet_lb_single_next,
};
EXPORT_SYMBOL_IF_KUNIT(uet_lb_single);

static void uet_lb_spray_round(struct uet_lb *lb)
{
	u32 n = lb->count;

	lb->pos = 0;
	lb->add = n > 1 ? prandom_u32_state(&lb->rnd) % n : 0;
	/* A multiplier coprime to n: the expected number of draws is small
	 * (n / phi(n) is below 4 for any n up to 2^14).
	 */
	do {
		lb->mul = n > 1 ? 1 + prandom_u32_state(&lb->rnd) % (n - 1) : 1;
	} while (gcd(lb->mul, n) != 1);
}

static u16 uet_lb_spray_step(struct uet_lb *lb)
{
	u32 i;

	if (lb->pos == lb->count)
		uet_lb_spray_round(lb);
	i = (u32)(((u64)lb->mul * lb->pos++ + lb->add) % lb->count);
	return lb->base + i;
}

static u16 uet_lb_spray_next(struct uet_lb *lb, u64 now)
{
	u16 ev = uet_lb_spray_step(lb);
	u32 tries;

	for (tries = 1; tries < lb->count && !uet_lb_usable(lb, ev, now);
	     tries++)
		ev = uet_lb_spray_step(lb);
	return ev;
}

const struct uet_lb_ops uet_lb_spray = {
	.name = "spray",
	.sprays = true,
	.next = uet_lb_spray_next,
};
EXPORT_SYMBOL_IF_KUNIT(uet_lb_spray);

static u16 uet_lb_reps_next(struct uet_lb *lb, u64 now)
{
	u16 ev;

	if (lb->frozen && now >= lb->freeze_until_ns) {
		lb->frozen = false;
		lb->explore = UET_LB_REPS_EXPLORE;
	}
	if (lb->frozen) {
		u8 n;

		/* Replay the ring round-robin, keeping its values. */
		for (n = 0; n < lb->ring_len; n++) {
			ev = lb->ring[(lb->ring_head + lb->replay++ % lb->ring_len) %
				      lb->ring_size];
			if (uet_lb_usable(lb, ev, now))
				return ev;
		}
		return uet_lb_random(lb, now);
	}
	if (lb->explore) {
		lb->explore--;
		return uet_lb_random(lb, now);
	}
	if (++lb->picks % UET_LB_REPS_REFRESH == 0)
		return uet_lb_random(lb, now);
	while (lb->ring_len) {
		ev = lb->ring[lb->ring_head];
		lb->ring_head = (lb->ring_head + 1) % lb->ring_size;
		lb->ring_len--;
		if (uet_lb_usable(lb, ev, now))
			return ev;
	}
	return uet_lb_random(lb, now);
}

static void uet_lb_reps_forget(struct uet_lb *lb, u16 ev)
{
	u8 i, kept = 0;

	for (i = 0; i < lb->ring_len; i++) {
		u16 v = lb->ring[(lb->ring_head + i) % lb->ring_size];

		if (v != ev)
			lb->ring[(lb->ring_head + kept++) % lb->ring_size] = v;
	}
	lb->ring_len = kept;
}

/* Whether ev is in the ring, newest first (a flowcell's own value is
 * the likeliest); one division, not one per entry: it runs for every
 * packet acknowledged.
 */
static bool uet_lb_reps_holds(const struct uet_lb *lb, u16 ev)
{
	u8 i = (lb->ring_head + lb->ring_len) % lb->ring_size, n;

	for (n = 0; n < lb->ring_len; n++) {
		i = i ? i - 1 : lb->ring_size - 1;
		if (lb->ring[i] == ev)
			return true;
	}
	return false;
}

static void uet_lb_reps_feedback(struct uet_lb *lb, u16 ev,
				 enum uet_ev_sig sig, u64 now)
{
	switch (sig) {
	case UET_EV_SIG_GOOD:
		/* Frozen, the ring is replayed, and still refreshed with
		 * values proven since: they are the ones known to work now.
		 * A value is in the ring once: a flowcell's packets, one
		 * value, acknowledged one after the other or around
		 * another's, would else recycle it again and again, and
		 * the values that happen to be recycled most crowd out
		 * the others until a few paths carry everything.
		 */
		if (uet_lb_reps_holds(lb, ev))
			break;
		if (lb->ring_len == lb->ring_size) {
			lb->ring_head = (lb->ring_head + 1) % lb->ring_size;
			lb->ring_len--;
		}
		lb->ring[(lb->ring_head + lb->ring_len++) % lb->ring_size] = ev;
		break;
	case UET_EV_SIG_ECN:
	case UET_EV_SIG_TRIM:
		/* Not recycled: the next packet takes another value. */
		break;
	case UET_EV_SIG_LOSS:
	case UET_EV_SIG_TIMEOUT:
		uet_lb_reps_forget(lb, ev);
		if (!lb->frozen) {
			lb->frozen = true;
			lb->replay = 0;
			lb->freeze_until_ns = now + lb->freeze_ns;
		}
		break;
	}
}

const struct uet_lb_ops uet_lb_reps = {
	.name = "reps",
	.sprays = true,
	.next = uet_lb_reps_next,
	.feedback = uet_lb_reps_feedback,
};
EXPORT_SYMBOL_IF_KUNIT(uet_lb_reps);

/* A round of flowcells on auto: their cap is halved, from the length in
 * use, after a round in which a packet was marked, trimmed or lost, and
 * grows by one after a clean one. A train fills one path's queue at
 * once: on a fabric that signals congestion the cells shrink towards
 * packets, which spread a window evenly (the REPS paper's unit); on one
 * that does not, the host's cost per skb rules and they stay whole.
 */
static void uet_lb_cell_round(struct uet_lb *lb, enum uet_ev_sig sig)
{
	if (sig != UET_EV_SIG_GOOD)
		lb->cell_congested = true;
	if (++lb->cell_heard < UET_LB_FLOWCELLS * lb->cell_len)
		return;
	if (lb->cell_congested)
		lb->cell_cap = max_t(u16, min(lb->cell_cap, lb->cell_len) / 2, 1);
	else
		lb->cell_cap = min_t(u16, lb->cell_cap + 1, UET_LB_CELL_MAX);
	lb->cell_heard = 0;
	lb->cell_congested = false;
}

/**
 * uet_lb_feedback() - what became of a packet
 * @lb: the QP's balancer
 * @ev: the value it was sent on
 * @sig: delivered unmarked, marked, trimmed, lost or timed out
 * @now: when it was learnt
 */
void uet_lb_feedback(struct uet_lb *lb, u16 ev, enum uet_ev_sig sig,
		     u64 now)
{
	if (sig == UET_EV_SIG_GOOD) {
		lb->last_good = ev;
		lb->have_good = true;
	}
	if (lb->ops->sprays)
		uet_lb_cell_round(lb, sig);
	if (lb->ops->feedback)
		lb->ops->feedback(lb, ev, sig, now);
}
EXPORT_SYMBOL_IF_KUNIT(uet_lb_feedback);

/* A retransmission goes where a packet was delivered last, if that
 * packet left after after_ns (the caller passes when the lost copy left:
 * that path worked after whatever lost it). Otherwise (nothing proven
 * since) it goes where the algorithm says, which spreads the risk rather
 * than betting every retransmission on one value. The single-path
 * balancer keeps its one path while it is alive.
 */
u16 uet_lb_next_retx(struct uet_lb *lb, u64 now, u64 after_ns)
{
	const struct uet_ev *e;

	if (lb->ops != &uet_lb_single && lb->have_good && lb->evt &&
	    uet_lb_usable(lb, lb->last_good, now)) {
		e = uet_ev_get((struct uet_ev_table *)lb->evt, lb->last_good);
		if (e && READ_ONCE(e->good_sent_ns) > after_ns)
			return lb->last_good;
	}
	return uet_lb_next(lb, now);
}
EXPORT_SYMBOL_IF_KUNIT(uet_lb_next_retx);

static const struct uet_lb_ops * const uet_lb_all[] = {
	&uet_lb_single,
	&uet_lb_spray,
	&uet_lb_reps,
};

const struct uet_lb_ops *uet_lb_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(uet_lb_all); i++)
		if (!strcmp(uet_lb_all[i]->name, name))
			return uet_lb_all[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_lb_find);

/* Where a set of count values starts, spread over the space by hash. */
u16 uet_lb_set_base(u32 hash, u32 count)
{
	count = clamp_t(u32, count, 1, UET_LB_EV_SPACE);
	return UET_LB_EV_FIRST +
	       reciprocal_scale(hash, UET_LB_EV_SPACE - count + 1);
}
EXPORT_SYMBOL_IF_KUNIT(uet_lb_set_base);

/**
 * uet_lb_init() - start a QP's load balancer
 * @lb: the balancer
 * @ops: the algorithm
 * @hash: seeds the QP's random choices, so its sequence is reproducible;
 *	single starts on the value it picks from the set, so distinct QPs
 *	to one peer take distinct paths
 * @base: the set of values is [@base, @base + @count)
 * @count: values in the set
 * @evt: the peer's table of value states, or NULL
 * @conf: the device's settings for the algorithms
 */
void uet_lb_init(struct uet_lb *lb, const struct uet_lb_ops *ops, u32 hash,
		 u16 base, u32 count, const struct uet_ev_table *evt,
		 const struct uet_lb_conf *conf)
{
	memset(lb, 0, sizeof(*lb));
	lb->ops = ops;
	lb->evt = evt;
	lb->count = clamp_t(u32, count, 1, UET_LB_EV_SPACE);
	lb->base = base;
	lb->cur = base + reciprocal_scale(hash, lb->count);
	prandom_seed_state(&lb->rnd, hash);
	lb->pos = lb->count;
	lb->cell_len = 1;
	lb->cell_cap = UET_LB_CELL_MAX;
	lb->ring_size = clamp_t(u32, conf ? conf->reps_ring :
				UET_LB_REPS_RING_DEFAULT, 1,
				UET_LB_REPS_RING_MAX);
	lb->freeze_ns = (u64)(conf ? conf->reps_freeze_us :
			      UET_LB_REPS_FREEZE_US_DEFAULT) * NSEC_PER_USEC;
}
EXPORT_SYMBOL_IF_KUNIT(uet_lb_init);
