// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the DCQCN reaction point on a fake clock. The cut by alpha/2,
 * alpha's EWMA, the three increase stages, the monitor period, the rate
 * floor, the pacer, that a long idle skipped at once lands where
 * stepping through it does, the notification point's CNP spacing, the
 * values the parameters on auto take, and the additive step that follows
 * the RTT.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "cc.h"

#define US	1000ULL
#define MS	1000000ULL
#define MBPS	1000000ULL

/* The defaults, with some parameters changed by name. */
static u32 *uet_dcqcn_test_params(struct kunit *test)
{
	const struct uet_cc_ops *ops = &uet_cc_dcqcn;
	u32 *p = kunit_kcalloc(test, UET_CC_PARAMS_MAX, sizeof(*p), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, p);
	for (i = 0; i < ops->nparams; i++)
		p[i] = ops->params[i].def;
	return p;
}

static void uet_dcqcn_test_set(struct kunit *test, u32 *p, const char *name,
			       u32 value)
{
	const struct uet_cc_ops *ops = &uet_cc_dcqcn;
	u32 i;

	for (i = 0; i < ops->nparams; i++) {
		if (!strcmp(ops->params[i].name, name)) {
			KUNIT_ASSERT_GE(test, value, ops->params[i].min);
			KUNIT_ASSERT_LE(test, value, ops->params[i].max);
			p[i] = value;
			return;
		}
	}
	KUNIT_FAIL(test, "no parameter %s", name);
}

/* The cases below do the firmware's arithmetic with its steps, 5 and 50
 * Mb/s a round, rather than the shares of the line rate on auto, and
 * start at the line rate as the firmware does.
 */
static struct uet_cc *uet_dcqcn_test_cc(struct kunit *test, u32 *p)
{
	struct uet_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cc);
	uet_dcqcn_test_set(test, p, "rp_ai_rate_mbps", 5);
	uet_dcqcn_test_set(test, p, "rp_hai_rate_mbps", 50);
	uet_dcqcn_test_set(test, p, "rp_start_rate_mbps", 10000);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 0, NULL, 0);
	return cc;
}

static u64 uet_dcqcn_stat(struct kunit *test, struct uet_cc *cc,
			  const char *name)
{
	struct uet_cc_stat st[UET_CC_STATS_MAX];
	int i, n = cc->ops->get_info(cc, st);

	KUNIT_ASSERT_LE(test, n, UET_CC_STATS_MAX);
	for (i = 0; i < n; i++)
		if (!strcmp(st[i].name, name))
			return st[i].value;
	KUNIT_FAIL(test, "no statistic %s", name);
	return 0;
}

#define RATE(cc)	uet_dcqcn_stat(test, cc, "rate_mbps")
#define TARGET(cc)	uet_dcqcn_stat(test, cc, "target_mbps")
#define ALPHA(cc)	uet_dcqcn_stat(test, cc, "alpha")
#define DECREASES(cc)	uet_dcqcn_stat(test, cc, "decreases")

/* With alpha = 1 a CNP halves the rate and aims recovery at the old one. */
static void uet_dcqcn_halve_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc;

	KUNIT_EXPECT_PTR_EQ(test, uet_cc_find("dcqcn"), &uet_cc_dcqcn);
	KUNIT_EXPECT_EQ(test, uet_cc_index(&uet_cc_dcqcn), 2);
	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 1024);
	cc = uet_dcqcn_test_cc(test, p);
	KUNIT_EXPECT_EQ(test, RATE(cc), 10000ULL);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 0ULL);
	cc->ops->on_cnp(cc, 7 * US);
	KUNIT_EXPECT_EQ(test, RATE(cc), 5000ULL);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 10000ULL);
	KUNIT_EXPECT_EQ(test, ALPHA(cc), 1024ULL);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1ULL);
	KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "cnps"), 1ULL);
}

static u64 uet_dcqcn_test_dist(u64 a, u64 b)
{
	return a > b ? a - b : b - a;
}

/* alpha * (1019/1024) per period, kept with 30 fractional bits. */
static u64 uet_dcqcn_test_decay(u64 a, bool cnp)
{
	a = a * 1019 / 1024;
	return cnp ? a + (5ULL << 30) / 1024 : a;
}

