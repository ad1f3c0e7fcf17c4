// SPDX-License-Identifier: GPL-2.0
/*
 * The one walker of scatter/gather lists, for the send side (gathering a
 * WQE's payload), the receive side (placing a SEND, a READ response, an
 * atomic's result) and UD alike: each SGE's region is looked up by its
 * lkey and checked against the QP's PD and the access asked before a
 * byte moves.
 */
#include "qp.h"

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
		if (!err && io->skb)
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
