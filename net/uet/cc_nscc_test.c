// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: NSCC on a fake clock, fed synthetic ACK, NACK and loss streams.
 * Most cases run on the spec's reference network (100 Gb/s, 12 us, so
 * scaling_a = 1): max_wnd 225000 B, target 9 us, fi 5 MTU, eta 614 B.
 */
#include <kunit/test.h>

#include "cc.h"

#define MTU		4096U
#define T0		1000000000ULL	/* the fake clock starts at 1 s */
#define RTT		12000ULL	/* ns */
#define TARGET		9000ULL		/* 0.75 RTT with trimming */
#define MAX_WND		225000ULL	/* 1.5 x 100 Gb/s x 12 us */
#define CUT		102400ULL	/* 25 MTU: room to grow */
#define ETA		614ULL		/* 0.15 MTU */

static u32 uet_nscc_test_param(struct kunit *test, const char *name)
{
	u32 i;

	for (i = 0; i < uet_cc_nscc.nparams; i++)
		if (!strcmp(uet_cc_nscc.params[i].name, name))
			return i;
	KUNIT_FAIL(test, "no parameter %s", name);
	return 0;
}

static u64 uet_nscc_test_stat(struct kunit *test, struct uet_cc *cc,
			      const char *name)
{
	struct uet_cc_stat st[UET_CC_STATS_MAX];
	int i, n = cc->ops->get_info(cc, st);

	for (i = 0; i < n; i++)
		if (!strcmp(st[i].name, name))
			return st[i].value;
	KUNIT_FAIL(test, "no stat %s", name);
	return 0;
}

#define CWND(cc)	uet_nscc_test_stat(test, cc, "cwnd")

static void uet_nscc_test_ack(struct uet_cc *cc, u64 now, u64 bytes,
			      u64 rtt, bool ecn, u64 inflight, u8 pend)
{
	struct uet_cc_ack ack = {
		.now = now,
		.acked_bytes = bytes,
		.inflight_bytes = inflight,
		.rtt_ns = rtt,
		.ecn = ecn,
		.rcv_cwnd_pend = pend,
	};

	cc->ops->on_ack(cc, &ack);
}

/* n ACKs of one MTU each at now, the rest of the window in flight. */
static void uet_nscc_test_acks(struct kunit *test, struct uet_cc *cc,
			       int n, u64 now, u64 delay, bool ecn)
{
	while (n--)
		uet_nscc_test_ack(cc, now, MTU, RTT + delay, ecn, CWND(cc), 0);
}

/* NSCC at its defaults but for the network, at T0, sending mtu-byte
 * packets.
 */
static void uet_nscc_test_init_mtu(struct kunit *test, struct uet_cc *cc,
				   u32 mtu, u32 linkspeed_mbps,
				   u32 base_rtt_us)
{
	u32 p[UET_CC_PARAMS_MAX] = {};
	u32 i;

	for (i = 0; i < uet_cc_nscc.nparams; i++)
		p[i] = uet_cc_nscc.params[i].def;
	p[uet_nscc_test_param(test, "linkspeed_mbps")] = linkspeed_mbps;
	p[uet_nscc_test_param(test, "base_rtt_us")] = base_rtt_us;
	uet_cc_init(cc, &uet_cc_nscc, mtu, p, 0, NULL, T0);
}

static void uet_nscc_test_init(struct kunit *test, struct uet_cc *cc,
			       u32 linkspeed_mbps, u32 base_rtt_us)
{
	uet_nscc_test_init_mtu(test, cc, MTU, linkspeed_mbps, base_rtt_us);
}

/* The reference network, with a clean RTT sample taken at T0 that also
 * opens the first quick adapt window.
 */
static void uet_nscc_test_start(struct kunit *test, struct uet_cc *cc)
{
	uet_nscc_test_init(test, cc, 100000, RTT / 1000);
	uet_nscc_test_ack(cc, T0, 0, RTT, false, 0, 0);
	KUNIT_ASSERT_EQ(test, CWND(cc), MAX_WND);
}

