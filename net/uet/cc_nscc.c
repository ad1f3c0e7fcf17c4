// SPDX-License-Identifier: GPL-2.0
/*
 * NSCC, the Ultra Ethernet sender-based window control (UE spec 1.0
 * section 3.6.13, from SMaRTT and STrack), as the
 * spec's pseudocode and the UEC htsim (uec.cpp) write it. ECN and the
 * queueing delay pick one of four quadrants per ACK: proportional
 * increase (with fast increase), fair increase, multiplicative decrease,
 * or nothing. Increases are summed in bytes^2 and applied, divided by
 * cwnd, once per base RTT or per few MTUs acked; quick adapt resets cwnd
 * to what the last window delivered after trims or a very large delay.
 *
 * The spec sizes everything from two facts of the fabric, its line rate
 * and base RTT. Set, they are used as given; at 0 (auto, the default)
 * the line rate is the port's (the device's link_mbps, else its netdev's
 * speed) and the base RTT follows what the QP measures (cc_meas.h), the
 * windowed minimum RTT. A new QP starts from the base RTT the other QPs
 * to its peer measured (peer.h); the first starts on the spec's
 * reference RTT until its first sample.
 *
 * Fixed point: windows in bytes, times in ns, ratios of the spec's float
 * constants in thousandths (params) or in 1/2^NSCC_FP (derived state).
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "cc.h"

#define NSCC_FP		16
/* The spec's reference network: 100 Gb/s x 12 us, with 4 KiB packets
 * (htsim's MSS, the UE MTU its gains were tuned with).
 */
#define NSCC_REF_BDP	150000ULL	/* bytes */
#define NSCC_REF_MTU	4096ULL		/* bytes */
#define NSCC_MILLI	1000ULL
#define NSCC_REF_RTT	(12 * NSEC_PER_USEC)
/* Auto line rate when the netdev reports no speed: 10 Gb/s, what veth
 * reports.
 */
#define NSCC_AUTO_MBPS	10000

enum {
	NSCC_LINKSPEED_MBPS,
	NSCC_BASE_RTT_US,
	NSCC_TRIMMING,
	NSCC_TARGET_QDELAY_NS,
	NSCC_ALPHA,
	NSCC_FI,
	NSCC_ETA,
	NSCC_FI_SCALE,
	NSCC_FAST_INC_DELAY_NS,
	NSCC_GAMMA,
	NSCC_MAX_MD_JUMP,
	NSCC_QA_THRESHOLD,
	NSCC_QA_GATE,
	NSCC_QUICK_ADAPT,
	NSCC_ADJUST_BYTES_MTUS,
	NSCC_AVG_DELAY_DIV,
	NSCC_NPARAMS
};

