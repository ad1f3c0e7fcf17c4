// SPDX-License-Identifier: GPL-2.0
/*
 * ring_charge: the rings a process shares with the device are charged to
 * its memory cgroup, and given back when they are destroyed. Without the
 * charge, a user held to a memory.max could still make the kernel
 * allocate 256 MiB per CQ.
 *
 *   ring_charge DEV COUNT MEMORY_CURRENT
 *
 * Creates COUNT CQs of the largest size DEV offers and reads
 * MEMORY_CURRENT, the memory.current file of the cgroup v2 it runs in,
 * before, with them, and after destroying them. Every CQE takes at least a struct ib_uverbs_wc
 * in the ring, so the charge must grow by at least that much per entry.
 * Exits 0 if it did and went back, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

#include "verbs_util.h"

#define die vu_die

#define MAX_CQS		64

static long long memory_current(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%lld", &v) != 1)
		die("cannot read memory.current");
	fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	struct ibv_cq *cq[MAX_CQS];
	struct ibv_device_attr da;
	struct ibv_context *ctx;
	long long before, with, after, ring_min = 0;
	int count, failures = 0, i;
	char what[160];

	if (argc != 4)
		die("usage: ring_charge DEV COUNT MEMORY_CURRENT");
	count = atoi(argv[2]);
	if (count < 1 || count > MAX_CQS)
		die("COUNT: 1 to 64");
	ctx = vu_open(argv[1]);
	if (ibv_query_device(ctx, &da))
		die("ibv_query_device");

	before = memory_current(argv[3]);
	for (i = 0; i < count; i++) {
		cq[i] = ibv_create_cq(ctx, da.max_cqe, NULL, NULL, 0);
		if (!cq[i])
			die("ibv_create_cq");
		ring_min += (long long)(cq[i]->cqe + 1) *
			    sizeof(struct ib_uverbs_wc);
	}
	with = memory_current(argv[3]);
	for (i = 0; i < count; i++)
		if (ibv_destroy_cq(cq[i]))
			die("ibv_destroy_cq");
	after = memory_current(argv[3]);

	printf("%d CQs of %d entries: rings of at least %lld KiB; charged %+lld KiB, after destroy %+lld KiB\n",
	       count, da.max_cqe, ring_min >> 10, (with - before) >> 10,
	       (after - before) >> 10);
	snprintf(what, sizeof(what),
		 "memory.current grew by the rings (%lld KiB >= %lld KiB)",
		 (with - before) >> 10, ring_min >> 10);
	vu_check(&failures, with - before >= ring_min, what);
	/* Other allocations of the process may stay: an eighth of slack. */
	snprintf(what, sizeof(what),
		 "destroying them gave it back (%+lld KiB <= %lld KiB)",
		 (after - before) >> 10, (ring_min / 8) >> 10);
	vu_check(&failures, after - before <= ring_min / 8, what);
	ibv_close_device(ctx);
	return failures ? 1 : 0;
}
