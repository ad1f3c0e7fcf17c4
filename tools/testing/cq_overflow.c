// SPDX-License-Identifier: GPL-2.0
/*
 * cq_overflow: a CQ too small for what completes into it raises one
 * IBV_EVENT_CQ_ERR in its life, not one per completion lost nor one per
 * overflow, and takes no completion after it (each event costs the kernel
 * an atomic allocation that only reading it or destroying the CQ frees:
 * a process that drains a tiny CQ but never reads its events must not be
 * able to make it allocate without bound).
 *
 *   cq_overflow DEV GID_INDEX
 *
 * Two RC QPs of DEV, connected to each other through GID_INDEX; the
 * writer's send CQ has the smallest size the device gives. Twice: the
 * writer posts LOST more signaled WRITEs than the CQ holds, its CQ is not
 * polled until the last WRITE has landed, then it is emptied. Prints what
 * it saw; exits 0 if the first round raised one event and filled the CQ,
 * and the second raised none and completed nothing into it; 1 otherwise.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define LOST		16
#define LEN		64
#define TIMEOUT_MS	10000

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* A byte the device writes behind our back. */
static uint8_t peek(const uint8_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void connect_qp(struct ibv_qp *qp, uint32_t peer_qpn,
		       const union ibv_gid *gid, int gid_index)
{
	struct vu_conn c = vu_conn(peer_qpn, gid, gid_index,
				   IBV_ACCESS_REMOTE_WRITE);

	if (vu_rc_connect(qp, &c))
		die("INIT, RTR or RTS");
}

/* CQ_ERR events waiting on the async fd (non-blocking); others are
 * acknowledged and ignored.
 */
static int cq_err_events(struct ibv_context *ctx)
{
	struct ibv_async_event ev;
	int n = 0;

	while (!ibv_get_async_event(ctx, &ev)) {
		if (ev.event_type == IBV_EVENT_CQ_ERR)
			n++;
		ibv_ack_async_event(&ev);
	}
	return n;
}

int main(int argc, char **argv)
{
	struct ibv_qp *wq, *tq;
	struct ibv_context *ctx;
	struct ibv_cq *small, *big;
	struct ibv_mr *mr;
	union ibv_gid gid;
	int gid_index, round, i, n, events, polled, failures = 0;
	const uint8_t *last;
	struct ibv_wc wc;
	struct ibv_pd *pd;
	uint8_t *buf;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV GID_INDEX\n", argv[0]);
		return 2;
	}
	ctx = vu_open(argv[1]);
	gid_index = atoi(argv[2]);
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	vu_async_nonblock(ctx);
	pd = ibv_alloc_pd(ctx);
	small = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	big = ibv_create_cq(ctx, 256, NULL, NULL, 0);
	buf = calloc(2, LEN * 256);
	if (!pd || !small || !big || !buf)
		die("ibv_alloc_pd, ibv_create_cq or calloc");
	mr = ibv_reg_mr(pd, buf, 2 * LEN * 256, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE);
	wq = vu_rc_qp(pd, small, 128);
	tq = vu_rc_qp(pd, big, 128);
	if (!mr || !wq || !tq)
		die("ibv_reg_mr or ibv_create_qp");
	connect_qp(wq, tq->qp_num, &gid, gid_index);
	connect_qp(tq, wq->qp_num, &gid, gid_index);
	printf("the writer's CQ holds %d completions\n", small->cqe);
	if (small->cqe + LOST > 128)
		die("the smallest CQ is larger than this test expects");

	for (round = 1; round <= 2; round++) {
		n = small->cqe + LOST;
		memset(buf, 0, 2 * LEN * 256);
		for (i = 0; i < n; i++) {
			struct ibv_sge sge = {
				.addr = (uintptr_t)buf + i * LEN,
				.length = LEN,
				.lkey = mr->lkey,
			};
			struct ibv_send_wr wr = {
				.wr_id = i,
				.sg_list = &sge,
				.num_sge = 1,
				.opcode = IBV_WR_RDMA_WRITE,
				.wr.rdma = {
					.remote_addr = (uintptr_t)buf + (256 + i) * LEN,
					.rkey = mr->rkey,
				},
			}, *bad;

			memset(buf + i * LEN, round * 16 + 1, LEN);
			if (ibv_post_send(wq, &wr, &bad))
				die("ibv_post_send");
		}
		/* WRITEs land in order: the last one's bytes mean all did,
		 * and its completion came (or was lost) once it was acked.
		 */
		last = buf + (256 + n - 1) * LEN;
		for (i = 0; i < TIMEOUT_MS / 10 && peek(last) != round * 16 + 1; i++)
			sleep_ms(10);
		if (peek(last) != round * 16 + 1)
			die("the WRITEs did not land");
		/* The first event comes with the first completion lost. The
		 * rest of the round's completions follow their ACKs within
		 * milliseconds of the last WRITE landing: 200 ms more lets
		 * them all be tried before the CQ is emptied (a completion
		 * that fit would end the overflow), and gives a kernel that
		 * raises an event per completion lost the time to show it.
		 */
		events = 0;
		for (i = 0; i < TIMEOUT_MS / 10 && !events; i++) {
			events = cq_err_events(ctx);
			if (!events)
				sleep_ms(10);
		}
		sleep_ms(200);
		events += cq_err_events(ctx);
		for (polled = 0; ibv_poll_cq(small, 1, &wc) > 0; polled++)
			;
		printf("round %d: %d WRITEs, %d-entry CQ: %d CQ_ERR, %d completions\n",
		       round, n, small->cqe, events, polled);
		if (events != (round == 1 ? 1 : 0)) {
			printf("FAIL: one event in the CQ's life\n");
			failures++;
		}
		if (polled != (round == 1 ? small->cqe : 0)) {
			printf("FAIL: a full CQ, then none into the CQ in error\n");
			failures++;
		}
	}
	return failures ? 1 : 0;
}
