/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_BUILD_BUG_H
#define _SIM_LINUX_BUILD_BUG_H

/* A negative array size: the build fails when @cond holds. */
#define BUILD_BUG_ON(cond)	((void)sizeof(char[1 - 2 * !!(cond)]))

#endif /* _SIM_LINUX_BUILD_BUG_H */
