// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: trains (train.h). Which packets may share a train, that a train
 * cut every gso_size bytes gives back each packet whole: its headers
 * (with the flags the sender added) followed by its payload, that a
 * packed train's copies join in few fragments, and how a chained train
 * spreads its packets over its frag_list.
 */
#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "train.h"
#include "uet_compat.h"

#define HDR	44

/* A kept packet as req.c builds it: headers in the linear part, payload
 * in one page fragment (a page lent from an MR, or a copy).
 */
static struct sk_buff *train_test_pkt(struct kunit *test, u32 psn, u32 len)
{
	struct page *page = alloc_page(GFP_KERNEL);
	struct sk_buff *skb = alloc_skb(HDR, GFP_KERNEL);
	u8 *hdr, *pay;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_ASSERT_LE(test, len, (u32)PAGE_SIZE);
	hdr = skb_put(skb, HDR);
	memset(hdr, 0, HDR);
	hdr[0] = 0x5a;
	hdr[4] = psn >> 24;
	hdr[5] = psn >> 16;
	hdr[6] = psn >> 8;
	hdr[7] = psn;
	pay = page_address(page);
	for (i = 0; i < len; i++)
		pay[i] = psn + i;
	skb_fill_page_desc(skb, 0, page, 0, len);
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	skb_shinfo(skb)->flags |= SKBFL_SHARED_FRAG;
	return skb;
}

/* n packets of len bytes of payload, PSNs 0.., added to t. */
static void train_test_fill(struct kunit *test, struct uet_train *t,
			    struct page_frag_cache *pfc, u32 n, u32 len)
{
	struct sk_buff *pkt;
	u32 i;

	for (i = 0; i < n; i++) {
		pkt = train_test_pkt(test, i, len);
		KUNIT_ASSERT_TRUE(test, uet_train_fits(t, HDR + len, 1, 64));
		KUNIT_ASSERT_EQ(test, uet_train_add(t, pkt, 0, pfc), 0);
		kfree_skb(pkt);
	}
}

static void train_test_drain(struct page_frag_cache *pfc)
{
	page_frag_cache_drain(pfc);
}

static void uet_train_fits_test(struct kunit *test)
{
	struct uet_train t = {};

	/* Nothing started: nothing fits. */
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1000, 1, 16));
	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 7, false), 0);
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, 1, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, UET_TRAIN_MAX_BYTES + 1, 1, 16));
	/* Every packet takes a fragment for its headers besides its own. */
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1000, MAX_SKB_FRAGS - 1, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1000, MAX_SKB_FRAGS, 16));
	/* Pretend two packets of 1400 bytes were added. */
	t.npkts = 2;
	t.pkt_len = 1400;
	t.last_len = 1400;
	t.skb->len = 2800;
	skb_shinfo(t.skb)->nr_frags = 4;
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, 1, 16));
	/* A shorter packet may end the train... */
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 100, 1, 16));
	/* ... a longer one would be cut at gso_size. */
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1401, 1, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1400, 1, 2));
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS - 5, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS - 4, 16));
	/* A chained train goes on in a new skb, which the packet and its
	 * headers' fragment must fit alone.
	 */
	t.chain = true;
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS - 4, 16));
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS - 1, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS, 16));
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1400, 1, 2));
	t.chain = false;
	/* A packed train's copy needs one fragment at most, whatever the
	 * packet's own.
	 */
	t.packed = true;
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, MAX_SKB_FRAGS - 1, 16));
	skb_shinfo(t.skb)->nr_frags = MAX_SKB_FRAGS - 1;
	KUNIT_EXPECT_TRUE(test, uet_train_fits(&t, 1400, 1, 16));
	skb_shinfo(t.skb)->nr_frags = MAX_SKB_FRAGS;
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 1400, 1, 16));
	skb_shinfo(t.skb)->nr_frags = 4;
	t.packed = false;
	/* After a short packet nothing more: it is the train's last. */
	t.last_len = 100;
	KUNIT_EXPECT_FALSE(test, uet_train_fits(&t, 100, 1, 16));
	t.skb->len = 0;
	skb_shinfo(t.skb)->nr_frags = 0;
	uet_train_drop(&t);
	KUNIT_EXPECT_NULL(test, t.skb);
}