static void uet_nscc_test_cut(struct kunit *test, struct uet_cc *cc, u64 to)
{
	cc->ops->on_loss(cc, T0, CWND(cc) - to, false);
	KUNIT_ASSERT_EQ(test, CWND(cc), to);
}

static void uet_nscc_registry_test(struct kunit *test)
{
	struct uet_cc_stat st[UET_CC_STATS_MAX];
	struct uet_cc cc;
	u32 i, j;

	KUNIT_ASSERT_PTR_EQ(test, uet_cc_find("nscc"), &uet_cc_nscc);
	KUNIT_EXPECT_EQ(test, uet_cc_index(&uet_cc_nscc), 1);
	KUNIT_ASSERT_LE(test, uet_cc_nscc.nparams, (u32)UET_CC_PARAMS_MAX);
	for (i = 0; i < uet_cc_nscc.nparams; i++) {
		const struct uet_cc_param *p = &uet_cc_nscc.params[i];

		KUNIT_EXPECT_NOT_NULL(test, p->name);
		KUNIT_EXPECT_LE(test, p->min, p->def);
		KUNIT_EXPECT_LE(test, p->def, p->max);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_STRNEQ(test, p->name,
					    uet_cc_nscc.params[j].name);
	}
	KUNIT_EXPECT_NULL(test, uet_cc_nscc.on_cnp);

	/* Defaults (auto), before a sample: a netdev reporting no speed
	 * counts as 10 Gb/s, the RTT is the reference's 12 us; window 1.5
	 * BDP, target 0.75 RTT.
	 */
	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 0, NULL, T0);
	KUNIT_EXPECT_LE(test, cc.ops->get_info(&cc, st), UET_CC_STATS_MAX);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 22500ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "max_wnd"), 22500ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "base_rtt_ns"), RTT);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "target_ns"), TARGET);
}

/* The first sample replaces a configured RTT, later ones only lower
 * it; the window ceiling follows. No sample leaves both alone and uses
 * the average delay.
 */
static void uet_nscc_base_rtt_test(struct kunit *test)
{
	struct uet_cc cc;

	uet_nscc_test_init(test, &cc, 10000, 12);
	uet_nscc_test_ack(&cc, T0, 0, 50000, false, 0, 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "base_rtt_ns"),
			50000ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "max_wnd"), 93750ULL);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 93750ULL);
	uet_nscc_test_ack(&cc, T0, 0, 40000, false, 0, 0);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 75000ULL);
	uet_nscc_test_ack(&cc, T0, 0, 60000, false, 0, 0);
	uet_nscc_test_ack(&cc, T0, 0, 0, false, 0, 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "base_rtt_ns"),
			40000ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "max_wnd"), 75000ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "q_dec"), 0ULL);

	/* With the average far above target, a marked ACK without a
	 * sample falls in the decrease quadrant.
	 */
	uet_nscc_test_start(test, &cc);
	uet_nscc_test_acks(test, &cc, 100, T0, 30000, false);
	KUNIT_EXPECT_GT(test, uet_nscc_test_stat(test, &cc, "avg_delay_ns"),
			TARGET);
	uet_nscc_test_ack(&cc, T0, MTU, 0, true, CWND(&cc), 0);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "q_dec"), 1ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "base_rtt_ns"), RTT);
}

/* Marks with a delay above target: once the average delay is above
 * target too and a base RTT has passed, cwnd shrinks, by at most half.
 */
