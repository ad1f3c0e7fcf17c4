// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: PSN comparisons, including across the 2^32 wrap.
 */
#include <kunit/test.h>

#include "psn.h"

static void uet_psn_order_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, uet_psn_before(1, 2));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(2, 1));
	KUNIT_EXPECT_FALSE(test, uet_psn_before(7, 7));
	KUNIT_EXPECT_FALSE(test, uet_psn_after(7, 7));
	KUNIT_EXPECT_TRUE(test, uet_psn_after(2, 1));
	/* Across the wrap, 0xffffffff comes just before 0. */
	KUNIT_EXPECT_TRUE(test, uet_psn_before(0xffffffffu, 0));
	KUNIT_EXPECT_TRUE(test, uet_psn_after(5, 0xfffffff0u));
	KUNIT_EXPECT_EQ(test, uet_psn_diff(3, 0xfffffffeu), 5);
	KUNIT_EXPECT_EQ(test, uet_psn_diff(0xfffffffeu, 3), -5);
	/* Half the space away is the limit of meaningful comparison. */
	KUNIT_EXPECT_TRUE(test, uet_psn_after(0x7fffffffu, 0));
	KUNIT_EXPECT_TRUE(test, uet_psn_before(0x80000001u, 0));
}

static void uet_psn_window_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, uet_psn_in_window(100, 100, 64));
	KUNIT_EXPECT_TRUE(test, uet_psn_in_window(163, 100, 64));
	KUNIT_EXPECT_FALSE(test, uet_psn_in_window(164, 100, 64));
	KUNIT_EXPECT_FALSE(test, uet_psn_in_window(99, 100, 64));
	/* A window straddling the wrap. */
	KUNIT_EXPECT_TRUE(test, uet_psn_in_window(0xfffffffeu, 0xfffffff0u, 32));
	KUNIT_EXPECT_TRUE(test, uet_psn_in_window(5, 0xfffffff0u, 32));
	KUNIT_EXPECT_FALSE(test, uet_psn_in_window(16, 0xfffffff0u, 32));
	KUNIT_EXPECT_FALSE(test, uet_psn_in_window(0xffffffefu, 0xfffffff0u, 32));
	KUNIT_EXPECT_FALSE(test, uet_psn_in_window(0, 0, 0));
}

static struct kunit_case uet_psn_cases[] = {
	KUNIT_CASE(uet_psn_order_test),
	KUNIT_CASE(uet_psn_window_test),
	{}
};

static struct kunit_suite uet_psn_suite = {
	.name = "uet_psn",
	.test_cases = uet_psn_cases,
};

kunit_test_suite(uet_psn_suite);
