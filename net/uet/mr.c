// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: registration of user, DMA and fast-reg MRs, key lookup,
 * access and bounds checks, and the data movement (copies and atomics)
 * between packets or WQE buffers and registered memory.
 *
 * lkey == rkey == index << 8 | key byte, where index (1..UET_MAX_MR) locates
 * the MR in udev->mrs and the key byte is random, and for fast-reg MRs
 * chosen by the ULP at each registration.
 */
#include <linux/highmem.h>
#include <linux/net.h>
#include <linux/random.h>
#include <linux/skbuff.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>

#include "mr.h"
#include "uet.h"
#include "uet_compat_verbs.h"

static struct uet_mr *uet_mr_alloc(struct ib_pd *ibpd, enum uet_mr_type type)
{
	struct uet_mr *mr;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL_ACCOUNT);
	if (!mr)
		return NULL;
	mr->udev = to_udev(ibpd->device);
	mr->type = type;
	refcount_set(&mr->ref, 1);
	init_completion(&mr->free);
	spin_lock_init(&mr->lock);
	return mr;
}

static void uet_mr_free(struct uet_mr *mr)
{
	ib_umem_release(mr->umem);
	kvfree(mr->pages);
	kfree(mr->fast_addrs);
	kfree(mr->map_addrs);
	kfree_rcu(mr, rcu);
}

/* Give @mr its keys and make it visible to lookups. The index is reserved
 * first and the MR stored only once its keys and PD are set, so a lookup
 * never sees a half-initialised MR. The core sets ibmr.pd and ibmr.device
 * again after we return, to the same values.
 */
static int uet_mr_publish(struct uet_mr *mr, struct ib_pd *ibpd)
{
	struct xarray *mrs = &mr->udev->mrs;
	u32 index;
	int err;

	err = xa_alloc_cyclic(mrs, &index, NULL, XA_LIMIT(1, UET_MAX_MR),
			      &mr->udev->mr_next, GFP_KERNEL_ACCOUNT);
	if (err < 0)
		return err;
	mr->key = index << 8 | get_random_u8();
	mr->ibmr.lkey = mr->key;
	mr->ibmr.rkey = mr->key;
	mr->ibmr.device = ibpd->device;
	mr->ibmr.pd = ibpd;
	err = xa_err(xa_store(mrs, index, mr, GFP_KERNEL));
	if (err)
		xa_erase(mrs, index);
	return err;
}

struct ib_mr *uet_get_dma_mr(struct ib_pd *ibpd, int access)
{
	struct uet_mr *mr;
	int err;

	err = uet_mr_access_check(access);
	if (err)
		return ERR_PTR(err);
	mr = uet_mr_alloc(ibpd, UET_MR_DMA);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->access = access & UET_MR_ACCESS;
	mr->valid = true;
	err = uet_mr_publish(mr, ibpd);
	if (err) {
		uet_mr_free(mr);
		return ERR_PTR(err);
	}
	return &mr->ibmr;
}

struct ib_mr *uet_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata)
{
	struct sg_page_iter iter;
	struct ib_umem *umem;
	struct uet_mr *mr;
	size_t npages, n = 0;
	int err;

	err = uet_mr_access_check(access);
	if (err)
		return ERR_PTR(err);
	if (!length || length > UET_MAX_MR_SIZE || start + length < start ||
	    iova + length < iova)
		return ERR_PTR(-EINVAL);

	mr = uet_mr_alloc(ibpd, UET_MR_USER);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	umem = ib_umem_get_va(ibpd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto err_free;
	}
	mr->umem = umem;

	npages = ib_umem_num_pages(umem);
	mr->pages = kvcalloc(npages, sizeof(*mr->pages), GFP_KERNEL_ACCOUNT);
	if (!mr->pages) {
		err = -ENOMEM;
		goto err_free;
	}
	for_each_sgtable_page(&umem->sgt_append.sgt, &iter, 0) {
		if (n < npages)
			mr->pages[n] = sg_page_iter_page(&iter);
		n++;
	}
	/* The copy path indexes pages[] by offset >> PAGE_SHIFT. */
	if (n != npages) {
		err = -EFAULT;
		goto err_free;
	}

	mr->access = access & UET_MR_ACCESS;
	mr->iova = iova;
	mr->length = length;
	mr->offset = ib_umem_offset(umem);
	mr->page_shift = PAGE_SHIFT;
	mr->npages = npages;
	mr->valid = true;
	err = uet_mr_publish(mr, ibpd);
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	uet_mr_free(mr);
	return ERR_PTR(err);
}

