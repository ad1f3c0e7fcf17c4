// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: load balancing. single keeps one value; spray visits every value
 * of its set exactly once per round, in an order that changes between
 * rounds, for set sizes that are and are not powers of two.
 */
#include <kunit/test.h>
#include <linux/bitmap.h>

#include "lb.h"

static void uet_lb_single_test(struct kunit *test)
{
	struct uet_lb lb;
	int i;

	KUNIT_ASSERT_PTR_EQ(test, uet_lb_find("single"), &uet_lb_single);
	uet_lb_init(&lb, &uet_lb_single, 0x12345, 256);
	KUNIT_EXPECT_EQ(test, lb.count, 1U);
	KUNIT_EXPECT_EQ(test, lb.base, UET_LB_EV_FIRST + 0x12345 % UET_LB_EV_SPACE);
	for (i = 0; i < 100; i++)
		KUNIT_EXPECT_EQ(test, uet_lb_next(&lb), lb.base);
}

/* Two rounds of n values: each a permutation of the set, not the same. */
static void uet_lb_spray_rounds(struct kunit *test, u32 n, u32 hash)
{
	unsigned long *seen = kunit_kzalloc(test, BITS_TO_LONGS(n) * sizeof(long),
					    GFP_KERNEL);
	u16 *first = kunit_kcalloc(test, n, sizeof(*first), GFP_KERNEL);
	struct uet_lb lb;
	u32 i, same = 0;
	u16 ev;

	KUNIT_ASSERT_NOT_NULL(test, seen);
	KUNIT_ASSERT_NOT_NULL(test, first);
	uet_lb_init(&lb, &uet_lb_spray, hash, n);
	KUNIT_ASSERT_EQ(test, lb.count, n);
	KUNIT_EXPECT_LE(test, lb.base + n, 0x10000U);
	KUNIT_EXPECT_GE(test, lb.base, UET_LB_EV_FIRST);
	for (i = 0; i < n; i++) {
		ev = uet_lb_next(&lb);
		KUNIT_ASSERT_GE(test, ev, lb.base);
		KUNIT_ASSERT_LT(test, ev - lb.base, n);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(ev - lb.base, seen));
		first[i] = ev;
	}
	bitmap_zero(seen, n);
	for (i = 0; i < n; i++) {
		ev = uet_lb_next(&lb);
		KUNIT_EXPECT_FALSE(test, test_and_set_bit(ev - lb.base, seen));
		same += ev == first[i];
	}
	/* A re-drawn round repeats the previous order only by chance. */
	if (n >= 16)
		KUNIT_EXPECT_LT(test, same, n);
}

static void uet_lb_spray_test(struct kunit *test)
{
	KUNIT_ASSERT_PTR_EQ(test, uet_lb_find("spray"), &uet_lb_spray);
	uet_lb_spray_rounds(test, 256, 1);
	uet_lb_spray_rounds(test, 100, 0xdeadbeef);
	uet_lb_spray_rounds(test, 7, 42);
	uet_lb_spray_rounds(test, 1, 3);
	uet_lb_spray_rounds(test, UET_LB_EV_SPACE, 0xffffffff);
	KUNIT_EXPECT_NULL(test, uet_lb_find("reps"));
}

static struct kunit_case uet_lb_cases[] = {
	KUNIT_CASE(uet_lb_single_test),
	KUNIT_CASE(uet_lb_spray_test),
	{}
};

static struct kunit_suite uet_lb_suite = {
	.name = "uet_lb",
	.test_cases = uet_lb_cases,
};

kunit_test_suite(uet_lb_suite);
