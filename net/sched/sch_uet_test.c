// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit for sch_uet: the marking decision, threshold conversion and
 * trimming. Included by sch_uet.c, so it reaches the static functions.
 */
#include <kunit/test.h>
#include <linux/prandom.h>

#define P32(num, den)	div_u64((1ULL << 32) * (num), (den))

static void uet_ecn_prob_test(struct kunit *test)
{
	/* Ramp from 20 kB to 80 kB, to 100 %. */
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(0, 20000, 80000, 100), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(20000, 20000, 80000, 100), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(35000, 20000, 80000, 100), P32(1, 4));
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(50000, 20000, 80000, 100), P32(1, 2));
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(65000, 20000, 80000, 100), P32(3, 4));
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(80000, 20000, 80000, 100), 1ULL << 32);
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(1000000, 20000, 80000, 100), 1ULL << 32);
	/* pmax scales the ramp, not the always-mark region above kmax. */
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(50000, 20000, 80000, 20), P32(1, 10));
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(80000, 20000, 80000, 20), 1ULL << 32);
	/* kmin == kmax: a step, as deterministic marking. */
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(49999, 50000, 50000, 100), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_ecn_prob(50000, 50000, 50000, 100), 1ULL << 32);
}

/* Marks out of @n decisions at @backlog, drawing from a seeded generator. */
static unsigned int uet_count_marks(u32 backlog, const struct uet_sched_cfg *cfg,
				    unsigned int n)
{
	struct rnd_state rnd;
	unsigned int i, marks = 0;

	prandom_seed_state(&rnd, 0x5eed);
	for (i = 0; i < n; i++)
		marks += uet_ecn_decide(backlog, cfg->kmin, cfg->kmax, cfg->pmax,
					prandom_u32_state(&rnd));
	return marks;
}

static void uet_ecn_decide_test(struct kunit *test)
{
	struct uet_sched_cfg cfg = { .kmin = 20000, .kmax = 80000, .pmax = 100 };
	unsigned int marks;

	KUNIT_EXPECT_EQ(test, uet_count_marks(20000, &cfg, 10000), 0);
	KUNIT_EXPECT_EQ(test, uet_count_marks(80000, &cfg, 10000), 10000);
	/* 10000 draws: the binomial standard deviation is at most 50. */
	marks = uet_count_marks(35000, &cfg, 10000);
	KUNIT_EXPECT_GE(test, marks, 2500 - 200);
	KUNIT_EXPECT_LE(test, marks, 2500 + 200);
	marks = uet_count_marks(65000, &cfg, 10000);
	KUNIT_EXPECT_GE(test, marks, 7500 - 200);
	KUNIT_EXPECT_LE(test, marks, 7500 + 200);
	cfg.pmax = 10;
	marks = uet_count_marks(50000, &cfg, 10000);
	KUNIT_EXPECT_GE(test, marks, 500 - 100);
	KUNIT_EXPECT_LE(test, marks, 500 + 100);
	/* Same seed, same decisions. */
	KUNIT_EXPECT_EQ(test, uet_count_marks(50000, &cfg, 10000), marks);
}

static void uet_thresh_test(struct kunit *test)
{
	struct tc_uet_thresh t;
	u32 b;

	t = (struct tc_uet_thresh){ TC_UET_THRESH_BYTES, 30000 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 0, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, b, 30000);
	t = (struct tc_uet_thresh){ TC_UET_THRESH_PERCENT, 30 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 0, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, b, 30000);
	/* 750 us at 20 Mbit/s (2.5 MB/s) = 1875 bytes. */
	t = (struct tc_uet_thresh){ TC_UET_THRESH_TIME, 750000 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 2500000, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, b, 1875);
	/* 30 us at 100 Gbit/s (12.5 GB/s) = 375000 bytes. */
	t = (struct tc_uet_thresh){ TC_UET_THRESH_TIME, 30000 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 0, 12500000000ULL, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, b, 375000);
	/* 4 s at 100 Gbit/s does not fit 32 bits: saturate. */
	t = (struct tc_uet_thresh){ TC_UET_THRESH_TIME, 4000000000U };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 0, 12500000000ULL, &b, NULL), 0);
	KUNIT_EXPECT_EQ(test, b, U32_MAX);

	/* Refused: time without a rate, a share above 100 %, an unknown unit. */
	t = (struct tc_uet_thresh){ TC_UET_THRESH_TIME, 1000 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 0, &b, NULL), -EINVAL);
	t = (struct tc_uet_thresh){ TC_UET_THRESH_PERCENT, 101 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 0, &b, NULL), -EINVAL);
	t = (struct tc_uet_thresh){ 7, 1 };
	KUNIT_EXPECT_EQ(test, uet_thresh_bytes(&t, 100000, 0, &b, NULL), -EINVAL);
}

