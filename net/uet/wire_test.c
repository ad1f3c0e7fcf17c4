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

static void uet_pds_ack_test(struct kunit *test)
{
	const struct uet_pds_ack in = {
		.flags = UET_PDS_ACK_F_ECN,
		.ack_psn_offset = 3,
		.cack_psn = 0xfffffffe,
		.spdcid = 17,
		.dpdcid = 18,
		.mpr = 9,
		.sack_psn_offset = -1,
		.sack_bitmap = 0x8000000000000005ULL,
		.cc_state = 0x0102030405060708ULL,
	};
	struct uet_pds_ack out;
	u8 buf[sizeof(struct uet_pds_ack_hdr)];

	KUNIT_ASSERT_EQ(test, uet_pds_ack_pack(&in, buf, sizeof(buf)), 32);
	/* type 8, flags 0x20: 01000 0000 0100000 */
	KUNIT_EXPECT_EQ(test, buf[0], 0x40);
	KUNIT_EXPECT_EQ(test, buf[1], 0x20);
	KUNIT_EXPECT_EQ(test, buf[16], 0x80);
	KUNIT_EXPECT_EQ(test, buf[23], 0x05);
	KUNIT_ASSERT_EQ(test, uet_pds_ack_parse(buf, sizeof(buf), &out), 32);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.ack_psn_offset, in.ack_psn_offset);
	KUNIT_EXPECT_EQ(test, out.cack_psn, in.cack_psn);
	KUNIT_EXPECT_EQ(test, out.spdcid, in.spdcid);
	KUNIT_EXPECT_EQ(test, out.dpdcid, in.dpdcid);
	KUNIT_EXPECT_EQ(test, out.mpr, in.mpr);
	KUNIT_EXPECT_EQ(test, out.sack_psn_offset, in.sack_psn_offset);
	KUNIT_EXPECT_EQ(test, out.sack_bitmap, in.sack_bitmap);
	KUNIT_EXPECT_EQ(test, out.cc_state, in.cc_state);
	/* NSCC state: the top 16 bits are the service time, the 7 below
	 * the rc bit rcv_cwnd_pend.
	 */
	KUNIT_EXPECT_EQ(test, uet_nscc_state_service_us(in.cc_state), 0x0102);
	KUNIT_EXPECT_EQ(test, uet_nscc_state_pend(in.cc_state), 0x03);
	KUNIT_EXPECT_EQ(test, uet_nscc_state_pack(65535), 0xffffULL << 48);

	KUNIT_EXPECT_EQ(test, uet_pds_ack_parse(buf, sizeof(buf) - 1, &out),
			-EBADMSG);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, 1), -EBADMSG);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, 2), UET_PDS_ACK_CC);
	/* A NACK is not an ACK. */
	buf[0] = UET_PDS_NACK << (UET_PDS_TYPE_SHIFT - 8);
	KUNIT_EXPECT_EQ(test, uet_pds_ack_parse(buf, sizeof(buf), &out), -EPROTO);
}

/* ACK_CCX reflects the entropy value; a probe and its answer, which
 * echoes the probe's value and nonce.
 */
