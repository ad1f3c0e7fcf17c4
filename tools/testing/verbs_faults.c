// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_faults: every verb that makes the kernel allocate, failed at each
 * of its allocations in turn. Through /proc/thread-self/fail-nth (the
 * kernel's fault injection: failslab and fail_page_alloc must be set up to
 * fail the allocations that may sleep), the Nth allocation of the verb's
 * system calls fails, for N = 1, 2, ... until the verb gets through
 * without reaching N. A verb so failed must return an error and leave
 * nothing behind (the selftest's kmemleak scan), or succeed all the same.
 * Posting a WRITE runs the transmit path in the poster's task: an
 * allocation failed there may delay the WRITE, never fail it nor change a
 * byte.
 *
 *   verbs_faults DEV_A GID_INDEX_A DEV_B GID_INDEX_B
 *
 * A's verbs are failed; B is the peer of A's connected QP. Prints a line
 * per verb; exits 0 if every check passed, 1 otherwise.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define LEN		(64 * 1024)
#define DEPTH		64
/* Far more allocations than any verb makes: a sweep that gets here is
 * failing at something else than the Nth allocation.
 */
#define MAX_NTH		3000
#define CQE_TIMEOUT	60

static struct vu_side a, b;
static int nth_fd, failures;

/* What an op made, for its undo; the resized CQ and SRQ stay. */
static struct ibv_pd *made_pd;
static struct ibv_cq *made_cq, *resized_cq;
static struct ibv_mr *made_mr;
static struct ibv_srq *made_srq, *resized_srq;
static struct ibv_qp *made_qp;
static unsigned int resize_to, write_round;

static void nth_arm(unsigned int n)
{
	char s[16];
	int len = snprintf(s, sizeof(s), "%u", n);

	if (pwrite(nth_fd, s, len, 0) != len)
		die("writing fail-nth");
}

/* Disarms; true if the Nth allocation was reached (and failed). */
static bool nth_fired(void)
{
	char s[16] = "";
	bool fired;

	if (pread(nth_fd, s, sizeof(s) - 1, 0) <= 0)
		die("reading fail-nth");
	fired = atoi(s) == 0;
	nth_arm(0);
	return fired;
}

static void side_init(struct vu_side *s, const char *dev, int gid_index)
{
	vu_side_open(s, dev, gid_index, 2 * DEPTH);
	/* Not vu_side_buf()'s page-aligned buffer: the ibv_reg_mr sweep
	 * registers this one, and the allocations it counts depend on the
	 * pages the buffer spans.
	 */
	s->buf = calloc(1, 2 * LEN);
	if (!s->buf)
		die("calloc");
	s->mr = ibv_reg_mr(s->pd, s->buf, 2 * LEN, IBV_ACCESS_LOCAL_WRITE |
			   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	s->qp = vu_rc_qp(s->pd, s->cq, DEPTH);
	if (!s->mr || !s->qp)
		die("ibv_reg_mr or ibv_create_qp");
}

static int connect_qpn(struct ibv_qp *qp, const struct vu_side *s,
		       const struct vu_side *peer, uint32_t peer_qpn)
{
	struct vu_conn c = vu_conn(peer_qpn, &peer->gid, s->gid_index,
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);

	return vu_rc_connect(qp, &c);
}

static int connect_to(struct ibv_qp *qp, const struct vu_side *s,
		      const struct vu_side *peer)
{
	return connect_qpn(qp, s, peer, peer->qp->qp_num);
}

static int run_alloc_pd(void)
{
	made_pd = ibv_alloc_pd(a.ctx);
	return made_pd ? 0 : -1;
}

static void undo_alloc_pd(void)
{
	if (ibv_dealloc_pd(made_pd))
		die("ibv_dealloc_pd");
}

static int run_create_cq(void)
{
	made_cq = ibv_create_cq(a.ctx, 4 * DEPTH, NULL, NULL, 0);
	return made_cq ? 0 : -1;
}

static void undo_create_cq(void)
{
	if (ibv_destroy_cq(made_cq))
		die("ibv_destroy_cq");
}

/* Between two sizes, so that each resize makes a new ring. */
static int run_resize_cq(void)
{
	resize_to = resize_to == 4 * DEPTH ? 16 * DEPTH : 4 * DEPTH;
	return ibv_resize_cq(resized_cq, resize_to) ? -1 : 0;
}

static int run_reg_mr(void)
{
	made_mr = ibv_reg_mr(a.pd, a.buf, 2 * LEN, IBV_ACCESS_LOCAL_WRITE |
			     IBV_ACCESS_REMOTE_WRITE);
	return made_mr ? 0 : -1;
}

static void undo_reg_mr(void)
{
	if (ibv_dereg_mr(made_mr))
		die("ibv_dereg_mr");
}

static int run_create_srq(void)
{
	struct ibv_srq_init_attr attr = {
		.attr = { .max_wr = DEPTH, .max_sge = 2 },
	};

	made_srq = ibv_create_srq(a.pd, &attr);
	return made_srq ? 0 : -1;
}

static void undo_create_srq(void)
{
	if (ibv_destroy_srq(made_srq))
		die("ibv_destroy_srq");
}

static int run_modify_srq(void)
{
	struct ibv_srq_attr attr;

	resize_to = resize_to == DEPTH ? 4 * DEPTH : DEPTH;
	attr.max_wr = resize_to;
	return ibv_modify_srq(resized_srq, &attr, IBV_SRQ_MAX_WR) ? -1 : 0;
}

static int run_create_qp(void)
{
	made_qp = vu_rc_qp(a.pd, a.cq, DEPTH);
	return made_qp ? 0 : -1;
}

static void undo_qp(void)
{
	if (ibv_destroy_qp(made_qp))
		die("ibv_destroy_qp");
}

static void prepare_connect(void)
{
	made_qp = vu_rc_qp(a.pd, a.cq, DEPTH);
	if (!made_qp)
		die("ibv_create_qp");
}

/* RESET -> INIT -> RTR -> RTS towards B's QP: the peer and its entropy
 * table are made at RTR.
 */
static int run_connect(void)
{
	return connect_to(made_qp, &a, &b);
}

/* A fresh pattern in A's first half, B's region cleared. */
static void prepare_write(void)
{
	int i;

	write_round++;
	for (i = 0; i < LEN; i++)
		a.buf[i] = (uint8_t)(i * 13 + write_round);
	memset(b.buf, 0, LEN);
}

static int run_write(void)
{
	return vu_post(a.qp, a.mr, a.buf, LEN, IBV_WR_RDMA_WRITE,
		       (uintptr_t)b.buf, b.mr->rkey) ? -1 : 0;
}

/* The WRITE posted under the fault completes and lands intact. A post
 * refused by the kernel left its WQE in the ring (the provider writes
 * it before the doorbell): the next doorbell sends it.
 */
static bool check_write(int rc)
{
	time_t end = time(NULL) + CQE_TIMEOUT;
	struct ibv_wc wc;
	int n = 0;

	if (rc)
		vu_doorbell(a.qp);
	while (!n && time(NULL) < end)
		n = ibv_poll_cq(a.cq, 1, &wc);
	if (n != 1 || wc.status != IBV_WC_SUCCESS) {
		printf("  the WRITE %s\n", n == 1 ? ibv_wc_status_str(wc.status) :
		       "never completed");
		return false;
	}
	if (memcmp(a.buf, b.buf, LEN)) {
		printf("  the WRITE's bytes differ\n");
		return false;
	}
	return true;
}

struct op {
	const char *name;
	void (*prepare)(void);	/* unarmed, before each try */
	int (*run)(void);	/* armed: 0 or -1 */
	void (*undo)(void);	/* unarmed, after a run that succeeded */
	bool (*check)(int rc);	/* unarmed, after each run */
};

static const struct op ops[] = {
	{ "ibv_alloc_pd", NULL, run_alloc_pd, undo_alloc_pd, NULL },
	{ "ibv_create_cq", NULL, run_create_cq, undo_create_cq, NULL },
	{ "ibv_resize_cq", NULL, run_resize_cq, NULL, NULL },
	{ "ibv_reg_mr", NULL, run_reg_mr, undo_reg_mr, NULL },
	{ "ibv_create_srq", NULL, run_create_srq, undo_create_srq, NULL },
	{ "ibv_modify_srq", NULL, run_modify_srq, NULL, NULL },
	{ "ibv_create_qp", NULL, run_create_qp, undo_qp, NULL },
	{ "ibv_modify_qp to RTS", prepare_connect, run_connect, undo_qp, NULL },
	{ "ibv_post_send (WRITE)", prepare_write, run_write, NULL, check_write },
};


/* The sweep of one op; returns how many faults it injected. */
static unsigned int sweep(const struct op *op)
{
	unsigned int n, refused = 0, survived = 0, wrong = 0;
	char what[200];
	bool fired;
	int rc;

	for (n = 1; n <= MAX_NTH; n++) {
		if (op->prepare)
			op->prepare();
		nth_arm(n);
		rc = op->run();
		fired = nth_fired();
		if (rc && !fired) {
			printf("  %s failed with no fault injected\n", op->name);
			wrong++;
			break;
		}
		if (op->check && !op->check(rc))
			wrong++;
		/* What run made, or prepare made for it. */
		if (op->undo && (!rc || op->prepare))
			op->undo();
		if (!fired)
			break;
		if (rc)
			refused++;
		else
			survived++;
	}
	snprintf(what, sizeof(what),
		 "%s: %u allocations failed in turn, %u times an error, %u times a success",
		 op->name, refused + survived, refused, survived);
	vu_check(&failures, !wrong && n <= MAX_NTH, what);
	return refused + survived;
}

int main(int argc, char **argv)
{
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = DEPTH, .max_sge = 2 },
	};
	unsigned int total = 0, i;
	struct ibv_qp *peer_qp;
	struct ibv_wc wc;
	int n = 0;

	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		die("no /proc/thread-self/fail-nth (CONFIG_FAULT_INJECTION)");
	if (argc != 5)
		die("usage: verbs_faults DEV_A GID_INDEX_A DEV_B GID_INDEX_B");
	side_init(&a, argv[1], atoi(argv[2]));
	side_init(&b, argv[3], atoi(argv[4]));
	if (connect_to(a.qp, &a, &b) || connect_to(b.qp, &b, &a))
		die("connecting the pair");
	resized_cq = ibv_create_cq(a.ctx, 4 * DEPTH, NULL, NULL, 0);
	resized_srq = ibv_create_srq(a.pd, &sa);
	if (!resized_cq || !resized_srq)
		die("ibv_create_cq or ibv_create_srq");

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		total += sweep(&ops[i]);

	/* What the faults left usable: the resized CQ takes a completion
	 * of a fresh pair's WRITE, and the first pair one more WRITE.
	 */
	made_qp = vu_rc_qp(a.pd, resized_cq, DEPTH);
	peer_qp = vu_rc_qp(b.pd, b.cq, DEPTH);
	if (!made_qp || !peer_qp ||
	    connect_qpn(made_qp, &a, &b, peer_qp->qp_num) ||
	    connect_qpn(peer_qp, &b, &a, made_qp->qp_num))
		die("a QP pair on the resized CQ");
	prepare_write();
	if (vu_post(made_qp, a.mr, a.buf, 64, IBV_WR_RDMA_WRITE,
		    (uintptr_t)b.buf, b.mr->rkey))
		die("ibv_post_send");
	for (i = 0; i < CQE_TIMEOUT * 100 && !n; i++) {
		n = ibv_poll_cq(resized_cq, 1, &wc);
		if (!n)
			usleep(10000);
	}
	vu_check(&failures, n == 1 && wc.status == IBV_WC_SUCCESS,
		 "the CQ resized under faults takes a completion");
	prepare_write();
	vu_check(&failures, !run_write() && check_write(0),
		 "the pair moves 64 KiB intact after the faults");
	printf("%u faults injected\n", total);
	return failures ? 1 : 0;
}