static void uet_dcqcn_alpha_test(struct kunit *test)
{
	static const u32 checks[] = { 1, 10, 100, 500 };
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc = uet_dcqcn_test_cc(test, p);
	u64 e = 1023ULL << 20, prev;
	u32 i, k = 0;

	/* No CNP after the first: alpha decays from initial_alpha_value. */
	cc->ops->on_cnp(cc, 0);
	KUNIT_EXPECT_EQ(test, ALPHA(cc), 1023ULL);
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		for (; k < checks[i]; k++)
			e = uet_dcqcn_test_decay(e, false);
		cc->ops->send_at(cc, k * US, 0, 4096);
		KUNIT_EXPECT_LE(test, uet_dcqcn_test_dist(ALPHA(cc), e >> 20), 2ULL);
		/* 1023 (1 - 5/1024)^100 = 627.1 */
		if (k == 100)
			KUNIT_EXPECT_EQ(test, ALPHA(cc), 627ULL);
	}
	cc->ops->send_at(cc, 10000 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, ALPHA(cc), 0ULL);

	/* A CNP in every period: alpha rises as 1 - (1 - g)^k. */
	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 0);
	cc = uet_dcqcn_test_cc(test, p);
	cc->ops->on_cnp(cc, 0);
	KUNIT_EXPECT_EQ(test, ALPHA(cc), 0ULL);
	e = 0;
	prev = 0;
	for (k = 0; k < 600; k++) {
		cc->ops->on_cnp(cc, k * US + US / 2);
		e = uet_dcqcn_test_decay(e, true);
		cc->ops->send_at(cc, (k + 1) * US, 0, 4096);
		KUNIT_EXPECT_LE(test, uet_dcqcn_test_dist(ALPHA(cc), e >> 20), 2ULL);
		KUNIT_EXPECT_GE(test, ALPHA(cc), prev);
		prev = ALPHA(cc);
	}
	/* 1 - (1 - 5/1024)^600 = 0.947 */
	KUNIT_EXPECT_GE(test, ALPHA(cc), 965ULL);
	KUNIT_EXPECT_LE(test, ALPHA(cc), 975ULL);
}

/* The rate in b/s after one increase round towards target t. */
static u64 uet_dcqcn_test_avg(u64 r, u64 t)
{
	return (r + t + 1) / 2;
}

/* One cut, then: F fast recovery rounds halving the gap, additive rounds
 * while only the timer is past F, hyper rounds once the byte counter is
 * too.
 */
static void uet_dcqcn_recovery_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc;
	u64 r, t, now;
	u32 k;

	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 1024);
	uet_dcqcn_test_set(test, p, "rp_rate_to_set_on_first_cnp_mbps", 1024);
	uet_dcqcn_test_set(test, p, "rp_byte_reset", 1);
	cc = uet_dcqcn_test_cc(test, p);
	cc->ops->on_cnp(cc, 0);
	KUNIT_EXPECT_EQ(test, RATE(cc), 512ULL);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 1024ULL);

	cc->ops->send_at(cc, 300 * US - 1, 0, 4096);
	KUNIT_EXPECT_EQ(test, RATE(cc), 512ULL);
	for (k = 1; k <= 5; k++) {
		cc->ops->send_at(cc, k * 300 * US, 0, 4096);
		KUNIT_EXPECT_EQ(test, RATE(cc), 1024ULL - (512 >> k));
		KUNIT_EXPECT_EQ(test, TARGET(cc), 1024ULL);
		KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "stage_timer"),
				(u64)k);
	}

	r = 1008 * MBPS;
	t = 1024 * MBPS;
	for (k = 6; k <= 8; k++) {
		cc->ops->send_at(cc, k * 300 * US, 0, 4096);
		t += 5 * MBPS;
		r = uet_dcqcn_test_avg(r, t);
		KUNIT_EXPECT_EQ(test, TARGET(cc), t / MBPS);
		KUNIT_EXPECT_EQ(test, RATE(cc), r / MBPS);
	}

	/* Byte counter rounds: additive up to F of them, then hyper. */
	now = 8 * 300 * US + US;
	for (k = 1; k <= 7; k++) {
		cc->ops->on_send(cc, now, 64, false);
		t += (k <= 5 ? 5 : 50) * MBPS;
		r = uet_dcqcn_test_avg(r, t);
		KUNIT_EXPECT_EQ(test, TARGET(cc), t / MBPS);
		KUNIT_EXPECT_EQ(test, RATE(cc), r / MBPS);
		KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "stage_bytes"),
				(u64)k);
	}

	/* Both counters past F: timer rounds are hyper too. */
	cc->ops->send_at(cc, 9 * 300 * US, 0, 4096);
	t += 50 * MBPS;
	r = uet_dcqcn_test_avg(r, t);
	KUNIT_EXPECT_EQ(test, TARGET(cc), t / MBPS);
	KUNIT_EXPECT_EQ(test, RATE(cc), r / MBPS);
	KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "increases"), 16ULL);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1ULL);
}

