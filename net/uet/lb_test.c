// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: load balancing and entropy-value states, on a fake clock.
 * single keeps one value until its path breaks; spray visits every value
 * of its set exactly once per round, in an order that changes between
 * rounds, passing over values that may not carry data; reps recycles
 * values that came back unmarked, explores when it has none, and freezes
 * on a loss. EV states move GOOD -> SKIP -> ASSUMED_BAD -> GOOD (probe)
 * and DENIED only by the operator.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>
#include <linux/time64.h>

#include "lb.h"

#define MS	NSEC_PER_MSEC
#define BASE	0xd000

static struct uet_ev_table *uet_lb_test_table(struct kunit *test, u32 n)
{
	struct uet_ev_table *t = uet_ev_table_alloc(BASE, n);

	KUNIT_ASSERT_NOT_NULL(test, t);
	return t;
}

static void uet_lb_single_test(struct kunit *test)
{
	struct uet_ev_table *t = uet_lb_test_table(test, 256);
	struct uet_lb lb;
	u16 first;
	int i;

	KUNIT_ASSERT_PTR_EQ(test, uet_lb_find("single"), &uet_lb_single);
	uet_lb_init(&lb, &uet_lb_single, 0x12345678, BASE, 256, t, NULL);
	first = uet_lb_next(&lb, 0);
	KUNIT_EXPECT_EQ(test, first, lb.cur);
	KUNIT_EXPECT_LT(test, (u32)(first - BASE), 256U);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, i), first);
	/* Congestion (a skip) does not move it; a broken path does. */
	uet_ev_signal(t, first, UET_EV_SIG_LOSS, 1 * MS, 1 * MS, MS);
	KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, 1 * MS), first);
	uet_ev_signal(t, first, UET_EV_SIG_LOSS, 2 * MS, 2 * MS, MS);
	KUNIT_EXPECT_EQ(test, t->ev[first - BASE].state, UET_PATH_ASSUMED_BAD);
	KUNIT_EXPECT_NE(test, uet_lb_next(&lb, 2 * MS), first);
	uet_ev_table_free(t);
}

/* Two rounds of n values: each a permutation of the set, not the same. */
static void uet_lb_spray_rounds(struct kunit *test, u32 n, u32 hash)
{
	unsigned long *seen = kunit_kzalloc(test, BITS_TO_LONGS(n) * sizeof(long),
					    GFP_KERNEL);
	u16 *first = kunit_kcalloc(test, n, sizeof(*first), GFP_KERNEL);
	u16 base = uet_lb_set_base(hash, n);
	struct uet_lb lb;
	u32 i, same = 0;
	u16 ev;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_EXPECT_LE(test, base + n, 0x10000U);
	KUNIT_EXPECT_GE(test, base, UET_LB_EV_FIRST);
	uet_lb_init(&lb, &uet_lb_spray, hash, base, n, NULL, NULL);
	KUNIT_ASSERT_EQ(test, lb.count, n);
	for (i = 0; i < n; i++) {
		ev = uet_lb_next(&lb, 0);
		KUNIT_ASSERT_GE(test, ev, lb.base);
		KUNIT_ASSERT_LT(test, ev - lb.base, n);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(ev - lb.base, seen));
		first[i] = ev;
	}
	bitmap_zero(seen, n);
	for (i = 0; i < n; i++) {
		ev = uet_lb_next(&lb, 0);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(ev - lb.base, seen));
		same += ev == first[i];
	}
	/* A re-drawn round repeats the previous order only by chance. */
	if (n >= 16)
		KUNIT_EXPECT_LT(test, same, n);
}

static void uet_lb_spray_test(struct kunit *test)
{
	struct uet_ev_table *t = uet_lb_test_table(test, 64);
	struct uet_lb lb;
	u32 i;

	KUNIT_ASSERT_PTR_EQ(test, uet_lb_find("spray"), &uet_lb_spray);
	uet_lb_spray_rounds(test, 256, 1);
	uet_lb_spray_rounds(test, 100, 0xdeadbeef);
	uet_lb_spray_rounds(test, 7, 42);
	uet_lb_spray_rounds(test, 1, 3);
	uet_lb_spray_rounds(test, UET_LB_EV_SPACE, 0xffffffff);

	/* Denied and broken values carry nothing. */
	uet_ev_deny(t, BASE + 5, true);
	uet_ev_signal(t, BASE + 9, UET_EV_SIG_TIMEOUT, MS, MS, MS);
	uet_ev_signal(t, BASE + 9, UET_EV_SIG_TIMEOUT, MS, MS, MS);
	uet_lb_init(&lb, &uet_lb_spray, 7, BASE, 64, t, NULL);
	for (i = 0; i < 64 * 10; i++) {
		u16 ev = uet_lb_next(&lb, 2 * MS);

		KUNIT_EXPECT_NE(test, ev, BASE + 5);
		KUNIT_EXPECT_NE(test, ev, BASE + 9);
	}
	uet_ev_table_free(t);
}

