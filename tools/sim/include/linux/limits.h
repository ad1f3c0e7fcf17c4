/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's limits, after the uapi's (which the C library includes). */
#ifndef _SIM_LINUX_LIMITS_H
#define _SIM_LINUX_LIMITS_H

#include_next <linux/limits.h>
#include <linux/types.h>

#define U8_MAX		((u8)~0U)
#define U16_MAX		((u16)~0U)
#define S16_MAX		((s16)(U16_MAX >> 1))
#define S16_MIN		((s16)(-S16_MAX - 1))
#define U32_MAX		((u32)~0U)
#define U64_MAX		((u64)~0ULL)

#endif /* _SIM_LINUX_LIMITS_H */