/* rp_byte_reset 0: the timer alone, as HPCC models the firmware. */
static void uet_dcqcn_timer_only_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc;
	u64 r = 512 * MBPS, t = 1024 * MBPS;
	u32 k;

	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 1024);
	uet_dcqcn_test_set(test, p, "rp_rate_to_set_on_first_cnp_mbps", 1024);
	uet_dcqcn_test_set(test, p, "rp_byte_reset", 0);
	cc = uet_dcqcn_test_cc(test, p);
	cc->ops->on_cnp(cc, 0);
	for (k = 1; k <= 9; k++) {
		cc->ops->on_send(cc, k * 300 * US, 4096, false);
		if (k == 6)
			t += 5 * MBPS;
		else if (k > 6)
			t += 50 * MBPS;
		r = uet_dcqcn_test_avg(r, t);
		KUNIT_EXPECT_EQ(test, TARGET(cc), t / MBPS);
		KUNIT_EXPECT_EQ(test, RATE(cc), r / MBPS);
	}
	KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "stage_bytes"), 0ULL);
}

/* Many CNPs, one cut per rate_reduce_monitor_period. */
static void uet_dcqcn_monitor_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc;
	u64 rate, now;

	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 1024);
	cc = uet_dcqcn_test_cc(test, p);
	cc->ops->on_cnp(cc, 0);
	for (now = 100; now < 4 * US; now += 100)
		cc->ops->on_cnp(cc, now);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1ULL);
	KUNIT_EXPECT_EQ(test, RATE(cc), 5000ULL);
	/* The held back cut happens when the period ends. */
	cc->ops->send_at(cc, 4 * US, 0, 4096);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 2ULL);
	rate = RATE(cc);
	KUNIT_EXPECT_GE(test, rate, 2500ULL);
	KUNIT_EXPECT_LT(test, rate, 2600ULL);
	/* Unclamped, no increase between the cuts: the target stays. */
	KUNIT_EXPECT_EQ(test, TARGET(cc), 10000ULL);
	cc->ops->send_at(cc, 100 * US, 0, 4096);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 2ULL);
	KUNIT_EXPECT_EQ(test, uet_dcqcn_stat(test, cc, "cnps"), 40ULL);

	/* Clamped, the second cut's target is the rate it cut. */
	uet_dcqcn_test_set(test, p, "rp_clamp_tgt_rate", 1);
	cc = uet_dcqcn_test_cc(test, p);
	cc->ops->on_cnp(cc, 0);
	cc->ops->on_cnp(cc, 3 * US);
	cc->ops->on_cnp(cc, 5 * US);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 2ULL);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 5000ULL);
	cc->ops->send_at(cc, 8 * US, 0, 4096);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 3ULL);
}