struct ib_mr *uet_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg)
{
	struct uet_mr *mr;
	int err;

	if (type != IB_MR_TYPE_MEM_REG)
		return ERR_PTR(-EOPNOTSUPP);
	if (!max_num_sg || max_num_sg > UET_MAX_FAST_REG_PAGES)
		return ERR_PTR(-EINVAL);

	mr = uet_mr_alloc(ibpd, UET_MR_FAST);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->fast_addrs = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL_ACCOUNT);
	mr->map_addrs = kcalloc(max_num_sg, sizeof(u64), GFP_KERNEL_ACCOUNT);
	if (!mr->fast_addrs || !mr->map_addrs) {
		err = -ENOMEM;
		goto err_free;
	}
	mr->max_pages = max_num_sg;
	err = uet_mr_publish(mr, ibpd);
	if (err)
		goto err_free;
	return &mr->ibmr;

err_free:
	uet_mr_free(mr);
	return ERR_PTR(err);
}

static int uet_mr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct uet_mr *mr = to_umr(ibmr);

	if (mr->map_npages == mr->max_pages)
		return -ENOMEM;
	mr->map_addrs[mr->map_npages++] = addr;
	return 0;
}

/* Only stages the page list: like a HCA reading it from the REG_MR work
 * request, the registration in force changes when that WR executes, so a
 * ULP may map an MR whose LOCAL_INV is still queued.
 */
int uet_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset)
{
	struct uet_mr *mr = to_umr(ibmr);
	int n;

	if (mr->type != UET_MR_FAST || !is_power_of_2(ibmr->page_size))
		return -EINVAL;
	mr->map_npages = 0;
	n = ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, uet_mr_set_page);
	mr->map_shift = ilog2(ibmr->page_size);
	/* Taken now: a zero-based ULP rewrites ibmr.iova after mapping. */
	mr->map_offset = ibmr->iova & (ibmr->page_size - 1);
	return n;
}

int uet_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct uet_mr *mr = to_umr(ibmr);
	unsigned long flags;
	bool busy;

	/* IBA 10.6.7.2.6: not while windows are bound to it (rxe refuses
	 * too). Once dying, no bind takes it.
	 */
	spin_lock_irqsave(&mr->lock, flags);
	busy = mr->num_mw;
	if (!busy)
		mr->dying = true;
	spin_unlock_irqrestore(&mr->lock, flags);
	if (busy)
		return -EBUSY;

	/* Erasing both ends new lookups and frees the index. Reusing the index
	 * early is harmless: a stale pointer to this MR cannot gain a reference
	 * once ref reaches 0, and the cyclic allocator makes reuse distant.
	 */
	xa_erase(&mr->udev->mrs, mr->ibmr.lkey >> 8);
	uet_mr_put(mr);
	/* Packets being copied hold references: keep their memory until done. */
	wait_for_completion(&mr->free);
	uet_mr_free(mr);
	return 0;
}

static struct uet_mr *uet_mr_get_index(struct uet_dev *udev, u32 index)
{
	struct uet_mr *mr;

	rcu_read_lock();
	mr = xa_load(&udev->mrs, index);
	if (mr && !refcount_inc_not_zero(&mr->ref))
		mr = NULL;
	rcu_read_unlock();
	return mr;
}

/* An MR granting no remote right has no rkey, as if it were 0 on a HCA:
 * remote lookups of it fail exactly like lookups of a key that is not there.
 */
struct uet_mr *uet_mr_get(struct uet_dev *udev, u32 key, bool remote)
{
	struct uet_mr *mr;

	mr = uet_mr_get_index(udev, key >> 8);
	if (!mr)
		return NULL;
	if (READ_ONCE(mr->key) != key ||
	    (remote && !(READ_ONCE(mr->access) &
			 (UET_MR_REMOTE | UET_MR_FLUSH)))) {
		uet_mr_put(mr);
		return NULL;
	}
	return mr;
}

void uet_mr_put(struct uet_mr *mr)
{
	if (refcount_dec_and_test(&mr->ref))
		complete(&mr->free);
}

static bool uet_mr_in_bounds(struct uet_mr *mr, u64 iova, u64 length)
{
	if (mr->type == UET_MR_DMA)
		return uet_mr_span_ok(iova, length);
	return uet_mr_range_ok(mr->iova, mr->length, iova, length);
}