static void uet_nscc_ecn_high_delay_test(struct kunit *test)
{
	struct uet_cc cc;
	u64 avg, cwnd;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_acks(test, &cc, 60, T0 + 1000, 20000, true);
	avg = uet_nscc_test_stat(test, &cc, "avg_delay_ns");
	KUNIT_EXPECT_GT(test, avg, TARGET);
	KUNIT_EXPECT_LT(test, avg, 20000ULL);
	/* Not within the first base RTT of the flow (last_dec = now). */
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND);

	uet_nscc_test_acks(test, &cc, 1, T0 + RTT + 1000, 20000, true);
	cwnd = CWND(&cc);
	KUNIT_EXPECT_LT(test, cwnd, MAX_WND * 95 / 100);
	KUNIT_EXPECT_GE(test, cwnd, MAX_WND / 2);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 1ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "q_dec"), 61ULL);
}

/* Marks without delay hold the window: the queue is on one path. */
static void uet_nscc_ecn_low_delay_test(struct kunit *test)
{
	struct uet_cc cc;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_cut(test, &cc, CUT);
	uet_nscc_test_acks(test, &cc, 40, T0 + 1000, 3000, true);
	KUNIT_EXPECT_EQ(test, CWND(&cc), CUT);
	/* eta still comes once per adjust period. */
	uet_nscc_test_acks(test, &cc, 40, T0 + 2 * RTT, 3000, true);
	KUNIT_EXPECT_EQ(test, CWND(&cc), CUT + ETA);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "q_hold"), 80ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 0ULL);
}

/* Growth over 18 ACKs (two adjustments) from CUT: acked bytes x the
 * per-byte increase, divided by cwnd, within the error of cwnd growing
 * between the two adjustments.
 */
static u64 uet_nscc_test_growth(struct kunit *test, u64 delay, u64 expect)
{
	struct uet_cc cc;
	u64 gain;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_cut(test, &cc, CUT);
	uet_nscc_test_acks(test, &cc, 18, T0 + 1000, delay, false);
	gain = CWND(&cc) - CUT;
	KUNIT_EXPECT_GE(test, gain, expect * 88 / 100);
	KUNIT_EXPECT_LE(test, gain, expect * 101 / 100);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "fast_inc"), 0ULL);
	return gain;
}

/* alpha x (target - delay) per acked byte, alpha = 4 MTU / 12 us at
 * scaling_a = 1: the lower the delay, the faster.
 */
static void uet_nscc_proportional_test(struct kunit *test)
{
	u64 acked = 18 * MTU, fast, slow;

	fast = uet_nscc_test_growth(test, 2000, div64_u64(4 * MTU * acked *
							  (TARGET - 2000),
							  RTT * CUT));
	slow = uet_nscc_test_growth(test, 6000, div64_u64(4 * MTU * acked *
							  (TARGET - 6000),
							  RTT * CUT));
	KUNIT_EXPECT_GT(test, fast, 2 * slow);
}

/* On a long path (40 Mb/s x 21 ms, scaling_a 0.7) a window of 36 MTU,
 * acked in packets of pkt bytes at half the target delay, adds alpha x
 * target / 2 = 1.5 MTU x scaling_a.
 */
static void uet_nscc_test_long_path(struct kunit *test, u32 pkt)
{
	const u64 rtt = 21000000, target = rtt * 3 / 4, cut = 36 * MTU;
	u64 expect = 3 * MTU * 7 / 20, now = T0 + 1000, acked, gain;
	struct uet_cc cc;

	uet_nscc_test_init_mtu(test, &cc, pkt, 40, rtt / 1000);
	uet_nscc_test_ack(&cc, T0, 0, rtt, false, 0, 0);
	KUNIT_ASSERT_EQ(test, CWND(&cc), 157500ULL);
	cc.ops->on_loss(&cc, T0, CWND(&cc) - cut, false);
	for (acked = 0; acked < cut; acked += pkt)
		uet_nscc_test_ack(&cc, now, pkt, rtt + target / 2, false,
				  CWND(&cc), 0);
	gain = CWND(&cc) - cut;
	KUNIT_EXPECT_GE(test, gain, expect * 90 / 100);
	KUNIT_EXPECT_LE(test, gain, expect * 101 / 100);
}

