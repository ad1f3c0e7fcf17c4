/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_MATH_H
#define _SIM_LINUX_MATH_H

#include <linux/types.h>

#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))

/* [0, ep_ro) from a 32-bit value, without a division (as the kernel's). */
static inline u32 reciprocal_scale(u32 val, u32 ep_ro)
{
	return (u32)(((u64)val * ep_ro) >> 32);
}

#endif /* _SIM_LINUX_MATH_H */
