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

/* The extreme of two values, 0 being "no sample". */
static u64 uet_meas_pick(u64 a, u64 b, bool max)
{
	if (!a || !b)
		return a ?: b;
	return max ? max(a, b) : min(a, b);
}

static u64 uet_meas_win_min(const struct uet_meas_win *w)
{
	return uet_meas_pick(w->cur, w->prev, false);
}

static u64 uet_meas_win_max(const struct uet_meas_win *w)
{
	return max(w->cur, w->prev);
}

/* A value @v of samples taken at @t or later: a new window once @t is
 * @win past the current one's start, the one before forgotten once @t is
 * two windows past it. A value older than the current window (another
 * QP's, uet_meas_publish()) joins the window before, unless it is older
 * than that one is taken to be: it would have aged out already.
 */
static void uet_meas_win_put(struct uet_meas_win *w, u64 t, u64 win, u64 v,
			     bool max)
{
	s64 d = t - w->start;

	if (!v)
		return;
	if (!w->cur || d >= (s64)win) {
		w->prev = w->cur && d < 2 * (s64)win ? w->cur : 0;
		w->cur = v;
		w->start = t;
	} else if (d >= 0) {
		w->cur = uet_meas_pick(w->cur, v, max);
	} else if (d >= -(s64)win) {
		w->prev = uet_meas_pick(w->prev, v, max);
	}
}

/* What a rate sample spans, a min RTT; its window is UET_MEAS_RATE_ROUNDS
 * of them.
 */
static u64 uet_meas_rate_span(const struct uet_meas_win *min_rtt)
{
	return max(uet_meas_win_min(min_rtt), UET_MEAS_RATE_MIN_NS);
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
	m->rtt_samples++;
	uet_meas_win_put(&m->min_rtt, now, UET_MEAS_RTT_WIN_NS, rtt, false);
}

/* A rate sample spans at least one min RTT: what one window delivered
 * (BBR samples per packet; per round trip is enough to size a window and
 * is robust to ACKs that coalesce).
 */
static void uet_meas_rate(struct uet_cc_meas *m, u64 now, u64 bytes)
{
	u64 span = uet_meas_rate_span(&m->min_rtt);
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
	uet_meas_win_put(&m->max_rate, now, UET_MEAS_RATE_ROUNDS * span, rate,
			 true);
}

bool uet_meas_ack(struct uet_cc_meas *m, u64 now, u64 bytes, u64 rtt_ns)
{
	u64 rtt = uet_meas_min_rtt(m), rate = uet_meas_max_rate(m);
	u64 start = m->min_rtt.start;

	if (rtt_ns)
		uet_meas_rtt(m, now, rtt_ns);
	if (bytes)
		uet_meas_rate(m, now, bytes);
	return rtt != uet_meas_min_rtt(m) || rate != uet_meas_max_rate(m) ||
	       start != m->min_rtt.start;
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_ack);

/* @w's values into @to, the current window's as of its start, the one
 * before's a window earlier: none is younger in @to than in @w, so
 * none outlives its window by passing between QPs.
 */
static void uet_meas_win_merge(struct uet_meas_win *to, u64 to_win,
			       const struct uet_meas_win *w, u64 win, bool max)
{
	uet_meas_win_put(to, w->start - win, to_win, w->prev, max);
	uet_meas_win_put(to, w->start, to_win, w->cur, max);
}

void uet_meas_publish(struct uet_meas_shared *s, const struct uet_cc_meas *m)
{
	uet_meas_win_merge(&s->min_rtt, UET_MEAS_RTT_WIN_NS, &m->min_rtt,
			   UET_MEAS_RTT_WIN_NS, false);
	uet_meas_win_merge(&s->max_rate, UET_MEAS_RTT_WIN_NS, &m->max_rate,
			   UET_MEAS_RATE_ROUNDS *
			   uet_meas_rate_span(&m->min_rtt), true);
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_publish);

/* What is left of @w at @now: what its next sample would leave of it,
 * as a QP reports only what it measured in the last windows.
 */
static void uet_meas_win_age(struct uet_meas_win *w, u64 now, u64 win)
{
	if (now - w->start >= 2 * win)
		w->cur = 0;
	if (now - w->start >= win)
		w->prev = 0;
}

void uet_meas_seed(struct uet_cc_meas *m, const struct uet_meas_shared *s,
		   u64 now)
{
	m->min_rtt = s->min_rtt;
	uet_meas_win_age(&m->min_rtt, now, UET_MEAS_RTT_WIN_NS);
	m->max_rate = s->max_rate;
	uet_meas_win_age(&m->max_rate, now, UET_MEAS_RTT_WIN_NS);
}
EXPORT_SYMBOL_IF_KUNIT(uet_meas_seed);
