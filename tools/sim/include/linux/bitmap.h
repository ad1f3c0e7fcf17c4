/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bitmaps of unsigned longs, bit nr in word nr / BITS_PER_LONG as the
 * kernel's; one thread, so the atomic bit operations are plain ones. The
 * kernel's bitmap.h brings limits.h too.
 */
#ifndef _SIM_LINUX_BITMAP_H
#define _SIM_LINUX_BITMAP_H

#include <stdlib.h>
#include <string.h>
#include <linux/bits.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/types.h>

#define BITS_TO_LONGS(nr)	DIV_ROUND_UP(nr, BITS_PER_LONG)

static inline unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags)
{
	return calloc(BITS_TO_LONGS(nbits), sizeof(unsigned long));
}

static inline void bitmap_free(const unsigned long *map)
{
	free((void *)map);
}

static inline void bitmap_zero(unsigned long *map, unsigned int nbits)
{
	memset(map, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void set_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] |= BIT_MASK(nr);
}

static inline void clear_bit(unsigned long nr, unsigned long *map)
{
	map[BIT_WORD(nr)] &= ~BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[BIT_WORD(nr)] & BIT_MASK(nr);
}

#endif /* _SIM_LINUX_BITMAP_H */