static void uet_lb_reps_test(struct kunit *test)
{
	struct uet_ev_table *t = uet_lb_test_table(test, 256);
	struct uet_lb_conf conf = { .reps_ring = 8, .reps_freeze_us = 10000 };
	struct uet_lb lb;
	u16 ev, good[8];
	u64 now = MS;
	u8 replay;
	int i;

	KUNIT_ASSERT_PTR_EQ(test, uet_lb_find("reps"), &uet_lb_reps);
	uet_lb_init(&lb, &uet_lb_reps, 99, BASE, 256, t, &conf);

	/* Empty ring: explore random values of the set. */
	for (i = 0; i < 8; i++) {
		good[i] = uet_lb_next(&lb, now);
		KUNIT_EXPECT_LT(test, (u32)(good[i] - BASE), 256U);
	}
	/* Unmarked ACKs recycle, oldest first; one pick in
	 * UET_LB_REPS_REFRESH is a fresh value and leaves the ring alone.
	 */
	for (i = 0; i < 8; i++)
		uet_lb_feedback(&lb, good[i], UET_EV_SIG_GOOD, now);
	for (i = 0; i < 7; i++)
		KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, now), good[i]);
	uet_lb_next(&lb, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 1);
	KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, now), good[7]);
	/* A flowcell's packets, acknowledged one after the other or
	 * around another's, recycle its value once.
	 */
	for (i = 0; i < 32; i++)
		uet_lb_feedback(&lb, good[0], UET_EV_SIG_GOOD, now);
	uet_lb_feedback(&lb, good[1], UET_EV_SIG_GOOD, now);
	uet_lb_feedback(&lb, good[0], UET_EV_SIG_GOOD, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 2);
	KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, now), good[0]);
	KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, now), good[1]);
	/* Marked ones are not recycled: ring empty, explore again. */
	uet_lb_feedback(&lb, good[0], UET_EV_SIG_ECN, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 0);
	/* A full ring drops its oldest value. */
	for (i = 0; i < 8; i++)
		uet_lb_feedback(&lb, good[i], UET_EV_SIG_GOOD, now);
	uet_lb_feedback(&lb, BASE + 200, UET_EV_SIG_GOOD, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 8);
	KUNIT_EXPECT_EQ(test, uet_lb_next(&lb, now), good[1]);

	/* A loss freezes: the ring is replayed, not consumed, no value
	 * outside it is tried, and the lost value is forgotten.
	 */
	uet_lb_feedback(&lb, good[2], UET_EV_SIG_LOSS, now);
	KUNIT_EXPECT_TRUE(test, lb.frozen);
	for (i = 0; i < 60; i++) {
		bool in_ring;
		int j;

		ev = uet_lb_next(&lb, now + i * MS / 10);
		in_ring = ev == BASE + 200;
		for (j = 3; j < 8; j++)
			in_ring |= ev == good[j];
		KUNIT_EXPECT_TRUE(test, in_ring);
		KUNIT_EXPECT_NE(test, ev, good[2]);
	}
	KUNIT_EXPECT_EQ(test, lb.ring_len, 6);
	/* Values proven while frozen join the ring; retransmissions take
	 * the latest one.
	 */
	uet_lb_feedback(&lb, BASE + 201, UET_EV_SIG_GOOD, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 7);
	uet_ev_signal(t, BASE + 201, UET_EV_SIG_GOOD, now, now, MS);
	KUNIT_EXPECT_EQ(test, uet_lb_next_retx(&lb, now, now - 1), BASE + 201);
	/* Not when the lost packet left after the value's last delivery:
	 * then the ring is replayed.
	 */
	replay = lb.replay;
	uet_lb_next_retx(&lb, now, now + 1);
	KUNIT_EXPECT_NE(test, lb.replay, replay);
	uet_lb_feedback(&lb, BASE + 201, UET_EV_SIG_LOSS, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 6);
	/* 10 ms later the freeze ends and 16 values are explored before
	 * the ring is used again.
	 */
	now += 10 * MS;
	uet_lb_next(&lb, now);
	KUNIT_EXPECT_FALSE(test, lb.frozen);
	KUNIT_EXPECT_EQ(test, lb.explore, UET_LB_REPS_EXPLORE - 1);
	for (i = 1; i < UET_LB_REPS_EXPLORE; i++)
		uet_lb_next(&lb, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 6);
	uet_lb_next(&lb, now);
	KUNIT_EXPECT_EQ(test, lb.ring_len, 5);
	uet_ev_table_free(t);
}