/* Coefficients marked x1000 are the spec's float constants in thousandths. */
static const struct uet_cc_param uet_nscc_params[NSCC_NPARAMS] = {
	/* Line rate the window is sized for (spec: min of both ends'
	 * link speeds); 0: auto, the port's speed.
	 */
	[NSCC_LINKSPEED_MBPS] = { "linkspeed_mbps", 0, 0, 1600000 },
	/* config_base_rtt: unloaded RTT of the longest path (the spec's
	 * reference network and htsim: 12 us); 0: auto, the min RTT
	 * measured.
	 */
	[NSCC_BASE_RTT_US] = { "base_rtt_us", 0, 0, 1000000 },
	/* Fabric trims: target_qdelay = 0.75 base RTT, else 1.0 (spec). */
	[NSCC_TRIMMING] = { "trimming", 1, 0, 1 },
	/* Overrides target_qdelay (htsim's target_Qdelay); 0: from trimming. */
	[NSCC_TARGET_QDELAY_NS] = { "target_qdelay_ns", 0, 0, 10000000 },
	/* alpha = 4.0 x scaling_a x scaling_b x MTU / target_qdelay (spec). */
	[NSCC_ALPHA] = { "alpha", 4000, 0, 100000 },
	/* fi = 5 x MTU x scaling_a (spec, htsim). */
	[NSCC_FI] = { "fi", 5000, 0, 100000 },
	/* eta = 0.15 x MTU x scaling_a (spec, htsim). */
	[NSCC_ETA] = { "eta", 150, 0, 100000 },
	/* fi_scale = 0.25 x scaling_a (spec, htsim). */
	[NSCC_FI_SCALE] = { "fi_scale", 250, 0, 100000 },
	/* The spec's "delay ~= 0" for fast increase: htsim uses 1 us. */
	[NSCC_FAST_INC_DELAY_NS] = { "fast_inc_delay_ns", 1000, 0, 10000000 },
	/* gamma = 0.8 (spec, htsim). */
	[NSCC_GAMMA] = { "gamma", 800, 0, 1000 },
	/* Floor of one decrease factor, 0.5 (htsim). */
	[NSCC_MAX_MD_JUMP] = { "max_md_jump", 500, 0, 1000 },
	/* qa_threshold = 4 x target_qdelay (spec, drop at 5 BDP); 0: off. */
	[NSCC_QA_THRESHOLD] = { "qa_threshold", 4000, 0, 1000000 },
	/* Quick adapt only below max_wnd >> qa_gate achieved (spec, htsim). */
	[NSCC_QA_GATE] = { "qa_gate", 3, 0, 32 },
	/* 0 is the spec's disable_quick_adapt. */
	[NSCC_QUICK_ADAPT] = { "quick_adapt", 1, 0, 1 },
	/* adjust_bytes_threshold = 8 MTU (htsim). */
	[NSCC_ADJUST_BYTES_MTUS] = { "adjust_bytes_mtus", 8, 1, 4096 },
	/* Average delay EWMA gain 1/80 = 0.0125 (htsim _delay_alpha). */
	[NSCC_AVG_DELAY_DIV] = { "avg_delay_div", 80, 1, 65536 },
};

struct uet_nscc {
	u64 cwnd;		/* bytes, in [mtu, max_wnd] */
	u64 max_wnd;		/* 1.5 x linkspeed x base_rtt or loop_rtt */
	u64 base_rtt;		/* ns, in force */
	u64 loop_rtt;		/* ns, the ACK clock's smoothed RTT; 0: none */
	u64 linkspeed;		/* Mb/s, in force */
	u64 target;		/* target_qdelay, ns */
	u64 qa_threshold;	/* ns */
	u64 avg_delay;		/* ns << NSCC_FP */
	u64 inc_bytes;		/* bytes^2: applied as inc_bytes / cwnd */
	u64 received_bytes;	/* since the last adjustment */
	u64 achieved_bytes;	/* in the current quick adapt window */
	u64 fi_count;		/* bytes acked at delay ~0 */
	u64 bytes_to_ignore;
	u64 bytes_ignored;
	u64 last_adjust;
	u64 last_dec;
	u64 qa_end;
	/* From the parameters, scaled by scaling_a = BDP / 150 KB. */
	u64 alpha;		/* bytes^2 per (ns x byte), << NSCC_FP */
	u64 fi;			/* bytes, << NSCC_FP */
	u64 fi_scale;		/* << NSCC_FP */
	u64 eta;		/* bytes */
	u64 adjust_bytes;
	u32 q_inc_prop, q_inc_fair, q_dec, q_hold;
	u32 quick_adapts, fast_incs, mult_decs, loss_decs, timeouts, lates;
	bool rtt_seen;		/* base_rtt is measured, not configured */
	bool increase;		/* fast increase mode */
	bool trigger_qa;	/* a trim asks for quick adapt */
	bool qa_armed;		/* a quick adapt window is running */
};

/* The configured base RTT in ns; 0 when auto. */
static u64 uet_nscc_config_rtt(const struct uet_cc *cc)
{
	return (u64)cc->params[NSCC_BASE_RTT_US] * NSEC_PER_USEC;
}

/* 1.5 x linkspeed x base_rtt, of the values in force; over the ACK
 * clock's RTT when that is longer. The spec's NIC acknowledges in
 * hardware, where the base RTT is the loop a window takes to come back;
 * a software transport's loop holds both hosts (their softirq backlogs,
 * the receiver's ACK hold), which no fabric's BDP covers: on a veth pair
 * under TCG a window of the base RTT's 91 KB came back in 1.4 to 2.7 ms,
 * 0.53 of cc none's rate. ECN marks and losses, not the ceiling, hold a
 * window that a longer loop lets grow.
 */
