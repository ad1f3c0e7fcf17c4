// SPDX-License-Identifier: GPL-2.0
/* Ring allocation, export to userspace and resizing for the rxe-layout
 * work and completion queues described in queue.h.
 */
#include <linux/cache.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "uet.h"

/* Largest ring any verb asks for: a CQ or a work queue at the device limit. */
#define UET_QUEUE_MAX_ELEM	max(UET_MAX_CQE, UET_MAX_QP_WR)
/* Caps what one create/resize verb can make the kernel allocate. */
#define UET_QUEUE_MAX_BYTES	SZ_256M

int uet_queue_init(struct uet_queue *q, unsigned int *num_elem,
		   unsigned int elem_size, enum uet_queue_type type)
{
	unsigned int slots;
	size_t buf_size;

	if (*num_elem > UET_QUEUE_MAX_ELEM || !elem_size ||
	    elem_size > UET_QUEUE_MAX_BYTES)
		return -EINVAL;

	elem_size = max_t(unsigned int, elem_size, cache_line_size());
	elem_size = roundup_pow_of_two(elem_size);
	/* No entries asked is one slot, index_mask 0: always full, never
	 * holding an entry, as rxe_queue_init() makes it.
	 */
	slots = roundup_pow_of_two(*num_elem + 1);
	/* Both factors are bounded above, so this cannot wrap on 64 bits. */
	buf_size = sizeof(struct rxe_queue_buf) + (size_t)slots * elem_size;
	if (buf_size > UET_QUEUE_MAX_BYTES)
		return -EINVAL;

	/* Charged to the creator's memory cgroup: a user can ask for many
	 * rings of up to 256 MiB each.
	 */
	q->buf = __vmalloc(buf_size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!q->buf)
		return -ENOMEM;
	q->buf_size = buf_size;
	q->log2_elem_size = ilog2(elem_size);
	q->index_mask = slots - 1;
	q->index = 0;
	q->type = type;
	q->ip = NULL;

	q->buf->log2_elem_size = q->log2_elem_size;
	q->buf->index_mask = q->index_mask;

	*num_elem = slots - 1;
	return 0;
}

/* From here on the mmap info owns the buffer, even if the export fails,
 * so that uet_queue_cleanup() frees it exactly once.
 */
int uet_queue_mmap_out(struct uet_dev *udev, struct uet_queue *q,
		       struct ib_udata *udata, struct mminfo __user *out)
{
	struct uet_mmap_info *ip;

	if (!udata)
		return 0;

	ip = uet_mmap_info_create(udev, q->buf_size, udata, q->buf);
	if (IS_ERR(ip))
		return PTR_ERR(ip);
	q->ip = ip;
	return uet_mmap_info_export(ip, out);
}

void uet_queue_cleanup(struct uet_queue *q)
{
	if (q->ip)
		uet_mmap_info_put(q->ip);
	else
		vfree(q->buf);
	q->ip = NULL;
	q->buf = NULL;
}

/* Entries produced and not yet consumed, seen from the driver's side. */
static u32 uet_queue_used(const struct uet_queue *q)
{
	if (q->type == UET_QUEUE_FROM_CLIENT)
		return uet_queue_count(q);
	return uet_queue_to_client_count(q);
}

/* Move the unconsumed entries of @q to the front of @nq. The client's
 * index comes from the shared header and may be anything: it is masked,
 * and at most index_mask entries are ever copied.
 */
static int uet_queue_move(struct uet_queue *q, struct uet_queue *nq)
{
	size_t len = 1UL << min(q->log2_elem_size, nq->log2_elem_size);
	u32 count = uet_queue_used(q);
	u32 first;
	u32 i;

	if (count > nq->index_mask)
		return -EINVAL;

	if (q->type == UET_QUEUE_FROM_CLIENT)
		first = q->index;
	else
		first = q->index - count;
	for (i = 0; i < count; i++)
		memcpy(uet_queue_addr(nq, i), uet_queue_addr(q, first + i), len);

	nq->buf->consumer_index = 0;
	nq->buf->producer_index = count;
	nq->index = q->type == UET_QUEUE_FROM_CLIENT ? 0 : count;
	return 0;
}

int uet_queue_resize(struct uet_dev *udev, struct uet_queue *q,
		     unsigned int *num_elem, unsigned int elem_size,
		     struct ib_udata *udata, struct mminfo __user *out,
		     spinlock_t *lock)
{
	unsigned int n = *num_elem;
	struct uet_queue nq;
	unsigned long flags;
	int err;

	err = uet_queue_init(&nq, &n, elem_size, q->type);
	if (err)
		return err;

	/* Export before the swap: copy_to_user() may fault and so cannot run
	 * under @lock, and a failure must leave the old ring in service. If
	 * the swap then fails, cleanup withdraws the pending offset.
	 */
	err = uet_queue_mmap_out(udev, &nq, udata, out);
	if (err)
		goto out;

	spin_lock_irqsave(lock, flags);
	err = uet_queue_move(q, &nq);
	if (!err)
		swap(*q, nq);
	spin_unlock_irqrestore(lock, flags);
	if (!err)
		*num_elem = n;
out:
	/* The old ring on success, the unused new one on failure. */
	uet_queue_cleanup(&nq);
	return err;
}