static void uet_trim_len_test(struct kunit *test)
{
	/* IPv4 + UDP = 28 bytes of headers. */
	KUNIT_EXPECT_EQ(test, uet_trim_len(1500, 28, 128), 128);
	KUNIT_EXPECT_EQ(test, uet_trim_len(100, 28, 128), 100);
	KUNIT_EXPECT_EQ(test, uet_trim_len(128, 28, 128), 128);
	/* IPv4 with 40 bytes of options: headers are never cut. */
	KUNIT_EXPECT_EQ(test, uet_trim_len(1500, 68, 64), 68);
	/* IPv6 + UDP = 48 bytes. */
	KUNIT_EXPECT_EQ(test, uet_trim_len(9000, 48, 128), 128);
	KUNIT_EXPECT_EQ(test, uet_trim_len(9000, 48, 28), 48);
	KUNIT_EXPECT_EQ(test, uet_trim_len(48, 48, 128), 48);
}

/* A UDP packet of @payload bytes over IPv4 or IPv6, network header at data. */
static struct sk_buff *uet_test_udp_skb(struct kunit *test, bool v6, u32 payload)
{
	u32 l3 = v6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	u32 udp_len = sizeof(struct udphdr) + payload;
	struct sk_buff *skb;
	struct udphdr *uh;
	u8 *data;
	u32 i;