static u64 uet_nscc_max_wnd(const struct uet_cc *cc, const struct uet_nscc *n)
{
	/* 1.5 x Mb/s x ns / 8000 bytes */
	u64 w = mul_u64_u64_div_u64(n->linkspeed * 3,
				    max(n->base_rtt, n->loop_rtt), 16000);

	return max_t(u64, w, cc->mtu);
}

/* coef/1000 x scaling_a x base / div */
static u64 uet_nscc_scaled(u32 coef, u64 base, u64 bdp, u64 div)
{
	return mul_u64_u64_div_u64(coef * base, bdp,
				   NSCC_MILLI * NSCC_REF_BDP * div);
}

/* Everything the spec derives from the line rate and the base RTT. */
static void uet_nscc_derive(struct uet_cc *cc, struct uet_nscc *n)
{
	const u32 *p = cc->params;
	u64 rtt = n->base_rtt;
	/* Mb/s x ns / 8000: the BDP that scaling_a is of */
	u64 bdp = div_u64(n->linkspeed * rtt, 8000);

	n->target = p[NSCC_TARGET_QDELAY_NS] ?:
		    (p[NSCC_TRIMMING] ? rtt * 3 / 4 : rtt);
	n->qa_threshold = p[NSCC_QA_THRESHOLD] ?
		div_u64(n->target * p[NSCC_QA_THRESHOLD], NSCC_MILLI) :
		U64_MAX;
	n->max_wnd = uet_nscc_max_wnd(cc, n);
	/* The spec's scaling_b = target / 12 us cancels alpha's 1 / target,
	 * leaving 4 MTU x scaling_a / 12 us: per RTT at zero delay that adds
	 * 3 MTU x scaling_a x target / 9 us: 0.08 BDP on the reference
	 * network, 36 BDP at 40 Mb/s x 21 ms with a 1 KiB MTU. Over
	 * the base RTT instead, scaling_b = target / base_rtt keeps the
	 * reference's share of BDP on any network.
	 *
	 * The MTU of alpha, fi and eta is the reference's packet, not the
	 * path's: scaling_a already sizes them to this BDP, and 1 KiB
	 * packets (a 1500-byte Ethernet MTU) made every increase a quarter
	 * of the reference's share of BDP: a third of a BDP lost to a
	 * spine failure took 16 RTTs to grow back at zero delay, 33 at
	 * half the target, instead of 4 and 8 (the multipath results in
	 * Documentation/uet/dev-guide/results.rst measure the difference).
	 */
	n->alpha = uet_nscc_scaled(p[NSCC_ALPHA], NSCC_REF_MTU << NSCC_FP,
				   bdp, rtt);
	n->fi = uet_nscc_scaled(p[NSCC_FI], NSCC_REF_MTU << NSCC_FP, bdp, 1);
	n->fi_scale = uet_nscc_scaled(p[NSCC_FI_SCALE], 1ULL << NSCC_FP,
				      bdp, 1);
	n->eta = uet_nscc_scaled(p[NSCC_ETA], NSCC_REF_MTU, bdp, 1);
}

static void uet_nscc_bound(const struct uet_cc *cc, struct uet_nscc *n)
{
	n->cwnd = clamp_t(u64, n->cwnd, cc->mtu, n->max_wnd);
}

/* A configured RTT: the first sample replaces it, as it may be far off
 * on a software fabric; later ones only lower it. A window still at its
 * initial ceiling (the spec starts at max_wnd) follows the ceiling.
 */
static void uet_nscc_update_base_rtt(struct uet_cc *cc, struct uet_nscc *n,
				     u64 rtt)
{
	bool at_max = !n->rtt_seen && n->cwnd >= n->max_wnd;

	if (n->rtt_seen && rtt >= n->base_rtt)
		return;
	n->rtt_seen = true;
	n->base_rtt = rtt;
	n->max_wnd = uet_nscc_max_wnd(cc, n);
	if (at_max || n->cwnd > n->max_wnd)
		n->cwnd = n->max_wnd;
}

/* The measured base RTT moved: all the spec derives from it follows.
 * The line rate is not measured: a delivery rate is what the window let
 * through, and a ceiling of 1.5 of it times the least RTT closes down to
 * one packet wherever a window's RTT exceeds 1.5 least RTTs, as a busy
 * host's own backlog makes it do on a fast path.
 */