/* Whole flowcells on a fabric that marks nothing: a window holds 8, so
 * 8 values circulate, and REPS's refresh turns them over until each of 4
 * paths (a value's path here: its remainder by 4) carries 20..30%.
 */
static void uet_lb_reps_balance_test(struct kunit *test)
{
	u32 share[4] = {}, head = 0, picks = 8000, i;
	struct uet_lb lb;
	u16 flight[8];

	uet_lb_init(&lb, &uet_lb_reps, 5, BASE, 256, NULL, NULL);
	for (i = 0; i < picks; i++) {
		if (i >= ARRAY_SIZE(flight))
			uet_lb_feedback(&lb, flight[head], UET_EV_SIG_GOOD, MS);
		flight[head] = uet_lb_next(&lb, MS);
		share[flight[head] % 4]++;
		head = (head + 1) % ARRAY_SIZE(flight);
	}
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_GE(test, share[i], picks / 5);
		KUNIT_EXPECT_LE(test, share[i], picks * 3 / 10);
	}
}

/* A round of flowcells of len packets: the first packet's fate is sig,
 * the others are delivered unmarked.
 */
static void uet_lb_test_round(struct uet_lb *lb, enum uet_ev_sig sig, u32 len)
{
	u32 i;

	uet_lb_feedback(lb, BASE, sig, 0);
	for (i = 1; i < UET_LB_FLOWCELLS * len; i++)
		uet_lb_feedback(lb, BASE + 1, UET_EV_SIG_GOOD, 0);
}

/* A flowcell: what flowlet_pkts says, or on auto an eighth of the
 * window in packets and at least one; a balancer that keeps one value
 * takes any number.
 */
static void uet_lb_flowlet_test(struct kunit *test)
{
	struct uet_lb lb;

	uet_lb_init(&lb, &uet_lb_spray, 7, BASE, 64, NULL, NULL);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 1, 200), 1U);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 16, 0), 16U);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 0), 1U);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 15), 1U);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 256), 32U);
	uet_lb_init(&lb, &uet_lb_reps, 7, BASE, 64, NULL, NULL);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 80), 10U);
	/* A round of cells with a mark halves them, from the length in
	 * use; a clean round adds one, up to a train's most.
	 */
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 1024), 64U);
	uet_lb_test_round(&lb, UET_EV_SIG_ECN, 64);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 1024), 32U);
	uet_lb_test_round(&lb, UET_EV_SIG_GOOD, 32);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 1024), 33U);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 80), 10U);
	uet_lb_test_round(&lb, UET_EV_SIG_TRIM, 10);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 1024), 5U);
	/* Not within a round: a loss at its start cuts at its end. */
	uet_lb_feedback(&lb, BASE, UET_EV_SIG_LOSS, 0);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 1024), 5U);
	uet_lb_init(&lb, &uet_lb_single, 7, BASE, 64, NULL, NULL);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 0, 0), U32_MAX);
	KUNIT_EXPECT_EQ(test, uet_lb_flowlet(&lb, 1, 0), U32_MAX);
}

