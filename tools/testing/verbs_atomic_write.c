// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_atomic_write: IBV_WR_ATOMIC_WRITE (IBA 1.5, memory placement
 * extensions) between two RDMA devices in one process, connected by
 * their GIDs as verbs_mw does.
 *
 *   verbs_atomic_write DEV_A GID_INDEX_A DEV_B GID_INDEX_B ROUNDS
 *
 * Each round A writes DATA_LEN bytes of the round's pattern into B's
 * region with an RDMA WRITE, then the round number into B's flag word
 * with an ATOMIC WRITE: the flag a reader polls to know the data has
 * landed. B's side of this process polls the flag and, the moment it
 * reads the round, checks every byte of the data: uet places packets in
 * any order, so this holds only if the ATOMIC WRITE waits for the data
 * before it. Both WRs complete with success (the second as
 * IBV_WC_ATOMIC_WRITE). Then an ATOMIC WRITE to an address that is not
 * 8-byte aligned fails with IBV_WC_REM_INV_REQ_ERR and one through a
 * region without remote write with IBV_WC_REM_ACCESS_ERR, neither
 * changing a byte; and query_device_ex reports the capability. Prints one
 * line per check; exits 0 when all passed, 1 otherwise.
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
#define DATA_LEN	(256 * 1024)
/* B's region: the data, then the flag word. */
#define FLAG_OFF	DATA_LEN
#define REGION_LEN	(DATA_LEN + PAGE)
#define TIMEOUT_S	30
/* IB_UVERBS_DEVICE_ATOMIC_WRITE (Linux 6.2's ib_user_verbs.h). */
#define DEVICE_ATOMIC_WRITE	(1ULL << 40)

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

#define die vu_die

/* An RC QP that takes RDMA WRITE and ATOMIC WRITE through ibv_wr_*. */
static struct ibv_qp *qp_ex(struct vu_side *s)
{
	struct ibv_qp_init_attr_ex init = {
		.send_cq = s->cq,
		.recv_cq = s->cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.pd = s->pd,
		.send_ops_flags = IBV_QP_EX_WITH_RDMA_WRITE |
				  IBV_QP_EX_WITH_ATOMIC_WRITE,
	};

	return ibv_create_qp_ex(s->ctx, &init);
}

static void pair_new(struct vu_side *a, struct vu_side *b)
{
	vu_rc_pair_new(a, b, qp_ex, IBV_ACCESS_REMOTE_WRITE);
}

/* Post, through the ibv_wr_* API: the round's WRITE of DATA_LEN bytes
 * (unless write is false), then ATOMIC WRITE of value at raddr.
 */
static void post(struct vu_side *a, bool write, uint64_t raddr, uint32_t rkey,
		 uint64_t value)
{
	struct ibv_qp_ex *qpx = ibv_qp_to_qp_ex(a->qp);

	ibv_wr_start(qpx);
	if (write) {
		qpx->wr_id = 1;
		ibv_wr_rdma_write(qpx, rkey, raddr - FLAG_OFF);
		ibv_wr_set_sge(qpx, a->mr->lkey, (uintptr_t)a->buf, DATA_LEN);
	}
	qpx->wr_id = 2;
	ibv_wr_atomic_write(qpx, rkey, raddr, &value);
	if (ibv_wr_complete(qpx))
		die("ibv_wr_complete");
}

/* B's flag word, read as a reader on B's host reads it. */
static uint64_t flag(const struct vu_side *b, size_t off)
{
	return __atomic_load_n((const uint64_t *)(b->buf + off),
			       __ATOMIC_ACQUIRE);
}

static uint8_t pattern(unsigned int round, size_t i)
{
	return (uint8_t)(round * 131 + i * 7 + (i >> 9));
}

