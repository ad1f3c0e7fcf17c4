/* SPDX-License-Identifier: GPL-2.0 */
/* The uapi's error numbers; the C library's headers include this too. */
#ifndef _SIM_LINUX_ERRNO_H
#define _SIM_LINUX_ERRNO_H

#include_next <linux/errno.h>

#endif /* _SIM_LINUX_ERRNO_H */
