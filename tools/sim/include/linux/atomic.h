/* SPDX-License-Identifier: GPL-2.0 */
/* One thread: an atomic is a plain integer. */
#ifndef _SIM_LINUX_ATOMIC_H
#define _SIM_LINUX_ATOMIC_H

#include <linux/compiler.h>

typedef struct {
	int counter;
} atomic_t;

static inline void atomic_inc(atomic_t *v)
{
	v->counter++;
}

#endif /* _SIM_LINUX_ATOMIC_H */
