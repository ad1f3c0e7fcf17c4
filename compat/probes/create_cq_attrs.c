// SPDX-License-Identifier: GPL-2.0
/* ib_device_ops.create_cq takes the uverbs attribute bundle, not
 * the driver's udata.
 */
#include <rdma/ib_verbs.h>

static int uet_probe(struct ib_cq *cq, const struct ib_cq_init_attr *attr,
		     struct uverbs_attr_bundle *attrs)
{
	return 0;
}

const struct ib_device_ops uet_probe_ops = { .create_cq = uet_probe };