/* As on the reference network: the share of BDP proportional increase
 * adds per RTT does not grow with the RTT.
 */
static void uet_nscc_long_rtt_test(struct kunit *test)
{
	uet_nscc_test_long_path(test, MTU);
}

/* With 1 KiB packets (a 1500-byte Ethernet MTU) the window grows by the
 * same bytes, the reference's 4 KiB packets, not a quarter of them.
 */
static void uet_nscc_small_mtu_test(struct kunit *test)
{
	uet_nscc_test_long_path(test, 1024);
}

/* fi = 5 MTU per window of acked bytes whatever the delay above target:
 * every flow seeing it adds the same.
 */
static void uet_nscc_fair_test(struct kunit *test)
{
	u64 expect = div64_u64(5ULL * MTU * 18 * MTU, CUT);

	KUNIT_EXPECT_EQ(test, uet_nscc_test_growth(test, 12000, expect),
			uet_nscc_test_growth(test, 30000, expect));
}

/* A trim burst after a window that delivered 5 packets: cwnd becomes
 * those 5 packets, not 225000 minus the trimmed ones, and the marks and
 * trims of what was already in flight are ignored.
 */
static void uet_nscc_quick_adapt_test(struct kunit *test)
{
	u64 inflight = 200000;
	struct uet_cc cc;
	int i;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_acks(test, &cc, 5, T0 + 5000, 0, false);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND);
	for (i = 0; i < 20; i++) {
		cc.ops->on_nack(&cc, T0 + RTT + TARGET + 1000, MTU, true,
				inflight);
		inflight -= MTU;
	}
	KUNIT_EXPECT_EQ(test, CWND(&cc), 5ULL * MTU);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "quick_adapt"), 1ULL);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "loss_dec"), 0ULL);
	uet_nscc_test_acks(test, &cc, 10, T0 + 3 * RTT, 30000, true);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 5ULL * MTU);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 0ULL);

	/* A window that delivered max_wnd >> qa_gate or more: a trim only
	 * takes its packet off.
	 */
	uet_nscc_test_start(test, &cc);
	uet_nscc_test_acks(test, &cc, 7, T0 + 5000, 0, false);
	cc.ops->on_nack(&cc, T0 + RTT + TARGET + 1000, MTU, true, inflight);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND - MTU);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "quick_adapt"), 0ULL);
}

/* One decrease per base RTT however many marks arrive; sustained marks
 * take cwnd down to one MTU (plus the eta of up to two adjustments) and
 * no lower.
 */
static void uet_nscc_md_once_per_rtt_test(struct kunit *test)
{
	u64 now = T0 + RTT + 1000, cwnd;
	struct uet_cc cc;
	int i;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_acks(test, &cc, 60, T0 + 1000, 20000, true);
	uet_nscc_test_acks(test, &cc, 1, now, 20000, true);
	KUNIT_ASSERT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 1ULL);
	cwnd = CWND(&cc);
	for (i = 0; i < 50; i++)
		uet_nscc_test_acks(test, &cc, 1, now + i * 200, 20000, true);
	KUNIT_EXPECT_EQ(test, CWND(&cc), cwnd);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 1ULL);
	uet_nscc_test_acks(test, &cc, 1, now + RTT + 1, 20000, true);
	KUNIT_EXPECT_LT(test, CWND(&cc), cwnd);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "mult_dec"), 2ULL);

	for (i = 0; i < 400; i++) {
		uet_nscc_test_acks(test, &cc, 1, now + RTT + i * 1000, 20000,
				   true);
		KUNIT_ASSERT_GE(test, CWND(&cc), (u64)MTU);
	}
	KUNIT_EXPECT_LE(test, CWND(&cc), MTU + 2 * ETA);
	KUNIT_EXPECT_LE(test, uet_nscc_test_stat(test, &cc, "mult_dec"),
			2ULL + 400 * 1000 / RTT);
}

