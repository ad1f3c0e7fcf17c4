/* SPDX-License-Identifier: GPL-2.0 */
/* Zeroed allocations on the C library's heap. */
#ifndef _SIM_LINUX_SLAB_H
#define _SIM_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/types.h>

#define GFP_KERNEL_ACCOUNT	0U

static inline void *kvzalloc(size_t size, gfp_t flags)
{
	return calloc(1, size);
}

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	return calloc(n, size);
}

static inline void *kvcalloc(size_t n, size_t size, gfp_t flags)
{
	return calloc(n, size);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif /* _SIM_LINUX_SLAB_H */