static void uet_train_build_test(struct kunit *test)
{
	static const u32 lens[] = { 1000, 1000, 1000, 300 };
	struct sk_buff *pkts[ARRAY_SIZE(lens)], *skb;
	struct page_frag_cache pfc = {};
	struct uet_train t = {};
	u8 *buf;
	u32 i, j, off = 0;

	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 9, false), 0);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		pkts[i] = train_test_pkt(test, 100 + i, lens[i]);
		KUNIT_ASSERT_TRUE(test, uet_train_fits(&t, pkts[i]->len, 1, 16));
		/* Only the last asks for an ACK. */
		KUNIT_ASSERT_EQ(test, uet_train_add(&t, pkts[i],
						    i == ARRAY_SIZE(lens) - 1 ?
						    0x04 : 0, &pfc), 0);
	}
	KUNIT_EXPECT_EQ(test, t.ev, 9);
	skb = uet_train_finish(&t);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_NULL(test, t.skb);
	KUNIT_EXPECT_EQ(test, skb_headroom(skb), 64);
	KUNIT_EXPECT_EQ(test, skb_headlen(skb), 0);
	KUNIT_EXPECT_EQ(test, skb->len, 3 * (HDR + 1000) + HDR + 300);
	/* Copies side by side in one page: one fragment, not shared. */
	KUNIT_EXPECT_TRUE(test, t.packed);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 1);
	KUNIT_EXPECT_FALSE(test, skb_has_shared_frag(skb));
	KUNIT_EXPECT_TRUE(test, skb_is_gso(skb));
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, HDR + 1000);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_segs, 4);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_type, SKB_GSO_UDP_L4);
	/* Cut every gso_size bytes, as the receiver walks a train that
	 * arrived whole, each segment is its packet.
	 */
	buf = kunit_kzalloc(test, skb->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, buf, skb->len), 0);
	for (i = 0; off < skb->len; i++) {
		u32 len = min(uet_train_rx_seg(skb), skb->len - off);
		u8 *seg = buf + off;

		KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(lens));
		KUNIT_EXPECT_EQ(test, off, i * (HDR + 1000));
		KUNIT_EXPECT_EQ(test, len, HDR + lens[i]);
		KUNIT_EXPECT_EQ(test, seg[0], 0x5a);
		KUNIT_EXPECT_EQ(test, seg[1], i == ARRAY_SIZE(lens) - 1 ? 0x04 : 0);
		KUNIT_EXPECT_EQ(test, seg[7], 100 + i);
		for (j = 0; j < lens[i]; j++)
			if (seg[HDR + j] != (u8)(100 + i + j))
				break;
		KUNIT_EXPECT_EQ(test, j, lens[i]);
		/* The kept packet is unchanged: a resend copies it. */
		KUNIT_EXPECT_EQ(test, pkts[i]->data[1], 0);
		KUNIT_EXPECT_EQ(test, pkts[i]->len, HDR + lens[i]);
		off += len;
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(lens));
	/* The train holds its own page references. */
	for (i = 0; i < ARRAY_SIZE(lens); i++)
		kfree_skb(pkts[i]);
	KUNIT_EXPECT_EQ(test, skb_copy_bits(skb, HDR, buf, 1000), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 100);
	kfree_skb(skb);
	/* Once no skb holds the kept page, the next train starts it again. */
	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 9, false), 0);
	pkts[0] = train_test_pkt(test, 1, 1000);
	KUNIT_ASSERT_EQ(test, uet_train_add(&t, pkts[0], 0, &pfc), 0);
	skb = uet_train_finish(&t);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb_frag_off(&skb_shinfo(skb)->frags[0]), 0);
	kfree_skb(skb);
	kfree_skb(pkts[0]);
	uet_train_drop(&t);
	KUNIT_EXPECT_NULL(test, t.pack.page);
	train_test_drain(&pfc);
}

/* Packets longer than a page are lent to a train that may not chain:
 * each takes its headers' fragment and its payload's, in one skb.
 */
static void uet_train_lend_test(struct kunit *test)
{
	const u32 len = PAGE_SIZE, wire = HDR + len, n = 3;
	struct page_frag_cache pfc = {};
	struct uet_train t = {};
	struct sk_buff *skb;
	u8 *buf;
	u32 i;

	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 2, false), 0);
	train_test_fill(test, &t, &pfc, n, len);
	KUNIT_EXPECT_FALSE(test, t.packed);
	skb = uet_train_finish(&t);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, n * wire);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 2 * n);
	/* Lent pages stay marked as such: nothing writes into them. */
	KUNIT_EXPECT_TRUE(test, skb_has_shared_frag(skb));
	KUNIT_EXPECT_NULL(test, skb_shinfo(skb)->frag_list);
	buf = kunit_kzalloc(test, skb->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, buf, skb->len), 0);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, buf[i * wire + 7], i);
		KUNIT_EXPECT_EQ(test, buf[i * wire + HDR + len - 1], (u8)(i + len - 1));
	}
	kfree_skb(skb);
	uet_train_drop(&t);
	train_test_drain(&pfc);
}

