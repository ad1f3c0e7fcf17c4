// SPDX-License-Identifier: GPL-2.0
/* Completion queues: a TO_CLIENT ring that the transport fills and the
 * consumer drains, from shared memory (user CQs, struct ib_uverbs_wc
 * entries, as librxe reads them) or through poll_cq (kernel CQs,
 * struct ib_wc entries).
 */
#include <linux/bottom_half.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>
#include <rdma/ib_user_verbs.h>

#include "uet.h"

/* One slot fits either entry format. librxe refuses a CQ whose slots are
 * smaller than struct ib_uverbs_wc, which it copies out as struct ibv_wc.
 */
#define UET_CQE_SIZE	max(sizeof(struct ib_wc), sizeof(struct ib_uverbs_wc))
static_assert(sizeof(struct ib_uverbs_wc) == 48);

/* librxe copies a user entry out as struct ibv_wc unchanged, so its
 * wc_flags must be libibverbs' (enum ibv_wc_flags in rdma-core's
 * libibverbs/verbs.h), which no kernel header defines: there the
 * invalidate and checksum bits trade places with ib_verbs.h's. rdma_rxe
 * copies the kernel's bits, and its users read a remote invalidation as
 * IBV_WC_IP_CSUM_OK.
 */
#define UET_UWC_GRH		BIT(0)
#define UET_UWC_WITH_IMM	BIT(1)
#define UET_UWC_IP_CSUM_OK	BIT(2)
#define UET_UWC_WITH_INV	BIT(3)

/* Flags without a user meaning (SMAC, VLAN, network header type: the
 * kernel GSI QP's) are left out.
 */
static u32 uet_cq_user_flags(int flags)
{
	return (flags & IB_WC_GRH ? UET_UWC_GRH : 0) |
	       (flags & IB_WC_WITH_IMM ? UET_UWC_WITH_IMM : 0) |
	       (flags & IB_WC_IP_CSUM_OK ? UET_UWC_IP_CSUM_OK : 0) |
	       (flags & IB_WC_WITH_INVALIDATE ? UET_UWC_WITH_INV : 0);
}

int uet_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata)
{
	struct uet_dev *udev = to_udev(ibcq->device);
	struct uet_cq *cq = to_ucq(ibcq);
	struct rxe_create_cq_resp __user *uresp = NULL;
	unsigned int cqe = attr->cqe;
	int err;

	/* As rxe_create_cq: no creation flag is supported, and saying so
	 * (rather than EINVAL) lets ibv_create_cq_ex callers fall back.
	 */
	if (attr->flags)
		return -EOPNOTSUPP;
	if (cqe < 1 || cqe > UET_MAX_CQE)
		return -EINVAL;
	if (udata) {
		if (udata->outlen < sizeof(*uresp))
			return -EINVAL;
		uresp = udata->outbuf;
	}

	err = uet_queue_init(&cq->queue, &cqe, UET_CQE_SIZE,
			     UET_QUEUE_TO_CLIENT);
	if (err)
		return err;
	err = uet_queue_mmap_out(udev, &cq->queue, udata,
				 uresp ? &uresp->mi : NULL);
	if (err) {
		uet_queue_cleanup(&cq->queue);
		return err;
	}

	spin_lock_init(&cq->lock);
	cq->notify = 0;
	cq->is_user = !!udata;
	cq->dying = false;
	ibcq->cqe = cqe;
	return 0;
}

/* The core refuses to destroy a CQ that a QP still uses. */
int uet_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct uet_cq *cq = to_ucq(ibcq);
	unsigned long flags;

	spin_lock_irqsave(&cq->lock, flags);
	cq->dying = true;
	spin_unlock_irqrestore(&cq->lock, flags);

	uet_queue_cleanup(&cq->queue);
	return 0;
}

int uet_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct uet_cq *cq = to_ucq(ibcq);
	struct rxe_resize_cq_resp __user *uresp = NULL;
	unsigned int n = cqe;
	int err;

	if (cqe < 1 || cqe > UET_MAX_CQE)
		return -EINVAL;
	if (udata) {
		if (udata->outlen < sizeof(*uresp))
			return -EINVAL;
		uresp = udata->outbuf;
	}

	err = uet_queue_resize(to_udev(ibcq->device), &cq->queue, &n,
			       UET_CQE_SIZE, udata, uresp ? &uresp->mi : NULL,
			       &cq->lock);
	if (err)
		return err;
	ibcq->cqe = n;
	return 0;
}

