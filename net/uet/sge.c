// SPDX-License-Identifier: GPL-2.0
/*
 * The one walker of scatter/gather lists, for the send side (gathering a
 * WQE's payload), the receive side (placing a SEND, a READ response, an
 * atomic's result) and UD alike: each SGE's region is looked up by its
 * lkey and checked against the QP's PD and the access asked before a
 * byte moves. Also where a kernel consumer's work request becomes the
 * payload part of a WQE, for every QP type.
 */
#include "qp.h"

/**
 * uet_sge_copy() - copy between an SGE list and a buffer or a packet, or
 * lend the list's pages to a packet
 * @qp: the QP whose PD the regions must belong to
 * @sge: the list
 * @num_sge: its entries
 * @offset: where in the list the copy starts, bytes
 * @len: bytes to copy
 * @access: what each region must allow (IB_ACCESS_*; 0 to read)
 * @io: the other side
 *
 * Return: 0; -EACCES for an unknown lkey, the region check's errno,
 * -EINVAL if the list holds fewer than @offset + @len bytes, or what
 * uet_mr_lend() returns.
 */
int uet_sge_copy(struct uet_qp *qp, const struct rxe_sge *sge, u32 num_sge,
		 u32 offset, u32 len, int access, const struct uet_sge_io *io)
{
	u32 i, chunk, done = 0;
	struct uet_mr *mr;
	u64 iova;
	int err;

	for (i = 0; i < num_sge && done < len; i++) {
		if (offset >= sge[i].length) {
			offset -= sge[i].length;
			continue;
		}
		chunk = min(len - done, sge[i].length - offset);
		iova = sge[i].addr + offset;
		mr = uet_mr_get(qp->udev, sge[i].lkey, false);
		if (!mr)
			return -EACCES;
		err = uet_mr_check(mr, qp->ibqp.pd, access, iova, chunk);
		if (!err && io->lend)
			err = uet_mr_lend(mr, iova, chunk, io->lend, io->pfc);
		else if (!err && io->skb)
			err = uet_mr_copy_skb(mr, iova, io->skb,
					      io->skb_off + done, chunk);
		else if (!err)
			err = uet_mr_copy(mr, iova, io->buf + done, chunk,
					  io->dir);
		uet_mr_put(mr);
		if (err)
			return err;
		done += chunk;
		offset = 0;
	}
	return done == len ? 0 : -EINVAL;
}

/* u64: the lengths of a user's list can add up past 4 GiB. */
u64 uet_sge_total(const struct rxe_sge *sge, u32 num_sge)
{
	u64 total = 0;
	u32 i;

	for (i = 0; i < num_sge; i++)
		total += sge[i].length;
	return total;
}

/**
 * uet_sge_from_wr() - a kernel consumer's payload into a WQE
 * @dma: the WQE's payload part
 * @sg: the work request's SGE list
 * @num_sge: its entries (the caller checked them against the QP's cap)
 * @copy: copy the data into @dma's inline data instead of the list
 * @max_inline: at most this many bytes copied
 *
 * Sets the lengths and the cursor too.
 *
 * Return: 0, or -EINVAL if the data to copy exceeds @max_inline.
 */
int uet_sge_from_wr(struct rxe_dma_info *dma, const struct ib_sge *sg,
		    int num_sge, bool copy, u32 max_inline)
{
	u64 length = 0;
	int i;

	for (i = 0; i < num_sge; i++) {
		if (copy) {
			if (sg[i].length > max_inline - length)
				return -EINVAL;
			memcpy(dma->inline_data + length,
			       (void *)(uintptr_t)sg[i].addr, sg[i].length);
		} else {
			dma->sge[i].addr = sg[i].addr;
			dma->sge[i].length = sg[i].length;
			dma->sge[i].lkey = sg[i].lkey;
		}
		length += sg[i].length;
	}
	dma->num_sge = copy ? 0 : num_sge;
	/* More than a u32 holds is more than a message may carry: the
	 * requester fails it by its SGEs' total (uet_sge_total()).
	 */
	dma->length = min_t(u64, length, U32_MAX);
	dma->resid = dma->length;
	dma->cur_sge = 0;
	dma->sge_offset = 0;
	return 0;
}
