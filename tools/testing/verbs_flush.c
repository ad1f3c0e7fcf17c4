// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_flush: RDMA FLUSH and ATOMIC WRITE (IBA 1.5, memory placement
 * extensions) through rdma-core's ibv_wr_flush() and ibv_wr_atomic_write()
 * between two RDMA devices in one process, connected by their GIDs as
 * verbs_atomic_write does.
 *
 *   verbs_flush DEV
 *   verbs_flush DEV_A GID_INDEX_A DEV_B GID_INDEX_B ROUNDS
 *
 * With one argument: exits 0 if FLUSH can be tested on DEV (libibverbs
 * has ibv_wr_flush(), rdma-core 47 and later, and DEV reports the flush
 * capability, kernels 6.2 and later), else prints why not and exits 4.
 *
 * With five: each round A writes DATA_LEN bytes of the round's pattern
 * into B's region with an unsignaled RDMA WRITE, FLUSHes them (the range
 * in odd rounds, the whole region in even ones, whose address and length
 * mean nothing), then ATOMIC WRITEs the round into B's flag word. The
 * moment the FLUSH's completion is polled every byte of B's data must be
 * the round's: the WRITE has no completion of its own, so the FLUSH is
 * what tells A the data was placed, though uet places packets in any
 * order. Then the ATOMIC WRITE completes, the flag word holds the round,
 * and no byte of B's region past the flag word changed. After the rounds,
 * each on a fresh pair (an error ends a QP): a FLUSH through a region
 * without the flush right, past the end of the region, or to persistence
 * (which the device does not offer) fails with IBV_WC_REM_ACCESS_ERR; one
 * with no placement type with IBV_WC_REM_INV_REQ_ERR; an empty range at
 * the region's start succeeds. query_device_ex reports FLUSH to global
 * visibility and ATOMIC WRITE, not to persistence, and a region asking
 * for the persistent right is refused. Prints one line per check; exits
 * 0 when all passed, 1 otherwise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

/* IB_UVERBS_DEVICE_FLUSH_GLOBAL, _PERSISTENT and _ATOMIC_WRITE (Linux
 * 6.2's ib_user_verbs.h): libibverbs passes device_cap_flags_ex as the
 * kernel gave it and names none of them.
 */
#define DEVICE_FLUSH_GLOBAL	(1ULL << 38)
#define DEVICE_FLUSH_PERSISTENT	(1ULL << 39)
#define DEVICE_ATOMIC_WRITE	(1ULL << 40)
#define KSFT_SKIP		4

/* Can FLUSH be tested on dev? NULL if so, else why not. */
static const char *flush_missing(const char *dev)
{
#ifdef HAVE_IBV_WR_FLUSH
	struct ibv_device_attr_ex dattr = {};
	struct ibv_context *ctx = vu_open(dev);
	bool has;

	has = !ibv_query_device_ex(ctx, NULL, &dattr) &&
	      (dattr.device_cap_flags_ex & DEVICE_FLUSH_GLOBAL);
	ibv_close_device(ctx);
	return has ? NULL :
	       "the device offers no FLUSH (the kernel's ib_core has it from 6.2)";
#else
	(void)dev;
	return "libibverbs has no ibv_wr_flush() (rdma-core 47 and later have it)";
#endif
}

#ifdef HAVE_IBV_WR_FLUSH

#define PAGE		4096
#define DATA_LEN	(256 * 1024)
/* B's region: the data, then the flag word, then bytes nothing writes. */
#define FLAG_OFF	DATA_LEN
#define REGION_LEN	(DATA_LEN + PAGE)
#define TIMEOUT_S	30

enum { WR_FLUSH = 2, WR_ATOMIC_WRITE = 3 };

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

#define die vu_die

/* An RC QP that takes RDMA WRITE, FLUSH and ATOMIC WRITE through
 * ibv_wr_*; only WRs posted with IBV_SEND_SIGNALED complete.
 */
static struct ibv_qp *qp_ex(struct vu_side *s)
{
	struct ibv_qp_init_attr_ex init = {
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = s->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_FLUSH |
				  IBV_QP_EX_WITH_ATOMIC_WRITE,
	};

	return ibv_create_qp_ex(s->ctx, &init);
}

