// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN reaction point (Zhu et al., SIGCOMM 2015), the RoCEv2 rate
 * control of NVIDIA NICs: CNPs cut the rate by alpha/2, alpha being a
 * DCTCP-style estimate of how often CNPs come; a timer and a byte
 * counter walk the rate back up in fast recovery, additive and hyper
 * increase. Parameter names follow mlx5's cc_params, defaults NVIDIA's
 * firmware (Documentation/uet/design/cc-dcqcn.rst names each source).
 *
 * The firmware runs the alpha, decrease and increase timers per flow; here
 * each is a deadline, caught up in time order whenever a hook brings
 * "now", with long idle stretches skipped arithmetically.
 */
#include <kunit/visibility.h>
#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "cc.h"
#include "cc_meas.h"

enum {
	UET_DCQCN_MAX_RATE,
	UET_DCQCN_MIN_RATE,
	UET_DCQCN_AI_RATE,
	UET_DCQCN_HAI_RATE,
	UET_DCQCN_THRESHOLD,
	UET_DCQCN_TIME_RESET,
	UET_DCQCN_BYTE_RESET,
	UET_DCQCN_G,
	UET_DCQCN_ALPHA_PERIOD,
	UET_DCQCN_INITIAL_ALPHA,
	UET_DCQCN_FIRST_CNP_RATE,
	UET_DCQCN_MIN_DEC_FAC,
	UET_DCQCN_MONITOR_PERIOD,
	UET_DCQCN_CLAMP_TGT_RATE,
	UET_DCQCN_NP_CNP_INTERVAL,
	UET_DCQCN_START_RATE,
	UET_DCQCN_NPARAMS
};

/* The firmware's 1024 scale for g and alpha. */
#define UET_DCQCN_FW_SHIFT	10
/* alpha kept with 10 more bits than the firmware reports, so that its
 * decay over many periods stays close to (1 - g)^k.
 */
#define UET_DCQCN_ALPHA_SHIFT	20
#define UET_DCQCN_ALPHA_ONE	((u32)BIT(UET_DCQCN_ALPHA_SHIFT))
/* The byte counter counts in units of 64 bytes, as the firmware's. */
#define UET_DCQCN_BYTE_UNIT	64
/* Up to 1 Tb/s, so that rate * alpha fits in 64 bits. */
#define UET_DCQCN_RATE_MAX	1000000
#define UET_DCQCN_US_MAX	1000000

