/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What Kbuild puts before every file (-include compiler_types.h): the
 * attributes the shared files use without including anything.
 */
#ifndef _SIM_LINUX_COMPILER_TYPES_H
#define _SIM_LINUX_COMPILER_TYPES_H

#define fallthrough		__attribute__((__fallthrough__))
#define __packed		__attribute__((__packed__))
#define __noreturn		__attribute__((__noreturn__))

#endif /* _SIM_LINUX_COMPILER_TYPES_H */