static void pair_new(struct vu_side *a, struct vu_side *b)
{
	vu_rc_pair_new(a, b, qp_ex, IBV_ACCESS_REMOTE_WRITE);
}

/* A signaled FLUSH of len bytes at raddr, alone. */
static void post_flush(struct vu_side *a, uint32_t rkey, uint64_t raddr,
		       size_t len, uint8_t type, uint8_t level)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(a->qp);

	ibv_wr_start(qpx);
	qpx->wr_id = WR_FLUSH;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_flush(qpx, rkey, raddr, len, type, level);
	if (ibv_wr_complete(qpx))
		die("ibv_wr_complete");
}

static uint8_t pattern(unsigned int round, size_t i)
{
	return (uint8_t)(round * 131 + i * 7 + (i >> 9));
}

/* One round; what it proved, in *placed (the data was whole when the
 * FLUSH completed), *flagged (the flag held the round when the ATOMIC
 * WRITE completed, and nothing past it changed) and *completed (both
 * completed with success, with their opcodes).
 */
static void round_trip(struct vu_side *a, struct vu_side *b, unsigned int round,
		       bool *placed, bool *flagged, bool *completed)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(a->qp);
	uint64_t base = (uintptr_t)b->buf, value = round, flag;
	bool whole_mr = !(round & 1);
	struct ibv_wc w1, w2;
	size_t i;

	for (i = 0; i < DATA_LEN; i++)
		a->buf[i] = pattern(round, i);
	ibv_wr_start(qpx);
	qpx->wr_id = 1;
	qpx->wr_flags = 0;
	ibv_wr_rdma_write(qpx, b->mr->rkey, base);
	ibv_wr_set_sge(qpx, a->mr->lkey, (uintptr_t)a->buf, DATA_LEN);
	qpx->wr_id = WR_FLUSH;
	qpx->wr_flags = IBV_SEND_SIGNALED;
	if (whole_mr)
		ibv_wr_flush(qpx, b->mr->rkey, 1, 0, IBV_FLUSH_GLOBAL,
			     IBV_FLUSH_MR);
	else
		ibv_wr_flush(qpx, b->mr->rkey, base, DATA_LEN,
			     IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE);
	qpx->wr_id = WR_ATOMIC_WRITE;
	ibv_wr_atomic_write(qpx, b->mr->rkey, base + FLAG_OFF, &value);
	if (ibv_wr_complete(qpx))
		die("ibv_wr_complete");

	w1 = vu_wait_wc(a->cq, TIMEOUT_S);
	/* At once: B's bytes as B's host sees them now. */
	*placed = true;
	for (i = 0; *placed && i < DATA_LEN; i++)
		*placed = __atomic_load_n(&b->buf[i], __ATOMIC_ACQUIRE) ==
			  pattern(round, i);
	w2 = vu_wait_wc(a->cq, TIMEOUT_S);
	flag = __atomic_load_n((uint64_t *)(b->buf + FLAG_OFF),
			       __ATOMIC_ACQUIRE);
	*flagged = flag == round;
	for (i = FLAG_OFF + sizeof(flag); *flagged && i < REGION_LEN; i++)
		*flagged = !b->buf[i];
	*completed = w1.status == IBV_WC_SUCCESS && w1.wr_id == WR_FLUSH &&
		     w1.opcode == IBV_WC_FLUSH &&
		     w2.status == IBV_WC_SUCCESS &&
		     w2.wr_id == WR_ATOMIC_WRITE &&
		     w2.opcode == IBV_WC_ATOMIC_WRITE;
}

/* On a fresh pair, a lone FLUSH; true if it completed with status. */
static bool flush_status(struct vu_side *a, struct vu_side *b, uint32_t rkey,
			 uint64_t raddr, size_t len, uint8_t type,
			 enum ibv_wc_status status)
{
	struct ibv_wc wc;

	pair_new(a, b);
	post_flush(a, rkey, raddr, len, type, IBV_FLUSH_RANGE);
	wc = vu_wait_wc(a->cq, TIMEOUT_S);
	return wc.status == status && wc.wr_id == WR_FLUSH;
}

