// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_bad_access: RDMA accesses a responder must refuse without touching
 * memory. One process opens two RDMA devices and connects RC QPs between
 * them by their GIDs, so the traffic takes the network path those GIDs
 * name. The target region is registered over part of a larger buffer; the
 * bytes around it are guards that must never change.
 *
 *   verbs_bad_access DEV_A GID_INDEX_A DEV_B GID_INDEX_B
 *
 * A is the requester, B the responder: bad rkeys, accesses a byte past
 * the region, rkeys of another PD, accesses the region's flags do not
 * allow. Each case runs on a fresh QP pair (a remote access error moves
 * both QPs to the error state). Prints one line per check; exits 0 when
 * all passed, 1 otherwise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define PAGE		4096
/* Region B exposes: not page aligned at either end, so a sloppy bounds
 * check would reach guard bytes in the same pages.
 */
#define MR_OFF		64
#define MR_LEN		8000
#define BUF_LEN		(3 * PAGE)
#define GUARD_BYTE	0xa5
#define LOCAL_BYTE	0x5a
#define CQE_TIMEOUT	30

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

#define die vu_die

/* Device, PD, CQ and a registered region at MR_OFF of a 3-page buffer,
 * the region's bytes fill.
 */
static void side_open(struct vu_side *s, const char *dev, int gid_index,
		      uint8_t fill)
{
	vu_side_open(s, dev, gid_index, 16);
	vu_side_buf(s, BUF_LEN, GUARD_BYTE, MR_OFF, MR_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		    IBV_ACCESS_REMOTE_READ);
	memset(s->buf + MR_OFF, fill, MR_LEN);
}

/* Connected towards the peer's QP, addressed by its GID. */
static void qp_connect(struct vu_side *s, const struct vu_side *peer,
		       uint32_t psn, uint32_t peer_psn)
{
	struct vu_conn c = vu_conn(peer->qp->qp_num, &peer->gid, s->gid_index,
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);

	c.sq_psn = psn;
	c.rq_psn = peer_psn;
	if (vu_rc_connect(s->qp, &c))
		die("INIT, RTR or RTS");
}

/* A fresh QP pair, and B's region zeroed again. */
static void pair_new(struct vu_side *a, struct vu_side *b)
{
	if (a->qp && (ibv_destroy_qp(a->qp) || ibv_destroy_qp(b->qp)))
		die("ibv_destroy_qp");
	vu_drain(a->cq);
	vu_drain(b->cq);
	memset(b->buf + MR_OFF, 0, MR_LEN);
	a->qp = vu_rc_qp(a->pd, a->cq, 4);
	b->qp = vu_rc_qp(b->pd, b->cq, 4);
	if (!a->qp || !b->qp)
		die("ibv_create_qp");
	qp_connect(a, b, 0x100, 0x200);
	qp_connect(b, a, 0x200, 0x100);
}

/* Post one RDMA op from A and return its completion status, or -1. */
static int rdma_op(struct vu_side *a, enum ibv_wr_opcode op, uint32_t len,
		   uint64_t raddr, uint32_t rkey)
{
	time_t end = time(NULL) + CQE_TIMEOUT;
	struct ibv_wc wc;
	int n;

	if (vu_post(a->qp, a->mr, a->buf + MR_OFF, len, op, raddr, rkey)) {
		printf("ibv_post_send failed\n");
		return -1;
	}
	while (time(NULL) < end) {
		n = ibv_poll_cq(a->cq, 1, &wc);
		if (n < 0)
			return -1;
		if (n) {
			printf("  %s: %s\n", op == IBV_WR_RDMA_READ ? "READ" : "WRITE",
			       ibv_wc_status_str(wc.status));
			return wc.status;
		}
	}
	printf("  no completion in %d s\n", CQE_TIMEOUT);
	return -1;
}

/* Bytes of buf[from, to) that differ from val. */
static size_t differ(const uint8_t *buf, size_t from, size_t to, uint8_t val)
{
	size_t i, n = 0;

	for (i = from; i < to; i++)
		n += buf[i] != val;
	return n;
}

