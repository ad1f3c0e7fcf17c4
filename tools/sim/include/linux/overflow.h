/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_OVERFLOW_H
#define _SIM_LINUX_OVERFLOW_H

#include <linux/limits.h>
#include <linux/types.h>

/* a + b and a * b, SIZE_MAX on overflow, so an allocation fails. */
static inline size_t size_add(size_t a, size_t b)
{
	size_t s;

	return __builtin_add_overflow(a, b, &s) ? SIZE_MAX : s;
}

static inline size_t size_mul(size_t a, size_t b)
{
	size_t p;

	return __builtin_mul_overflow(a, b, &p) ? SIZE_MAX : p;
}

#define struct_size(p, member, count)					\
	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), (count)))

#endif /* _SIM_LINUX_OVERFLOW_H */
