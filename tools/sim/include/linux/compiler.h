/* SPDX-License-Identifier: GPL-2.0 */
/* READ_ONCE() and WRITE_ONCE(): one thread here, but the same volatile
 * accesses as the kernel's, so the compiler treats them alike.
 */
#ifndef _SIM_LINUX_COMPILER_H
#define _SIM_LINUX_COMPILER_H

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, val)	(*(volatile __typeof__(x) *)&(x) = (val))

#endif /* _SIM_LINUX_COMPILER_H */
