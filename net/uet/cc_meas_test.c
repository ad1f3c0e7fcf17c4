// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the measured inputs of congestion control (cc_meas.c) on a fake
 * clock: the windowed minimum RTT and the windowed maximum delivery rate.
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
	/* A new window: the old one's 20 us still counts. */
	uet_meas_ack(&m, T0 + 6 * SEC, 0, 40 * US);
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

static struct kunit_case uet_meas_cases[] = {
	KUNIT_CASE(uet_meas_min_rtt_test),
	KUNIT_CASE(uet_meas_rate_test),
	KUNIT_CASE(uet_meas_rate_floor_test),
	{}
};

static struct kunit_suite uet_meas_suite = {
	.name = "uet_cc_meas",
	.test_cases = uet_meas_cases,
};

kunit_test_suite(uet_meas_suite);
