// SPDX-License-Identifier: GPL-2.0
/* ib_device_ops.create_user_cq and .resize_user_cq: user CQs are
 * made and resized through ops of their own.
 */
#include <rdma/ib_verbs.h>

static int uet_probe_create(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
			    struct uverbs_attr_bundle *attrs)
{
	return 0;
}

static int uet_probe_resize(struct ib_cq *cq, unsigned int cqe,
			    struct ib_udata *udata)
{
	return 0;
}

const struct ib_device_ops uet_probe_ops = {
	.create_user_cq = uet_probe_create,
	.resize_user_cq = uet_probe_resize,
};