/* One round: true if the data was whole when the flag said round. */
static bool round_trip(struct vu_side *a, struct vu_side *b, unsigned int round,
		       bool *completed)
{
	static uint8_t seen[DATA_LEN];
	time_t end = time(NULL) + TIMEOUT_S;
	struct ibv_wc w1, w2;
	bool whole = true;
	size_t i;

	for (i = 0; i < DATA_LEN; i++)
		a->buf[i] = pattern(round, i);
	post(a, true, (uintptr_t)b->buf + FLAG_OFF, b->mr->rkey, round);
	while (flag(b, FLAG_OFF) != round && time(NULL) < end)
		;
	/* What the data held when the flag was seen, before more lands. */
	memcpy(seen, b->buf, DATA_LEN);
	if (flag(b, FLAG_OFF) != round)
		whole = false;
	for (i = 0; whole && i < DATA_LEN; i++)
		whole = seen[i] == pattern(round, i);
	w1 = vu_wait_wc(a->cq, TIMEOUT_S);
	w2 = vu_wait_wc(a->cq, TIMEOUT_S);
	*completed = w1.status == IBV_WC_SUCCESS && w1.wr_id == 1 &&
		     w1.opcode == IBV_WC_RDMA_WRITE &&
		     w2.status == IBV_WC_SUCCESS && w2.wr_id == 2 &&
		     w2.opcode == IBV_WC_ATOMIC_WRITE;
	return whole;
}

int main(int argc, char **argv)
{
	struct ibv_device_attr_ex dattr = {};
	unsigned int round, rounds, whole = 0, completed = 0;
	struct vu_side a = { 0 }, b = { 0 };
	struct ibv_mr *ro;
	struct ibv_wc wc;
	char what[128];
	bool done;

	if (argc != 6 || atoi(argv[5]) < 1) {
		fprintf(stderr,
			"usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B ROUNDS\n",
			argv[0]);
		return 2;
	}
	rounds = atoi(argv[5]);
	vu_side_open(&a, argv[1], atoi(argv[2]), 16);
	vu_side_buf(&a, REGION_LEN, 0, 0, REGION_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	vu_side_open(&b, argv[3], atoi(argv[4]), 16);
	vu_side_buf(&b, REGION_LEN, 0, 0, REGION_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	check(!ibv_query_device_ex(a.ctx, NULL, &dattr) &&
	      (dattr.device_cap_flags_ex & DEVICE_ATOMIC_WRITE),
	      "query_device_ex reports ATOMIC WRITE");

	pair_new(&a, &b);
	for (round = 1; round <= rounds; round++) {
		whole += round_trip(&a, &b, round, &done);
		completed += done;
	}
	snprintf(what, sizeof(what),
		 "%u of %u rounds: the %d KiB WRITE was whole when the ATOMIC WRITE's flag landed",
		 whole, rounds, DATA_LEN / 1024);
	check(whole == rounds, what);
	snprintf(what, sizeof(what),
		 "%u of %u rounds: WRITE and ATOMIC WRITE completed with success",
		 completed, rounds);
	check(completed == rounds, what);

	/* Errors end the QP: a fresh pair for each. */
	pair_new(&a, &b);
	memset(b.buf + FLAG_OFF, 0x5a, 16);
	post(&a, false, (uintptr_t)b.buf + FLAG_OFF + 4, b.mr->rkey,
	     UINT64_MAX);
	wc = vu_wait_wc(a.cq, TIMEOUT_S);
	check(wc.status == IBV_WC_REM_INV_REQ_ERR,
	      "ATOMIC WRITE to an address not 8-byte aligned: remote invalid request");
	check(b.buf[FLAG_OFF] == 0x5a && b.buf[FLAG_OFF + 15] == 0x5a &&
	      !memcmp(b.buf + FLAG_OFF, b.buf + FLAG_OFF + 1, 15),
	      "the misaligned ATOMIC WRITE changed no byte");

	ro = ibv_reg_mr(b.pd, b.buf + FLAG_OFF, PAGE, IBV_ACCESS_LOCAL_WRITE);
	if (!ro)
		die("ibv_reg_mr");
	pair_new(&a, &b);
	post(&a, false, (uintptr_t)b.buf + FLAG_OFF, ro->rkey, UINT64_MAX);
	wc = vu_wait_wc(a.cq, TIMEOUT_S);
	check(wc.status == IBV_WC_REM_ACCESS_ERR,
	      "ATOMIC WRITE through a region without remote write: remote access error");
	check(b.buf[FLAG_OFF] == 0x5a,
	      "the refused ATOMIC WRITE changed no byte");

	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) || ibv_dereg_mr(ro) ||
	    vu_side_close(&a) || vu_side_close(&b))
		die("teardown");
	printf("%d checks failed\n", failures);
	return failures ? 1 : 0;
}