static void uet_nscc_auto(struct uet_cc *cc, struct uet_nscc *n)
{
	u64 rtt = uet_meas_min_rtt(&cc->meas);

	if (!rtt || cc->params[NSCC_BASE_RTT_US])
		return;
	n->rtt_seen = true;
	n->base_rtt = rtt;
	uet_nscc_derive(cc, n);
}

static void uet_nscc_init(struct uet_cc *cc, u64 now)
{
	struct uet_nscc *n = uet_cc_priv(cc);
	const u32 *p = cc->params;

	BUILD_BUG_ON(sizeof(struct uet_nscc) > sizeof(cc->priv));
	n->base_rtt = uet_nscc_config_rtt(cc) ?: NSCC_REF_RTT;
	n->linkspeed = p[NSCC_LINKSPEED_MBPS] ?: cc->link_mbps ?:
		       NSCC_AUTO_MBPS;
	/* A new QP to a peer others measured starts on their base RTT,
	 * not on its own first sample, which an incast may inflate.
	 */
	uet_nscc_derive(cc, n);
	uet_nscc_auto(cc, n);
	n->cwnd = n->max_wnd;
	n->last_adjust = now;
	n->last_dec = now;
	n->adjust_bytes = (u64)p[NSCC_ADJUST_BYTES_MTUS] * cc->mtu;
}

static void uet_nscc_update_delay(struct uet_cc *cc, struct uet_nscc *n,
				  u64 delay)
{
	s64 err = (s64)(min_t(u64, delay, U32_MAX) << NSCC_FP) -
		  (s64)n->avg_delay;

	n->avg_delay += div_s64(err, cc->params[NSCC_AVG_DELAY_DIV]);
}

/* Returns true when quick adapt ran or the ACK falls in the bytes it
 * ignores; either way the pending adjustment is dropped. A delay above
 * the threshold counts only when marked: unmarked, it is the hosts'
 * scheduling as often as a queue (NSCC's own quadrants increase on it),
 * and a window's worth of ACKs may come later than base_rtt + target.
 */
static bool uet_nscc_quick_adapt(struct uet_cc *cc, struct uet_nscc *n,
				 u64 now, bool loss, bool ecn, u64 delay,
				 u64 inflight)
{
	bool done = false;

	if (!cc->params[NSCC_QUICK_ADAPT])
		return false;
	if (ecn && n->bytes_ignored < n->bytes_to_ignore) {
		/* Marks on packets queued before the cut say nothing new. */
		done = true;
	} else if (!n->qa_armed || now >= n->qa_end) {
		if (n->qa_armed &&
		    (n->trigger_qa || loss || (ecn && delay > n->qa_threshold)) &&
		    n->achieved_bytes < n->max_wnd >> cc->params[NSCC_QA_GATE]) {
			n->cwnd = max_t(u64, n->achieved_bytes, cc->mtu);
			n->bytes_to_ignore = inflight;
			n->bytes_ignored = 0;
			n->trigger_qa = false;
			n->quick_adapts++;
			done = true;
		}
		n->qa_armed = true;
		n->achieved_bytes = 0;
		n->qa_end = now + n->base_rtt + n->target;
	}
	if (done) {
		n->inc_bytes = 0;
		n->received_bytes = 0;
	}
	return done;
}

/* Exponential growth once a whole window was acked at delay ~0. */
static bool uet_nscc_fast_increase(struct uet_cc *cc, struct uet_nscc *n,
				   u64 newly, u64 delay)
{
	if (delay >= cc->params[NSCC_FAST_INC_DELAY_NS]) {
		n->fi_count = 0;
		n->increase = false;
		return false;
	}
	n->fi_count += newly;
	if (n->fi_count <= n->cwnd && !n->increase)
		return false;
	n->cwnd = min(n->cwnd + mul_u64_u64_shr(newly, n->fi_scale, NSCC_FP),
		      n->max_wnd);
	n->increase = true;
	n->fast_incs++;
	return true;
}

static void uet_nscc_multiplicative_decrease(struct uet_cc *cc,
					     struct uet_nscc *n, u64 now)
{
	u64 avg = n->avg_delay >> NSCC_FP;
	u64 f;

