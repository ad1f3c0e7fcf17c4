// SPDX-License-Identifier: GPL-2.0
/* <linux/unaligned.h>, where <asm/unaligned.h> was. */
#include <linux/unaligned.h>

u32 uet_probe(const void *p);
u32 uet_probe(const void *p)
{
	return get_unaligned_be32(p);
}