static const struct uet_cc_param uet_dcqcn_params[UET_DCQCN_NPARAMS] = {
	/* Mb/s, the line rate. 0: auto, the netdev's speed
	 * (uet_dcqcn_max_bps()).
	 */
	[UET_DCQCN_MAX_RATE] = { "rp_max_rate_mbps", 0, 0,
				 UET_DCQCN_RATE_MAX },
	/* Mb/s, NVIDIA rpg_min_rate */
	[UET_DCQCN_MIN_RATE] = { "rp_min_rate_mbps", 1, 1, UET_DCQCN_RATE_MAX },
	/* Mb/s, NVIDIA rpg_ai_rate, HPCC RateAI; 0: auto
	 * (uet_dcqcn_step_bps())
	 */
	[UET_DCQCN_AI_RATE] = { "rp_ai_rate_mbps", 0, 0, UET_DCQCN_RATE_MAX },
	/* Mb/s, NVIDIA rpg_hai_rate, HPCC RateHAI; 0: auto */
	[UET_DCQCN_HAI_RATE] = { "rp_hai_rate_mbps", 0, 0, UET_DCQCN_RATE_MAX },
	/* rounds (F), DCQCN paper and ns-3 FastRecoveryTimes */
	[UET_DCQCN_THRESHOLD] = { "rp_threshold", 5, 0, 255 },
	/* us; 0: auto (uet_dcqcn_period_ns()) */
	[UET_DCQCN_TIME_RESET] = { "rp_time_reset_us", 0, 0,
				   UET_DCQCN_US_MAX },
	/* 64-byte units, NVIDIA rpg_byte_reset (unverified); 0: no byte
	 * counter
	 */
	[UET_DCQCN_BYTE_RESET] = { "rp_byte_reset", 32767, 0, 1 << 24 },
	/* 1024 - 1024 g, NVIDIA dce_tcp_g: g = 5/1024 */
	[UET_DCQCN_G] = { "rp_dce_tcp_g", 1019, 0, 1023 },
	/* us, the alpha period; 0: auto */
	[UET_DCQCN_ALPHA_PERIOD] = { "rp_dce_tcp_rtt_us", 0, 0,
				     UET_DCQCN_US_MAX },
	/* 1024 = 1.0, NVIDIA initial_alpha_value */
	[UET_DCQCN_INITIAL_ALPHA] = { "rp_initial_alpha_value", 1023, 0,
				      1 << UET_DCQCN_FW_SHIFT },
	/* Mb/s, NVIDIA rate_to_set_on_first_cnp; 0: the current rate */
	[UET_DCQCN_FIRST_CNP_RATE] = { "rp_rate_to_set_on_first_cnp_mbps", 0,
				       0, UET_DCQCN_RATE_MAX },
	/* percent, NVIDIA rpg_min_dec_fac; 0: auto (uet_dcqcn_min_dec()) */
	[UET_DCQCN_MIN_DEC_FAC] = { "rp_min_dec_fac", 0, 0, 100 },
	/* us, the least time between two cuts; 0: auto */
	[UET_DCQCN_MONITOR_PERIOD] = { "rp_rate_reduce_monitor_period_us", 0,
				       0, UET_DCQCN_US_MAX },
	/* 0/1, mlx5 rp_clamp_tgt_rate; HPCC ClampTargetRate false */
	[UET_DCQCN_CLAMP_TGT_RATE] = { "rp_clamp_tgt_rate", 0, 0, 1 },
	/* us, read by the receiver: DCQCN paper N, Microsoft's deployment */
	[UET_DCQCN_NP_CNP_INTERVAL] = { "np_min_time_between_cnps_us", 50, 0,
					UET_DCQCN_US_MAX },
	/* Mb/s, where a flow starts, at most the line rate; 0: auto
	 * (uet_dcqcn_start_bps())
	 */
	[UET_DCQCN_START_RATE] = { "rp_start_rate_mbps", 0, 0,
				   UET_DCQCN_RATE_MAX },
};

/* The parameters whose values follow the fabric, on auto (0): the line
 * rate is the netdev's speed (10 Gb/s, the old fixed default, for one
 * that reports none), and each timer is NVIDIA's firmware default or a
 * share of the path's measured RTT, whichever is longer: the firmware's
 * values are made for microsecond RTTs, and the DCQCN paper (section 5)
 * finds the loop stable when the rate is cut at most once per feedback
 * delay, with alpha tracking the marks of several periods a round trip.
 * The shares are the long-haul tuning that reached 0.98-0.99 of a 21 ms,
 * 40 Mbit/s port (Documentation/uet/design/cc-dcqcn.rst): alpha every
 * base RTT/4, at most one cut per base RTT, an increase round per
 * smoothed RTT. Until the first RTT sample, the firmware's.
 *
 * The increase timer follows the smoothed RTT, the feedback delay a
 * round's step waits for before the port's queue can answer it; the base
 * RTT is shorter by the queue and, on software hosts, by their own
 * milliseconds: 8 flows into a 100 Mbit/s port 2 ms away (srtt 5..10 ms,
 * base 1.3..1.8 ms) stepped four or five times per feedback delay, every
 * rate reached the line rate and the port dropped 1563..1942 packets;
 * 18..223 with rounds per smoothed RTT. The monitor period stays on the
 * base RTT: there, cuts held back to the smoothed RTT dropped twice as
 * many at 21 ms.
 */
#define UET_DCQCN_AUTO_LINE_MBPS	10000

struct uet_dcqcn_auto {
	u32 fw_us;		/* NVIDIA's firmware default */
	u32 rtt_div;		/* RTT / rtt_div at least */
	bool smoothed;		/* of the smoothed RTT, not the base RTT */
};