/* B's guards as they were and every byte of its region 'fill'. */
static void check_remote(const struct vu_side *b, uint8_t fill,
			 const char *what)
{
	char line[160];
	size_t g, r;

	g = differ(b->buf, 0, MR_OFF, GUARD_BYTE) +
	    differ(b->buf, MR_OFF + MR_LEN, BUF_LEN, GUARD_BYTE);
	r = differ(b->buf, MR_OFF, MR_OFF + MR_LEN, fill);
	snprintf(line, sizeof(line), "%s: guard bytes unchanged (%zu changed)",
		 what, g);
	check(!g, line);
	snprintf(line, sizeof(line), "%s: region holds 0x%02x (%zu bytes differ)",
		 what, fill, r);
	check(!r, line);
}

int main(int argc, char **argv)
{
	struct ibv_mr *other, *no_write, *no_read;
	struct vu_side a = { 0 }, b = { 0 };
	struct ibv_pd *other_pd;
	uint64_t base;
	int st;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B\n",
			argv[0]);
		return 2;
	}
	side_open(&a, argv[1], atoi(argv[2]), LOCAL_BYTE);
	side_open(&b, argv[3], atoi(argv[4]), 0);
	base = (uintptr_t)b.buf + MR_OFF;

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, 64, base, b.mr->rkey + 1);
	check(st == IBV_WC_REM_ACCESS_ERR, "WRITE with a bad rkey: remote access error");
	check_remote(&b, 0, "WRITE with a bad rkey");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, 64, base + MR_LEN - 63, b.mr->rkey);
	check(st == IBV_WC_REM_ACCESS_ERR,
	      "one-packet WRITE ending one byte past the region: remote access error");
	check_remote(&b, 0, "one-packet WRITE one byte past the region");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, MR_LEN, base + 1, b.mr->rkey);
	check(st == IBV_WC_REM_ACCESS_ERR,
	      "multi-packet WRITE ending one byte past the region: remote access error");
	check_remote(&b, 0, "multi-packet WRITE one byte past the region");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_READ, 64, base, b.mr->rkey + 1);
	check(st == IBV_WC_REM_ACCESS_ERR, "READ with a bad rkey: remote access error");
	check(!differ(a.buf, MR_OFF, MR_OFF + MR_LEN, LOCAL_BYTE),
	      "READ with a bad rkey: local buffer unchanged");
	check_remote(&b, 0, "READ with a bad rkey");

	/* The same bytes registered again: in another PD of B, which B's QP
	 * is not in; without remote write; without remote read.
	 */
	other_pd = ibv_alloc_pd(b.ctx);
	if (!other_pd)
		die("ibv_alloc_pd");
	other = ibv_reg_mr(other_pd, b.buf + MR_OFF, MR_LEN,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	no_write = ibv_reg_mr(b.pd, b.buf + MR_OFF, MR_LEN,
			      IBV_ACCESS_REMOTE_READ);
	no_read = ibv_reg_mr(b.pd, b.buf + MR_OFF, MR_LEN,
			     IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!other || !no_write || !no_read)
		die("ibv_reg_mr");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, 64, base, other->rkey);
	check(st == IBV_WC_REM_ACCESS_ERR,
	      "WRITE with the rkey of another PD's region: remote access error");
	check_remote(&b, 0, "WRITE with another PD's rkey");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, 64, base, no_write->rkey);
	check(st == IBV_WC_REM_ACCESS_ERR,
	      "WRITE to a region without remote write: remote access error");
	check_remote(&b, 0, "WRITE to a region without remote write");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_READ, 64, base, no_read->rkey);
	check(st == IBV_WC_REM_ACCESS_ERR,
	      "READ from a region without remote read: remote access error");
	check(!differ(a.buf, MR_OFF, MR_OFF + MR_LEN, LOCAL_BYTE),
	      "READ from a region without remote read: local buffer unchanged");

	if (ibv_dereg_mr(other) || ibv_dereg_mr(no_write) ||
	    ibv_dereg_mr(no_read) || ibv_dealloc_pd(other_pd))
		die("ibv_dereg_mr");

	pair_new(&a, &b);
	st = rdma_op(&a, IBV_WR_RDMA_WRITE, MR_LEN, base, b.mr->rkey);
	check(st == IBV_WC_SUCCESS, "WRITE of the whole region on a fresh QP pair: success");
	check_remote(&b, LOCAL_BYTE, "WRITE of the whole region");

	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) ||
	    vu_side_close(&a) || vu_side_close(&b))
		die("teardown");
	printf("%d checks failed\n", failures);
	return failures ? 1 : 0;
}