	n->increase = false;
	n->fi_count = 0;
	if (avg <= n->target || now - n->last_dec <= n->base_rtt)
		return;
	f = NSCC_MILLI - div64_u64(cc->params[NSCC_GAMMA] * (avg - n->target),
				   avg);
	f = max_t(u64, f, cc->params[NSCC_MAX_MD_JUMP]);
	n->cwnd = max_t(u64, div_u64(n->cwnd * f, NSCC_MILLI), cc->mtu);
	n->last_dec = now;
	n->mult_decs++;
}

static void uet_nscc_fulfill_adjustment(struct uet_nscc *n, u64 now)
{
	n->cwnd += div64_u64(n->inc_bytes, n->cwnd);
	if (now - n->last_adjust >= n->base_rtt) {
		n->last_adjust = now;
		n->cwnd += n->eta;
	}
	n->inc_bytes = 0;
	n->received_bytes = 0;
}

/* The receiver's rcv_cwnd_pend/128 of the newly acked bytes comes off a
 * window first cut to what is in flight.
 */
static void uet_nscc_penalty(struct uet_cc *cc, struct uet_nscc *n,
			     const struct uet_cc_ack *ack)
{
	u64 dec = (ack->rcv_cwnd_pend * ack->acked_bytes) >> 7;
	u64 w = min(n->cwnd, ack->inflight_bytes);

	n->cwnd = w >= dec + cc->mtu ? w - dec : cc->mtu;
}

static void uet_nscc_on_ack(struct uet_cc *cc, const struct uet_cc_ack *ack)
{
	struct uet_nscc *n = uet_cc_priv(cc);
	u64 newly = ack->acked_bytes;
	bool limited = ack->rcv_cwnd_pend;
	u64 delay;

	n->bytes_ignored += newly;
	n->received_bytes += newly;
	n->achieved_bytes += newly;
	if (limited)
		uet_nscc_penalty(cc, n, ack);
	if (ack->meas_changed)
		uet_nscc_auto(cc, n);
	if (ack->srtt_ns && ack->srtt_ns != n->loop_rtt) {
		n->loop_rtt = ack->srtt_ns;
		n->max_wnd = uet_nscc_max_wnd(cc, n);
	}
	if (ack->rtt_ns) {
		if (cc->params[NSCC_BASE_RTT_US])
			uet_nscc_update_base_rtt(cc, n, ack->rtt_ns);
		delay = ack->rtt_ns > n->base_rtt ? ack->rtt_ns - n->base_rtt : 0;
		uet_nscc_update_delay(cc, n, delay);
	} else {
		/* No sample (the spec's INVALID_RTT): as htsim, the average
		 * stands in, so ECN still tells a decrease from a hold and
		 * the ACK still clocks increases.
		 */
		delay = n->avg_delay >> NSCC_FP;
	}
	if (uet_nscc_quick_adapt(cc, n, ack->now, false, ack->ecn, delay,
				 ack->inflight_bytes))
		return;

	if (!ack->ecn && delay < n->target) {
		n->q_inc_prop++;
		if (!limited && !uet_nscc_fast_increase(cc, n, newly, delay))
			n->inc_bytes += mul_u64_u64_shr(n->alpha *
							(n->target - delay),
							newly, NSCC_FP);
	} else if (!ack->ecn) {
		n->q_inc_fair++;
		if (!limited)
			n->inc_bytes += mul_u64_u64_shr(n->fi, newly, NSCC_FP);
	} else if (delay >= n->target) {
		n->q_dec++;
		uet_nscc_multiplicative_decrease(cc, n, ack->now);
	} else {
		/* Marked but not delayed: the queue is on one path only;
		 * load balancing, not the window, answers it.
		 */
		n->q_hold++;
	}
	uet_nscc_bound(cc, n);

	if (ack->now - n->last_adjust >= n->base_rtt ||
	    n->received_bytes > n->adjust_bytes)
		uet_nscc_fulfill_adjustment(n, ack->now);
	uet_nscc_bound(cc, n);
}

static void uet_nscc_loss_decrease(struct uet_cc *cc, struct uet_nscc *n,
				   u32 bytes)
{
	n->cwnd = n->cwnd >= (u64)bytes + cc->mtu ? n->cwnd - bytes : cc->mtu;
	n->loss_decs++;
}