/* Cuts stop at rp_min_rate; the pacer spaces packets at the rate. */
static void uet_dcqcn_floor_pacer_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc;
	u64 now;
	u32 k;

	uet_dcqcn_test_set(test, p, "rp_initial_alpha_value", 1024);
	cc = uet_dcqcn_test_cc(test, p);
	/* At line rate, 1500 bytes take 1.2 us on a 10 Gb/s wire: from its
	 * start at 0, 10 us are 9 packets, the next due at 10.8 us.
	 */
	for (k = 0; k < 9; k++) {
		KUNIT_EXPECT_LE(test, cc->ops->send_at(cc, 10 * US, 0, 1500),
				10 * US);
		cc->ops->on_send(cc, 10 * US, 1500, false);
	}
	KUNIT_EXPECT_EQ(test, cc->ops->send_at(cc, 10 * US, 0, 1500),
			10 * US + 800);
	cc->ops->on_send(cc, 10 * US, 1500, false);
	KUNIT_EXPECT_EQ(test, cc->ops->send_at(cc, 10 * US, 0, 1500),
			10 * US + 2000);
	/* Idle time, or a pacer woken late, earns 1 ms of sending at most
	 * (8 packets where that is more, 2 ms where that is fewer, but
	 * one): 834 packets, the next due 0.8 us later.
	 */
	now = 5 * MS;
	for (k = 0; k < 1000 && cc->ops->send_at(cc, now, 0, 1500) <= now; k++)
		cc->ops->on_send(cc, now, 1500, false);
	KUNIT_EXPECT_EQ(test, k, 834U);
	KUNIT_EXPECT_EQ(test, cc->ops->send_at(cc, now, 0, 1500), now + 800);

	for (k = 0, now = 6 * MS; k < 40; k++, now += 4 * US)
		cc->ops->on_cnp(cc, now);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 40ULL);
	KUNIT_EXPECT_EQ(test, RATE(cc), 1ULL);
	/* 1000 bytes at 1 Mb/s: 8 ms apart, once the credit is spent. */
	for (k = 0; k < 20 && cc->ops->send_at(cc, now, 0, 1000) <= now; k++)
		cc->ops->on_send(cc, now, 1000, false);
	KUNIT_EXPECT_LE(test, k, 9U);
	now = cc->ops->send_at(cc, now, 0, 1000);
	cc->ops->on_send(cc, now, 1000, false);
	KUNIT_EXPECT_EQ(test, cc->ops->send_at(cc, now, 0, 1000), now + 8 * MS);
	KUNIT_EXPECT_EQ(test, cc->ops->send_at(cc, now + 4 * MS, 0, 1000),
			now + 8 * MS);

	/* At a line rate of 1 Mb/s, after a second idle, one packet of
	 * credit: 2 ms, what a late pacer may owe, is less than the 8 ms of
	 * one packet.
	 */
	p = uet_dcqcn_test_params(test);
	uet_dcqcn_test_set(test, p, "rp_max_rate_mbps", 1);
	cc = uet_dcqcn_test_cc(test, p);
	now = 1000 * MS;
	for (k = 0; k < 20 && cc->ops->send_at(cc, now, 0, 1000) <= now; k++)
		cc->ops->on_send(cc, now, 1000, false);
	KUNIT_EXPECT_EQ(test, k, 2U);
}

/* Stepping the clock round by round, or jumping over seconds at once,
 * ends in the same state.
 */
static void uet_dcqcn_idle_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc_stat a[UET_CC_STATS_MAX], b[UET_CC_STATS_MAX];
	static const u64 checks[] = { 100 * MS, 10000 * MS };
	struct uet_cc *jump, *step;
	u64 now = 0;
	unsigned int i;
	int j, n;

	jump = uet_dcqcn_test_cc(test, p);
	step = uet_dcqcn_test_cc(test, p);
	jump->ops->on_cnp(jump, 0);
	step->ops->on_cnp(step, 0);
	for (i = 0; i < ARRAY_SIZE(checks); i++) {
		jump->ops->send_at(jump, checks[i], 0, 4096);
		for (; now <= checks[i]; now += 300 * US)
			step->ops->send_at(step, now, 0, 4096);
		step->ops->send_at(step, checks[i], 0, 4096);
		n = jump->ops->get_info(jump, a);
		KUNIT_ASSERT_EQ(test, step->ops->get_info(step, b), n);
		for (j = 0; j < n; j++)
			KUNIT_EXPECT_EQ_MSG(test, a[j].value, b[j].value, "%s",
					    a[j].name);
	}
	KUNIT_EXPECT_EQ(test, RATE(jump), 10000ULL);
	KUNIT_EXPECT_EQ(test, TARGET(jump), 10000ULL);
	KUNIT_EXPECT_EQ(test, ALPHA(jump), 0ULL);
}

/* The notification point: one CNP per np_min_time_between_cnps_us,
 * however many CE marks arrive; 0 answers every one.
 */
