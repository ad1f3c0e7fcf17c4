/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Seeded hashing for ECMP and per-flow seeds: the finalizer of SplitMix64
 * (Steele, Lea and Flood, "Fast splittable pseudorandom number
 * generators", OOPSLA 2014), which spreads every input bit over the
 * output.
 */
#ifndef _SIM_HASH_H
#define _SIM_HASH_H

#include <linux/types.h>

static inline u64 sim_mix(u64 x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* A hash of a seed and up to four words. */
static inline u64 sim_hash(u64 seed, u64 a, u64 b, u64 c, u64 d)
{
	u64 h = sim_mix(seed ^ a);

	h = sim_mix(h ^ b);
	h = sim_mix(h ^ c);
	return sim_mix(h ^ d);
}

#endif /* _SIM_HASH_H */