static void uet_nscc_on_nack(struct uet_cc *cc, u64 now, u32 bytes,
			     bool trimmed, u64 inflight_bytes)
{
	struct uet_nscc *n = uet_cc_priv(cc);

	n->bytes_ignored += bytes;
	if (trimmed) {
		/* A trim means a queue of about one configured base RTT
		 * (the spec's update_delay(config_base_rtt)), the one in
		 * force when auto.
		 */
		uet_nscc_update_delay(cc, n,
				      uet_nscc_config_rtt(cc) ?: n->base_rtt);
		n->trigger_qa = true;
		if (uet_nscc_quick_adapt(cc, n, now, true, true, 0,
					 inflight_bytes))
			return;
	}
	uet_nscc_loss_decrease(cc, n, bytes);
}

static void uet_nscc_on_loss(struct uet_cc *cc, u64 now, u32 bytes,
			     bool timeout)
{
	struct uet_nscc *n = uet_cc_priv(cc);

	/* A timeout costs the window what it lost, as any loss (htsim's
	 * mark_packet_for_retransmission), not a restart from one packet:
	 * fast increase needs a delay of about 0, which a queue shared with
	 * other flows never shows, so a window cut to one packet would crawl
	 * back.
	 */
	if (timeout)
		n->timeouts++;
	n->bytes_ignored += bytes;
	uet_nscc_loss_decrease(cc, n, bytes);
}

/* What a loss cost the window comes back when the packet was only late:
 * a timeout whose originals were queued behind a failure, or reordering
 * beyond the SACK rule's window, said nothing about congestion.
 */
static void uet_nscc_on_late(struct uet_cc *cc, u64 now, u32 bytes)
{
	struct uet_nscc *n = uet_cc_priv(cc);

	n->cwnd = min(n->cwnd + bytes, n->max_wnd);
	n->lates++;
}

static u64 uet_nscc_send_at(struct uet_cc *cc, u64 now, u64 inflight,
			    u32 bytes)
{
	const struct uet_nscc *n = uet_cc_priv(cc);

	/* An empty pipe always admits one packet, however large. */
	if (!inflight || inflight + bytes <= n->cwnd)
		return now;
	return U64_MAX;
}

static u64 uet_nscc_wnd(const struct uet_cc *cc)
{
	return ((const struct uet_nscc *)uet_cc_priv_const(cc))->cwnd;
}

static int uet_nscc_get_info(const struct uet_cc *cc, struct uet_cc_stat *st)
{
	const struct uet_nscc *n = uet_cc_priv_const(cc);
	const struct uet_cc_stat all[] = {
		{ "cwnd", n->cwnd },
		{ "base_rtt_ns", n->base_rtt },
		{ "avg_delay_ns", n->avg_delay >> NSCC_FP },
		{ "target_ns", n->target },
		{ "max_wnd", n->max_wnd },
		{ "loop_rtt_ns", n->loop_rtt },
		{ "linkspeed_mbps", n->linkspeed },
		{ "q_inc_prop", n->q_inc_prop },
		{ "q_inc_fair", n->q_inc_fair },
		{ "q_dec", n->q_dec },
		{ "q_hold", n->q_hold },
		{ "quick_adapt", n->quick_adapts },
		{ "fast_inc", n->fast_incs },
		{ "mult_dec", n->mult_decs },
		{ "loss_dec", n->loss_decs },
		{ "timeout", n->timeouts },
		{ "late", n->lates },
	};

	BUILD_BUG_ON(ARRAY_SIZE(all) > UET_CC_STATS_MAX);
	memcpy(st, all, sizeof(all));
	return ARRAY_SIZE(all);
}

const struct uet_cc_ops uet_cc_nscc = {
	.name = "nscc",
	.params = uet_nscc_params,
	.nparams = NSCC_NPARAMS,
	.init = uet_nscc_init,
	.on_ack = uet_nscc_on_ack,
	.on_nack = uet_nscc_on_nack,
	.on_loss = uet_nscc_on_loss,
	.on_late = uet_nscc_on_late,
	.send_at = uet_nscc_send_at,
	.get_info = uet_nscc_get_info,
	.wnd = uet_nscc_wnd,
};
EXPORT_SYMBOL_IF_KUNIT(uet_cc_nscc);
