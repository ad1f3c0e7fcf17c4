/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's integer types over the C library's; the uapi ones (__u32,
 * __be16) from the system's linux/types.h, which C library headers may
 * include through this one.
 */
#ifndef _SIM_LINUX_TYPES_H
#define _SIM_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef unsigned int gfp_t;

#endif /* _SIM_LINUX_TYPES_H */
