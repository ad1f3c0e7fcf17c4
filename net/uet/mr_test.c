// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: MR access-flag validation, bounds checks at the edges of a region
 * and of the address space, and page-walk chunking.
 */
#include <kunit/test.h>

#include "mr.h"

static void uet_mr_access_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(0), 0);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_REMOTE_READ), 0);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(UET_MR_ACCESS), 0);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_LOCAL_WRITE |
						  IB_ACCESS_RELAXED_ORDERING), 0);
	/* Remote write and atomic need local write. */
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_REMOTE_WRITE),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_REMOTE_ATOMIC),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_LOCAL_WRITE |
						  IB_ACCESS_ON_DEMAND),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ZERO_BASED), -EOPNOTSUPP);
	/* Flush to global visibility, without local write; never to
	 * persistence, which ordinary memory cannot promise.
	 */
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_FLUSH_GLOBAL), 0);
	KUNIT_EXPECT_EQ(test, uet_mr_access_check(IB_ACCESS_LOCAL_WRITE |
						  IB_ACCESS_FLUSH_PERSISTENT),
			-EOPNOTSUPP);
}

/* A FLUSH needs one right per placement type; nothing grants one with
 * none, with a type or a selectivity level the IBA does not define.
 */
static void uet_mr_flush_access_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_flush_access(IB_FLUSH_GLOBAL, IB_FLUSH_RANGE),
			IB_ACCESS_FLUSH_GLOBAL);
	KUNIT_EXPECT_EQ(test, uet_flush_access(IB_FLUSH_GLOBAL, IB_FLUSH_MR),
			IB_ACCESS_FLUSH_GLOBAL);
	KUNIT_EXPECT_EQ(test, uet_flush_access(IB_FLUSH_PERSISTENT,
					       IB_FLUSH_RANGE),
			IB_ACCESS_FLUSH_PERSISTENT);
	KUNIT_EXPECT_EQ(test, uet_flush_access(IB_FLUSH_GLOBAL |
					       IB_FLUSH_PERSISTENT,
					       IB_FLUSH_MR),
			IB_ACCESS_FLUSH_GLOBAL | IB_ACCESS_FLUSH_PERSISTENT);
	KUNIT_EXPECT_EQ(test, uet_flush_access(0, IB_FLUSH_RANGE), 0);
	KUNIT_EXPECT_EQ(test, uet_flush_access(0x4 | IB_FLUSH_GLOBAL,
					       IB_FLUSH_RANGE), 0);
	KUNIT_EXPECT_EQ(test, uet_flush_access(IB_FLUSH_GLOBAL, 2), 0);
	/* A persistent flush needs a right no region carries. */
	KUNIT_EXPECT_TRUE(test, uet_flush_access(IB_FLUSH_PERSISTENT,
						 IB_FLUSH_RANGE) &
			  ~UET_MR_ACCESS);
}

static void uet_mr_range_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, uet_mr_range_ok(0x1000, 0x100, 0x1000, 0x100));
	KUNIT_EXPECT_TRUE(test, uet_mr_range_ok(0x1000, 0x100, 0x10ff, 1));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0x10ff, 2));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0xfff, 1));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0x1000, 0x101));
	/* Empty ranges: anywhere from the start to the end, inclusive. */
	KUNIT_EXPECT_TRUE(test, uet_mr_range_ok(0x1000, 0x100, 0x1100, 0));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0x1101, 0));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0xfff, 0));
	/* Lengths that would wrap iova + length must not pass. */
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0x1010,
						 U64_MAX - 0xf));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0x1000, 0x100, 0x1000,
						 U64_MAX));
	/* A region ending at the top of the address space. */
	KUNIT_EXPECT_TRUE(test, uet_mr_range_ok(U64_MAX - 0xff, 0x100,
						U64_MAX, 1));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(U64_MAX - 0xff, 0x100,
						 U64_MAX, 2));
	KUNIT_EXPECT_FALSE(test, uet_mr_range_ok(0, 0, 0, 1));
	KUNIT_EXPECT_TRUE(test, uet_mr_range_ok(0, 0, 0, 0));
}

static void uet_mr_span_test(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(0, 0));
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(U64_MAX, 0));
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(U64_MAX, 1));
	KUNIT_EXPECT_FALSE(test, uet_mr_span_ok(U64_MAX, 2));
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(0, U64_MAX));
	/* Ending exactly at 2^64 is fine: the last byte is U64_MAX. */
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(1, U64_MAX));
	KUNIT_EXPECT_FALSE(test, uet_mr_span_ok(2, U64_MAX));
	KUNIT_EXPECT_TRUE(test, uet_mr_span_ok(0xffff888000000000ULL, 4096));
}

static void uet_mr_chunk_test(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(0, 12, 100), 100u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(0, 12, 8192), 4096u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(4000, 12, 8192), 96u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(4096, 12, 8192), 4096u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(8191, 12, 10), 1u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(0x10000, 16, 0x20000), 0x10000u);
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(5, 12, 0), 0u);
	/* Large pages with offsets past 4 GiB. */
	KUNIT_EXPECT_EQ(test, uet_mr_chunk_len(0x100000000ULL + 0x7fffffff, 31,
					       U32_MAX), 1u);
}

static struct kunit_case uet_mr_cases[] = {
	KUNIT_CASE(uet_mr_access_test),
	KUNIT_CASE(uet_mr_flush_access_test),
	KUNIT_CASE(uet_mr_range_test),
	KUNIT_CASE(uet_mr_span_test),
	KUNIT_CASE(uet_mr_chunk_test),
	{}
};

static struct kunit_suite uet_mr_suite = {
	.name = "uet_mr",
	.test_cases = uet_mr_cases,
};

kunit_test_suite(uet_mr_suite);
