// SPDX-License-Identifier: GPL-2.0
/*
 * Memory windows, type 1 and type 2B (IBA vol 1, 10.6.7), with the
 * semantics rdma_rxe gives them (rxe_mw.c), over the rxe user ABI: librxe
 * binds a type 1 window from ibv_bind_mw() and a type 2 one from
 * ibv_post_send() with the same BIND_MW WQE, which the requester runs in
 * order as a local operation (req.c).
 *
 * A window's key is index << 8 | key byte, its index above every
 * region's (UET_MIN_MW_INDEX), so a key names one or the other. A bind
 * sets the key byte the WQE gives (o10-37.2.x: the consumer owns it), as
 * rxe does.
 */
#include <linux/random.h>

#include "mw.h"
#include "uet.h"

/* Gives each QP that binds a type 2 window an id of its own. */
static atomic64_t uet_mw_owner_next = ATOMIC64_INIT(0);

int uet_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata)
{
	struct uet_mw *mw = to_umw(ibmw);
	struct uet_dev *udev = to_udev(ibmw->device);
	u32 index;
	int err;

	if (ibmw->type != IB_MW_TYPE_1 && ibmw->type != IB_MW_TYPE_2)
		return -EINVAL;
	mw->udev = udev;
	refcount_set(&mw->ref, 1);
	init_completion(&mw->free);
	spin_lock_init(&mw->lock);
	err = xa_alloc_cyclic(&udev->mws, &index, NULL,
			      XA_LIMIT(UET_MIN_MW_INDEX,
				       UET_MIN_MW_INDEX + UET_MAX_MW - 1),
			      &udev->mw_next, GFP_KERNEL_ACCOUNT);
	if (err < 0)
		return err;
	mw->rkey = index << 8 | get_random_u8();
	ibmw->rkey = mw->rkey;
	err = xa_err(xa_store(&udev->mws, index, mw, GFP_KERNEL));
	if (err)
		xa_erase(&udev->mws, index);
	return err;
}

/* Drop the binding in force: called under mw->lock. */
static void uet_mw_unbind(struct uet_mw *mw)
{
	if (mw->mr)
		uet_mr_mw_put(mw->mr);
	mw->mr = NULL;
	mw->access = 0;
	mw->addr = 0;
	mw->length = 0;
	mw->owner = 0;
}

int uet_dealloc_mw(struct ib_mw *ibmw)
{
	struct uet_mw *mw = to_umw(ibmw);
	unsigned long flags;

	xa_erase(&mw->udev->mws, mw->rkey >> 8);
	/* The core frees the window when we return, without RCU: a lookup
	 * that found it before the erase must be done with it first.
	 */
	synchronize_rcu();
	if (!refcount_dec_and_test(&mw->ref))
		wait_for_completion(&mw->free);
	spin_lock_irqsave(&mw->lock, flags);
	uet_mw_unbind(mw);
	spin_unlock_irqrestore(&mw->lock, flags);
	return 0;
}

static struct uet_mw *uet_mw_get(struct uet_dev *udev, u32 rkey)
{
	struct uet_mw *mw;

	rcu_read_lock();
	mw = xa_load(&udev->mws, rkey >> 8);
	if (mw && !refcount_inc_not_zero(&mw->ref))
		mw = NULL;
	rcu_read_unlock();
	return mw;
}

static void uet_mw_put(struct uet_mw *mw)
{
	if (refcount_dec_and_test(&mw->ref))
		complete(&mw->free);
}

/* Run a BIND_MW WQE of @qp. The WQE is the requester's private copy; its
 * keys are looked up, never trusted. 0 or -EINVAL.
 */