static void uet_pds_ackx_probe_test(struct kunit *test)
{
	const struct uet_pds_ack in = {
		.cack_psn = 77,
		.ccx = true,
		.ccx_flags = UET_ACKX_F_ENTROPY,
		.entropy = 0xc123,
	};
	u8 buf[sizeof(struct uet_pds_ackx_hdr)];
	struct uet_pds_ack out;
	bool answer;
	u16 opaque;
	u32 nonce;

	KUNIT_ASSERT_EQ(test, uet_pds_ack_pack(&in, buf, sizeof(buf)), 40);
	KUNIT_EXPECT_EQ(test, uet_pds_ack_pack(&in, buf, 39), -EMSGSIZE);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, 2), UET_PDS_ACK_CCX);
	KUNIT_EXPECT_EQ(test, buf[32], 0xc1);
	KUNIT_EXPECT_EQ(test, buf[33], 0x23);
	KUNIT_ASSERT_EQ(test, uet_pds_ack_parse(buf, sizeof(buf), &out), 40);
	KUNIT_EXPECT_TRUE(test, out.ccx);
	KUNIT_EXPECT_EQ(test, out.entropy, 0xc123);
	KUNIT_EXPECT_EQ(test, out.ccx_flags, UET_ACKX_F_ENTROPY);
	KUNIT_EXPECT_EQ(test, out.cack_psn, 77U);
	/* An ACK_CCX cut to ACK_CC size is malformed. */
	KUNIT_EXPECT_EQ(test, uet_pds_ack_parse(buf, 32, &out), -EBADMSG);

	KUNIT_ASSERT_EQ(test, uet_probe_pack(0xc0de, 0x5eed1e55, false, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, 2), UET_PDS_CONTROL);
	KUNIT_ASSERT_EQ(test, uet_probe_parse(buf, 16, &opaque, &nonce, &answer), 16);
	KUNIT_EXPECT_FALSE(test, answer);
	KUNIT_EXPECT_EQ(test, opaque, 0xc0de);
	KUNIT_EXPECT_EQ(test, nonce, 0x5eed1e55U);
	KUNIT_EXPECT_EQ(test, uet_probe_parse(buf, 15, &opaque, &nonce, &answer),
			-EPROTO);
	KUNIT_ASSERT_EQ(test, uet_probe_pack(0xc0de, 0x5eed1e55, true, buf, sizeof(buf)), 12);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, 2), UET_PDS_ACK);
	KUNIT_ASSERT_EQ(test, uet_probe_parse(buf, 12, &opaque, &nonce, &answer), 12);
	KUNIT_EXPECT_TRUE(test, answer);
	KUNIT_EXPECT_EQ(test, opaque, 0xc0de);
	KUNIT_EXPECT_EQ(test, nonce, 0x5eed1e55U);
	KUNIT_EXPECT_EQ(test, uet_probe_parse(buf, 11, &opaque, &nonce, &answer),
			-EBADMSG);
	/* A plain ACK without P is not an answer. */
	buf[1] = 0;
	KUNIT_EXPECT_EQ(test, uet_probe_parse(buf, 12, &opaque, &nonce, &answer),
			-EPROTO);
	KUNIT_EXPECT_EQ(test, uet_probe_pack(1, 0, false, buf, 15), -EMSGSIZE);
}

