/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RDMA core's API as uet_compat.h supplies the kernel's: the newest
 * form, made from an older kernel's where it lacks it. The ib_device_ops
 * whose form changed are net/uet/compat_verbs.c's.
 */
#ifndef _UET_COMPAT_VERBS_H
#define _UET_COMPAT_VERBS_H

#include "uet_compat.h"

#include <rdma/ib_umem.h>

#ifndef HAVE_IB_UMEM_GET_VA
static inline struct ib_umem *ib_umem_get_va(struct ib_device *device,
					     unsigned long addr, size_t size,
					     int access)
{
	return ib_umem_get(device, addr, size, access);
}
#endif

#endif /* _UET_COMPAT_VERBS_H */