static const struct uet_dcqcn_auto uet_dcqcn_auto[UET_DCQCN_NPARAMS] = {
	/* NVIDIA dce_tcp_rtt */
	[UET_DCQCN_ALPHA_PERIOD] = { 1, 4 },
	/* NVIDIA rate_reduce_monitor_period */
	[UET_DCQCN_MONITOR_PERIOD] = { 4, 1 },
	/* NVIDIA rpg_time_reset (unverified) */
	[UET_DCQCN_TIME_RESET] = { 300, 1, true },
};

static u64 uet_dcqcn_bps(u32 mbps)
{
	return (u64)mbps * 1000000;
}

static u64 uet_dcqcn_max_bps(const struct uet_cc *cc)
{
	u32 mbps = cc->params[UET_DCQCN_MAX_RATE];

	if (!mbps)
		mbps = min_t(u32, cc->link_mbps ?: UET_DCQCN_AUTO_LINE_MBPS,
			     UET_DCQCN_RATE_MAX);
	return uet_dcqcn_bps(mbps);
}

/* The increase steps on auto, as shares of the line rate: NVIDIA's
 * firmware adds 5 and 50 Mb/s a round (rpg_ai_rate, rpg_hai_rate), made
 * for one flow of 100 Gb/s; on a port of 40 Mb/s shared by 8 flows, 5
 * Mb/s is a flow's whole share each round, and the rate swings (0.86 of
 * the port used, cc_incast). With a round per RTT on auto, N flows add N
 * steps a round trip, and they learn of the queue they build an RTT
 * later: an additive round adds R/40 while the path shows no queue
 * (uet_dcqcn_quiet()), as a flow climbs from its start, and R/640
 * otherwise. The DCQCN paper's own step is as small, 40 Mb/s of 40 Gb/s
 * (R/1000) per 55 us. 8 flows into a 40 Mb/s port 21 ms away, the port
 * as uet tune sizes it (2.5 RTT of buffer), dropped 158..259 packets
 * with R/40 in every round, 16..46 with R/160, 4..5 with R/320, 0 with
 * R/640 (Documentation/uet/design/cc-dcqcn.rst).
 */
#define UET_DCQCN_AUTO_AI_DIV		40
#define UET_DCQCN_AUTO_AI_QUEUED_DIV	640
#define UET_DCQCN_AUTO_HAI_DIV		10

/* An increase step (i: UET_DCQCN_AI_RATE or _HAI_RATE) in force, b/s;
 * @quiet: the path has shown no queue for a while.
 */
static u64 uet_dcqcn_step_bps(const struct uet_cc *cc, int i, bool quiet)
{
	u32 div = UET_DCQCN_AUTO_HAI_DIV;

	if (cc->params[i])
		return uet_dcqcn_bps(cc->params[i]);
	if (i == UET_DCQCN_AI_RATE)
		div = quiet ? UET_DCQCN_AUTO_AI_DIV :
			      UET_DCQCN_AUTO_AI_QUEUED_DIV;
	return div_u64(uet_dcqcn_max_bps(cc), div);
}

/* The least share of its rate a cut leaves, percent, on auto: NVIDIA's
 * rpg_min_dec_fac (50) while the RTT is within the firmware's increase
 * timer; on a longer path, where every timer follows the RTT, 95. There
 * a cut shows at the port an RTT later and recovery climbs back in
 * RTT-long rounds (F of them fast, then R/40 each): 8 flows that halved
 * on their CNPs left the port idle 11..17% of the time (4 flows 6%),
 * cuts of 5% at most under 1% (cc_incast, cc_longhaul: 0.83..0.94 of
 * the port used against 0.99..1.00; Documentation/uet/design/cc-dcqcn.rst).
 */
#define UET_DCQCN_AUTO_MIN_DEC_FW	50
#define UET_DCQCN_AUTO_MIN_DEC_LONG	95

static u32 uet_dcqcn_min_dec(const struct uet_cc *cc)
{
	u64 fw = (u64)uet_dcqcn_auto[UET_DCQCN_TIME_RESET].fw_us *
		 NSEC_PER_USEC;

	if (cc->params[UET_DCQCN_MIN_DEC_FAC])
		return cc->params[UET_DCQCN_MIN_DEC_FAC];
	return uet_meas_min_rtt(&cc->meas) > fw ? UET_DCQCN_AUTO_MIN_DEC_LONG :
						  UET_DCQCN_AUTO_MIN_DEC_FW;
}

