// SPDX-License-Identifier: GPL-2.0
/*
 * The measured inputs of congestion control (cc_meas.h): windowed minimum
 * RTT and windowed maximum delivery rate, from the ACKs.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "cc_meas.h"

/* 0 is "no sample" in either window. */
static u64 uet_meas_win_min(const struct uet_meas_win *w)
{
	if (!w->prev || !w->cur)
		return w->cur ?: w->prev;
	return min(w->cur, w->prev);
}

static u64 uet_meas_win_max(const struct uet_meas_win *w)
{
	return max(w->cur, w->prev);
}

/* A sample @v at @now: a new window once the current one is @win old,
 * the one before forgotten once it is older than that.
 */
static bool uet_meas_win_new(struct uet_meas_win *w, u64 now, u64 win,
			     u64 v)
{
	if (w->cur && now - w->start < win)
		return false;
	w->prev = w->cur && now - w->start < 2 * win ? w->cur : 0;
	w->cur = v;
	w->start = now;
	return true;
}

u64 uet_meas_min_rtt(const struct uet_cc_meas *m)
{
	return uet_meas_win_min(&m->min_rtt);
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_min_rtt);

u64 uet_meas_max_rate(const struct uet_cc_meas *m)
{
	return uet_meas_win_max(&m->max_rate);
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_max_rate);

static void uet_meas_rtt(struct uet_cc_meas *m, u64 now, u64 rtt)
{
	struct uet_meas_win *w = &m->min_rtt;

	m->rtt_samples++;
	if (!uet_meas_win_new(w, now, UET_MEAS_RTT_WIN_NS, rtt) &&
	    rtt < w->cur)
		w->cur = rtt;
}

/* A rate sample spans at least one min RTT: what one window delivered
 * (BBR samples per packet; per round trip is enough to size a window and
 * is robust to ACKs that coalesce).
 */
static void uet_meas_rate(struct uet_cc_meas *m, u64 now, u64 bytes)
{
	u64 span = max(uet_meas_min_rtt(m), UET_MEAS_RATE_MIN_NS);
	struct uet_meas_win *w = &m->max_rate;
	u64 rate;

	if (!m->rate_start) {
		/* These bytes were sent before the sample began. */
		m->rate_start = now;
		return;
	}
	m->rate_bytes += bytes;
	if (now - m->rate_start < span)
		return;
	rate = mul_u64_u64_div_u64(m->rate_bytes, NSEC_PER_SEC,
				   now - m->rate_start);
	m->rate_start = now;
	m->rate_bytes = 0;
	m->rate_samples++;
	if (!uet_meas_win_new(w, now, UET_MEAS_RATE_ROUNDS * span, rate) &&
	    rate > w->cur)
		w->cur = rate;
}

bool uet_meas_ack(struct uet_cc_meas *m, u64 now, u64 bytes, u64 rtt_ns)
{
	u64 rtt = uet_meas_min_rtt(m), rate = uet_meas_max_rate(m);

	if (rtt_ns)
		uet_meas_rtt(m, now, rtt_ns);
	if (bytes)
		uet_meas_rate(m, now, bytes);
	return rtt != uet_meas_min_rtt(m) || rate != uet_meas_max_rate(m);
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_ack);
