// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the measured inputs of congestion control (cc_meas.c) on a fake
 * clock: the windowed minimum RTT and the windowed maximum delivery rate,
 * and their sharing between the QPs to one peer.
 */
#include <kunit/test.h>

#include "cc_meas.h"

#define T0	1000000000ULL	/* the fake clock starts at 1 s */
#define US	1000ULL
#define SEC	1000000000ULL

/* The minimum of the last 5 to 10 s: a lower sample wins at once, a
 * higher one only once the lower has aged out of both windows.
 */
static void uet_meas_min_rtt_test(struct kunit *test)
{
	struct uet_cc_meas m = {};

	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&m), 0ULL);
	KUNIT_EXPECT_TRUE(test, uet_meas_ack(&m, T0, 0, 30 * US));
	KUNIT_EXPECT_TRUE(test, uet_meas_ack(&m, T0 + 1, 0, 20 * US));
	KUNIT_EXPECT_FALSE(test, uet_meas_ack(&m, T0 + 2, 0, 25 * US));
	KUNIT_EXPECT_FALSE(test, uet_meas_ack(&m, T0 + 3, 0, 0));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&m), 20 * US);
	/* A new window: the old one's 20 us still counts. It is news
	 * nonetheless, to the peer's copy, whose 20 us would age out.
	 */
	KUNIT_EXPECT_TRUE(test, uet_meas_ack(&m, T0 + 6 * SEC, 0, 40 * US));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&m), 20 * US);
	/* The next: 20 us is gone, 40 us is the window before. */
	KUNIT_EXPECT_TRUE(test, uet_meas_ack(&m, T0 + 11 * SEC, 0, 50 * US));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&m), 40 * US);
	/* After a silence of two windows only the new sample counts. */
	uet_meas_ack(&m, T0 + 30 * SEC, 0, 60 * US);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&m), 60 * US);
	KUNIT_EXPECT_EQ(test, m.rtt_samples, 6U);
}

/* ACKs of @bytes every 10 us from @from for @n ACKs; returns the time
 * after the last.
 */
static u64 uet_meas_test_acks(struct uet_cc_meas *m, u64 from, u64 bytes,
			      int n)
{
	u64 now = from;

	while (n--) {
		now += 10 * US;
		uet_meas_ack(m, now, bytes, 0);
	}
	return now;
}

/* One rate sample per min RTT (200 us): 1250 bytes per 10 us is
 * 125 MB/s exactly. A slower stretch leaves the maximum until the fast
 * samples are older than two windows of 5 RTTs.
 */
static void uet_meas_rate_test(struct kunit *test)
{
	struct uet_cc_meas m = {};
	u64 now;

	uet_meas_ack(&m, T0, 0, 200 * US);
	/* The bytes of the first ACK were sent before it: not counted. */
	uet_meas_ack(&m, T0, 1250, 0);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 0ULL);
	now = uet_meas_test_acks(&m, T0, 1250, 19);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 0ULL);
	now = uet_meas_test_acks(&m, now, 1250, 1);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 125000000ULL);
	KUNIT_EXPECT_EQ(test, m.rate_samples, 1U);
	now = uet_meas_test_acks(&m, now, 625, 100);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 125000000ULL);
	now = uet_meas_test_acks(&m, now, 625, 200);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 62500000ULL);
	/* A faster sample wins at once. */
	uet_meas_test_acks(&m, now, 2500, 20);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 250000000ULL);
}

/* Without an RTT sample a rate sample spans the 100 us floor. */
static void uet_meas_rate_floor_test(struct kunit *test)
{
	struct uet_cc_meas m = {};
	u64 now;

	uet_meas_ack(&m, T0, 1000, 0);
	now = uet_meas_test_acks(&m, T0, 1000, 9);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 0ULL);
	uet_meas_test_acks(&m, now, 1000, 1);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&m), 100000000ULL);
}

/* A QP to a peer starts with what the others measured, and refines it:
 * a lower RTT of its own wins, a higher one does not until the shared
 * one ages out on the same windows as its own would.
 */
static void uet_meas_seed_test(struct kunit *test)
{
	struct uet_cc_meas a = {}, b = {}, c = {};
	struct uet_meas_shared s = {};

	uet_meas_seed(&b, &s, T0);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 0ULL);
	uet_meas_ack(&a, T0, 0, 20 * US);
	uet_meas_publish(&s, &a);
	uet_meas_seed(&b, &s, T0 + SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 20 * US);
	KUNIT_EXPECT_EQ(test, b.rtt_samples, 0U);
	/* An incast's RTT does not replace the path's. */
	KUNIT_EXPECT_FALSE(test, uet_meas_ack(&b, T0 + 2 * SEC, 0, 90 * US));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 20 * US);
	KUNIT_EXPECT_TRUE(test, uet_meas_ack(&b, T0 + 3 * SEC, 0, 15 * US));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 15 * US);
	/* The window a's 20 us began counts for 10 s, as in a's filter. */
	uet_meas_seed(&c, &s, T0 + 9 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&c), 20 * US);
	uet_meas_seed(&c, &s, T0 + 10 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&c), 0ULL);
	/* b took its samples into that window: so does the peer's. */
	uet_meas_publish(&s, &b);
	uet_meas_seed(&c, &s, T0 + 4 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&c), 15 * US);
}