/* Where a flow starts, on auto: an eighth of the line rate, climbing in
 * additive rounds until its first CNP as if just cut there. The DCQCN
 * paper starts flows at the line rate, which a lossless (PFC) fabric
 * absorbs; a lossy one does not: N flows at R with a BDP each overflow
 * the long-haul port's 2.5 RTT buffer (Documentation/uet/admin-guide/
 * sizing.rst) in the first RTT, before any CNP is back, whenever N > 3.
 * At R/8, eight flows start at the port's rate, and their additive steps
 * (N R/40 a round) build the queue slowly enough for the CNPs of the ECN
 * ramp to turn them: 4 flows into a 40 Mbit/s port at 21 ms dropped 0
 * packets instead of 77, 8 flows 97..163 instead of 2466 (later drops;
 * Documentation/uet/design/cc-dcqcn.rst has the runs).
 */
#define UET_DCQCN_AUTO_START_DIV	8

static u64 uet_dcqcn_start_bps(const struct uet_cc *cc)
{
	u32 mbps = cc->params[UET_DCQCN_START_RATE];
	u64 max = uet_dcqcn_max_bps(cc);

	if (mbps)
		return min(uet_dcqcn_bps(mbps), max);
	return div_u64(max, UET_DCQCN_AUTO_START_DIV);
}

struct uet_dcqcn {
	u64 rate;		/* bit/s */
	u64 target;		/* bit/s, what the increases head for */
	u64 next_send;		/* the pacer: when the next packet may leave */
	u64 next_alpha;		/* end of the alpha period */
	u64 hold_until;		/* end of the monitor period of the last cut */
	u64 next_inc;		/* the next increase timer round */
	u64 bytes;		/* sent since the last byte counter round */
	u64 cnps;
	u64 decreases;
	u64 increases;
	u32 alpha;		/* UET_DCQCN_ALPHA_ONE = 1.0 */
	u32 stage_t;		/* timer rounds since the last cut */
	u32 stage_b;		/* byte counter rounds since the last cut */
	bool started;		/* a CNP came: the alpha timer runs */
	bool recovering;	/* below line rate: timer and byte counter run */
	bool alpha_cnp;		/* a CNP came in this alpha period */
	bool dec_pending;	/* a CNP came in the monitor period */
	u64 np_cnp_ns;		/* notification point: the last CNP, 0: none */
	u64 round_rtt;		/* the last RTT sample since the last timer
				 * round, ns; 0: none
				 */
	u32 quiet;		/* timer rounds in a row that saw no queue */
	u64 srtt;		/* ns, the ACKs' RTT samples smoothed as
				 * RFC 6298's SRTT (gain 1/8); 0: none
				 */
};

/* A timer parameter (i: one of uet_dcqcn_auto's) in force, ns. */
static u64 uet_dcqcn_period_ns(const struct uet_cc *cc, int i)
{
	const struct uet_dcqcn_auto *a = &uet_dcqcn_auto[i];
	const struct uet_dcqcn *d = uet_cc_priv_const(cc);
	u64 rtt = uet_meas_min_rtt(&cc->meas);

	if (cc->params[i])
		return (u64)cc->params[i] * NSEC_PER_USEC;
	if (a->smoothed)
		rtt = max(rtt, d->srtt);
	return max((u64)a->fw_us * NSEC_PER_USEC, div_u64(rtt, a->rtt_div));
}

/* How far the pacer may fall behind its schedule and catch up in a
 * burst: a software host wakes its pacer late, by a millisecond or more,
 * and without this credit every late wake-up would be rate lost (4
 * senders at 40 Mbit/s reached 18 Mbit/s in all). The credit is that
 * lateness, at least one packet and at most 8 or 1 ms of them, whichever
 * is more: as 8 packets alone it was 52 ms at 5 Mbit/s, and 8 flows back
 * from a pause sent 8 each at once, a 2.5 RTT buffer's worth at 40
 * Mbit/s and 21 ms; at 10 Gb/s 8 packets are 9 us, a timer and a wake-up
 * each, and 1 ms is what TCP sends in one burst at its pacing rate
 * (sk_pacing_shift 10, tcp_tso_autosize()).
 */
