// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the UC responder's message rule (uc.h): which packets are
 * placed, which begin a message (dropping an incomplete one), which come
 * too late.
 */
#include <kunit/test.h>

#include "uc.h"

static void uet_uc_first_test(struct kunit *test)
{
	/* After RESET any number begins the first message. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(false, false, 0, 0), UET_UC_PKT_NEW);
	KUNIT_EXPECT_EQ(test, uet_uc_classify(false, false, 7, 3), UET_UC_PKT_NEW);
}

static void uet_uc_order_test(struct kunit *test)
{
	/* Message 5 being received: its packets are placed. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 5, 5), UET_UC_PKT_CUR);
	/* A packet of 6 ends 5 (dropped if incomplete), or of 9: 6..8 lost. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 5, 6), UET_UC_PKT_NEW);
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 5, 9), UET_UC_PKT_NEW);
	/* A packet of 4 after 5 began: 4 was ended, it comes too late. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 5, 4), UET_UC_PKT_LATE);
	/* 5 complete or dropped: its stragglers are discarded. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, false, 5, 5), UET_UC_PKT_LATE);
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, false, 5, 6), UET_UC_PKT_NEW);
}

static void uet_uc_wrap_test(struct kunit *test)
{
	/* Message numbers wrap as PSNs do. */
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 0xffffffffu, 0),
			UET_UC_PKT_NEW);
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 0, 0xffffffffu),
			UET_UC_PKT_LATE);
	KUNIT_EXPECT_EQ(test, uet_uc_classify(true, true, 0xfffffffeu, 3),
			UET_UC_PKT_NEW);
}

static struct kunit_case uet_uc_cases[] = {
	KUNIT_CASE(uet_uc_first_test),
	KUNIT_CASE(uet_uc_order_test),
	KUNIT_CASE(uet_uc_wrap_test),
	{}
};

static struct kunit_suite uet_uc_suite = {
	.name = "uet_uc",
	.test_cases = uet_uc_cases,
};

kunit_test_suite(uet_uc_suite);