/* Kernel CQs only. uverbs never polls (POLL_CQ is not in our command
 * mask); a user ring holds struct ib_uverbs_wc entries that userspace
 * can rewrite, which must never be read back as struct ib_wc.
 */
int uet_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct uet_cq *cq = to_ucq(ibcq);
	unsigned long flags;
	int i;

	if (cq->is_user)
		return -EINVAL;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = 0; i < num_entries; i++) {
		if (uet_queue_client_empty(&cq->queue))
			break;
		memcpy(&wc[i], uet_queue_client_consumer_addr(&cq->queue),
		       sizeof(*wc));
		uet_queue_client_advance_consumer(&cq->queue);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return i;
}

int uet_peek_cq(struct ib_cq *ibcq, int wc_cnt)
{
	struct uet_cq *cq = to_ucq(ibcq);
	unsigned long flags;
	u32 count;

	spin_lock_irqsave(&cq->lock, flags);
	count = uet_queue_to_client_count(&cq->queue);
	spin_unlock_irqrestore(&cq->lock, flags);
	return min_t(u32, count, max(wc_cnt, 0));
}

int uet_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct uet_cq *cq = to_ucq(ibcq);
	unsigned long irqflags;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqflags);
	/* An armed NEXT_COMP already covers solicited completions. */
	if (flags & IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_NEXT_COMP;
	else if ((flags & IB_CQ_SOLICITED) && cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = IB_CQ_SOLICITED;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    uet_queue_to_client_count(&cq->queue))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

static void uet_cq_write(struct uet_cq *cq, const struct ib_wc *wc)
{
	void *slot = uet_queue_producer_addr(&cq->queue);
	struct ib_uverbs_wc *uwc = slot;

	if (!cq->is_user) {
		memcpy(slot, wc, sizeof(*wc));
		return;
	}

	uwc->wr_id = wc->wr_id;
	uwc->status = wc->status;
	uwc->opcode = wc->opcode;
	uwc->vendor_err = wc->vendor_err;
	uwc->byte_len = wc->byte_len;
	uwc->ex.imm_data = wc->ex.imm_data;
	uwc->qp_num = wc->qp->qp_num;
	uwc->src_qp = wc->src_qp;
	uwc->wc_flags = uet_cq_user_flags(wc->wc_flags);
	uwc->pkey_index = wc->pkey_index;
	uwc->slid = wc->slid;
	uwc->sl = wc->sl;
	uwc->dlid_path_bits = wc->dlid_path_bits;
	uwc->port_num = wc->port_num;
	uwc->reserved = 0;
}

int uet_cq_post(struct uet_cq *cq, const struct ib_wc *wc, bool solicited)
{
	struct ib_cq *ibcq = &cq->ibcq;
	unsigned long flags;
	bool notify, first;

	spin_lock_irqsave(&cq->lock, flags);
	if (cq->dying) {
		spin_unlock_irqrestore(&cq->lock, flags);
		return -ESHUTDOWN;
	}
	/* An overrun puts the CQ in error for good, as IBA CQ overrun: it has
	 * lost completions, so its consumer must destroy it anyway. One
	 * event per CQ, as each is an atomic allocation of uverbs' that only
	 * reading it or destroying the CQ frees: a process that drains the
	 * CQ but never reads its events must not queue them without bound.
	 */
	if (cq->overflow || uet_queue_full(&cq->queue)) {
		first = !cq->overflow;
		cq->overflow = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first && ibcq->event_handler) {
			struct ib_event ev = {
				.device = ibcq->device,
				.element.cq = ibcq,
				.event = IB_EVENT_CQ_ERR,
			};

			ibcq->event_handler(&ev, ibcq->cq_context);
		}
		return -EOVERFLOW;
	}

	uet_cq_write(cq, wc);
	uet_queue_advance_producer(&cq->queue);

	/* Disarm under the lock so that one arming yields one callback. */
	notify = cq->notify == IB_CQ_NEXT_COMP ||
		 (cq->notify == IB_CQ_SOLICITED && solicited);
	if (notify)
		cq->notify = 0;
	spin_unlock_irqrestore(&cq->lock, flags);

	/* Outside the lock: the handler may re-arm or poll. With BHs off,
	 * as from rxe's tasklet, so that a softirq it raises (irq_poll CQs)
	 * runs at local_bh_enable() rather than at some later interrupt.
	 */
	if (notify && ibcq->comp_handler) {
		local_bh_disable();
		ibcq->comp_handler(ibcq, ibcq->cq_context);
		local_bh_enable();
	}
	return 0;
}