#define UET_DCQCN_PACE_BURST	8
#define UET_DCQCN_PACE_BURST_NS	NSEC_PER_MSEC
#define UET_DCQCN_PACE_SLACK_NS	(2 * NSEC_PER_MSEC)

/* alpha * (g')^k, g' = 1 - g on the 1024 scale, by squaring. */
static u32 uet_dcqcn_decay(u32 alpha, u32 g, u64 k)
{
	u64 f = (u64)g << (UET_DCQCN_ALPHA_SHIFT - UET_DCQCN_FW_SHIFT);
	u64 a = alpha;

	while (k && a) {
		if (k & 1)
			a = (a * f) >> UET_DCQCN_ALPHA_SHIFT;
		f = (f * f) >> UET_DCQCN_ALPHA_SHIFT;
		k >>= 1;
	}
	return a;
}

/* The alpha periods that ended by t: the first one saw the CNPs flagged
 * so far, the others none.
 */
static void uet_dcqcn_alpha_to(struct uet_cc *cc, struct uet_dcqcn *d, u64 t)
{
	u64 period = uet_dcqcn_period_ns(cc, UET_DCQCN_ALPHA_PERIOD);
	u32 g = cc->params[UET_DCQCN_G];
	u64 k;

	if (t < d->next_alpha)
		return;
	k = div64_u64(t - d->next_alpha, period) + 1;
	d->alpha = uet_dcqcn_decay(d->alpha, g, 1);
	if (d->alpha_cnp)
		d->alpha += ((UET_DCQCN_ALPHA_ONE >> UET_DCQCN_FW_SHIFT) *
			     ((1 << UET_DCQCN_FW_SHIFT) - g));
	d->alpha = min(d->alpha, UET_DCQCN_ALPHA_ONE);
	d->alpha = uet_dcqcn_decay(d->alpha, g, k - 1);
	d->alpha_cnp = false;
	d->next_alpha += k * period;
}

/* Whether a timer round saw no queue: its last RTT sample within an
 * eighth of the base RTT of it, or two packets at the line rate on a
 * path so short that an eighth is less (the emulated hosts' samples vary
 * by more). The last sample, not the round's least: a queue that builds
 * shows in it a round sooner (the 8-flow port of the increase steps,
 * above, peaked at 1.7..1.8 BDP of queue, 2.1..2.5 with the least). A
 * round without samples (nothing acknowledged) leaves the count as it
 * was.
 */
static void uet_dcqcn_quiet_round(struct uet_cc *cc, struct uet_dcqcn *d)
{
	u64 base = uet_meas_min_rtt(&cc->meas), pkts;

	if (!d->round_rtt || !base)
		return;
	pkts = mul_u64_u64_div_u64(2ULL * cc->mtu, 8 * NSEC_PER_SEC,
				   uet_dcqcn_max_bps(cc));
	if (d->round_rtt <= base + max(base / 8, pkts))
		d->quiet = min(d->quiet + 1, U32_MAX - 1);
	else
		d->quiet = 0;
	d->round_rtt = 0;
}

/* The path has shown no queue for F timer rounds, as long as hyper
 * increase waits (DCQCN paper, section 3.2): a flow that left a port to
 * the others makes it quiet for the round trips its queue takes to
 * drain, and every flow left then took its R/40 at once (12..20 packets
 * dropped at the 8-flow port of the increase steps without the wait).
 */
static bool uet_dcqcn_quiet(const struct uet_cc *cc,
			    const struct uet_dcqcn *d)
{
	return d->quiet >= cc->params[UET_DCQCN_THRESHOLD];
}

/* One increase round; returns what it added to the target, before the
 * line rate capped it.
 */
