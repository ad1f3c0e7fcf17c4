/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftests' verbs programs (verbs_bad_access, qp_lifecycle)
 * share: opening a device by name and creating an RC QP.
 */
#ifndef VERBS_UTIL_H
#define VERBS_UTIL_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

/* "PROGRAM: what" on stderr, and exit 1 (needs _GNU_SOURCE). */
static inline void vu_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, what);
	exit(1);
}

/* The RDMA device called name, opened; exits if there is none. */
static inline struct ibv_context *vu_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list)
		vu_die("ibv_get_device_list");
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		vu_die("cannot open the device");
	return ctx;
}

/* An RC QP with one SGE per WQE, both queues on cq, every send signaled;
 * NULL if it cannot be created.
 */
static inline struct ibv_qp *vu_rc_qp(struct ibv_pd *pd, struct ibv_cq *cq,
				      uint32_t depth)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
	};

	return ibv_create_qp(pd, &init);
}

#endif /* VERBS_UTIL_H */
