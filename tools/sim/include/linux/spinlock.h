/* SPDX-License-Identifier: GPL-2.0 */
/* One thread: a lock nobody waits on, taken and released all the same. */
#ifndef _SIM_LINUX_SPINLOCK_H
#define _SIM_LINUX_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/kernel.h>

typedef struct {
	int locked;
} spinlock_t;

static inline void spin_lock_init(spinlock_t *l)
{
	l->locked = 0;
}

#define spin_lock_irqsave(l, flags)		\
	do {					\
		(flags) = 0;			\
		(l)->locked = 1;		\
	} while (0)

#define spin_unlock_irqrestore(l, flags)	\
	do {					\
		(void)(flags);			\
		(l)->locked = 0;		\
	} while (0)

#endif /* _SIM_LINUX_SPINLOCK_H */
