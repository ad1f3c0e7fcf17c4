// SPDX-License-Identifier: GPL-2.0
/*
 * The verbs whose ib_device_ops form differs between the kernels uet
 * builds on (compat/uet_compat.h, probed): each entry here gives ib_core
 * the form its kernel calls and passes on to uet's own, which keeps one
 * form everywhere. uet_dev_add() sets these after uet_dev_ops.
 */
#include <rdma/uverbs_ioctl.h>

#include "uet.h"
#include "uet_compat_verbs.h"

#ifdef HAVE_CREATE_CQ_ATTRS
/* ib_core makes kernel CQs with no attribute bundle. */
static int uet_compat_create_cq(struct ib_cq *ibcq,
				const struct ib_cq_init_attr *attr,
				struct uverbs_attr_bundle *attrs)
{
	return uet_create_cq(ibcq, attr, attrs ? &attrs->driver_udata : NULL);
}
#else
#define uet_compat_create_cq uet_create_cq
#endif

#ifdef HAVE_CREATE_USER_CQ
static int uet_compat_resize_cq(struct ib_cq *ibcq, unsigned int cqe,
				struct ib_udata *udata)
{
	return uet_resize_cq(ibcq, cqe, udata);
}
#endif

#ifdef HAVE_REG_USER_MR_DMAH
/* A DMA handle asks for placement a software device cannot give, as in
 * rdma_rxe.
 */
static struct ib_mr *uet_compat_reg_user_mr(struct ib_pd *ibpd, u64 start,
					    u64 length, u64 iova, int access,
					    struct ib_dmah *dmah,
					    struct ib_udata *udata)
{
	if (dmah)
		return ERR_PTR(-EOPNOTSUPP);
	return uet_reg_user_mr(ibpd, start, length, iova, access, udata);
}
#else
#define uet_compat_reg_user_mr uet_reg_user_mr
#endif

const struct ib_device_ops uet_compat_dev_ops = {
	.create_cq = uet_compat_create_cq,
#ifdef HAVE_CREATE_USER_CQ
	.create_user_cq = uet_compat_create_cq,
	.resize_user_cq = uet_compat_resize_cq,
#else
	.resize_cq = uet_resize_cq,
#endif
	.reg_user_mr = uet_compat_reg_user_mr,
};