/* Losses floor at one MTU, and a loss that was only late is undone;
 * from there ACKs at zero delay grow it,
 * exponentially once a window went by, up to max_wnd and no higher.
 */
static void uet_nscc_bounds_test(struct kunit *test)
{
	struct uet_cc cc;
	int i;

	uet_nscc_test_start(test, &cc);
	/* A timeout takes off what it lost, as any loss. */
	cc.ops->on_loss(&cc, T0, 3 * MTU, true);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND - 3 * MTU);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "timeout"), 1ULL);
	/* Two of them were only late: they give back what they cost, and
	 * no more than max_wnd.
	 */
	cc.ops->on_late(&cc, T0, 2 * MTU);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND - MTU);
	cc.ops->on_late(&cc, T0, 2 * MTU);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND);
	KUNIT_EXPECT_EQ(test, uet_nscc_test_stat(test, &cc, "late"), 2ULL);
	for (i = 0; i < 100; i++)
		cc.ops->on_loss(&cc, T0, MTU, false);
	KUNIT_EXPECT_EQ(test, CWND(&cc), (u64)MTU);
	cc.ops->on_nack(&cc, T0, MTU, false, 0);
	KUNIT_EXPECT_EQ(test, CWND(&cc), (u64)MTU);

	for (i = 0; i < 3000; i++) {
		uet_nscc_test_acks(test, &cc, 1, T0 + i * 1000ULL, 0, false);
		KUNIT_ASSERT_GE(test, CWND(&cc), (u64)MTU);
		KUNIT_ASSERT_LE(test, CWND(&cc), MAX_WND);
	}
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND);
	KUNIT_EXPECT_GT(test, uet_nscc_test_stat(test, &cc, "fast_inc"), 0ULL);
}

/* rcv_cwnd_pend 64 takes half of the newly acked bytes off a window
 * first cut to what is in flight, and suspends increases.
 */
static void uet_nscc_backpressure_test(struct kunit *test)
{
	struct uet_cc cc;

	uet_nscc_test_start(test, &cc);
	uet_nscc_test_ack(&cc, T0 + 1000, 2 * MTU, RTT, false, 300000, 64);
	KUNIT_EXPECT_EQ(test, CWND(&cc), MAX_WND - MTU);
	uet_nscc_test_ack(&cc, T0 + 2000, 2 * MTU, RTT, false, 100000, 64);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 100000ULL - MTU);
	uet_nscc_test_ack(&cc, T0 + 3000, 100 * MTU, RTT, false, 100000, 127);
	KUNIT_EXPECT_EQ(test, CWND(&cc), (u64)MTU);
}

#define STAT(cc, name)	uet_nscc_test_stat(test, cc, name)

/* An ACK through uet_cc_ack(), the measurements first, as req.c does. */
static void uet_nscc_test_meas_ack(struct uet_cc *cc, u64 now, u64 bytes,
				   u64 rtt)
{
	struct uet_cc_ack ack = {
		.now = now,
		.acked_bytes = bytes,
		.rtt_ns = rtt,
	};

	uet_cc_ack(cc, &ack);
}

/* Auto: the first RTT sample is the base RTT, a lower one lowers it (an
 * incast's queue inflated the first); the line rate is the netdev's
 * speed, which no delivery rate moves, or the operator's port speed.
 */