/* A path that lengthens is relearned: a QP still holding the old RTT
 * (seeded with it, no sample since) gives it back with its age, not as
 * news.
 */
static void uet_meas_share_ages_test(struct kunit *test)
{
	struct uet_cc_meas a = {}, b = {}, c = {};
	struct uet_meas_shared s = {};

	uet_meas_ack(&a, T0, 0, 20 * US);
	uet_meas_publish(&s, &a);
	uet_meas_seed(&b, &s, T0 + SEC);
	uet_meas_ack(&a, T0 + 6 * SEC, 0, 40 * US);
	uet_meas_publish(&s, &a);
	uet_meas_seed(&c, &s, T0 + 9 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&c), 20 * US);
	uet_meas_publish(&s, &b);
	uet_meas_seed(&c, &s, T0 + 11 * SEC + 1);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&c), 40 * US);
	/* a's own filter agrees once it samples again. */
	uet_meas_ack(&a, T0 + 11 * SEC + 1, 0, 45 * US);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&a), 40 * US);
}

/* Merged into an empty share, a QP's two windows come back whole. */
static void uet_meas_share_whole_test(struct kunit *test)
{
	struct uet_cc_meas a = {}, b = {};
	struct uet_meas_shared s = {};

	uet_meas_ack(&a, T0, 0, 20 * US);
	uet_meas_ack(&a, T0 + 6 * SEC, 0, 40 * US);
	uet_meas_publish(&s, &a);
	uet_meas_seed(&b, &s, T0 + 7 * SEC);
	KUNIT_EXPECT_EQ(test, b.min_rtt.cur, a.min_rtt.cur);
	KUNIT_EXPECT_EQ(test, b.min_rtt.prev, a.min_rtt.prev);
	KUNIT_EXPECT_EQ(test, b.min_rtt.start, a.min_rtt.start);
	/* And age as they would have. */
	uet_meas_ack(&a, T0 + 12 * SEC, 0, 50 * US);
	uet_meas_ack(&b, T0 + 12 * SEC, 0, 50 * US);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), uet_meas_min_rtt(&a));
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 40 * US);
}

/* The rate too: a QP starts with the highest of the peer's last 5 to
 * 10 s, its own samples push it out on the QP's windows (5 min RTTs,
 * 1 ms here) as a faster one replaces it at once.
 */
static void uet_meas_seed_rate_test(struct kunit *test)
{
	struct uet_cc_meas a = {}, b = {}, c = {};
	struct uet_meas_shared s = {};
	u64 now;

	uet_meas_ack(&a, T0, 0, 200 * US);
	uet_meas_ack(&a, T0, 1250, 0);
	now = uet_meas_test_acks(&a, T0, 1250, 20);
	KUNIT_ASSERT_EQ(test, uet_meas_max_rate(&a), 125000000ULL);
	uet_meas_publish(&s, &a);
	uet_meas_seed(&b, &s, now);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&b), 125000000ULL);
	KUNIT_EXPECT_EQ(test, uet_meas_min_rtt(&b), 200 * US);
	/* b's rate samples span the RTT it started with: 20 ACKs. */
	uet_meas_ack(&b, now, 625, 0);
	now = uet_meas_test_acks(&b, now, 625, 20);
	KUNIT_EXPECT_EQ(test, b.rate_samples, 1U);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&b), 125000000ULL);
	uet_meas_test_acks(&b, now, 625, 200);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&b), 62500000ULL);
	/* The peer's lasts as long as its RTT. */
	uet_meas_seed(&c, &s, T0 + 9 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&c), 125000000ULL);
	uet_meas_seed(&c, &s, T0 + 200 * US + 10 * SEC);
	KUNIT_EXPECT_EQ(test, uet_meas_max_rate(&c), 0ULL);
}

static struct kunit_case uet_meas_cases[] = {
	KUNIT_CASE(uet_meas_min_rtt_test),
	KUNIT_CASE(uet_meas_rate_test),
	KUNIT_CASE(uet_meas_rate_floor_test),
	KUNIT_CASE(uet_meas_seed_test),
	KUNIT_CASE(uet_meas_share_ages_test),
	KUNIT_CASE(uet_meas_share_whole_test),
	KUNIT_CASE(uet_meas_seed_rate_test),
	{}
};

static struct kunit_suite uet_meas_suite = {
	.name = "uet_cc_meas",
	.test_cases = uet_meas_cases,
};

kunit_test_suite(uet_meas_suite);
