// SPDX-License-Identifier: GPL-2.0
/*
 * payload_charge: the payload copies a process's QPs make are charged to
 * its memory cgroup, so memory.max bounds them. A WRITE whose SGEs are
 * too scattered for one packet's fragments is sent from a copy, kept
 * until the peer acknowledges it; aimed at a QP number nobody has, no
 * acknowledgment comes until the retries run out.
 *
 *   payload_charge DEV GID_INDEX QPS WRITES MEMORY_DIR
 *
 * QPS RC QPs of DEV, each connected through GID_INDEX to its own address
 * and a QPN that does not exist, post WRITES 64 KiB WRITEs each, every
 * one of 32 SGEs of 2 KiB that each straddle a page boundary. MEMORY_DIR
 * is the cgroup v2 directory the process runs in (its memory.max set by
 * the caller); the process leaves it for its parent once the QPs are
 * made. For 3 s the host's free memory (MemAvailable) and the
 * cgroup's memory.current are sampled; the host may lose at most
 * memory.max and a slack of 32 MiB (skb heads, uncharged by design) to
 * the copies. Exits 0 if it did not lose more, 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define MAX_QPS		64
#define NSGE		32
#define SGE_LEN		2048
#define PAGE		4096
#define SLACK		(32LL << 20)
#define BOGUS_QPN	0xfff0	/* QPNs are allocated from 16 up */

static long long cg_value(const char *dir, const char *file)
{
	char path[512];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		die("cannot read a cgroup file");
	fclose(f);
	return v;
}

static void leave_cgroup(const char *dir)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/../cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f || fprintf(f, "0\n") < 0 || fclose(f))
		die("cannot move to the parent cgroup");
}

int main(int argc, char **argv)
{
	struct ibv_qp *qp[MAX_QPS];
	struct ibv_sge sge[NSGE];
	struct ibv_context *ctx;
	union ibv_gid gid;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	long long avail0, avail_min, cur_max = 0, limit, lost;
	int nqp, writes, gid_index, i, j, failures = 0;
	struct timespec ts = { 0, 50 * 1000 * 1000 };
	size_t len = (size_t)NSGE * 2 * PAGE;
	char what[200];
	uint8_t *buf;

	if (argc != 6)
		die("usage: payload_charge DEV GID_INDEX QPS WRITES MEMORY_DIR");
	gid_index = atoi(argv[2]);
	nqp = atoi(argv[3]);
	writes = atoi(argv[4]);
	if (nqp < 1 || nqp > MAX_QPS || writes < 1)
		die("QPS: 1 to 64, WRITES: 1 or more");
	limit = cg_value(argv[5], "memory.max");
	ctx = vu_open(argv[1]);
	pd = ibv_alloc_pd(ctx);
	cq = ibv_create_cq(ctx, 4096, NULL, NULL, 0);
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!pd || !cq || buf == MAP_FAILED)
		die("PD, CQ or buffer");
	memset(buf, 0x5a, len);
	mr = ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE);
	if (!mr || ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_reg_mr or ibv_query_gid");
	/* Each SGE crosses into the next page: 64 fragments a packet. */
	for (i = 0; i < NSGE; i++) {
		sge[i].addr = (uintptr_t)buf + (size_t)i * 2 * PAGE + PAGE -
			      SGE_LEN / 2;
		sge[i].length = SGE_LEN;
		sge[i].lkey = mr->lkey;
	}

	for (i = 0; i < nqp; i++) {
		struct ibv_qp_init_attr init = {
			.send_cq = cq,
			.recv_cq = cq,
			.cap = { .max_send_wr = writes, .max_recv_wr = 1,
				 .max_send_sge = NSGE, .max_recv_sge = 1 },
			.qp_type = IBV_QPT_RC,
		};
		struct vu_conn c = vu_conn(BOGUS_QPN, &gid, gid_index, 0);

		/* Retries for some 30 s: the copies stay that long. */
		c.timeout = 20;
		qp[i] = ibv_create_qp(pd, &init);
		if (!qp[i] || vu_rc_connect(qp[i], &c))
			die("RC QP to a QPN nobody has");
	}

	avail0 = vu_file_value("/proc/meminfo", "MemAvailable:");
	for (i = 0; i < nqp; i++)
		for (j = 0; j < writes; j++) {
			struct ibv_send_wr wr = {
				.sg_list = sge,
				.num_sge = NSGE,
				.opcode = IBV_WR_RDMA_WRITE,
				.wr.rdma = { .remote_addr = 0x10000, .rkey = 1 },
			}, *bad;

			if (ibv_post_send(qp[i], &wr, &bad))
				die("ibv_post_send");
		}
	/* Out of the cgroup once its QPs are made, so that a full one has
	 * no process of ours to reclaim from or kill: the QPs stay charged
	 * to it, as the creator's.
	 */
	leave_cgroup(argv[5]);
	avail_min = avail0;
	for (i = 0; i < 60; i++) {
		long long a = vu_file_value("/proc/meminfo", "MemAvailable:");
		long long c = cg_value(argv[5], "memory.current");

		if (a < avail_min)
			avail_min = a;
		if (c > cur_max)
			cur_max = c;
		nanosleep(&ts, NULL);
	}
	lost = (avail0 - avail_min) << 10;
	printf("%d QPs x %d scattered 64 KiB WRITEs (%lld MiB of payload), memory.max %lld MiB: host lost up to %lld MiB, cgroup peaked at %lld MiB\n",
	       nqp, writes, ((long long)nqp * writes * NSGE * SGE_LEN) >> 20,
	       limit >> 20, lost >> 20, cur_max >> 20);
	snprintf(what, sizeof(what),
		 "the host lost no more than memory.max + 32 MiB to the copies (%lld <= %lld MiB)",
		 lost >> 20, (limit + SLACK) >> 20);
	vu_check(&failures, lost <= limit + SLACK, what);
	for (i = 0; i < nqp; i++)
		ibv_destroy_qp(qp[i]);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failures ? 1 : 0;
}