static void uet_nscc_auto_test(struct kunit *test)
{
	const u64 rtt = 21000000, slot = 819200;	/* MTU at 40 Mb/s */
	u64 now = T0;
	struct uet_cc cc;
	int i;

	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 0, NULL, T0);
	KUNIT_ASSERT_EQ(test, CWND(&cc), 22500ULL);
	uet_nscc_test_meas_ack(&cc, now, 0, 2 * rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), 2 * rtt);
	uet_nscc_test_meas_ack(&cc, now, 0, rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "target_ns"), rtt * 3 / 4);
	/* No netdev speed: 10 Gb/s, x 1.5 x 21 ms */
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 10000ULL);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "max_wnd"), 39375000ULL);

	/* Two RTTs of ACKs at 40 Mb/s leave it. */
	for (i = 0; i < 52; i++) {
		now += slot;
		uet_nscc_test_meas_ack(&cc, now, MTU, rtt);
	}
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 10000ULL);

	/* A netdev of 20 Mb/s is the line rate. */
	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 20, NULL, T0);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 20ULL);
	uet_nscc_test_meas_ack(&cc, T0, 0, rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 20ULL);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "max_wnd"), 78750ULL);

	/* So is a port speed the operator set, which qp.c passes in the
	 * netdev's place (the base RTT is measured still).
	 */
	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 40, NULL, T0);
	uet_nscc_test_meas_ack(&cc, T0, 0, rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 40ULL);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);

	/* A configured base RTT stays the one scaling is of. */
	uet_nscc_test_init(test, &cc, 0, 12);
	uet_nscc_test_meas_ack(&cc, T0, 0, rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "target_ns"), TARGET);
}

/* A fast path on a busy host: the least RTT (a probe's) is 40 us, a
 * window's ACKs come 400 us after its packets, 16 packets an ACK every
 * 300 us, none marked. The ceiling is 1.5 x 10 Gb/s over the ACK clock's
 * 400 us, not over the base RTT, and the window grows past the base
 * RTT's: no quick adapt on the unmarked delay, and no ceiling taken from
 * what the window delivered (which closed it to one packet).
 */
static void uet_nscc_busy_host_test(struct kunit *test)
{
	u64 now = T0, max_wnd;
	struct uet_cc cc;
	int i;

	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 10000, NULL, T0);
	uet_nscc_test_meas_ack(&cc, now, 0, 40000);
	max_wnd = STAT(&cc, "max_wnd");
	KUNIT_EXPECT_EQ(test, max_wnd, 75000ULL);
	for (i = 0; i < 1000; i++) {
		struct uet_cc_ack ack = {
			.now = now += 300000,
			.acked_bytes = 16 * MTU,
			.inflight_bytes = CWND(&cc),
			.rtt_ns = 400000,
			.srtt_ns = 400000,
		};

		uet_cc_ack(&cc, &ack);
	}
	KUNIT_EXPECT_EQ(test, STAT(&cc, "max_wnd"), 750000ULL);
	KUNIT_EXPECT_GT(test, CWND(&cc), 4 * max_wnd);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "quick_adapt"), 0ULL);
	max_wnd = STAT(&cc, "max_wnd");

	/* The same delay marked is a queue: quick adapt cuts the window to
	 * what the last one delivered.
	 */
	for (i = 0; i < 3; i++) {
		struct uet_cc_ack ack = {
			.now = now += 300000,
			.acked_bytes = MTU,
			.inflight_bytes = CWND(&cc),
			.rtt_ns = 400000,
			.ecn = true,
		};

		uet_cc_ack(&cc, &ack);
	}
	KUNIT_EXPECT_EQ(test, STAT(&cc, "quick_adapt"), 1ULL);
	KUNIT_EXPECT_LT(test, CWND(&cc), max_wnd / 8);
}

/* Seeded with the peer's measurements, a QP starts on its base RTT: its
 * own first sample, taken in a queue, does not raise it.
 */
static void uet_nscc_seed_test(struct kunit *test)
{
	const u64 rtt = 21000000;
	struct uet_cc_meas m = {
		.min_rtt = { .cur = rtt, .start = T0 },
		.max_rate = { .cur = 5000000, .start = T0 },	/* 40 Mb/s */
	};
	struct uet_cc cc;

	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 40, &m, T0);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "linkspeed_mbps"), 40ULL);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "max_wnd"), 157500ULL);
	KUNIT_EXPECT_EQ(test, CWND(&cc), 157500ULL);
	uet_nscc_test_meas_ack(&cc, T0, 0, 2 * rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);
}

