// SPDX-License-Identifier: GPL-2.0
/*
 * uet tune's port sizing (tune_size.h).
 */
#include <math.h>

#include "tune_size.h"

/* uet's largest packet: 4 KiB of payload behind its worst-case headers
 * (wire-format.rst, "Header budget and path MTU").
 */
#define TUNE_PKT_BYTES	(4096 + 108)
/* A port holds two packets at least, whatever the rule gives: below that
 * a queue of one would drop.
 */
#define TUNE_MIN_LIMIT	(2 * TUNE_PKT_BYTES)
/*
 * DCQCN's marking ramp starts at 5 packets of queue at least, Floyd's
 * least min_th for RED ("RED: Discussions of Setting Parameters", 1997,
 * www.icir.org/floyd/REDparameters.txt): below it, packets that merely
 * arrive together are marked as congestion. The ramp starts at 0.75 RTT,
 * so the port is sized for an RTT of 20/3 packet times at least, every
 * threshold in the rule's proportion to it. At 40 Mbit/s and 2 ms the
 * rule alone gave 1.8 packets before marking and 6 of buffer, and 8 paced
 * flows dropped 493..522 packets.
 */
#define TUNE_KMIN_PKTS	5
/* Marking is certain at the top of the ramp (UE 1.0 section 3.6.17). */
#define TUNE_PMAX_PCT	100
/* UE 1.0 section 3.6.17's ECN ramp for UET-CC, in percent of the buffer. */
#define TUNE_NSCC_KMIN_PCT	20
#define TUNE_NSCC_KMAX_PCT	80

double tune_bdp(uint64_t rate_bps, uint64_t rtt_ns)
{
	return (double)rate_bps / 8 * rtt_ns / 1e9;
}

/* The RTT the DCQCN port is sized for, ns. */
static uint64_t tune_dcqcn_rtt(uint64_t rate_bps, uint64_t rtt_ns)
{
	double pkt_ns = TUNE_PKT_BYTES * 8 * 1e9 / rate_bps;

	return fmax(rtt_ns, llround(pkt_ns * TUNE_KMIN_PKTS * 4 / 3));
}

void tune_size(uint64_t rate_bps, uint64_t rtt_ns, bool dcqcn,
	       struct tune_size *sz)
{
	uint64_t us;

	sz->pmax = TUNE_PMAX_PCT;
	if (!dcqcn) {
		/*
		 * UE 1.0 section 3.6.17's switch settings for UET-CC: one
		 * BDP of buffer, ECN marking from 20 % to 80 % of it,
		 * packets trimmed, not dropped, when it is full.
		 */
		sz->limit = fmax(llround(tune_bdp(rate_bps, rtt_ns)),
				 TUNE_MIN_LIMIT);
		sz->pct = true;
		sz->kmin = TUNE_NSCC_KMIN_PCT;
		sz->kmax = TUNE_NSCC_KMAX_PCT;
		sz->trim = true;
		return;
	}
	/*
	 * DCQCN over long distances, lossless: 2.5 RTT of traffic buffered,
	 * the marking ramp from 0.75 to 1.5 RTT of queueing delay, marking
	 * certain at its top; no trimming, which DCQCN has no answer for
	 * (sizing.rst, sch_uet.rst). The port's RTT is taken in the whole
	 * microseconds tc is given.
	 */
	us = (tune_dcqcn_rtt(rate_bps, rtt_ns) + 500) / 1000;
	sz->limit = fmax(llround(2.5 * tune_bdp(rate_bps, us * 1000)),
			 TUNE_MIN_LIMIT);
	sz->pct = false;
	sz->kmin = us * 3 / 4;
	sz->kmax = us * 3 / 2;
	sz->trim = false;
}
