// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_mw: memory windows (IBA vol 1, 10.6.7) between two RDMA devices
 * in one process, connected by their GIDs as verbs_bad_access does.
 *
 *   verbs_mw DEV_A GID_INDEX_A DEV_B GID_INDEX_B
 *
 * B registers a region with local write and MW bind only (no remote
 * right of its own) and binds windows on it: a type 1 window with
 * ibv_bind_mw() and a type 2 one with a BIND_MW work request. A writes
 * and reads through both, byte-verified, and through a zero-based type 2
 * window by offset; then, each on a fresh QP pair where a remote access
 * error ends the last: an access one byte past a window, a READ through
 * a write-only window, a WRITE through a type 2 window invalidated by A's
 * SEND_WITH_INV (B's receive says so with IBV_WC_WITH_INV), and one
 * through a type 2 window bound by another QP are refused with a remote
 * access error and change no byte, and a SEND_WITH_INV of the last fails
 * at B. B's binds that break the rules (a bound type 2 window, a region
 * without MW bind, past its end, a QP of another PD) complete with
 * IBV_WC_MW_BIND_ERR, a LOCAL_INV of a type 1 window in error, and the
 * region cannot be deregistered while windows are bound to it. Prints
 * one line per check; exits 0 when all passed, 1 otherwise.
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
#define MR_OFF		64
#define MR_LEN		(4 * PAGE)
#define BUF_LEN		(6 * PAGE)
/* The windows, inside the region and not page aligned. */
#define W1_OFF		100
#define W1_LEN		3000
#define W2_OFF		(2 * PAGE + 8)
#define W2_LEN		5000
#define GUARD_BYTE	0xa5
#define CQE_TIMEOUT	30

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

#define die vu_die

static void qp_connect(struct vu_side *s, const struct vu_side *peer)
{
	struct vu_conn c = vu_conn(peer->qp->qp_num, &peer->gid, s->gid_index,
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);

	if (vu_rc_connect(s->qp, &c))
		die("INIT, RTR or RTS");
}

static void pair_new(struct vu_side *a, struct vu_side *b)
{
	if (a->qp && (ibv_destroy_qp(a->qp) || ibv_destroy_qp(b->qp)))
		die("ibv_destroy_qp");
	vu_drain(a->cq);
	vu_drain(b->cq);
	a->qp = vu_rc_qp(a->pd, a->cq, 8);
	b->qp = vu_rc_qp(b->pd, b->cq, 8);
	if (!a->qp || !b->qp)
		die("ibv_create_qp");
	qp_connect(a, b);
	qp_connect(b, a);
}

/* vu_wait_wc() that says when it timed out. */
static struct ibv_wc wait_wc(struct ibv_cq *cq)
{
	struct ibv_wc wc = vu_wait_wc(cq, CQE_TIMEOUT);

	if ((int)wc.status == -1)
		printf("  no completion in %d s\n", CQE_TIMEOUT);
	return wc;
}

/* One RDMA op of A's: len bytes at A's buffer offset off; its status. */
static int rdma_op(struct vu_side *a, enum ibv_wr_opcode op, size_t off,
		   uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_wc wc;

	if (vu_post(a->qp, a->mr, a->buf + off, len, op, raddr, rkey))
		die("ibv_post_send");
	wc = wait_wc(a->cq);
	printf("  %s %u bytes: %s\n", op == IBV_WR_RDMA_READ ? "READ" : "WRITE",
	       len, ibv_wc_status_str(wc.status));
	return wc.status;
}

/* Bind mw on B's QP to [addr, addr + len) of mr (type 1 through
 * ibv_bind_mw(), type 2 through a work request carrying rkey); the
 * completion.
 */
static struct ibv_wc bind(struct vu_side *b, struct ibv_mw *mw,
			  struct ibv_mr *mr, uint64_t addr, uint64_t len,
			  unsigned int access, uint32_t rkey)
{
	struct ibv_mw_bind_info info = {
		.mr = mr, .addr = addr, .length = len,
		.mw_access_flags = access,
	};
	struct ibv_send_wr wr = {
		.wr_id = 7,
		.opcode = IBV_WR_BIND_MW,
		.send_flags = IBV_SEND_SIGNALED,
		.bind_mw = { .mw = mw, .rkey = rkey, .bind_info = info },
	}, *bad;
	struct ibv_mw_bind mb = {
		.wr_id = 7, .send_flags = IBV_SEND_SIGNALED, .bind_info = info,
	};
	int err;

	if (mw->type == IBV_MW_TYPE_1)
		err = ibv_bind_mw(b->qp, mw, &mb);
	else
		err = ibv_post_send(b->qp, &wr, &bad);
	if (err)
		die("ibv_bind_mw or ibv_post_send(BIND_MW)");
	return wait_wc(b->cq);
}