/* The peer's base-RTT probe answered: its RTT, plus a full packet's time
 * at the port's speed, is a sample like a data packet's. A first sample
 * an incast's queue inflated (30 ms) gives way to it at once, and the
 * delay and target follow; without a port speed it counts as it came.
 */
static void uet_nscc_probe_test(struct kunit *test)
{
	const u64 rtt = 21000000, slot = 819200;	/* MTU at 40 Mb/s */
	struct uet_cc_ack ack = { .now = T0, .rtt_ns = 30000000 };
	struct uet_cc cc;

	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 40, NULL, T0);
	uet_cc_ack(&cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), 30000000ULL);
	ack.probe_rtt_ns = rtt - slot;
	uet_cc_ack(&cc, &ack);
	KUNIT_EXPECT_TRUE(test, ack.meas_changed);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "target_ns"), rtt * 3 / 4);
	/* The same ACK's 30 ms is 9 ms of queue now: 1/80 of it averaged. */
	KUNIT_EXPECT_EQ(test, STAT(&cc, "avg_delay_ns"), 112500ULL);

	uet_cc_init(&cc, &uet_cc_nscc, MTU, NULL, 0, NULL, T0);
	ack.rtt_ns = 0;
	ack.probe_rtt_ns = rtt;
	uet_cc_ack(&cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(&cc, "base_rtt_ns"), rtt);
}

static void uet_nscc_send_at_test(struct kunit *test)
{
	u64 now = T0 + 5000;
	struct uet_cc cc;

	uet_nscc_test_start(test, &cc);
	KUNIT_EXPECT_LE(test, cc.ops->send_at(&cc, now, 0, MTU), now);
	KUNIT_EXPECT_LE(test, cc.ops->send_at(&cc, now, MAX_WND - MTU, MTU),
			now);
	KUNIT_EXPECT_EQ(test, cc.ops->send_at(&cc, now, MAX_WND - MTU + 1, MTU),
			U64_MAX);
	uet_nscc_test_cut(test, &cc, MTU);
	/* An empty pipe admits a packet larger than the window. */
	KUNIT_EXPECT_LE(test, cc.ops->send_at(&cc, now, 0, 2 * MTU), now);
	KUNIT_EXPECT_EQ(test, cc.ops->send_at(&cc, now, 1, MTU), U64_MAX);
}

static struct kunit_case uet_nscc_cases[] = {
	KUNIT_CASE(uet_nscc_registry_test),
	KUNIT_CASE(uet_nscc_base_rtt_test),
	KUNIT_CASE(uet_nscc_ecn_high_delay_test),
	KUNIT_CASE(uet_nscc_ecn_low_delay_test),
	KUNIT_CASE(uet_nscc_proportional_test),
	KUNIT_CASE(uet_nscc_long_rtt_test),
	KUNIT_CASE(uet_nscc_small_mtu_test),
	KUNIT_CASE(uet_nscc_fair_test),
	KUNIT_CASE(uet_nscc_quick_adapt_test),
	KUNIT_CASE(uet_nscc_md_once_per_rtt_test),
	KUNIT_CASE(uet_nscc_bounds_test),
	KUNIT_CASE(uet_nscc_backpressure_test),
	KUNIT_CASE(uet_nscc_send_at_test),
	KUNIT_CASE(uet_nscc_auto_test),
	KUNIT_CASE(uet_nscc_busy_host_test),
	KUNIT_CASE(uet_nscc_seed_test),
	KUNIT_CASE(uet_nscc_probe_test),
	{}
};

static struct kunit_suite uet_nscc_suite = {
	.name = "uet_cc_nscc",
	.test_cases = uet_nscc_cases,
};

kunit_test_suite(uet_nscc_suite);