static int run(char **argv)
{
	unsigned int round, rounds = atoi(argv[5]);
	unsigned int placed = 0, flagged = 0, completed = 0;
	struct ibv_device_attr_ex dattr = {};
	struct vu_side a = { 0 }, b = { 0 };
	bool p, f, c;
	struct ibv_mr *nf, *pm;
	uint64_t base;
	char what[160];

	vu_side_open(&a, argv[1], atoi(argv[2]), 16);
	vu_side_buf(&a, REGION_LEN, 0, 0, REGION_LEN, IBV_ACCESS_LOCAL_WRITE);
	vu_side_open(&b, argv[3], atoi(argv[4]), 16);
	vu_side_buf(&b, REGION_LEN, 0, 0, REGION_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		    IBV_ACCESS_FLUSH_GLOBAL);
	base = (uintptr_t)b.buf;
	check(!ibv_query_device_ex(a.ctx, NULL, &dattr) &&
	      (dattr.device_cap_flags_ex & DEVICE_FLUSH_GLOBAL) &&
	      (dattr.device_cap_flags_ex & DEVICE_ATOMIC_WRITE) &&
	      !(dattr.device_cap_flags_ex & DEVICE_FLUSH_PERSISTENT),
	      "query_device_ex: FLUSH to global visibility and ATOMIC WRITE, not FLUSH to persistence");
	pm = ibv_reg_mr(b.pd, b.buf, PAGE, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_FLUSH_PERSISTENT);
	check(!pm, "a region with the persistent flush right is refused");
	if (pm && ibv_dereg_mr(pm))
		die("ibv_dereg_mr");

	pair_new(&a, &b);
	for (round = 1; round <= rounds; round++) {
		round_trip(&a, &b, round, &p, &f, &c);
		placed += p;
		flagged += f;
		completed += c;
	}
	snprintf(what, sizeof(what),
		 "%u of %u rounds: every byte of the %d KiB WRITE placed when the FLUSH completed",
		 placed, rounds, DATA_LEN / 1024);
	check(placed == rounds, what);
	snprintf(what, sizeof(what),
		 "%u of %u rounds: the ATOMIC WRITE's flag set, no byte past it changed",
		 flagged, rounds);
	check(flagged == rounds, what);
	snprintf(what, sizeof(what),
		 "%u of %u rounds: FLUSH and ATOMIC WRITE completed with success",
		 completed, rounds);
	check(completed == rounds, what);

	nf = ibv_reg_mr(b.pd, b.buf, PAGE,
			IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	if (!nf)
		die("ibv_reg_mr");
	check(flush_status(&a, &b, nf->rkey, base, PAGE, IBV_FLUSH_GLOBAL,
			   IBV_WC_REM_ACCESS_ERR),
	      "FLUSH through a region without the flush right: remote access error");
	check(flush_status(&a, &b, b.mr->rkey, base + REGION_LEN - PAGE + 8,
			   PAGE, IBV_FLUSH_GLOBAL, IBV_WC_REM_ACCESS_ERR),
	      "FLUSH of a range past the region's end: remote access error");
	check(flush_status(&a, &b, b.mr->rkey, base, PAGE,
			   IBV_FLUSH_PERSISTENT, IBV_WC_REM_ACCESS_ERR),
	      "FLUSH to persistence, a right no region has: remote access error");
	check(flush_status(&a, &b, b.mr->rkey, base, PAGE, 0,
			   IBV_WC_REM_INV_REQ_ERR),
	      "FLUSH with no placement type: remote invalid request");
	check(flush_status(&a, &b, b.mr->rkey, base, 0, IBV_FLUSH_GLOBAL,
			   IBV_WC_SUCCESS),
	      "FLUSH of an empty range at the region's start: success");

	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) || ibv_dereg_mr(nf) ||
	    vu_side_close(&a) || vu_side_close(&b))
		die("teardown");
	printf("%d checks failed\n", failures);
	return failures ? 1 : 0;
}

#endif /* HAVE_IBV_WR_FLUSH */

int main(int argc, char **argv)
{
	const char *missing;

	if (argc == 2 || argc == 6) {
		missing = flush_missing(argv[1]);
		if (missing) {
			printf("%s\n", missing);
			return KSFT_SKIP;
		}
		if (argc == 2)
			return 0;
#ifdef HAVE_IBV_WR_FLUSH
		if (atoi(argv[5]) >= 1)
			return run(argv);
#endif
	}
	fprintf(stderr,
		"usage: %s DEV\n       %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B ROUNDS\n",
		argv[0], argv[0]);
	return 2;
}
