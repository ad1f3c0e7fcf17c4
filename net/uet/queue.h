/* SPDX-License-Identifier: GPL-2.0 */
/* Work and completion rings in the layout of the rdma-core rxe provider
 * (struct rxe_queue_buf): a 384-byte header with the producer index at
 * byte 128 and the consumer index at byte 256, then 2^n slots of a
 * power-of-two element size. One slot always stays empty.
 *
 * A user ring is shared with the process through mmap; its index written
 * by userspace is untrusted and always masked. The kernel never reads
 * the header copies of log2_elem_size/index_mask, only its own.
 */
#ifndef _UET_QUEUE_H
#define _UET_QUEUE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

struct uet_dev;
struct uet_mmap_info;

/* FROM_CLIENT: the consumer of the work (SQ, RQ, SRQ) produces, the
 * driver consumes. TO_CLIENT: the driver produces (CQ), the consumer
 * consumes. "Client" is userspace for user objects and the kernel ULP
 * (ib_post_send/ib_poll_cq) for kernel objects.
 */
enum uet_queue_type {
	UET_QUEUE_FROM_CLIENT,
	UET_QUEUE_TO_CLIENT,
};

struct uet_queue {
	struct rxe_queue_buf *buf;	/* vmalloc()'d, header + slots */
	size_t buf_size;
	unsigned int log2_elem_size;
	u32 index_mask;			/* slots - 1 */
	/* Private copy of the index the driver owns: the consumer index for
	 * FROM_CLIENT, the producer index for TO_CLIENT. Published to
	 * buf with smp_store_release().
	 */
	u32 index;
	enum uet_queue_type type;
	struct uet_mmap_info *ip;	/* NULL for a kernel ring */
};

int uet_queue_init(struct uet_queue *q, unsigned int *num_elem,
		   unsigned int elem_size, enum uet_queue_type type);
void uet_queue_cleanup(struct uet_queue *q);
int uet_queue_mmap_out(struct uet_dev *udev, struct uet_queue *q,
		       struct ib_udata *udata, struct mminfo __user *out);
int uet_queue_resize(struct uet_dev *udev, struct uet_queue *q,
		     unsigned int *num_elem, unsigned int elem_size,
		     struct ib_udata *udata, struct mminfo __user *out,
		     spinlock_t *lock);	/* held only around the copy and swap */

static inline u32 uet_queue_slots(const struct uet_queue *q)
{
	return q->index_mask + 1;
}

static inline void *uet_queue_addr(const struct uet_queue *q, u32 index)
{
	return q->buf->data + ((index & q->index_mask) << q->log2_elem_size);
}

/* Driver side of a FROM_CLIENT ring. */
static inline u32 uet_queue_count(const struct uet_queue *q)
{
	/* Entries before prod are fully written once we see it. */
	u32 prod = smp_load_acquire(&q->buf->producer_index);

	return (prod - q->index) & q->index_mask;
}

static inline void *uet_queue_consumer_addr(const struct uet_queue *q)
{
	return uet_queue_addr(q, q->index);
}

/* The k-th unconsumed element, or NULL if fewer than k + 1 are posted. */
static inline void *uet_queue_peek(const struct uet_queue *q, u32 k)
{
	if (k >= uet_queue_count(q))
		return NULL;
	return uet_queue_addr(q, q->index + k);
}

static inline void uet_queue_advance_consumer(struct uet_queue *q)
{
	q->index = (q->index + 1) & q->index_mask;
	/* The slot was read before the client may refill it. */
	smp_store_release(&q->buf->consumer_index, q->index);
}

/* Driver side of a TO_CLIENT ring. */
static inline u32 uet_queue_to_client_count(const struct uet_queue *q)
{
	/* Slots before cons are no longer read by the client. */
	u32 cons = smp_load_acquire(&q->buf->consumer_index);

	return (q->index - cons) & q->index_mask;
}

static inline bool uet_queue_full(const struct uet_queue *q)
{
	/* Slots before cons are no longer read by the client. */
	u32 cons = smp_load_acquire(&q->buf->consumer_index);

	return ((q->index + 1 - cons) & q->index_mask) == 0;
}

static inline void *uet_queue_producer_addr(const struct uet_queue *q)
{
	return uet_queue_addr(q, q->index);
}

static inline void uet_queue_advance_producer(struct uet_queue *q)
{
	q->index = (q->index + 1) & q->index_mask;
	/* The entry is fully written before the client can see it. */
	smp_store_release(&q->buf->producer_index, q->index);
}

/* Client side, used only for kernel rings, where the kernel ULP is the
 * client. The client's index lives in the header and is trusted there.
 */
static inline bool uet_queue_client_full(const struct uet_queue *q)
{
	u32 prod = q->buf->producer_index;
	/* Slots before cons are no longer read by the driver. */
	u32 cons = smp_load_acquire(&q->buf->consumer_index);

	return ((prod + 1 - cons) & q->index_mask) == 0;
}

static inline void *uet_queue_client_producer_addr(const struct uet_queue *q)
{
	return uet_queue_addr(q, q->buf->producer_index);
}

static inline void uet_queue_client_advance_producer(struct uet_queue *q)
{
	/* The entry is fully written before the driver can see it. */
	smp_store_release(&q->buf->producer_index,
			  (q->buf->producer_index + 1) & q->index_mask);
}

static inline bool uet_queue_client_empty(const struct uet_queue *q)
{
	/* Entries before prod are fully written once we see it. */
	u32 prod = smp_load_acquire(&q->buf->producer_index);

	return prod == q->buf->consumer_index;
}

static inline void *uet_queue_client_consumer_addr(const struct uet_queue *q)
{
	return uet_queue_addr(q, q->buf->consumer_index);
}

static inline void uet_queue_client_advance_consumer(struct uet_queue *q)
{
	/* The slot was read before the driver may refill it. */
	smp_store_release(&q->buf->consumer_index,
			  (q->buf->consumer_index + 1) & q->index_mask);
}

/* Drop everything the client posted (QP reset): the consumer catches up. */
static inline void uet_queue_discard(struct uet_queue *q)
{
	/* Pairs with the client's release of producer_index. */
	q->index = smp_load_acquire(&q->buf->producer_index) & q->index_mask;
	/* Hands every slot back to the client. */
	smp_store_release(&q->buf->consumer_index, q->index);
}

#endif /* _UET_QUEUE_H */