/* A chained train goes on in its frag_list when an skb's fragments are
 * used up, each skb holding whole packets and no linear data (as
 * skb_segment() takes them), and reads back as its packets.
 */
static void uet_train_chain_test(struct kunit *test)
{
	const u32 per_skb = MAX_SKB_FRAGS / 2, n = 2 * per_skb + 3;
	const u32 len = 1000, wire = HDR + len;
	struct page_frag_cache pfc = {};
	struct uet_train t = {};
	struct sk_buff *skb, *m;
	u32 i, j, nskbs = 0, frags[2];
	u8 *buf;

	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 3, true), 0);
	train_test_fill(test, &t, &pfc, n, len);
	skb = uet_train_finish(&t);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_NULL(test, t.tail);
	KUNIT_EXPECT_EQ(test, skb->len, n * wire);
	KUNIT_EXPECT_EQ(test, skb->data_len, n * wire);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->nr_frags, 2 * per_skb);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_size, wire);
	KUNIT_EXPECT_EQ(test, skb_shinfo(skb)->gso_segs, n);
	KUNIT_EXPECT_TRUE(test, skb_has_shared_frag(skb));
	skb_walk_frags(skb, m) {
		KUNIT_ASSERT_LT(test, nskbs, ARRAY_SIZE(frags));
		KUNIT_EXPECT_EQ(test, skb_headlen(m), 0);
		KUNIT_EXPECT_EQ(test, m->len % wire, 0);
		KUNIT_EXPECT_TRUE(test, skb_has_shared_frag(m));
		frags[nskbs++] = skb_shinfo(m)->nr_frags;
	}
	KUNIT_ASSERT_EQ(test, nskbs, 2);
	KUNIT_EXPECT_EQ(test, frags[0], 2 * per_skb);
	KUNIT_EXPECT_EQ(test, frags[1], 6);
	KUNIT_EXPECT_GE(test, skb->truesize, skb->len);
	buf = kunit_kzalloc(test, skb->len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, skb_copy_bits(skb, 0, buf, skb->len), 0);
	for (i = 0; i < n; i++) {
		u8 *seg = buf + i * uet_train_rx_seg(skb);

		KUNIT_EXPECT_EQ(test, seg[7], i);
		for (j = 0; j < len; j++)
			if (seg[HDR + j] != (u8)(i + j))
				break;
		KUNIT_EXPECT_EQ(test, j, len);
	}
	kfree_skb(skb);
	train_test_drain(&pfc);
}

/* One packet is no train: no GSO fields, and it is one packet received. */
static void uet_train_single_test(struct kunit *test)
{
	struct sk_buff *pkt = train_test_pkt(test, 5, 200), *skb;
	struct page_frag_cache pfc = {};
	struct uet_train t = {};

	/* A train started and left empty is none. */
	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 1, false), 0);
	KUNIT_EXPECT_NULL(test, uet_train_finish(&t));
	KUNIT_EXPECT_NULL(test, t.skb);
	KUNIT_ASSERT_EQ(test, uet_train_start(&t, 64, 1, false), 0);
	KUNIT_ASSERT_EQ(test, uet_train_add(&t, pkt, 0, &pfc), 0);
	skb = uet_train_finish(&t);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	KUNIT_EXPECT_FALSE(test, skb_is_gso(skb));
	KUNIT_EXPECT_EQ(test, skb->len, HDR + 200);
	KUNIT_EXPECT_EQ(test, uet_train_rx_seg(skb), HDR + 200);
	KUNIT_EXPECT_NULL(test, uet_train_finish(&t));
	kfree_skb(pkt);
	kfree_skb(skb);
	uet_train_drop(&t);
	train_test_drain(&pfc);
}

static struct kunit_case uet_train_cases[] = {
	KUNIT_CASE(uet_train_fits_test),
	KUNIT_CASE(uet_train_build_test),
	KUNIT_CASE(uet_train_lend_test),
	KUNIT_CASE(uet_train_chain_test),
	KUNIT_CASE(uet_train_single_test),
	{}
};

static struct kunit_suite uet_train_suite = {
	.name = "uet_train",
	.test_cases = uet_train_cases,
};

kunit_test_suite(uet_train_suite);