static void uet_dcqcn_np_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc, *every;
	u64 t, cnps = 0;

	cc = uet_dcqcn_test_cc(test, p);
	for (t = 1 * MS; t < 1 * MS + 1000 * US; t += 10 * US)
		cnps += cc->ops->on_ce(cc, t);
	/* 50 us by default: 1000 us of marks, 20 CNPs. */
	KUNIT_EXPECT_EQ(test, cnps, 20ULL);
	KUNIT_EXPECT_TRUE(test, cc->ops->on_ce(cc, 3 * MS));
	KUNIT_EXPECT_FALSE(test, cc->ops->on_ce(cc, 3 * MS + 49 * US));
	KUNIT_EXPECT_TRUE(test, cc->ops->on_ce(cc, 3 * MS + 50 * US));

	uet_dcqcn_test_set(test, p, "np_min_time_between_cnps_us", 0);
	every = uet_dcqcn_test_cc(test, p);
	KUNIT_EXPECT_TRUE(test, every->ops->on_ce(every, 1 * MS));
	KUNIT_EXPECT_TRUE(test, every->ops->on_ce(every, 1 * MS));
	/* The reaction point's state is not the notification point's. */
	KUNIT_EXPECT_EQ(test, RATE(cc), RATE(every));
}

#define STAT(cc, name)	uet_dcqcn_stat(test, cc, name)

/* On auto, the line rate is the netdev's (10 Gb/s for one that reports no
 * speed), the increase steps R/40 and R/10 of it, the timers the
 * firmware's until an RTT is measured, then the larger of those and
 * RTT/4, RTT, RTT; cuts to half at most, to 95% beyond the firmware's
 * increase timer; values set stand.
 */
static void uet_dcqcn_auto_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	struct uet_cc_ack ack = {
		.now = MS, .acked_bytes = 4096, .rtt_ns = 20 * MS,
	};

	KUNIT_ASSERT_NOT_NULL(test, cc);
	uet_dcqcn_test_set(test, p, "rp_start_rate_mbps", 40);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	KUNIT_EXPECT_EQ(test, RATE(cc), 40);
	KUNIT_EXPECT_EQ(test, STAT(cc, "max_rate_mbps"), 40);
	KUNIT_EXPECT_EQ(test, STAT(cc, "ai_rate_kbps"), 1000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "hai_rate_kbps"), 4000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "min_dec_fac"), 50);
	KUNIT_EXPECT_EQ(test, STAT(cc, "alpha_period_us"), 1);
	KUNIT_EXPECT_EQ(test, STAT(cc, "monitor_period_us"), 4);
	KUNIT_EXPECT_EQ(test, STAT(cc, "time_reset_us"), 300);
	uet_cc_ack(cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(cc, "alpha_period_us"), 5000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "min_dec_fac"), 95);
	KUNIT_EXPECT_EQ(test, STAT(cc, "monitor_period_us"), 20000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "time_reset_us"), 20000);
	/* A cut holds the next one back for the RTT. */
	cc->ops->on_cnp(cc, 2 * MS);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1);
	KUNIT_EXPECT_EQ(test, RATE(cc), 38);
	cc->ops->on_cnp(cc, 21 * MS);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1);
	cc->ops->on_cnp(cc, 23 * MS);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 2);
	/* A queue: the increase timer follows the smoothed RTT, 20 + 16/8
	 * ms after a sample of 36; the other two stay on the base RTT.
	 */
	ack.now = 24 * MS;
	ack.rtt_ns = 36 * MS;
	uet_cc_ack(cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(cc, "time_reset_us"), 22000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "monitor_period_us"), 20000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "alpha_period_us"), 5000);

	/* Microseconds: the firmware's values, longer than these shares. */
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 0, NULL, 0);
	ack.rtt_ns = 8 * US;
	uet_cc_ack(cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(cc, "max_rate_mbps"), 10000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "ai_rate_kbps"), 250000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "hai_rate_kbps"), 1000000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "alpha_period_us"), 2);
	KUNIT_EXPECT_EQ(test, STAT(cc, "min_dec_fac"), 50);
	KUNIT_EXPECT_EQ(test, STAT(cc, "monitor_period_us"), 8);
	KUNIT_EXPECT_EQ(test, STAT(cc, "time_reset_us"), 300);

	uet_dcqcn_test_set(test, p, "rp_max_rate_mbps", 100);
	uet_dcqcn_test_set(test, p, "rp_dce_tcp_rtt_us", 7);
	uet_dcqcn_test_set(test, p, "rp_ai_rate_mbps", 5);
	uet_dcqcn_test_set(test, p, "rp_min_dec_fac", 60);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	ack.rtt_ns = 20 * MS;
	uet_cc_ack(cc, &ack);
	KUNIT_EXPECT_EQ(test, STAT(cc, "max_rate_mbps"), 100);
	KUNIT_EXPECT_EQ(test, STAT(cc, "ai_rate_kbps"), 5000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "hai_rate_kbps"), 10000);
	KUNIT_EXPECT_EQ(test, STAT(cc, "min_dec_fac"), 60);
	KUNIT_EXPECT_EQ(test, STAT(cc, "alpha_period_us"), 7);
	KUNIT_EXPECT_EQ(test, STAT(cc, "monitor_period_us"), 20000);
}