int uet_mw_bind(struct uet_qp *qp, const struct rxe_send_wqe *wqe)
{
	struct uet_dev *udev = qp->udev;
	struct uet_mr *mr = NULL;
	struct uet_mw_bind_req b = {
		.addr = wqe->wr.wr.mw.addr,
		.length = wqe->wr.wr.mw.length,
		.access = wqe->wr.wr.mw.access,
	};
	unsigned long flags;
	struct uet_mw *mw;
	int err = -EINVAL;

	/* The WQE names the window by librxe's ibv_mw.rkey, which
	 * libibverbs never updates for a type 2 window: only the index
	 * counts (rxe also compares the key byte, so a type 2 window there
	 * binds once unless the user rewrites ibv_mw.rkey). The PD checks
	 * keep other processes' windows out of reach.
	 */
	mw = uet_mw_get(udev, wqe->wr.wr.mw.mw_rkey);
	if (!mw)
		return -EINVAL;
	if (b.length) {
		mr = uet_mr_get(udev, wqe->wr.wr.mw.mr_lkey, false);
		if (!mr)
			goto out;
	}
	if (mw->ibmw.type == IB_MW_TYPE_2 && !qp->mw_owner)
		qp->mw_owner = atomic64_inc_return(&uet_mw_owner_next);

	spin_lock_irqsave(&mw->lock, flags);
	b.type = mw->ibmw.type;
	b.bound = mw->mr;
	b.qp_pd_ok = qp->ibqp.pd == mw->ibmw.pd;
	b.has_mr = mr;
	if (mr) {
		b.mr_pd_ok = mr->ibmr.pd == mw->ibmw.pd;
		b.mr_access = READ_ONCE(mr->access);
		b.mr_iova = mr->iova;
		b.mr_length = mr->length;
		/* Only a user region has windows: binds come from users,
		 * whose WQEs cannot name the kernel's regions' pages.
		 */
		if (mr->type != UET_MR_USER)
			b.mr_access = 0;
	}
	err = uet_mw_bind_check(&b);
	if (!err && mr)
		err = uet_mr_mw_get(mr);
	if (err)
		goto unlock;
	uet_mw_unbind(mw);
	if (mr) {
		mw->mr = mr;
		mw->access = b.access & UET_MW_ACCESS;
		mw->addr = b.addr;
		mw->length = b.length;
		if (b.type == IB_MW_TYPE_2)
			mw->owner = qp->mw_owner;
	}
	WRITE_ONCE(mw->rkey, (mw->rkey & ~0xffU) | (wqe->wr.wr.mw.rkey & 0xff));
unlock:
	spin_unlock_irqrestore(&mw->lock, flags);
out:
	if (mr)
		uet_mr_put(mr);
	uet_mw_put(mw);
	return err;
}

/* LOCAL_INV (@remote false), or SEND_WITH_INV arriving, of a window's
 * key. Remotely, a type 2B window is invalidated only through the QP it
 * is bound to, the one QP whose peer could use it (IBA 10.6.7.2.4); rxe
 * does not ask.
 */
int uet_mw_invalidate(struct uet_qp *qp, u32 rkey, bool remote)
{
	unsigned long flags;
	struct uet_mw *mw;
	int err = -EINVAL;

	mw = uet_mw_get(qp->udev, rkey);
	if (!mw)
		return -EINVAL;
	spin_lock_irqsave(&mw->lock, flags);
	if (mw->rkey == rkey && mw->ibmw.pd == qp->ibqp.pd &&
	    (!remote || mw->owner == qp->mw_owner))
		err = uet_mw_inv_check(mw->ibmw.type, mw->mr);
	if (!err)
		uet_mw_unbind(mw);
	spin_unlock_irqrestore(&mw->lock, flags);
	uet_mw_put(mw);
	return err;
}

/* The region of a window for a remote access by @qp, with a reference;
 * NULL if the access is not allowed. A type 2 window serves only the QP
 * that bound it (IBA 10.6.7.2.4).
 */
static struct uet_mr *uet_mw_rkey_get(struct uet_qp *qp, u32 rkey, int access,
				      u64 va, u64 len, u64 *iova)
{
	struct uet_mr *mr = NULL;
	unsigned long flags;
	struct uet_mw *mw;

	mw = uet_mw_get(qp->udev, rkey);
	if (!mw)
		return NULL;
	spin_lock_irqsave(&mw->lock, flags);
	if (mw->rkey == rkey && mw->mr && mw->ibmw.pd == qp->ibqp.pd &&
	    (mw->ibmw.type == IB_MW_TYPE_1 ||
	     (qp->mw_owner && mw->owner == qp->mw_owner)) &&
	    !uet_mw_access_check(mw->access, mw->addr, mw->length, access, va,
				 len, iova)) {
		mr = mw->mr;
		refcount_inc(&mr->ref);
	}
	spin_unlock_irqrestore(&mw->lock, flags);
	uet_mw_put(mw);
	return mr;
}

/**
 * uet_rkey_get() - the region a remote access by a QP reaches
 * @qp: the responder's QP
 * @rkey: the key the request carries: a region's or a window's
 * @access: the one remote right the request needs
 * @va: its first address, as the requester gave it
 * @len: its length
 * @iova: out: the region address @va stands for
 *
 * Return: the region, with a reference (uet_mr_put()), or NULL if the
 * access is not allowed.
 */
struct uet_mr *uet_rkey_get(struct uet_qp *qp, u32 rkey, int access, u64 va,
			    u64 len, u64 *iova)
{
	struct uet_mr *mr;

	if (uet_key_is_mw(rkey))
		return uet_mw_rkey_get(qp, rkey, access, va, len, iova);
	mr = uet_mr_get(qp->udev, rkey, true);
	if (!mr)
		return NULL;
	if (uet_mr_check(mr, qp->ibqp.pd, access, va, len)) {
		uet_mr_put(mr);
		return NULL;
	}
	*iova = va;
	return mr;
}
