/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_GCD_H
#define _SIM_LINUX_GCD_H

/* Euclid's: the same value as lib/math/gcd.c's binary GCD. */
static inline unsigned long gcd(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long r = a % b;

		a = b;
		b = r;
	}
	return a;
}

#endif /* _SIM_LINUX_GCD_H */