/* On auto a flow starts at R/8 and holds it until an RTT is measured;
 * then, as after a cut, F rounds of fast recovery (the target is the
 * start: no change) and additive rounds of R/40 an RTT up to the line
 * rate, or until the first CNP. A start set stands, up to the line rate.
 */
static void uet_dcqcn_start_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	struct uet_cc_ack ack = {
		.now = 10 * MS, .acked_bytes = 4096, .rtt_ns = 20 * MS,
	};
	u64 t0;

	KUNIT_ASSERT_NOT_NULL(test, cc);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	KUNIT_EXPECT_EQ(test, STAT(cc, "start_rate_mbps"), 5);
	KUNIT_EXPECT_EQ(test, RATE(cc), 5);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 5);
	cc->ops->send_at(cc, 10 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, STAT(cc, "increases"), 0);
	uet_cc_ack(cc, &ack);
	/* 300 us on, the first round; then one a measured RTT. */
	t0 = 10 * MS + 300 * US;
	cc->ops->send_at(cc, t0 + 4 * 20 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, STAT(cc, "increases"), 5);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 5);
	cc->ops->send_at(cc, t0 + 5 * 20 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 6);
	cc->ops->send_at(cc, t0 + 10 * 20 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 11);
	KUNIT_EXPECT_EQ(test, RATE(cc), 10);
	/* The first CNP ends the climb with a cut to 95% (a 20 ms RTT). */
	t0 += 10 * 20 * MS + MS;
	cc->ops->on_cnp(cc, t0);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 1);
	KUNIT_EXPECT_EQ(test, RATE(cc), 9);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 10);
	/* A CNP in the monitor period: the cut falls as the period ends,
	 * without the increase round due at that instant.
	 */
	cc->ops->on_cnp(cc, t0 + 10 * MS);
	cc->ops->send_at(cc, t0 + 20 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 2);
	KUNIT_EXPECT_EQ(test, STAT(cc, "increases"), 11);
	KUNIT_EXPECT_EQ(test, RATE(cc), 9);

	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	uet_cc_ack(cc, &ack);
	cc->ops->send_at(cc, 2000 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, RATE(cc), 40);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 40);
	KUNIT_EXPECT_EQ(test, DECREASES(cc), 0);

	uet_dcqcn_test_set(test, p, "rp_start_rate_mbps", 20);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	KUNIT_EXPECT_EQ(test, RATE(cc), 20);
	uet_dcqcn_test_set(test, p, "rp_start_rate_mbps", 100);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	KUNIT_EXPECT_EQ(test, RATE(cc), 40);
	cc->ops->send_at(cc, 2000 * MS, 0, 4096);
	KUNIT_EXPECT_EQ(test, STAT(cc, "increases"), 0);
}

/* Feeds @cc an ACK with an RTT sample of @rtt just before @t, then brings
 * it to @t: the timer round due then sees that sample last.
 */
static void uet_dcqcn_test_round(struct uet_cc *cc, u64 t, u64 rtt)
{
	struct uet_cc_ack ack = {
		.now = t - 1, .acked_bytes = 4096, .rtt_ns = rtt,
	};

	if (rtt)
		uet_cc_ack(cc, &ack);
	cc->ops->send_at(cc, t, 0, 4096);
}