static u64 uet_dcqcn_round(struct uet_cc *cc, struct uet_dcqcn *d,
			   bool timer)
{
	const u32 *p = cc->params;
	u64 max = uet_dcqcn_max_bps(cc);
	u32 f = p[UET_DCQCN_THRESHOLD], hi, lo;
	u64 inc = 0;

	if (timer) {
		d->stage_t = min(d->stage_t + 1, U32_MAX - 1);
		uet_dcqcn_quiet_round(cc, d);
	} else {
		d->stage_b = min(d->stage_b + 1, U32_MAX - 1);
	}
	hi = max(d->stage_t, d->stage_b);
	lo = min(d->stage_t, d->stage_b);
	/* Without a byte counter the timer walks all stages, as in HPCC's
	 * model of the firmware: one additive round, then hyper.
	 */
	if (!p[UET_DCQCN_BYTE_RESET]) {
		hi = d->stage_t;
		lo = d->stage_t - 1;
	}
	if (lo > f)
		inc = uet_dcqcn_step_bps(cc, UET_DCQCN_HAI_RATE, true);
	else if (hi > f)
		inc = uet_dcqcn_step_bps(cc, UET_DCQCN_AI_RATE,
					 uet_dcqcn_quiet(cc, d));
	d->target = min(d->target + inc, max);
	/* Rounded up, so that fast recovery reaches the target. */
	d->rate = (d->rate + d->target + 1) / 2;
	d->increases++;
	if (d->rate >= max)
		d->recovering = false;
	return inc;
}

/* n rounds of one kind. Once past fast recovery and additive-to-hyper,
 * with the gap to the target settled, each round shifts rate and target
 * by the same amount: skip those arithmetically up to the line rate.
 */
static void uet_dcqcn_rounds(struct uet_cc *cc, struct uet_dcqcn *d, u64 n,
			     bool timer)
{
	u64 max = uet_dcqcn_max_bps(cc);
	u32 f = cc->params[UET_DCQCN_THRESHOLD];
	u32 *stage = timer ? &d->stage_t : &d->stage_b;
	u64 gap, inc, s;

	while (n && d->recovering) {
		gap = d->target - d->rate;
		inc = uet_dcqcn_round(cc, d, timer);
		n--;
		if (*stage <= f + 1 || d->target - d->rate != gap)
			continue;
		s = inc ? min(n, div64_u64(max - d->target, inc)) : n;
		d->target += s * inc;
		d->rate += s * inc;
		d->increases += s;
		*stage = min_t(u64, *stage + s, U32_MAX - 1);
		n -= s;
		if (d->rate >= max)
			d->recovering = false;
	}
}

static void uet_dcqcn_timer_to(struct uet_cc *cc, struct uet_dcqcn *d, u64 t)
{
	u64 period = uet_dcqcn_period_ns(cc, UET_DCQCN_TIME_RESET);
	u64 n;

	if (!d->recovering || t < d->next_inc)
		return;
	n = div64_u64(t - d->next_inc, period) + 1;
	d->next_inc += n * period;
	uet_dcqcn_rounds(cc, d, n, true);
}

static void uet_dcqcn_decrease(struct uet_cc *cc, struct uet_dcqcn *d, u64 t)
{
	const u32 *p = cc->params;
	u64 floor = min(uet_dcqcn_bps(p[UET_DCQCN_MIN_RATE]),
			uet_dcqcn_max_bps(cc));
	u64 cut;

	/* Unclamped, cuts that come before any increase keep the target
	 * of the first: recovery aims at the rate before the congestion.
	 */
	if (p[UET_DCQCN_CLAMP_TGT_RATE] || d->stage_t || d->stage_b)
		d->target = d->rate;
	cut = d->rate - ((d->rate * d->alpha) >> (UET_DCQCN_ALPHA_SHIFT + 1));
	cut = max(cut, div_u64(d->rate * uet_dcqcn_min_dec(cc), 100));
	d->rate = max(cut, floor);
	d->stage_t = 0;
	d->stage_b = 0;
	d->quiet = 0;
	d->bytes = 0;
	d->recovering = true;
	d->next_inc = t + uet_dcqcn_period_ns(cc, UET_DCQCN_TIME_RESET);
	d->hold_until = t + uet_dcqcn_period_ns(cc, UET_DCQCN_MONITOR_PERIOD);
	d->dec_pending = false;
	d->decreases++;
}

