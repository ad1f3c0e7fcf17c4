/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 64-bit divisions and 64x64 products as x86-64 computes them: exact,
 * through 128 bits where the kernel's x86-64 versions use mul and div.
 */
#ifndef _SIM_LINUX_MATH64_H
#define _SIM_LINUX_MATH64_H

#include <linux/math.h>
#include <linux/types.h>

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 div)
{
	return (u64)((__uint128_t)a * mul / div);
}

static inline u64 mul_u64_u64_shr(u64 a, u64 mul, unsigned int shift)
{
	return (u64)(((__uint128_t)a * mul) >> shift);
}

#endif /* _SIM_LINUX_MATH64_H */
