/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet sequence numbers. UET PSNs are 32 bits and wrap; like TCP sequence
 * numbers they are compared by the sign of their difference, which is valid
 * while the two are less than 2^31 apart (the window is far smaller).
 */
#ifndef _UET_PSN_H
#define _UET_PSN_H

#include <linux/types.h>

/* Signed distance from @b to @a. */
static inline s32 uet_psn_diff(u32 a, u32 b)
{
	return (s32)(a - b);
}

static inline bool uet_psn_before(u32 a, u32 b)
{
	return uet_psn_diff(a, b) < 0;
}

static inline bool uet_psn_after(u32 a, u32 b)
{
	return uet_psn_diff(a, b) > 0;
}

static inline bool uet_psn_after_eq(u32 a, u32 b)
{
	return uet_psn_diff(a, b) >= 0;
}

/* Is @psn in the @size PSNs starting at @base, i.e. [base, base + size)? */
static inline bool uet_psn_in_window(u32 psn, u32 base, u32 size)
{
	return psn - base < size;
}

#endif /* _UET_PSN_H */
