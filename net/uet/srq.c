// SPDX-License-Identifier: GPL-2.0
/* Shared receive queues: a FROM_CLIENT ring of struct rxe_recv_wqe that
 * userspace (librxe, through shared memory) or a kernel ULP
 * (post_srq_recv) fills, and that QPs drain with uet_srq_take().
 */
#include <linux/atomic.h>
#include <linux/overflow.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "uet.h"

/* librxe only records it: the number matters for XRC SRQs, which we do
 * not offer, so a module-wide counter is enough.
 */
static atomic_t uet_srq_num = ATOMIC_INIT(0);

static unsigned int uet_srq_wqe_size(u32 max_sge)
{
	return sizeof(struct rxe_recv_wqe) + max_sge * sizeof(struct rxe_sge);
}

int uet_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata)
{
	struct uet_dev *udev = to_udev(ibsrq->device);
	struct uet_srq *srq = to_usrq(ibsrq);
	struct rxe_create_srq_resp __user *uresp = NULL;
	struct ib_srq_attr *attr = &init->attr;
	unsigned int max_wr = attr->max_wr;
	u32 srq_num;
	int err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (attr->max_wr < 1 || attr->max_wr > UET_MAX_QP_WR ||
	    attr->max_sge < 1 || attr->max_sge > UET_MAX_SGE)
		return -EINVAL;
	if (udata) {
		if (udata->outlen < sizeof(*uresp))
			return -EINVAL;
		uresp = udata->outbuf;
	}

	err = uet_queue_init(&srq->rq, &max_wr, uet_srq_wqe_size(attr->max_sge),
			     UET_QUEUE_FROM_CLIENT);
	if (err)
		return err;
	err = uet_queue_mmap_out(udev, &srq->rq, udata,
				 uresp ? &uresp->mi : NULL);
	if (err)
		goto err_cleanup;
	if (uresp) {
		srq_num = atomic_inc_return(&uet_srq_num);
		if (put_user(srq_num, &uresp->srq_num)) {
			err = -EFAULT;
			goto err_cleanup;
		}
	}

	spin_lock_init(&srq->lock);
	srq->max_sge = attr->max_sge;
	/* The limit is not an input of create: the SRQ starts disarmed. */
	srq->limit = 0;
	srq->is_user = !!udata;
	attr->max_wr = max_wr;
	return 0;

err_cleanup:
	uet_queue_cleanup(&srq->rq);
	return err;
}

int uet_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct uet_srq *srq = to_usrq(ibsrq);
	struct rxe_modify_srq_cmd ucmd = {};
	struct mminfo __user *mi = NULL;
	unsigned int max_wr;
	unsigned long flags;
	int err = 0;

	if (mask & ~(IB_SRQ_MAX_WR | IB_SRQ_LIMIT))
		return -EINVAL;

	if (mask & IB_SRQ_MAX_WR) {
		if (attr->max_wr < 1 || attr->max_wr > UET_MAX_QP_WR)
			return -EINVAL;
		/* An armed limit must stay below the new size. */
		if (attr->max_wr <= ((mask & IB_SRQ_LIMIT) ? attr->srq_limit :
				     READ_ONCE(srq->limit)))
			return -EINVAL;
		if (udata) {
			/* librxe passes where to write the new mminfo in the command. */
			if (udata->inlen < sizeof(ucmd))
				return -EINVAL;
			err = ib_copy_from_udata(&ucmd, udata, sizeof(ucmd));
			if (err)
				return err;
			mi = u64_to_user_ptr(ucmd.mmap_info_addr);
		}

		max_wr = attr->max_wr;
		err = uet_queue_resize(to_udev(ibsrq->device), &srq->rq, &max_wr,
				       uet_srq_wqe_size(srq->max_sge), udata, mi,
				       &srq->lock);
		if (err)
			return err;
		attr->max_wr = max_wr;
	}

	if (mask & IB_SRQ_LIMIT) {
		spin_lock_irqsave(&srq->lock, flags);
		if (attr->srq_limit < uet_queue_slots(&srq->rq) - 1) {
			srq->limit = attr->srq_limit;
			err = 0;
		} else {
			err = -EINVAL;
		}
		spin_unlock_irqrestore(&srq->lock, flags);
	}
	return err;
}

int uet_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct uet_srq *srq = to_usrq(ibsrq);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	attr->max_wr = uet_queue_slots(&srq->rq) - 1;
	attr->srq_limit = srq->limit;
	spin_unlock_irqrestore(&srq->lock, flags);
	attr->max_sge = srq->max_sge;
	return 0;
}

