/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory-region arithmetic that needs no device: access-flag validation,
 * bounds checks and page walking steps, shared by mr.c and its KUnit suite.
 */
#ifndef _UET_MR_H
#define _UET_MR_H

#include <linux/minmax.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "uet_compat_verbs.h"

/* The flush rights an MR can carry: to global visibility only. Placing
 * is a copy into ordinary memory, which a barrier makes visible; making it
 * persistent needs persistent memory, which uet's regions do not check
 * for (rdma_rxe refuses the persistent right on other pages, rxe_mr.c of
 * Linux 6.2+), so that right is not offered. Windows carry neither
 * (UET_MW_ACCESS): rdma_rxe's bind takes no flush right either.
 */
#define UET_MR_FLUSH	IB_ACCESS_FLUSH_GLOBAL

/* Access rights an MR can carry. */
#define UET_MR_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | \
			 IB_ACCESS_REMOTE_READ | IB_ACCESS_REMOTE_ATOMIC | \
			 IB_ACCESS_MW_BIND | UET_MR_FLUSH)
#define UET_MR_REMOTE	(IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ | \
			 IB_ACCESS_REMOTE_ATOMIC)

/* 0 if @access may be granted. The optional range holds hints (relaxed
 * ordering) that a device is free to ignore; anything else we do not
 * implement is refused. The IB spec ties remote write and atomic rights to
 * local write.
 */
static inline int uet_mr_access_check(int access)
{
	if (access & ~(UET_MR_ACCESS | IB_ACCESS_OPTIONAL))
		return -EOPNOTSUPP;
	if ((access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	return 0;
}

/* The rights a FLUSH of placement types @plt needs: one per type, as
 * rdma_rxe's check_rkey() asks them (rxe_resp.c, Linux 6.2+). 0 for
 * none, a type the IBA does not define (A19.4.1.1) or a selectivity level
 * other than a range or a whole region (A19.4.1.2): no right allows it.
 */
static inline int uet_flush_access(u32 plt, u32 sel)
{
	int access = 0;

	if ((plt & ~(IB_FLUSH_GLOBAL | IB_FLUSH_PERSISTENT)) ||
	    (sel != IB_FLUSH_RANGE && sel != IB_FLUSH_MR))
		return 0;
	if (plt & IB_FLUSH_GLOBAL)
		access |= IB_ACCESS_FLUSH_GLOBAL;
	if (plt & IB_FLUSH_PERSISTENT)
		access |= IB_ACCESS_FLUSH_PERSISTENT;
	return access;
}

/* Is [@iova, @iova + @length) inside [@base, @base + @size)? Written without
 * computing either end, so no operand can overflow; an empty range may sit
 * anywhere from @base to the end of the region.
 */
static inline bool uet_mr_range_ok(u64 base, u64 size, u64 iova, u64 length)
{
	return iova >= base && iova - base <= size &&
	       length <= size - (iova - base);
}

/* Does [@iova, @iova + @length) stay below 2^64 (DMA MRs have no bounds)? */
static inline bool uet_mr_span_ok(u64 iova, u64 length)
{
	return !length || iova + (length - 1) >= iova;
}

/* In a list of (1 << @shift)-byte pages, the bytes from byte @off to the end
 * of its page, at most @len.
 */
static inline u32 uet_mr_chunk_len(u64 off, u32 shift, u32 len)
{
	u64 page = 1ULL << shift;

	return min_t(u64, page - (off & (page - 1)), len);
}

#endif /* _UET_MR_H */