	skb = alloc_skb(l3 + udp_len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_reset_network_header(skb);
	skb_put(skb, l3 + udp_len);
	if (v6) {
		struct ipv6hdr *ip6 = ipv6_hdr(skb);

		memset(ip6, 0, sizeof(*ip6));
		ip6->version = 6;
		ip6->payload_len = htons(udp_len);
		ip6->nexthdr = IPPROTO_UDP;
		ip6->hop_limit = 64;
		ip6->saddr.s6_addr[15] = 1;
		ip6->daddr.s6_addr[15] = 2;
		ipv6_change_dsfield(ip6, 0, 26 << 2 | INET_ECN_ECT_0);
		skb->protocol = htons(ETH_P_IPV6);
	} else {
		struct iphdr *iph = ip_hdr(skb);

		memset(iph, 0, sizeof(*iph));
		iph->version = 4;
		iph->ihl = 5;
		iph->tos = 26 << 2 | INET_ECN_ECT_0;
		iph->tot_len = htons(l3 + udp_len);
		iph->ttl = 64;
		iph->protocol = IPPROTO_UDP;
		iph->saddr = htonl(0x0a000001);
		iph->daddr = htonl(0x0a000002);
		ip_send_check(iph);
		skb->protocol = htons(ETH_P_IP);
	}
	skb_set_transport_header(skb, l3);
	uh = udp_hdr(skb);
	uh->source = htons(49152);
	uh->dest = htons(4793);
	uh->len = htons(udp_len);
	uh->check = 0;
	data = (u8 *)(uh + 1);
	for (i = 0; i < payload; i++)
		data[i] = i;
	/* A checksum the trimming must redo, on both families. */
	uh->check = v6 ? csum_ipv6_magic(&ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
					  udp_len, IPPROTO_UDP,
					  skb_checksum(skb, l3, udp_len, 0)) :
			 csum_tcpudp_magic(ip_hdr(skb)->saddr, ip_hdr(skb)->daddr,
					   udp_len, IPPROTO_UDP,
					   skb_checksum(skb, l3, udp_len, 0));
	qdisc_skb_cb(skb)->pkt_len = skb->len;
	return skb;
}

static void uet_trim_skb_test(struct kunit *test)
{
	struct uet_sched_cfg cfg = { .trim_size = 128, .trim_dscp = 30 };
	int v6;

	for (v6 = 0; v6 <= 1; v6++) {
		struct sk_buff *skb = uet_test_udp_skb(test, v6, 1400);
		u32 l3 = v6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
		struct udphdr *uh;
		__wsum csum;
		u8 *data;

		KUNIT_ASSERT_TRUE(test, uet_trim(skb, &cfg));
		KUNIT_EXPECT_EQ(test, skb->len, 128);
		KUNIT_EXPECT_EQ(test, qdisc_pkt_len(skb), 128);
		uh = udp_hdr(skb);
		KUNIT_EXPECT_EQ(test, ntohs(uh->len), 128 - l3);
		if (v6) {
			KUNIT_EXPECT_EQ(test, ntohs(ipv6_hdr(skb)->payload_len), 128 - l3);
			/* DSCP replaced, ECN bits kept. */
			KUNIT_EXPECT_EQ(test, ipv6_get_dsfield(ipv6_hdr(skb)),
					30 << 2 | INET_ECN_ECT_0);
		} else {
			KUNIT_EXPECT_EQ(test, ntohs(ip_hdr(skb)->tot_len), 128);
			KUNIT_EXPECT_EQ(test, ip_hdr(skb)->tos, 30 << 2 | INET_ECN_ECT_0);
			KUNIT_EXPECT_EQ(test, ip_fast_csum(ip_hdr(skb), 5), 0);
		}
		/* The UDP checksum verifies over what is left. */
		csum = skb_checksum(skb, l3, 128 - l3, 0);
		KUNIT_EXPECT_EQ(test, v6 ?
				csum_ipv6_magic(&ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
						128 - l3, IPPROTO_UDP, csum) :
				csum_tcpudp_magic(ip_hdr(skb)->saddr, ip_hdr(skb)->daddr,
						  128 - l3, IPPROTO_UDP, csum), 0);
		/* The payload that is kept is untouched. */
		data = (u8 *)(uh + 1);
		KUNIT_EXPECT_EQ(test, data[0], 0);
		KUNIT_EXPECT_EQ(test, data[127 - l3 - 8], (u8)(127 - l3 - 8));
		kfree_skb(skb);
	}
}

static void uet_trim_refuse_test(struct kunit *test)
{
	struct uet_sched_cfg cfg = { .trim_size = 128, .trim_dscp = 30 };
	struct sk_buff *skb = uet_test_udp_skb(test, false, 1400);

	/* Not UDP: left alone. */
	ip_hdr(skb)->protocol = IPPROTO_TCP;
	KUNIT_EXPECT_FALSE(test, uet_trim(skb, &cfg));
	KUNIT_EXPECT_EQ(test, skb->len, 1428);
	/* A length field beyond the packet: malformed, left alone. */
	ip_hdr(skb)->protocol = IPPROTO_UDP;
	ip_hdr(skb)->tot_len = htons(2000);
	KUNIT_EXPECT_FALSE(test, uet_trim(skb, &cfg));
	KUNIT_EXPECT_EQ(test, skb->len, 1428);
	/* A fragment: its UDP header may not be here. */
	ip_hdr(skb)->tot_len = htons(1428);
	ip_hdr(skb)->frag_off = htons(IP_MF);
	KUNIT_EXPECT_FALSE(test, uet_trim(skb, &cfg));
	kfree_skb(skb);
}

static struct kunit_case uet_sched_cases[] = {
	KUNIT_CASE(uet_ecn_prob_test),
	KUNIT_CASE(uet_ecn_decide_test),
	KUNIT_CASE(uet_thresh_test),
	KUNIT_CASE(uet_trim_len_test),
	KUNIT_CASE(uet_trim_skb_test),
	KUNIT_CASE(uet_trim_refuse_test),
	{}
};

static struct kunit_suite uet_sched_suite = {
	.name = "uet_sched",
	.test_cases = uet_sched_cases,
};

kunit_test_suite(uet_sched_suite);
