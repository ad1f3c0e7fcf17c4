/* SPDX-License-Identifier: GPL-2.0 */
/* What the kernel's kernel.h brings the shared files. */
#ifndef _SIM_LINUX_KERNEL_H
#define _SIM_LINUX_KERNEL_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math.h>
#include <linux/minmax.h>
#include <linux/types.h>

#define ARRAY_SIZE(arr)		(sizeof(arr) / sizeof((arr)[0]))

#endif /* _SIM_LINUX_KERNEL_H */
