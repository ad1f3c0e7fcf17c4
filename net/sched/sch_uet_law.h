/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The laws of a sch_uet port that do not touch a packet: whether a data
 * packet leaving the port is ECN-marked, and how far a trimmed one is
 * cut. Pure logic, no skb and no qdisc, so that sch_uet.c, its KUnit
 * suite and the packet simulator (tools/sim) decide by the same code.
 */
#ifndef _SCH_UET_LAW_H
#define _SCH_UET_LAW_H

#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/types.h>

/* Marking probability for a data band backlog, as a fraction of 2^32:
 * 0 up to kmin, a linear ramp to pmax % at kmax, then always (UE 1.0
 * section 3.6.17's probabilistic ECN).
 */
static inline u64 uet_ecn_prob(u32 backlog, u32 kmin, u32 kmax, u32 pmax)
{
	u64 p;

	if (backlog >= kmax)
		return 1ULL << 32;
	if (backlog <= kmin)
		return 0;
	p = div_u64((u64)(backlog - kmin) << 32, kmax - kmin);
	return div_u64(p * pmax, 100);
}

/* Whether to mark, @rnd a uniform 32-bit draw. */
static inline bool uet_ecn_decide(u32 backlog, u32 kmin, u32 kmax, u32 pmax,
				  u32 rnd)
{
	return rnd < uet_ecn_prob(backlog, kmin, kmax, pmax);
}

/* Length of an IP packet of @ip_len bytes trimmed to @trim_size, never
 * cutting into its first @hdr_len bytes (IP and UDP headers).
 */
static inline u32 uet_trim_len(u32 ip_len, u32 hdr_len, u32 trim_size)
{
	return min(ip_len, max(hdr_len, trim_size));
}

#endif /* _SCH_UET_LAW_H */