static bool bind_ok(struct ibv_wc wc)
{
	return wc.status == IBV_WC_SUCCESS && wc.opcode == IBV_WC_BIND_MW &&
	       wc.wr_id == 7;
}

/* Bytes of buf[from, to) that differ from val. */
static size_t differ(const uint8_t *buf, size_t from, size_t to, uint8_t val)
{
	size_t i, n = 0;

	for (i = from; i < to; i++)
		n += buf[i] != val;
	return n;
}

static void fill(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* B's buffer holds A's pattern at off and nothing else changed. */
static void check_b(const struct vu_side *b, size_t off, size_t len,
		    const uint8_t *want, const char *what)
{
	char line[160];
	size_t g;

	g = differ(b->buf, 0, off, GUARD_BYTE) +
	    differ(b->buf, off + len, BUF_LEN, GUARD_BYTE);
	snprintf(line, sizeof(line), "%s: %s, the rest unchanged (%zu changed)",
		 what, want ? "data landed" : "nothing landed", g);
	check(!g && (!want || !memcmp(b->buf + off, want, len)), line);
}

/* Through a window, len bytes at B's offset off, which the requester
 * names raddr: WRITE from A, then READ back into another part of A's
 * buffer, both byte-verified.
 */
static void write_read(struct vu_side *a, struct vu_side *b, size_t off,
		       uint64_t raddr, uint32_t len, uint32_t rkey,
		       const char *what)
{
	char line[160];
	int st;

	fill(a->buf + MR_OFF, len, (uint8_t)off);
	st = rdma_op(a, IBV_WR_RDMA_WRITE, MR_OFF, len, raddr, rkey);
	snprintf(line, sizeof(line), "WRITE of a %s: success", what);
	check(st == IBV_WC_SUCCESS, line);
	snprintf(line, sizeof(line), "WRITE of a %s", what);
	check_b(b, off, len, a->buf + MR_OFF, line);

	fill(b->buf + off, len, 0x33);
	memset(a->buf + MR_OFF + PAGE, 0, len);
	st = rdma_op(a, IBV_WR_RDMA_READ, MR_OFF + PAGE, len, raddr, rkey);
	snprintf(line, sizeof(line), "READ of a %s: success, bytes equal", what);
	check(st == IBV_WC_SUCCESS &&
	      !memcmp(a->buf + MR_OFF + PAGE, b->buf + off, len), line);
	memset(b->buf + off, GUARD_BYTE, len);
}

/* A refused WRITE (or READ) of B's bytes at off: remote access error,
 * nothing landed.
 */
static void refused(struct vu_side *a, struct vu_side *b, enum ibv_wr_opcode op,
		    size_t off, uint32_t len, uint32_t rkey, const char *what)
{
	char line[160];
	int st;

	fill(a->buf + MR_OFF, len, 0x77);
	st = rdma_op(a, op, MR_OFF, len, (uintptr_t)b->buf + off, rkey);
	snprintf(line, sizeof(line), "%s: remote access error", what);
	check(st == IBV_WC_REM_ACCESS_ERR, line);
	check_b(b, 0, 0, NULL, what);
}

/* A SEND_WITH_INV of rkey from A, into a receive B posted; B's
 * completion says what it invalidated, or, if !ok, that it could not.
 */
static void send_inv(struct vu_side *a, struct vu_side *b, uint32_t rkey,
		     bool ok)
{
	struct ibv_sge rsge = {
		.addr = (uintptr_t)b->buf + MR_OFF + MR_LEN - 64,
		.length = 64, .lkey = b->mr->lkey,
	};
	struct ibv_recv_wr rwr = { .wr_id = 9, .sg_list = &rsge, .num_sge = 1 };
	struct ibv_recv_wr *rbad;
	struct ibv_sge sge = {
		.addr = (uintptr_t)a->buf + MR_OFF, .length = 16,
		.lkey = a->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 1, .sg_list = &sge, .num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_INV,
		.send_flags = IBV_SEND_SIGNALED,
		.invalidate_rkey = rkey,
	}, *bad;
	struct ibv_wc wc;

	if (ibv_post_recv(b->qp, &rwr, &rbad) || ibv_post_send(a->qp, &wr, &bad))
		die("ibv_post_recv or ibv_post_send(SEND_WITH_INV)");
	wc = wait_wc(a->cq);
	printf("  A: %s\n", ibv_wc_status_str(wc.status));
	if (ok)
		check(wc.status == IBV_WC_SUCCESS, "SEND_WITH_INV: success at A");
	wc = wait_wc(b->cq);
	printf("  B: %s, flags 0x%x, rkey 0x%x\n", ibv_wc_status_str(wc.status),
	       wc.wc_flags, wc.invalidated_rkey);
	/* rdma_rxe would set IBV_WC_IP_CSUM_OK here (the kernel's
	 * IB_WC_WITH_INVALIDATE bit, copied); uet translates.
	 */
	if (ok)
		check(wc.status == IBV_WC_SUCCESS && wc.wr_id == 9 &&
		      (wc.wc_flags & (IBV_WC_WITH_INV | IBV_WC_IP_CSUM_OK)) ==
		      IBV_WC_WITH_INV &&
		      wc.invalidated_rkey == rkey,
		      "SEND_WITH_INV: B's receive says it invalidated the type 2 window");
	else
		check(wc.status == IBV_WC_REM_INV_REQ_ERR && wc.wr_id == 9,
		      "SEND_WITH_INV of a type 2 window bound by another QP: B's receive fails");
	memset(b->buf + MR_OFF + MR_LEN - 64, GUARD_BYTE, 64);
}

int main(int argc, char **argv)
{
	unsigned int rw = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct vu_side a = { 0 }, b = { 0 };
	struct ibv_mw *mw1, *mw2, *mw3, *mwx;
	struct ibv_mr *nobind, *mrx;
	struct ibv_pd *pdx;
	struct ibv_wc wc;
	uint64_t base;
	uint32_t rkey2;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B\n",
			argv[0]);
		return 2;
	}
	vu_side_open(&a, argv[1], atoi(argv[2]), 16);
	vu_side_buf(&a, BUF_LEN, GUARD_BYTE, MR_OFF, MR_LEN,
		    IBV_ACCESS_LOCAL_WRITE);
	vu_side_open(&b, argv[3], atoi(argv[4]), 16);
	vu_side_buf(&b, BUF_LEN, GUARD_BYTE, MR_OFF, MR_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	base = (uintptr_t)b.buf;
	mw1 = ibv_alloc_mw(b.pd, IBV_MW_TYPE_1);
	mw2 = ibv_alloc_mw(b.pd, IBV_MW_TYPE_2);
	mw3 = ibv_alloc_mw(b.pd, IBV_MW_TYPE_2);
	nobind = ibv_reg_mr(b.pd, b.buf + MR_OFF, MR_LEN,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	pdx = ibv_alloc_pd(b.ctx);
	mwx = pdx ? ibv_alloc_mw(pdx, IBV_MW_TYPE_1) : NULL;
	mrx = pdx ? ibv_reg_mr(pdx, b.buf + MR_OFF, MR_LEN,
			       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND) :
		    NULL;
	check(mw1 && mw2 && mw3 && mwx && nobind && mrx,
	      "type 1 and type 2 windows allocated");
	if (!mw1 || !mw2 || !mw3 || !mwx || !nobind || !mrx)
		return 1;

	pair_new(&a, &b);
	check(bind_ok(bind(&b, mw1, b.mr, base + W1_OFF, W1_LEN, rw, 0)),
	      "type 1 bind (ibv_bind_mw): IBV_WC_BIND_MW success");
	rkey2 = ibv_inc_rkey(mw2->rkey);
	check(bind_ok(bind(&b, mw2, b.mr, base + W2_OFF, W2_LEN, rw, rkey2)),
	      "type 2 bind (BIND_MW work request): IBV_WC_BIND_MW success");
	check(ibv_dereg_mr(b.mr) != 0,
	      "the region cannot be deregistered while windows are bound");
	write_read(&a, &b, W1_OFF, base + W1_OFF, W1_LEN, mw1->rkey,
		   "type 1 window");
	write_read(&a, &b, W2_OFF, base + W2_OFF, W2_LEN, rkey2,
		   "type 2 window");
	write_read(&a, &b, W2_OFF + W2_LEN - 1, base + W2_OFF + W2_LEN - 1, 1,
		   rkey2, "type 2 window's last byte");
	send_inv(&a, &b, rkey2, true);
	refused(&a, &b, IBV_WR_RDMA_WRITE, W2_OFF, 64, rkey2,
		"WRITE through the invalidated type 2 window");

	pair_new(&a, &b);
	refused(&a, &b, IBV_WR_RDMA_WRITE, W1_OFF + W1_LEN - 63, 64, mw1->rkey,
		"WRITE ending one byte past the type 1 window");

	pair_new(&a, &b);
	refused(&a, &b, IBV_WR_RDMA_WRITE, W1_OFF - 1, 64, mw1->rkey,
		"WRITE starting one byte before the type 1 window");

	pair_new(&a, &b);
	check(bind_ok(bind(&b, mw1, b.mr, base + W1_OFF, W1_LEN,
			   IBV_ACCESS_REMOTE_WRITE, 0)),
	      "type 1 window bound again, write-only");
	refused(&a, &b, IBV_WR_RDMA_READ, W1_OFF, 64, mw1->rkey,
		"READ through a write-only window");

	/* mw3 bound by this pair's B QP, then used on the next pair's. */
	pair_new(&a, &b);
	check(bind_ok(bind(&b, mw3, b.mr, base + W2_OFF, W2_LEN, rw,
			   ibv_inc_rkey(mw3->rkey))),
	      "type 2 bind by one QP");
	pair_new(&a, &b);
	refused(&a, &b, IBV_WR_RDMA_WRITE, W2_OFF, 64, ibv_inc_rkey(mw3->rkey),
		"WRITE through a type 2 window bound by another QP");
	pair_new(&a, &b);
	send_inv(&a, &b, ibv_inc_rkey(mw3->rkey), false);

	pair_new(&a, &b);
	check(bind(&b, mw3, b.mr, base + W2_OFF, W2_LEN, rw,
		   ibv_inc_rkey(ibv_inc_rkey(mw3->rkey))).status ==
	      IBV_WC_MW_BIND_ERR,
	      "type 2 bind of a bound window: IBV_WC_MW_BIND_ERR");

	pair_new(&a, &b);
	wc = bind(&b, mw2, b.mr, base + MR_OFF + MR_LEN - 8, 16, rw,
		  ibv_inc_rkey(rkey2));
	check(wc.status == IBV_WC_MW_BIND_ERR,
	      "bind past the region's end: IBV_WC_MW_BIND_ERR");

	/* Zero-based: the requester's addresses are offsets in the window. */
	pair_new(&a, &b);
	rkey2 = ibv_inc_rkey(rkey2);
	check(bind_ok(bind(&b, mw2, b.mr, base + W2_OFF, W2_LEN,
			   rw | IBV_ACCESS_ZERO_BASED, rkey2)),
	      "zero-based type 2 bind");
	write_read(&a, &b, W2_OFF + 16, 16, 100, rkey2,
		   "zero-based type 2 window at offset 16");
	refused(&a, &b, IBV_WR_RDMA_WRITE, W2_OFF, 64, rkey2,
		"WRITE at the zero-based window's address as a VA");

	pair_new(&a, &b);
	{
		struct ibv_send_wr wr = {
			.wr_id = 3, .opcode = IBV_WR_LOCAL_INV,
			.send_flags = IBV_SEND_SIGNALED,
			.invalidate_rkey = mw1->rkey,
		}, *bad;

		if (ibv_post_send(b.qp, &wr, &bad))
			die("ibv_post_send(LOCAL_INV)");
		wc = wait_wc(b.cq);
		check(wc.status == IBV_WC_LOC_QP_OP_ERR,
		      "LOCAL_INV of a type 1 window: local QP operation error");
	}

	pair_new(&a, &b);
	wc = bind(&b, mw1, nobind, base + W1_OFF, W1_LEN, rw, 0);
	check(wc.status == IBV_WC_MW_BIND_ERR,
	      "bind to a region without MW bind: IBV_WC_MW_BIND_ERR");

	/* A window and region of another PD, bound by B's QP: no. */
	pair_new(&a, &b);
	wc = bind(&b, mwx, mrx, base + W1_OFF, W1_LEN, rw, 0);
	check(wc.status == IBV_WC_MW_BIND_ERR,
	      "type 1 bind by a QP of another PD: IBV_WC_MW_BIND_ERR");

	check(!ibv_dealloc_mw(mw1) && !ibv_dealloc_mw(mw2) &&
	      !ibv_dealloc_mw(mw3) && !ibv_dealloc_mw(mwx),
	      "windows deallocated");
	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) ||
	    ibv_dereg_mr(nobind) || ibv_dereg_mr(mrx) || ibv_dealloc_pd(pdx) ||
	    ibv_dereg_mr(a.mr))
		die("teardown");
	check(!ibv_dereg_mr(b.mr), "the region deregistered once unbound");
	if (ibv_destroy_cq(a.cq) || ibv_destroy_cq(b.cq) ||
	    ibv_dealloc_pd(a.pd) || ibv_dealloc_pd(b.pd) ||
	    ibv_close_device(a.ctx) || ibv_close_device(b.ctx))
		die("teardown");
	free(a.buf);
	free(b.buf);
	printf("%d checks failed\n", failures);
	return failures ? 1 : 0;
}