static void uet_ev_states_test(struct kunit *test)
{
	struct uet_ev_table *t = uet_lb_test_table(test, 16);
	struct uet_ev *e = &t->ev[3];
	u16 ev = BASE + 3, due[16];

	KUNIT_EXPECT_TRUE(test, uet_ev_usable(t, ev, 0));
	KUNIT_EXPECT_FALSE(test, uet_ev_usable(t, BASE + 16, 0));
	KUNIT_EXPECT_FALSE(test, uet_ev_usable(t, BASE - 1, 0));
	/* Delivered at 5 ms; a packet sent at 4 ms lost: the path worked
	 * after it, so only a skip for the hold time.
	 */
	uet_ev_signal(t, ev, UET_EV_SIG_GOOD, 6 * MS, 5 * MS, MS);
	uet_ev_signal(t, ev, UET_EV_SIG_LOSS, 7 * MS, 4 * MS, MS);
	uet_ev_signal(t, ev, UET_EV_SIG_LOSS, 7 * MS, 4 * MS, MS);
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_SKIP);
	KUNIT_EXPECT_EQ(test, e->losses, 2U);
	KUNIT_EXPECT_FALSE(test, uet_ev_usable(t, ev, 7 * MS));
	KUNIT_EXPECT_TRUE(test, uet_ev_usable(t, ev, 8 * MS));
	/* Trims set it aside too, and count as NACKs. */
	uet_ev_signal(t, BASE + 4, UET_EV_SIG_TRIM, 7 * MS, 6 * MS, MS);
	KUNIT_EXPECT_EQ(test, t->ev[4].state, UET_PATH_SKIP);
	KUNIT_EXPECT_EQ(test, t->ev[4].nacks, 1U);
	/* Two losses of packets sent after the last delivery: broken. The
	 * second is the path's, not congestion's, and so is any loss on it
	 * from then on; one sent before the delivery is not.
	 */
	KUNIT_EXPECT_FALSE(test, uet_ev_failed(t, ev, 8 * MS));
	uet_ev_signal(t, ev, UET_EV_SIG_LOSS, 9 * MS, 8 * MS, MS);
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_SKIP);
	KUNIT_EXPECT_TRUE(test, uet_ev_failed(t, ev, 8 * MS));
	KUNIT_EXPECT_FALSE(test, uet_ev_failed(t, ev, 4 * MS));
	uet_ev_signal(t, ev, UET_EV_SIG_TIMEOUT, 10 * MS, 8 * MS, MS);
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_ASSUMED_BAD);
	KUNIT_EXPECT_TRUE(test, uet_ev_failed(t, ev, 4 * MS));
	KUNIT_EXPECT_EQ(test, t->nbad, 1U);
	KUNIT_EXPECT_FALSE(test, uet_ev_usable(t, ev, 100 * MS));
	KUNIT_EXPECT_FALSE(test, uet_ev_alive(t, ev));
	/* A late ACK of a packet sent before it broke does not revive it. */
	uet_ev_signal(t, ev, UET_EV_SIG_GOOD, 11 * MS, 7 * MS, MS);
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_ASSUMED_BAD);
	/* Probes: due at once, then once per interval. */
	KUNIT_EXPECT_EQ(test, uet_ev_probe_due(t, 11 * MS, 5 * MS, due, 16), 1U);
	KUNIT_EXPECT_EQ(test, due[0], ev);
	KUNIT_EXPECT_EQ(test, uet_ev_probe_due(t, 12 * MS, 5 * MS, due, 16), 0U);
	KUNIT_EXPECT_EQ(test, uet_ev_probe_due(t, 16 * MS, 5 * MS, due, 16), 1U);
	KUNIT_EXPECT_TRUE(test, uet_ev_probe_ok(t, ev));
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_GOOD);
	KUNIT_EXPECT_EQ(test, t->nbad, 0U);
	KUNIT_EXPECT_FALSE(test, uet_ev_probe_ok(t, ev));
	/* Denied: only the operator lifts it; probes and ACKs do not. */
	KUNIT_EXPECT_EQ(test, uet_ev_deny(t, ev, true), 0);
	uet_ev_signal(t, ev, UET_EV_SIG_GOOD, 20 * MS, 20 * MS, MS);
	KUNIT_EXPECT_FALSE(test, uet_ev_probe_ok(t, ev));
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_DENIED);
	KUNIT_EXPECT_FALSE(test, uet_ev_usable(t, ev, 30 * MS));
	KUNIT_EXPECT_EQ(test, uet_ev_deny(t, ev, false), 0);
	KUNIT_EXPECT_EQ(test, e->state, UET_PATH_GOOD);
	KUNIT_EXPECT_EQ(test, uet_ev_deny(t, BASE + 16, true), -ERANGE);
	uet_ev_table_free(t);
}

static struct kunit_case uet_lb_cases[] = {
	KUNIT_CASE(uet_lb_single_test),
	KUNIT_CASE(uet_lb_spray_test),
	KUNIT_CASE(uet_lb_reps_test),
	KUNIT_CASE(uet_lb_reps_balance_test),
	KUNIT_CASE(uet_lb_flowlet_test),
	KUNIT_CASE(uet_ev_states_test),
	{}
};

static struct kunit_suite uet_lb_suite = {
	.name = "uet_lb",
	.test_cases = uet_lb_cases,
};

kunit_test_suite(uet_lb_suite);