/* The core refuses to destroy an SRQ that a QP still uses. */
int uet_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	uet_queue_cleanup(&to_usrq(ibsrq)->rq);
	return 0;
}

static int uet_srq_post_one(struct uet_srq *srq, const struct ib_recv_wr *wr)
{
	struct rxe_recv_wqe *wqe;
	u32 length = 0;
	int i;

	if (wr->num_sge < 0 || (u32)wr->num_sge > srq->max_sge)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		if (check_add_overflow(length, wr->sg_list[i].length, &length))
			return -EINVAL;
	if (uet_queue_client_full(&srq->rq))
		return -ENOMEM;

	wqe = uet_queue_client_producer_addr(&srq->rq);
	wqe->wr_id = wr->wr_id;
	wqe->reserved = 0;
	wqe->padding = 0;
	wqe->dma.length = length;
	wqe->dma.resid = length;
	wqe->dma.cur_sge = 0;
	wqe->dma.num_sge = wr->num_sge;
	wqe->dma.sge_offset = 0;
	wqe->dma.reserved = 0;
	for (i = 0; i < wr->num_sge; i++) {
		wqe->dma.sge[i].addr = wr->sg_list[i].addr;
		wqe->dma.sge[i].length = wr->sg_list[i].length;
		wqe->dma.sge[i].lkey = wr->sg_list[i].lkey;
	}
	uet_queue_client_advance_producer(&srq->rq);
	return 0;
}

/* Kernel SRQs only: uverbs never posts (POST_SRQ_RECV is not in our
 * command mask), and the producer index of a user ring is userspace's.
 */
int uet_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr)
{
	struct uet_srq *srq = to_usrq(ibsrq);
	unsigned long flags;
	int err = 0;

	if (srq->is_user) {
		*bad_wr = wr;
		return -EINVAL;
	}

	spin_lock_irqsave(&srq->lock, flags);
	for (; wr; wr = wr->next) {
		err = uet_srq_post_one(srq, wr);
		if (err) {
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}

/* Take the oldest receive WQE into @dst. The ring may be shared with
 * userspace, so the entry is copied once and the copy is checked: num_sge
 * against the SRQ's max_sge and @dst_size, and length/resid/cur_sge/
 * sge_offset are recomputed from the SGEs rather than trusted. A
 * malformed entry is consumed all the same, so it cannot wedge the queue;
 * then -EINVAL, with dst->wr_id valid and dst->dma describing no buffer
 * (given dst_size >= sizeof(*dst)), so that the QP can complete it in error.
 */
int uet_srq_take(struct uet_srq *srq, struct rxe_recv_wqe *dst,
		 size_t dst_size)
{
	const struct rxe_recv_wqe *src;
	bool limit_reached = false;
	unsigned long flags;
	u32 num_sge, length = 0, i;
	int err = 0;

	spin_lock_irqsave(&srq->lock, flags);
	if (!uet_queue_count(&srq->rq)) {
		spin_unlock_irqrestore(&srq->lock, flags);
		return -ENOENT;
	}

	if (dst_size < sizeof(*dst)) {
		err = -EINVAL;
		goto consume;
	}
	src = uet_queue_consumer_addr(&srq->rq);
	memcpy(dst, src, sizeof(*dst));
	num_sge = dst->dma.num_sge;
	if (num_sge > srq->max_sge ||
	    num_sge > (dst_size - sizeof(*dst)) / sizeof(struct rxe_sge)) {
		err = -EINVAL;
		num_sge = 0;
	}
	memcpy(dst->dma.sge, src->dma.sge, num_sge * sizeof(struct rxe_sge));
	for (i = 0; i < num_sge; i++) {
		if (check_add_overflow(length, dst->dma.sge[i].length, &length)) {
			err = -EINVAL;
			num_sge = 0;
			length = 0;
			break;
		}
	}
	dst->dma.num_sge = num_sge;
	dst->dma.length = length;
	dst->dma.resid = length;
	dst->dma.cur_sge = 0;
	dst->dma.sge_offset = 0;

consume:
	uet_queue_advance_consumer(&srq->rq);
	if (srq->limit && uet_queue_count(&srq->rq) < srq->limit) {
		srq->limit = 0;
		limit_reached = true;
	}
	spin_unlock_irqrestore(&srq->lock, flags);

	if (limit_reached && srq->ibsrq.event_handler) {
		struct ib_event ev = {
			.device = srq->ibsrq.device,
			.element.srq = &srq->ibsrq,
			.event = IB_EVENT_SRQ_LIMIT_REACHED,
		};

		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
	}
	return err;
}
