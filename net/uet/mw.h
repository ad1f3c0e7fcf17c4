/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory-window rules that need no device: may a bind happen, may an
 * invalidation, may a remote access through a window. The IBA (vol 1,
 * 10.6.7) states them; rdma_rxe (drivers/infiniband/sw/rxe/rxe_mw.c)
 * applies the same ones, and its comments name the compliance statements
 * cited here. mw.c applies them to live objects; KUnit checks them here.
 */
#ifndef _UET_MW_H
#define _UET_MW_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

#include "mr.h"

/* Rights a window can grant: remote ones only, and zero-based addressing. */
#define UET_MW_ACCESS	(UET_MR_REMOTE | IB_ZERO_BASED)

/**
 * struct uet_mw_bind_req - the facts a bind is decided on
 * @type: the window's type
 * @bound: the window has a binding in force (type 2: not free)
 * @qp_pd_ok: the binding QP's PD is the window's
 * @has_mr: the work request named a region (a nonzero length)
 * @mr_pd_ok: that region's PD is the window's
 * @mr_access: the region's rights
 * @mr_iova: the region's first address
 * @mr_length: the region's length
 * @addr: the window's first address asked for
 * @length: its length
 * @access: the rights asked for the window
 */
struct uet_mw_bind_req {
	enum ib_mw_type type;
	bool bound;
	bool qp_pd_ok;
	bool has_mr;
	bool mr_pd_ok;
	int mr_access;
	u64 mr_iova;
	u64 mr_length;
	u64 addr;
	u64 length;
	int access;
};

/* 0 if the bind may happen, -EINVAL if not (the WQE completes with
 * IB_WC_MW_BIND_ERR).
 */
static inline int uet_mw_bind_check(const struct uet_mw_bind_req *b)
{
	/* Local write means nothing to a window, but rdma-core's own tests
	 * ask for it (tests/test_mr.py MWRC) and rxe ignores it: so do we.
	 */
	if (b->access & ~(UET_MW_ACCESS | IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	/* C10-72: the binding QP is of the window's PD. rxe asks it of
	 * type 2 only; a type 1 window bound or unbound by any QP of the
	 * device would be one process's to change another's.
	 */
	if (!b->qp_pd_ok)
		return -EINVAL;
	if (b->type == IB_MW_TYPE_1) {
		/* o10-36.2.2: a type 1 window is never zero-based. */
		if (b->access & IB_ZERO_BASED)
			return -EINVAL;
	} else {
		/* o10-37.2.30: a type 2 window is bound only when free;
		 * o10-37.2.40: a zero-length bind would be an invalidation,
		 * which only LOCAL_INV and SEND_WITH_INV do.
		 */
		if (b->bound || !b->has_mr || !b->length)
			return -EINVAL;
	}
	/* Type 1, zero length: the window is unbound; no region applies. */
	if (!b->has_mr)
		return b->length ? -EINVAL : 0;
	if (!b->mr_pd_ok)
		return -EINVAL;
	/* C10-73: the region allows windows. */
	if (!(b->mr_access & IB_ACCESS_MW_BIND))
		return -EINVAL;
	/* C10-74: remote write and atomic rights need local write. */
	if ((b->access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(b->mr_access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	/* C10-75: the window lies inside the region. */
	if (b->access & IB_ZERO_BASED)
		return b->length <= b->mr_length ? 0 : -EINVAL;
	return uet_mr_range_ok(b->mr_iova, b->mr_length, b->addr, b->length) ?
	       0 : -EINVAL;
}

/* May LOCAL_INV or SEND_WITH_INV invalidate a window? o10-37.2.26: not a
 * type 1 one (only a bind changes it); a type 2 one only while bound.
 */
static inline int uet_mw_inv_check(enum ib_mw_type type, bool bound)
{
	return type == IB_MW_TYPE_2 && bound ? 0 : -EINVAL;
}

/* A remote access of @access to [@va, @va + @len) through a window bound
 * to [@addr, @addr + @length) with rights @mw_access. 0 with *@iova the
 * region address @va stands for; -EACCES for a right the window lacks or
 * a window bound to nothing, -EFAULT outside the window. A zero-based
 * window's addresses are offsets from its start.
 */
static inline int uet_mw_access_check(int mw_access, u64 addr, u64 length,
				      int access, u64 va, u64 len, u64 *iova)
{
	if (!length || (access & ~mw_access & UET_MR_REMOTE) ||
	    !(access & UET_MR_REMOTE))
		return -EACCES;
	if (mw_access & IB_ZERO_BASED) {
		if (!uet_mr_range_ok(0, length, va, len))
			return -EFAULT;
		*iova = addr + va;
		return 0;
	}
	if (!uet_mr_range_ok(addr, length, va, len))
		return -EFAULT;
	*iova = va;
	return 0;
}

#endif /* _UET_MW_H */
