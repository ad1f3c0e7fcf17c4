// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the IB MTU of a netdev MTU and the payload of an RC packet.
 */
#include <kunit/test.h>

#include "mtu.h"
#include "wire.h"

static void uet_ib_mtu_test(struct kunit *test)
{
	/* 1500 leaves room for 1024 payload bytes, like RoCE on a plain Ethernet. */
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(1500), IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(9000), IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(4096 + UET_MAX_HDR_LEN), IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(4096 + UET_MAX_HDR_LEN - 1), IB_MTU_2048);
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(1024 + UET_MAX_HDR_LEN - 1), IB_MTU_512);
	/* Never below the smallest IB MTU, however small the netdev MTU. */
	KUNIT_EXPECT_EQ(test, uet_ib_mtu(68), IB_MTU_256);
}

static void uet_rc_seg_test(struct kunit *test)
{
	/* The port's path MTU: whatever the netdev carries. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_1024, 1500, false), 1500 - UET_MAX_HDR_LEN);
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_4096, 9000, false), 9000 - UET_MAX_HDR_LEN);
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_4096, 4096 + UET_MAX_HDR_LEN, false), 4096);
	/* Asked above the port: the port's. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_4096, 1500, false), 1500 - UET_MAX_HDR_LEN);
	/* Asked below the port: what was asked. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_1024, 9000, false), 1024);
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_256, 1500, false), 256);
	/* A netdev too small for the smallest IB MTU: that MTU, as verbs asks. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_1024, 300, false), 256);
	/* lo's 65536: what one IPv4 packet holds. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_4096, 65536, false), 65535 - UET_MAX_HDR_LEN);
	/* A local destination: 64 KiB, whatever the netdev's MTU. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_1024, 1500, true), SZ_64K);
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_4096, 9000, true), SZ_64K);
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_1024, 300, true), SZ_64K);
	/* ... but a path MTU asked below the port's still holds. */
	KUNIT_EXPECT_EQ(test, uet_rc_seg(IB_MTU_512, 1500, true), 512);
}

static struct kunit_case uet_mtu_cases[] = {
	KUNIT_CASE(uet_ib_mtu_test),
	KUNIT_CASE(uet_rc_seg_test),
	{}
};

static struct kunit_suite uet_mtu_suite = {
	.name = "uet_mtu",
	.test_cases = uet_mtu_cases,
};

kunit_test_suite(uet_mtu_suite);
