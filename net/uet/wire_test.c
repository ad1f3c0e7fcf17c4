// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: header pack/parse, byte for byte, and rejection of bad input.
 */
#include <kunit/test.h>

#include "wire.h"

static const struct uet_pds_req uet_test_req = {
	.type = UET_PDS_RUD_REQ,
	.next_hdr = 3,
	.flags = UET_PDS_REQ_F_RETX | UET_PDS_REQ_F_ACKREQ,
	.clear_psn_offset = -2,
	.psn = 0x12345678,
	.spdcid = 0xabcd,
	.dpdcid = 0x0102,
};

static void uet_pds_req_bytes_test(struct kunit *test)
{
	/* type 2, next_hdr 3, flags 0x18: 00010 0011 0011000 = 0x11 0x98 */
	static const u8 expect[] = {
		0x11, 0x98, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x78,
		0xab, 0xcd, 0x01, 0x02,
	};
	u8 buf[sizeof(expect) + 1];

	memset(buf, 0x5a, sizeof(buf));
	KUNIT_ASSERT_EQ(test, uet_pds_req_pack(&uet_test_req, buf, sizeof(buf)),
			(int)sizeof(expect));
	KUNIT_EXPECT_EQ(test, memcmp(buf, expect, sizeof(expect)), 0);
	/* Nothing written past the header. */
	KUNIT_EXPECT_EQ(test, buf[sizeof(expect)], 0x5a);
}

static void uet_pds_req_roundtrip_test(struct kunit *test)
{
	struct uet_pds_req out;
	u8 buf[sizeof(struct uet_pds_req_hdr)];

	KUNIT_ASSERT_EQ(test, uet_pds_req_pack(&uet_test_req, buf, sizeof(buf)),
			(int)sizeof(buf));
	KUNIT_ASSERT_EQ(test, uet_pds_req_parse(buf, sizeof(buf), &out),
			(int)sizeof(buf));
	KUNIT_EXPECT_EQ(test, out.type, uet_test_req.type);
	KUNIT_EXPECT_EQ(test, out.next_hdr, uet_test_req.next_hdr);
	KUNIT_EXPECT_EQ(test, out.flags, uet_test_req.flags);
	KUNIT_EXPECT_EQ(test, out.clear_psn_offset, uet_test_req.clear_psn_offset);
	KUNIT_EXPECT_EQ(test, out.psn, uet_test_req.psn);
	KUNIT_EXPECT_EQ(test, out.spdcid, uet_test_req.spdcid);
	KUNIT_EXPECT_EQ(test, out.dpdcid, uet_test_req.dpdcid);
}

static void uet_pds_req_reject_test(struct kunit *test)
{
	struct uet_pds_req bad = uet_test_req, out;
	u8 buf[sizeof(struct uet_pds_req_hdr)];

	/* Short buffers on either side. */
	KUNIT_EXPECT_EQ(test, uet_pds_req_pack(&uet_test_req, buf, sizeof(buf) - 1),
			-EMSGSIZE);
	KUNIT_ASSERT_EQ(test, uet_pds_req_pack(&uet_test_req, buf, sizeof(buf)),
			(int)sizeof(buf));
	KUNIT_EXPECT_EQ(test, uet_pds_req_parse(buf, sizeof(buf) - 1, &out), -EBADMSG);
	KUNIT_EXPECT_EQ(test, uet_pds_req_parse(buf, 0, &out), -EBADMSG);

	/* Fields that do not fit their bits, or a type that is not a request. */
	bad.flags = 0x80;
	KUNIT_EXPECT_EQ(test, uet_pds_req_pack(&bad, buf, sizeof(buf)), -EINVAL);
	bad = uet_test_req;
	bad.next_hdr = 16;
	KUNIT_EXPECT_EQ(test, uet_pds_req_pack(&bad, buf, sizeof(buf)), -EINVAL);
	bad = uet_test_req;
	bad.type = UET_PDS_ACK;
	KUNIT_EXPECT_EQ(test, uet_pds_req_pack(&bad, buf, sizeof(buf)), -EINVAL);

	/* An ACK prologue (type 7) on the wire is not parsed as a request. */
	buf[0] = UET_PDS_ACK << (UET_PDS_TYPE_SHIFT - 8);
	KUNIT_EXPECT_EQ(test, uet_pds_req_parse(buf, sizeof(buf), &out), -EPROTO);
	buf[0] = 0;
	KUNIT_EXPECT_EQ(test, uet_pds_req_parse(buf, sizeof(buf), &out), -EPROTO);
}

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

static struct kunit_case uet_wire_cases[] = {
	KUNIT_CASE(uet_pds_req_bytes_test),
	KUNIT_CASE(uet_pds_req_roundtrip_test),
	KUNIT_CASE(uet_pds_req_reject_test),
	KUNIT_CASE(uet_ib_mtu_test),
	{}
};

static struct kunit_suite uet_wire_suite = {
	.name = "uet_wire",
	.test_cases = uet_wire_cases,
};

kunit_test_suite(uet_wire_suite);
