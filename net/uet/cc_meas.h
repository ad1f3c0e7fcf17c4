/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a QP measures of its path for congestion control to size itself
 * by: the minimum RTT over a window of seconds (BBR's min_rtt filter,
 * Cardwell et al., ACM Queue 2016) and the highest delivery rate over a
 * window of round trips (BBR's BtlBw filter). Pure logic fed by the ACKs
 * (cc.c), "now" in ns, so KUnit drives it on a fake clock.
 *
 * Each filter keeps the extreme of two consecutive windows, the current
 * one and the one before: what it reports is the extreme of the last
 * one to two windows, Nichols' windowed filter (lib/win_minmax.c)
 * reduced to what a sender needs, with 64-bit values.
 */
#ifndef _UET_CC_MEAS_H
#define _UET_CC_MEAS_H

#include <linux/time64.h>
#include <linux/types.h>

/* min_rtt's window: BBR's MinRTTFilterLen, 10 s (RFC 9000's QUIC keeps a
 * min_rtt for the connection's life; a path can lengthen, so it ages).
 * Here a sample ages out after 5 to 10 s.
 */
#define UET_MEAS_RTT_WIN_NS	(5ULL * NSEC_PER_SEC)
/* Rate samples per window of the max filter: BBR's BtlBwFilterLen is 10
 * round trips; two windows of 5 cover 5 to 10.
 */
#define UET_MEAS_RATE_ROUNDS	5
/* The shortest interval a rate sample spans: below it the emulated
 * clock's and the ACK coalescing's granularity dominate.
 */
#define UET_MEAS_RATE_MIN_NS	(100ULL * NSEC_PER_USEC)

/* The extreme of the last one or two windows of samples. A window's
 * samples are no older than its start; the one before is taken as a
 * window older.
 */
struct uet_meas_win {
	u64 cur, prev;		/* extremes of this window and the last */
	u64 start;		/* when the current window began */
};

struct uet_cc_meas {
	struct uet_meas_win min_rtt;	/* ns; 0 before a sample */
	struct uet_meas_win max_rate;	/* bytes/s; 0 before a sample */
	u64 rate_start;		/* start of the running rate sample */
	u64 rate_bytes;		/* acked since rate_start */
	u32 rtt_samples;
	u32 rate_samples;
};

/* The filters of the QPs to one peer, merged: what a new QP to it starts
 * from. Each value keeps the start of the window it was measured in, so
 * it ages out as it would have in the QP's own filter however often it
 * passes from QP to peer and back: a path that lengthens is relearned.
 * Rates too are kept over min_rtt's windows: a QP's windows of a few
 * round trips pass only as it samples, which a QP at rest does not, nor
 * a peer. A QP keeps a rate it starts with until its own rate samples
 * push it out of its windows.
 */
struct uet_meas_shared {
	struct uet_meas_win min_rtt;
	struct uet_meas_win max_rate;
};

/* An ACK at @now acknowledged @bytes; @rtt_ns its RTT sample (0: none).
 * Returns true when the min RTT or the max rate it reports changed, or a
 * window of the min RTT began (every 5 s of samples): what keeps a copy
 * (uet_meas_publish()) from aging out of a path that stays the same.
 */
bool uet_meas_ack(struct uet_cc_meas *m, u64 now, u64 bytes, u64 rtt_ns);

/* The windowed minimum RTT, ns; 0 before the first sample. */
u64 uet_meas_min_rtt(const struct uet_cc_meas *m);
/* The windowed maximum delivery rate, bytes/s; 0 before a sample. */
u64 uet_meas_max_rate(const struct uet_cc_meas *m);

/* Merges what @m measured into @s. */
void uet_meas_publish(struct uet_meas_shared *s, const struct uet_cc_meas *m);
/* Starts a zeroed @m at @now with the values of @s not yet aged out; its
 * own samples then join them as if it had measured them itself.
 */
void uet_meas_seed(struct uet_cc_meas *m, const struct uet_meas_shared *s,
		   u64 now);

#endif /* _UET_CC_MEAS_H */
