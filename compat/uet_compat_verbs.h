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

/* Linux 6.1 has neither RDMA FLUSH nor ATOMIC WRITE (IBA 1.5, memory
 * placement extensions; both came with 6.2). ATOMIC WRITE takes no field
 * 6.1's struct rxe_send_wr lacks, so its values, as 6.2's
 * ib_user_verbs.h numbers them (IB_UVERBS_WR_ATOMIC_WRITE,
 * IB_UVERBS_WC_ATOMIC_WRITE, IB_UVERBS_DEVICE_ATOMIC_WRITE) and librxe
 * carries them through the ring, keep it working there. FLUSH's WR is not
 * in 6.1's rdma_user_rxe.h and ib_core refuses the flush rights, so 6.1
 * takes no FLUSH WQE: only the rights and the FETH values (6.2's
 * ib_verbs.h and ib_user_verbs.h), with which its responder refuses a
 * newer peer's FLUSH as any region without them.
 */
#ifndef HAVE_IB_WR_FLUSH
#define IB_WR_ATOMIC_WRITE		15
#define IB_WC_ATOMIC_WRITE		9
#define IB_DEVICE_ATOMIC_WRITE		BIT_ULL(40)
#define IB_ACCESS_FLUSH_GLOBAL		BIT(8)
#define IB_ACCESS_FLUSH_PERSISTENT	BIT(9)
#define IB_FLUSH_GLOBAL			BIT(0)
#define IB_FLUSH_PERSISTENT		BIT(1)
#define IB_FLUSH_RANGE			0
#define IB_FLUSH_MR			1
#endif

#endif /* _UET_COMPAT_VERBS_H */
