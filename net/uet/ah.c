// SPDX-License-Identifier: GPL-2.0
/*
 * Address handles: where a UD or GSI send goes (ud.c turns the AH of each
 * WR into the addresses of its datagram). RC QPs take theirs from
 * modify_qp instead; user AHs are checked the same way, for consumers
 * that create them (ibv_create_ah).
 */
#include <rdma/rdma_user_rxe.h>

#include "uet.h"
#include "udp.h"

int uet_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		  struct ib_udata *udata)
{
	struct uet_ah *ah = to_uah(ibah);
	struct uet_addrs addrs;
	int err;

	err = uet_addrs_from_ah(to_udev(ibah->device), init_attr->ah_attr,
				UET_DEST_ANY, &addrs);
	if (err)
		return err;
	if (udata) {
		/* ah_num 0: the provider keeps its own copy of the address. */
		struct rxe_create_ah_resp resp = {};

		if (udata->outlen < sizeof(resp))
			return -EINVAL;
		err = ib_copy_to_udata(udata, &resp, sizeof(resp));
		if (err)
			return err;
	}
	ah->attr = *init_attr->ah_attr;
	return 0;
}

int uet_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	*attr = to_uah(ibah)->attr;
	attr->grh.sgid_attr = NULL;
	return 0;
}

int uet_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	return 0;
}