/* On auto an additive round adds R/40 once F rounds in a row ended on an
 * RTT sample without queue (within an eighth of the base RTT, or two
 * packets at the line rate on a short path), R/640 otherwise; a cut
 * starts the count again, a round without samples leaves it.
 */
static void uet_dcqcn_quiet_test(struct kunit *test)
{
	u32 *p = uet_dcqcn_test_params(test);
	struct uet_cc *cc = kunit_kzalloc(test, sizeof(*cc), GFP_KERNEL);
	u64 t = 100 * MS;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, cc);
	/* A round every 20 ms, which the samples' smoothed RTT would
	 * stretch on auto.
	 */
	uet_dcqcn_test_set(test, p, "rp_time_reset_us", 20000);
	/* 6400 Mb/s: R/640 is 10 Mb/s, R/40 160. */
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 6400, NULL, 0);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 5);
	KUNIT_EXPECT_EQ(test, STAT(cc, "ai_rate_kbps"), 160000);
	uet_dcqcn_test_round(cc, 10 * MS, 20 * MS);
	cc->ops->on_cnp(cc, t);
	KUNIT_EXPECT_EQ(test, RATE(cc), 760);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 800);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 0);
	KUNIT_EXPECT_EQ(test, STAT(cc, "ai_rate_kbps"), 10000);
	/* 10 ms of queue: F rounds of fast recovery, then R/640. */
	for (i = 1; i <= 6; i++)
		uet_dcqcn_test_round(cc, t + i * 20 * MS, 30 * MS);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 0);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 810);
	/* 2 ms, within 20/8: the fifth such round in a row adds R/40. */
	for (i = 7; i <= 10; i++)
		uet_dcqcn_test_round(cc, t + i * 20 * MS, 22 * MS);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 4);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 850);
	uet_dcqcn_test_round(cc, t + 11 * 20 * MS, 22 * MS);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 5);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 1010);
	/* No sample: the count stands. */
	uet_dcqcn_test_round(cc, t + 12 * 20 * MS, 0);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 5);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 1170);
	/* The round's last sample counts, not its least. */
	uet_dcqcn_test_round(cc, t + 13 * 20 * MS - MS, 20 * MS);
	uet_dcqcn_test_round(cc, t + 13 * 20 * MS, 23 * MS);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 0);
	KUNIT_EXPECT_EQ(test, TARGET(cc), 1180);

	/* 100 us at 40 Mb/s: two packets (1638 us) exceed an eighth. */
	uet_dcqcn_test_set(test, p, "rp_time_reset_us", 300);
	uet_cc_init(cc, &uet_cc_dcqcn, 4096, p, 40, NULL, 0);
	uet_dcqcn_test_round(cc, 10 * US, 100 * US);
	cc->ops->on_cnp(cc, t);
	uet_dcqcn_test_round(cc, t + 300 * US, 1700 * US);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 1);
	uet_dcqcn_test_round(cc, t + 600 * US, 1800 * US);
	KUNIT_EXPECT_EQ(test, STAT(cc, "quiet_rounds"), 0);
}

static struct kunit_case uet_dcqcn_cases[] = {
	KUNIT_CASE(uet_dcqcn_halve_test),
	KUNIT_CASE(uet_dcqcn_alpha_test),
	KUNIT_CASE(uet_dcqcn_recovery_test),
	KUNIT_CASE(uet_dcqcn_timer_only_test),
	KUNIT_CASE(uet_dcqcn_monitor_test),
	KUNIT_CASE(uet_dcqcn_floor_pacer_test),
	KUNIT_CASE(uet_dcqcn_idle_test),
	KUNIT_CASE(uet_dcqcn_np_test),
	KUNIT_CASE(uet_dcqcn_auto_test),
	KUNIT_CASE(uet_dcqcn_start_test),
	KUNIT_CASE(uet_dcqcn_quiet_test),
	{}
};

static struct kunit_suite uet_dcqcn_suite = {
	.name = "uet_cc_dcqcn",
	.test_cases = uet_dcqcn_cases,
};

kunit_test_suite(uet_dcqcn_suite);