/* Runs the timers up to now, in time order: a cut held back by the
 * monitor period happens when that period ends, after the alpha and
 * increase rounds due before then. A round due at that very instant is
 * the cut's: CNPs kept coming, and the DCQCN paper times its increases
 * (K = 55 us) just beyond the CNP interval (N = 50 us) so that a flow
 * that keeps getting CNPs never increases. On auto both periods are the
 * RTT: ties are the rule, and a round before each cut took back half of
 * it (8 flows at a 21 ms port: 817..860 packets dropped).
 */
static void uet_dcqcn_catch_up(struct uet_cc *cc, u64 now)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);

	if (!d->started) {
		/* The start's timer rounds wait for the RTT that times them:
		 * the firmware's 300 us would reach the line rate within a
		 * long path's first RTT.
		 */
		if (uet_meas_min_rtt(&cc->meas))
			uet_dcqcn_timer_to(cc, d, now);
		else
			d->next_inc = now + uet_dcqcn_period_ns(cc,
						UET_DCQCN_TIME_RESET);
		return;
	}
	if (d->dec_pending && d->hold_until <= now) {
		uet_dcqcn_alpha_to(cc, d, d->hold_until);
		uet_dcqcn_timer_to(cc, d, d->hold_until - 1);
		uet_dcqcn_decrease(cc, d, d->hold_until);
	}
	uet_dcqcn_alpha_to(cc, d, now);
	uet_dcqcn_timer_to(cc, d, now);
}

static void uet_dcqcn_init(struct uet_cc *cc, u64 now)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);

	BUILD_BUG_ON(sizeof(*d) > UET_CC_PRIV_U64 * sizeof(u64));
	BUILD_BUG_ON(UET_DCQCN_NPARAMS > UET_CC_PARAMS_MAX);
	d->rate = uet_dcqcn_start_bps(cc);
	d->target = d->rate;
	d->next_send = now;
	d->recovering = d->rate < uet_dcqcn_max_bps(cc);
	/* The start climbs at R/40 while the path shows no queue. */
	d->quiet = cc->params[UET_DCQCN_THRESHOLD];
	d->next_inc = now + uet_dcqcn_period_ns(cc, UET_DCQCN_TIME_RESET);
}

static void uet_dcqcn_on_cnp(struct uet_cc *cc, u64 now)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);
	const u32 *p = cc->params;

	uet_dcqcn_catch_up(cc, now);
	d->cnps++;
	if (!d->started) {
		/* alpha starts near 1: the first cut is about a half. */
		d->started = true;
		d->alpha = p[UET_DCQCN_INITIAL_ALPHA] <<
			   (UET_DCQCN_ALPHA_SHIFT - UET_DCQCN_FW_SHIFT);
		if (p[UET_DCQCN_FIRST_CNP_RATE])
			d->rate = min(uet_dcqcn_bps(p[UET_DCQCN_FIRST_CNP_RATE]),
				      uet_dcqcn_max_bps(cc));
		d->target = d->rate;
		d->next_alpha = now + uet_dcqcn_period_ns(cc,
							  UET_DCQCN_ALPHA_PERIOD);
	} else {
		d->alpha_cnp = true;
	}
	if (now >= d->hold_until)
		uet_dcqcn_decrease(cc, d, now);
	else
		d->dec_pending = true;
}

static void uet_dcqcn_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);

	if (!ack->rtt_ns)
		return;
	d->round_rtt = ack->rtt_ns;
	d->srtt = d->srtt ? d->srtt - (d->srtt >> 3) + (ack->rtt_ns >> 3) :
			    ack->rtt_ns;
}

/* The notification point (DCQCN paper, section 3.1): at most one CNP per
 * np_min_time_between_cnps_us for the CE marks a flow receives.
 */
static bool uet_dcqcn_on_ce(struct uet_cc *cc, u64 now)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);
	u64 gap = (u64)cc->params[UET_DCQCN_NP_CNP_INTERVAL] * NSEC_PER_USEC;

	if (d->np_cnp_ns && now - d->np_cnp_ns < gap)
		return false;
	d->np_cnp_ns = now;
	return true;
}