/* Fast-reg MRs: called under mr->lock. */
static int __uet_mr_check(struct uet_mr *mr, int access, u64 iova,
			  u64 length)
{
	if (!mr->valid || (access & ~mr->access))
		return -EACCES;
	return uet_mr_in_bounds(mr, iova, length) ? 0 : -EFAULT;
}

int uet_mr_check(struct uet_mr *mr, struct ib_pd *pd, int access, u64 iova,
		 u64 length)
{
	unsigned long flags;
	int err;

	if (mr->ibmr.pd != pd)
		return -EACCES;
	if (mr->type != UET_MR_FAST)
		return __uet_mr_check(mr, access, iova, length);
	spin_lock_irqsave(&mr->lock, flags);
	err = __uet_mr_check(mr, access, iova, length);
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

/* A FLUSH of the whole region (IB_FLUSH_MR) names no range: the region
 * must be valid, of @pd, and grant @access, wherever it lies.
 */
int uet_mr_check_whole(struct uet_mr *mr, struct ib_pd *pd, int access)
{
	unsigned long flags;
	int err;

	if (mr->ibmr.pd != pd)
		return -EACCES;
	if (mr->type != UET_MR_FAST)
		return __uet_mr_check(mr, access, mr->iova, 0);
	spin_lock_irqsave(&mr->lock, flags);
	err = __uet_mr_check(mr, access, mr->iova, 0);
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

/* Called on each virtually contiguous piece of an MR range: @va is where
 * byte @done of the range lives, @len bytes are contiguous there. For a
 * user MR the piece lies in the pinned @page; for kernel memory (DMA and
 * fast-reg MRs, whose addresses are kernel virtual ones) @page is NULL.
 */
typedef int (*uet_mr_chunk_fn)(struct page *page, void *va, u32 done,
			       u32 len, void *arg);

/* Fast-reg MRs: called under mr->lock. */
static int __uet_mr_walk(struct uet_mr *mr, u64 iova, u32 length,
			 uet_mr_chunk_fn fn, void *arg)
{
	u64 off, idx, pgoff;
	u32 done, len;
	void *va;
	int err;

	if (!mr->valid || !uet_mr_in_bounds(mr, iova, length))
		return -EFAULT;
	if (mr->type == UET_MR_DMA)
		return fn(NULL, (void *)(uintptr_t)iova, 0, length, arg);

	off = iova - mr->iova + mr->offset;
	for (done = 0; done < length; done += len, off += len) {
		idx = off >> mr->page_shift;
		/* A ULP's iova and length need not match its page list. */
		if (idx >= mr->npages)
			return -EFAULT;
		pgoff = off & ((1ULL << mr->page_shift) - 1);
		len = uet_mr_chunk_len(off, mr->page_shift, length - done);
		if (mr->type == UET_MR_USER) {
			va = kmap_local_page(mr->pages[idx]);
			err = fn(mr->pages[idx], va + pgoff, done, len, arg);
			kunmap_local(va);
		} else {
			va = (void *)(uintptr_t)(mr->fast_addrs[idx] + pgoff);
			err = fn(NULL, va, done, len, arg);
		}
		if (err)
			return err;
	}
	return 0;
}

/* A fast-reg MR keeps its lock across the whole walk so that a REG_MR or
 * invalidation racing with the walk cannot hand it a mix of two page lists.
 */
static int uet_mr_walk(struct uet_mr *mr, u64 iova, u32 length,
		       uet_mr_chunk_fn fn, void *arg)
{
	unsigned long flags;
	int err;

	if (mr->type != UET_MR_FAST)
		return __uet_mr_walk(mr, iova, length, fn, arg);
	spin_lock_irqsave(&mr->lock, flags);
	err = __uet_mr_walk(mr, iova, length, fn, arg);
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

struct uet_copy_arg {
	void *buf;
	enum uet_copy_dir dir;
};

static int uet_copy_chunk(struct page *page, void *va, u32 done, u32 len,
			  void *arg)
{
	struct uet_copy_arg *c = arg;

	if (c->dir == UET_COPY_TO_MR)
		memcpy(va, c->buf + done, len);
	else
		memcpy(c->buf + done, va, len);
	return 0;
}

int uet_mr_copy(struct uet_mr *mr, u64 iova, void *buf, u32 length,
		enum uet_copy_dir dir)
{
	struct uet_copy_arg c = { .buf = buf, .dir = dir };

	return uet_mr_walk(mr, iova, length, uet_copy_chunk, &c);
}

struct uet_skb_arg {
	const struct sk_buff *skb;
	int offset;
};

static int uet_skb_chunk(struct page *page, void *va, u32 done, u32 len,
			 void *arg)
{
	struct uet_skb_arg *s = arg;

	return skb_copy_bits(s->skb, s->offset + done, va, len);
}

int uet_mr_copy_skb(struct uet_mr *mr, u64 iova, const struct sk_buff *skb,
		    int offset, u32 length)
{
	struct uet_skb_arg s = { .skb = skb, .offset = offset };

	/* skb_copy_bits() would read before the data for a negative offset. */
	if (offset < 0 || offset > skb->len || length > skb->len - offset)
		return -EFAULT;
	return uet_mr_walk(mr, iova, length, uet_skb_chunk, &s);
}

/* Lending: a packet's payload taken by reference from the MR rather than
 * copied (MSG_ZEROCOPY-style, with no notification: the requester keeps
 * every packet of a WQE until the peer acknowledges it, and completes the
 * WQE only then, so the consumer does not reuse the buffer while a packet
 * may still be read). Each fragment holds a page reference, so a page
 * stays allocated as long as a packet or a copy of it in a queue points
 * at it, even if the MR is deregistered meanwhile.
 */
struct uet_lend_arg {
	struct sk_buff *skb;
	struct page_frag_cache *pfc;
};

/* Add len bytes at off in page to skb, joining the last fragment where
 * they continue it (consecutive SGEs in one page).
 */
static int uet_lend_page(struct sk_buff *skb, struct page *page, u32 off,
			 u32 len)
{
	struct skb_shared_info *si = skb_shinfo(skb);
	int i = si->nr_frags;

	if (i && skb_can_coalesce(skb, i, page, off)) {
		skb_frag_size_add(&si->frags[i - 1], len);
	} else {
		if (i == MAX_SKB_FRAGS)
			return -EMSGSIZE;
		get_page(page);
		skb_fill_page_desc(skb, i, page, off, len);
	}
	si->flags |= SKBFL_SHARED_FRAG;
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	return 0;
}

/* Kernel memory is lent only where the stack may hold a page reference
 * (sendpage_ok(): not slab, not a page with no count of its own, as a
 * tail of a non-compound allocation); the rest is copied into a
 * fragment of the packet's own.
 */
static int uet_lend_kernel(struct uet_lend_arg *a, void *va, u32 len)
{
	struct page *page;
	void *buf;

	if (virt_addr_valid(va)) {
		page = virt_to_page(va);
		if (sendpage_ok(page))
			return uet_lend_page(a->skb, page, offset_in_page(va),
					     len);
	}
	if (skb_shinfo(a->skb)->nr_frags == MAX_SKB_FRAGS)
		return -EMSGSIZE;
	buf = page_frag_alloc(a->pfc, len, GFP_ATOMIC);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, va, len);
	page = virt_to_head_page(buf);
	skb_fill_page_desc(a->skb, skb_shinfo(a->skb)->nr_frags, page,
			   buf - page_address(page), len);
	a->skb->len += len;
	a->skb->data_len += len;
	a->skb->truesize += len;
	return 0;
}

static int uet_lend_chunk(struct page *page, void *va, u32 done, u32 len,
			  void *arg)
{
	struct uet_lend_arg *a = arg;
	u32 n;
	int err;

	/* A user MR's piece lies within its one pinned page. */
	if (page)
		return uet_lend_page(a->skb, page, offset_in_page(va), len);
	for (; len; len -= n, va += n) {
		n = min_t(u32, len, PAGE_SIZE - offset_in_page(va));
		err = uet_lend_kernel(a, va, n);
		if (err)
			return err;
	}
	return 0;
}

int uet_mr_lend(struct uet_mr *mr, u64 iova, u32 length, struct sk_buff *skb,
		struct page_frag_cache *pfc)
{
	struct uet_lend_arg a = { .skb = skb, .pfc = pfc };

	return uet_mr_walk(mr, iova, length, uet_lend_chunk, &a);
}

struct uet_atomic_arg {
	enum uet_atomic_op op;
	u64 value;
	u64 swap;
	u64 orig;
};

/* A locked read-modify-write of the word itself rather than a device lock:
 * atomic against our other atomics, as IB requires, and also against CPU
 * atomics of the MR's owner on the same word.
 */
static int uet_atomic_chunk(struct page *page, void *va, u32 done, u32 len,
			    void *arg)
{
	struct uet_atomic_arg *a = arg;
	u64 *word = va;
	u64 old;

	/* A fast-reg iova need not share the alignment of its pages. */
	if (len != sizeof(u64) || !IS_ALIGNED((uintptr_t)va, sizeof(u64)))
		return -EINVAL;
	switch (a->op) {
	case UET_ATOMIC_CMP_SWAP:
		a->orig = cmpxchg64(word, a->value, a->swap);
		break;
	case UET_ATOMIC_FETCH_ADD:
		old = READ_ONCE(*word);
		while (!try_cmpxchg64(word, &old, old + a->value))
			;
		a->orig = old;
		break;
	case UET_ATOMIC_WRITE:
		WRITE_ONCE(*word, a->value);
		break;
	}
	return 0;
}

/* orig may be NULL for UET_ATOMIC_WRITE, which has no original value. */
int uet_mr_atomic(struct uet_mr *mr, u64 iova, enum uet_atomic_op op,
		  u64 value, u64 swap, u64 *orig)
{
	struct uet_atomic_arg a = {
		.op = op,
		.value = value,
		.swap = swap,
	};
	int err;

	if (!IS_ALIGNED(iova, sizeof(u64)))
		return -EINVAL;
	err = uet_mr_walk(mr, iova, sizeof(u64), uet_atomic_chunk, &a);
	if (!err && orig)
		*orig = a.orig;
	return err;
}

/* The MR is found by the index of the new key; wr->mr is only compared with
 * it, so a WR carrying a bogus MR pointer is refused, never dereferenced.
 */
int uet_mr_fast_reg(struct uet_dev *udev, struct ib_pd *pd,
		    const struct ib_reg_wr *wr)
{
	unsigned long flags;
	struct uet_mr *mr;
	int err;

	err = uet_mr_access_check(wr->access);
	if (err)
		return err;
	mr = uet_mr_get_index(udev, wr->key >> 8);
	if (!mr)
		return -EINVAL;
	if (&mr->ibmr != wr->mr || mr->type != UET_MR_FAST ||
	    mr->ibmr.pd != pd) {
		err = -EINVAL;
		goto out;
	}

	spin_lock_irqsave(&mr->lock, flags);
	memcpy(mr->fast_addrs, mr->map_addrs,
	       array_size(mr->map_npages, sizeof(u64)));
	mr->npages = mr->map_npages;
	mr->offset = mr->map_offset;
	mr->page_shift = mr->map_shift;
	mr->iova = mr->ibmr.iova;
	mr->length = mr->ibmr.length;
	WRITE_ONCE(mr->access, wr->access & UET_MR_ACCESS);
	WRITE_ONCE(mr->key, wr->key);
	mr->valid = true;
	spin_unlock_irqrestore(&mr->lock, flags);
out:
	uet_mr_put(mr);
	return err;
}

/* Invalidating an MR that is already invalid is allowed, as on a HCA. */
int uet_mr_invalidate(struct uet_dev *udev, struct ib_pd *pd, u32 key)
{
	unsigned long flags;
	struct uet_mr *mr;
	int err = -EINVAL;

	mr = uet_mr_get(udev, key, false);
	if (!mr)
		return -EINVAL;
	if (mr->type == UET_MR_FAST && mr->ibmr.pd == pd) {
		spin_lock_irqsave(&mr->lock, flags);
		/* Nor while windows are bound to it, as rxe. */
		if (mr->key == key && !mr->num_mw) {
			mr->valid = false;
			err = 0;
		}
		spin_unlock_irqrestore(&mr->lock, flags);
	}
	uet_mr_put(mr);
	return err;
}

/* A window is bound to @mr (the caller holds a lookup reference): it
 * takes a reference of its own. -EINVAL once deregistration began.
 */
int uet_mr_mw_get(struct uet_mr *mr)
{
	unsigned long flags;
	int err = -EINVAL;

	spin_lock_irqsave(&mr->lock, flags);
	if (!mr->dying) {
		mr->num_mw++;
		refcount_inc(&mr->ref);
		err = 0;
	}
	spin_unlock_irqrestore(&mr->lock, flags);
	return err;
}

void uet_mr_mw_put(struct uet_mr *mr)
{
	unsigned long flags;

	spin_lock_irqsave(&mr->lock, flags);
	mr->num_mw--;
	spin_unlock_irqrestore(&mr->lock, flags);
	uet_mr_put(mr);
}