static void uet_pds_nack_test(struct kunit *test)
{
	const struct uet_pds_nack in = {
		.code = UET_NACK_TRIMMED,
		.vendor_code = 7,
		.psn = 0x01020304,
		.spdcid = 0x1111,
		.dpdcid = 0x2222,
		.payload = 0xdeadbeef,
	};
	struct uet_pds_nack out;
	u8 buf[sizeof(struct uet_pds_nack_hdr)];

	KUNIT_ASSERT_EQ(test, uet_pds_nack_pack(&in, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, buf[0], UET_PDS_NACK << (UET_PDS_TYPE_SHIFT - 8));
	KUNIT_EXPECT_EQ(test, buf[2], UET_NACK_TRIMMED);
	KUNIT_ASSERT_EQ(test, uet_pds_nack_parse(buf, sizeof(buf), &out), 16);
	KUNIT_EXPECT_EQ(test, out.code, in.code);
	KUNIT_EXPECT_EQ(test, out.vendor_code, in.vendor_code);
	KUNIT_EXPECT_EQ(test, out.psn, in.psn);
	KUNIT_EXPECT_EQ(test, out.spdcid, in.spdcid);
	KUNIT_EXPECT_EQ(test, out.dpdcid, in.dpdcid);
	KUNIT_EXPECT_EQ(test, out.payload, in.payload);
	KUNIT_EXPECT_EQ(test, uet_pds_nack_parse(buf, 15, &out), -EBADMSG);
	KUNIT_EXPECT_EQ(test, uet_pds_nack_pack(&in, buf, 15), -EMSGSIZE);
}

static void uet_verbs_hdr_test(struct kunit *test)
{
	const struct uet_verbs_hdr in = {
		.opcode = UET_OP_WRITE_IMM,
		.flags = UET_VF_SOLICITED,
		.msn = 5,
		.msg_len = 8192,
		.offset = 4096,
		.addr = 0x00007f0011223344ULL,
		.rkey = 0x1234,
		.imm = 0xcafef00d,
		.pay_len = 4096,
	};
	struct uet_verbs_hdr out, bad = in;
	u8 buf[sizeof(struct uet_verbs_hdr_wire)];

	KUNIT_ASSERT_EQ(test, uet_verbs_pack(&in, buf, sizeof(buf)), 36);
	KUNIT_EXPECT_EQ(test, buf[0], UET_VERBS_VERSION);
	KUNIT_EXPECT_EQ(test, buf[1], UET_OP_WRITE_IMM);
	KUNIT_ASSERT_EQ(test, uet_verbs_parse(buf, sizeof(buf), &out), 36);
	KUNIT_EXPECT_EQ(test, out.opcode, in.opcode);
	KUNIT_EXPECT_EQ(test, out.flags, in.flags);
	KUNIT_EXPECT_EQ(test, out.msn, in.msn);
	KUNIT_EXPECT_EQ(test, out.msg_len, in.msg_len);
	KUNIT_EXPECT_EQ(test, out.offset, in.offset);
	KUNIT_EXPECT_EQ(test, out.addr, in.addr);
	KUNIT_EXPECT_EQ(test, out.rkey, in.rkey);
	KUNIT_EXPECT_EQ(test, out.imm, in.imm);
	KUNIT_EXPECT_EQ(test, out.pay_len, in.pay_len);

	/* Truncated, unknown version or opcode, offset past the end. */
	KUNIT_EXPECT_EQ(test, uet_verbs_parse(buf, sizeof(buf) - 1, &out),
			-EBADMSG);
	buf[0] = 1;
	KUNIT_EXPECT_EQ(test, uet_verbs_parse(buf, sizeof(buf), &out), -EPROTO);
	buf[0] = 0;
	buf[1] = UET_OP_MAX + 1;
	KUNIT_EXPECT_EQ(test, uet_verbs_parse(buf, sizeof(buf), &out), -EPROTO);
	bad.offset = bad.msg_len + 1;
	KUNIT_ASSERT_EQ(test, uet_verbs_pack(&bad, buf, sizeof(buf)), 36);
	KUNIT_EXPECT_EQ(test, uet_verbs_parse(buf, sizeof(buf), &out), -EPROTO);
	bad.opcode = 0;
	KUNIT_EXPECT_EQ(test, uet_verbs_pack(&bad, buf, sizeof(buf)), -EINVAL);
}

/* The FETH's values (IBA 1.5, A19.4.1; ib_user_verbs.h of Linux 6.2):
 * placement types global visibility and persistence, and the selectivity
 * level of a whole region (a range is 0). The wire does not depend on
 * the kernel's having them.
 */
#define UET_TEST_FLUSH_GLOBAL		0x1
#define UET_TEST_FLUSH_PERSISTENT	0x2
#define UET_TEST_FLUSH_MR		1

/* A FLUSH: opcode 12, no payload, its FETH in imm, bytes as IBA A19.4.1
 * lays them out (placement types in bits 3-0, selectivity in bits 5-4).
 */
static void uet_verbs_flush_test(struct kunit *test)
{
	const struct uet_verbs_hdr in = {
		.opcode = UET_OP_FLUSH,
		.msn = 9,
		.msg_len = 4096,
		.addr = 0x00007f0011220000ULL,
		.rkey = 0x5678,
		.imm = uet_feth(UET_TEST_FLUSH_GLOBAL, UET_TEST_FLUSH_MR),
	};
	struct uet_verbs_hdr out;
	u8 buf[sizeof(struct uet_verbs_hdr_wire)];

	KUNIT_EXPECT_EQ(test, uet_feth(UET_TEST_FLUSH_GLOBAL, 0), 0x01u);
	KUNIT_EXPECT_EQ(test, uet_feth(UET_TEST_FLUSH_PERSISTENT,
				       UET_TEST_FLUSH_MR), 0x12u);
	KUNIT_EXPECT_EQ(test, uet_feth(0xf, UET_FETH_SEL_MAX), 0x3fu);
	/* What does not fit its bits sets reserved ones, not another field's. */
	KUNIT_EXPECT_EQ(test, uet_feth(0x10, 0), U32_MAX);
	KUNIT_EXPECT_EQ(test, uet_feth(UET_TEST_FLUSH_GLOBAL, 4), U32_MAX);

	KUNIT_ASSERT_EQ(test, uet_verbs_pack(&in, buf, sizeof(buf)), 36);
	KUNIT_EXPECT_EQ(test, buf[1], 12);
	KUNIT_EXPECT_EQ(test, buf[31], 0x11);
	KUNIT_ASSERT_EQ(test, uet_verbs_parse(buf, sizeof(buf), &out), 36);
	KUNIT_EXPECT_EQ(test, out.opcode, UET_OP_FLUSH);
	KUNIT_EXPECT_EQ(test, out.imm, in.imm);
	KUNIT_EXPECT_EQ(test, out.msg_len, in.msg_len);
	KUNIT_EXPECT_EQ(test, out.pay_len, 0u);
}

static const struct uet_uud uet_test_uud = {
	.flags = UET_UUD_F_SOLICITED | UET_UUD_F_IMM,
	.pay_len = 256,
	.qkey = 0x80010000,
	.spdcid = 1,
	.dpdcid = 0x1234,
	.imm = 0xcafef00d,
};

static void uet_uud_bytes_test(struct kunit *test)
{
	/* type 6, next_hdr 0, flags 0x03: 00110 0000 0000011 = 0x30 0x03 */
	static const u8 expect[] = {
		0x30, 0x03, 0x01, 0x00, 0x80, 0x01, 0x00, 0x00,
		0x00, 0x01, 0x12, 0x34, 0xca, 0xfe, 0xf0, 0x0d,
	};
	u8 buf[sizeof(expect) + 1];

	memset(buf, 0x5a, sizeof(buf));
	KUNIT_ASSERT_EQ(test, uet_uud_pack(&uet_test_uud, buf, sizeof(buf)),
			(int)sizeof(expect));
	KUNIT_EXPECT_EQ(test, memcmp(buf, expect, sizeof(expect)), 0);
	KUNIT_EXPECT_EQ(test, buf[sizeof(expect)], 0x5a);
	KUNIT_EXPECT_EQ(test, uet_pds_type(buf, sizeof(buf)), UET_PDS_UUD_REQ);
	/* dpdcid sits where the other PDS headers keep it. */
	KUNIT_EXPECT_EQ(test, offsetof(struct uet_uud_hdr, dpdcid),
			offsetof(struct uet_pds_req_hdr, dpdcid));
}

static void uet_uud_roundtrip_test(struct kunit *test)
{
	struct uet_uud out, mcast = uet_test_uud;
	u8 buf[sizeof(struct uet_uud_hdr)];

	KUNIT_ASSERT_EQ(test, uet_uud_pack(&uet_test_uud, buf, sizeof(buf)), 16);
	KUNIT_ASSERT_EQ(test, uet_uud_parse(buf, sizeof(buf), &out), 16);
	KUNIT_EXPECT_EQ(test, out.flags, uet_test_uud.flags);
	KUNIT_EXPECT_EQ(test, out.pay_len, uet_test_uud.pay_len);
	KUNIT_EXPECT_EQ(test, out.qkey, uet_test_uud.qkey);
	KUNIT_EXPECT_EQ(test, out.spdcid, uet_test_uud.spdcid);
	KUNIT_EXPECT_EQ(test, out.dpdcid, uet_test_uud.dpdcid);
	KUNIT_EXPECT_EQ(test, out.imm, uet_test_uud.imm);

	/* A datagram to a group: flag 0x04 in the prologue, no QPN. */
	mcast.flags = UET_UUD_F_MCAST;
	mcast.dpdcid = 0;
	KUNIT_ASSERT_EQ(test, uet_uud_pack(&mcast, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, buf[1], 0x04);
	KUNIT_ASSERT_EQ(test, uet_uud_parse(buf, sizeof(buf), &out), 16);
	KUNIT_EXPECT_EQ(test, out.flags, UET_UUD_F_MCAST);
	KUNIT_EXPECT_EQ(test, out.dpdcid, 0);
}

static void uet_uud_reject_test(struct kunit *test)
{
	struct uet_uud bad = uet_test_uud, out;
	u8 buf[sizeof(struct uet_uud_hdr)];

	KUNIT_EXPECT_EQ(test, uet_uud_pack(&uet_test_uud, buf, sizeof(buf) - 1),
			-EMSGSIZE);
	bad.flags = 0x08;
	KUNIT_EXPECT_EQ(test, uet_uud_pack(&bad, buf, sizeof(buf)), -EINVAL);

	KUNIT_ASSERT_EQ(test, uet_uud_pack(&uet_test_uud, buf, sizeof(buf)), 16);
	KUNIT_EXPECT_EQ(test, uet_uud_parse(buf, sizeof(buf) - 1, &out), -EBADMSG);
	/* An unknown flag, a next header, or another type is refused. */
	buf[1] |= 0x40;
	KUNIT_EXPECT_EQ(test, uet_uud_parse(buf, sizeof(buf), &out), -EPROTO);
	buf[1] = 0x83;
	KUNIT_EXPECT_EQ(test, uet_uud_parse(buf, sizeof(buf), &out), -EPROTO);
	buf[1] = 0x03;
	buf[0] = UET_PDS_RUD_REQ << (UET_PDS_TYPE_SHIFT - 8);
	KUNIT_EXPECT_EQ(test, uet_uud_parse(buf, sizeof(buf), &out), -EPROTO);
}

static struct kunit_case uet_wire_cases[] = {
	KUNIT_CASE(uet_pds_req_bytes_test),
	KUNIT_CASE(uet_pds_req_roundtrip_test),
	KUNIT_CASE(uet_pds_req_reject_test),
	KUNIT_CASE(uet_pds_ack_test),
	KUNIT_CASE(uet_pds_ackx_probe_test),
	KUNIT_CASE(uet_pds_nack_test),
	KUNIT_CASE(uet_verbs_hdr_test),
	KUNIT_CASE(uet_verbs_flush_test),
	KUNIT_CASE(uet_uud_bytes_test),
	KUNIT_CASE(uet_uud_roundtrip_test),
	KUNIT_CASE(uet_uud_reject_test),
	{}
};

static struct kunit_suite uet_wire_suite = {
	.name = "uet_wire",
	.test_cases = uet_wire_cases,
};

kunit_test_suite(uet_wire_suite);
