/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_BITS_H
#define _SIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BIT_WORD(nr)		((nr) / BITS_PER_LONG)
#define BIT_MASK(nr)		(1UL << ((nr) % BITS_PER_LONG))

#endif /* _SIM_LINUX_BITS_H */
