/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_LOG2_H
#define _SIM_LINUX_LOG2_H

/* The least power of two at or above n (n >= 1), as the kernel's. */
static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (8 * sizeof(long) - __builtin_clzl(n - 1));
}

#endif /* _SIM_LINUX_LOG2_H */