static void uet_dcqcn_on_send(struct uet_cc *cc, u64 now, u32 bytes,
			      bool retx)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);
	u64 unit = (u64)cc->params[UET_DCQCN_BYTE_RESET] * UET_DCQCN_BYTE_UNIT;
	u64 gap = mul_u64_u64_div_u64(bytes, 8 * NSEC_PER_SEC, d->rate);
	u64 lag = clamp_t(u64, UET_DCQCN_PACE_SLACK_NS, gap,
			  max_t(u64, UET_DCQCN_PACE_BURST * gap,
				UET_DCQCN_PACE_BURST_NS));
	u64 n;

	uet_dcqcn_catch_up(cc, now);
	/* Idle time earns no more credit than lag. */
	d->next_send = max(d->next_send, now > lag ? now - lag : 0) + gap;
	if (!d->recovering || !unit)
		return;
	d->bytes += bytes;
	n = div64_u64_rem(d->bytes, unit, &d->bytes);
	uet_dcqcn_rounds(cc, d, n, false);
}

static u64 uet_dcqcn_send_at(struct uet_cc *cc, u64 now, u64 inflight,
			     u32 bytes)
{
	struct uet_dcqcn *d = uet_cc_priv(cc);

	uet_dcqcn_catch_up(cc, now);
	return d->next_send;
}

static int uet_dcqcn_get_info(const struct uet_cc *cc, struct uet_cc_stat *st)
{
	const struct uet_dcqcn *d = uet_cc_priv_const(cc);
	/* After the state, the values in force of the parameters on auto. */
	const struct uet_cc_stat all[] = {
		{ "rate_mbps", div_u64(d->rate, 1000000) },
		{ "target_mbps", div_u64(d->target, 1000000) },
		{ "alpha", d->alpha >>
			   (UET_DCQCN_ALPHA_SHIFT - UET_DCQCN_FW_SHIFT) },
		{ "cnps", d->cnps },
		{ "decreases", d->decreases },
		{ "increases", d->increases },
		{ "stage_timer", d->stage_t },
		{ "stage_bytes", d->stage_b },
		{ "quiet_rounds", d->quiet },
		{ "max_rate_mbps", div_u64(uet_dcqcn_max_bps(cc), 1000000) },
		{ "start_rate_mbps", div_u64(uet_dcqcn_start_bps(cc), 1000000) },
		{ "min_dec_fac", uet_dcqcn_min_dec(cc) },
		{ "ai_rate_kbps",
		  div_u64(uet_dcqcn_step_bps(cc, UET_DCQCN_AI_RATE,
					     uet_dcqcn_quiet(cc, d)), 1000) },
		{ "hai_rate_kbps",
		  div_u64(uet_dcqcn_step_bps(cc, UET_DCQCN_HAI_RATE, true),
			  1000) },
		{ "alpha_period_us",
		  div_u64(uet_dcqcn_period_ns(cc, UET_DCQCN_ALPHA_PERIOD),
			  NSEC_PER_USEC) },
		{ "monitor_period_us",
		  div_u64(uet_dcqcn_period_ns(cc, UET_DCQCN_MONITOR_PERIOD),
			  NSEC_PER_USEC) },
		{ "time_reset_us",
		  div_u64(uet_dcqcn_period_ns(cc, UET_DCQCN_TIME_RESET),
			  NSEC_PER_USEC) },
	};

	BUILD_BUG_ON(ARRAY_SIZE(all) > UET_CC_STATS_MAX);
	memcpy(st, all, sizeof(all));
	return ARRAY_SIZE(all);
}

const struct uet_cc_ops uet_cc_dcqcn = {
	.name = "dcqcn",
	.params = uet_dcqcn_params,
	.nparams = UET_DCQCN_NPARAMS,
	.init = uet_dcqcn_init,
	.on_ack = uet_dcqcn_on_ack,
	.on_cnp = uet_dcqcn_on_cnp,
	.on_ce = uet_dcqcn_on_ce,
	.on_send = uet_dcqcn_on_send,
	.send_at = uet_dcqcn_send_at,
	.get_info = uet_dcqcn_get_info,
};
EXPORT_SYMBOL_IF_KUNIT(uet_cc_dcqcn);
