/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_BITS_H
#define _SIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))

#endif /* _SIM_LINUX_BITS_H */
