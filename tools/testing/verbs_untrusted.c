// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_untrusted: what an unprivileged process's verbs calls must not do
 * to the kernel (Documentation/uet/admin-guide/threat-model.rst). Meant to
 * run as a user with no capability (the selftest runs it as uid 65534).
 *
 *   verbs_untrusted DEV [SECONDS]
 *
 * 1. A UD QP, then an RC QP, in ERR whose send queue a second thread
 *    keeps full by rewriting the ring's producer index: each doorbell
 *    flushes what it finds, but returns within SECONDS (5; a flush that
 *    re-reads the index until the ring is empty never returns while the
 *    thread runs), and a modify of that QP does too; so does its destroy
 *    after.
 * 2. A QP in RESET cannot reach RTS by claiming it is there already
 *    (IB_QP_CUR_STATE): the device judges a transition from the QP's real
 *    state, so an RC QP never sends without a peer. A true CUR_STATE is
 *    still taken.
 *
 * Prints one line per check; exits 0 when all passed, 1 otherwise.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "verbs_util.h"

#define die vu_die

#define MAX_MAPS	64
#define SQ_DEPTH	16383	/* a ring of 16384 slots */
#define DOORBELLS	8
static int failures;
/* A doorbell flushes at most 256 passes' budgets (net/uet/engine.c). */
static double doorbell_max_s = 5;


/* The largest ring mapped since old[count] was read: a QP's send queue. */
static struct rxe_queue_buf *new_send_ring(const struct vu_map *old, int count)
{
	struct vu_map now[MAX_MAPS];
	struct vu_map *best = NULL;
	int k, i, j;

	k = vu_device_maps(now, MAX_MAPS, sizeof(struct rxe_queue_buf));

	for (i = 0; i < k; i++) {
		for (j = 0; j < count && old[j].offset != now[i].offset; j++)
			;
		if (j == count && (!best || now[i].len > best->len))
			best = &now[i];
	}
	if (!best)
		die("the QP's rings did not show up as the rxe provider maps them");
	return (struct rxe_queue_buf *)best->addr;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct refill {
	struct rxe_queue_buf *ring;
	atomic_bool stop;
	atomic_ulong rewrites;
};

/* Run the calling thread on CPU cpu only, if there is one. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Keep the ring full: one slot behind whatever the kernel consumed. On
 * a CPU of its own, so that it runs while the doorbell does.
 */
static void *refill_thread(void *arg)
{
	struct refill *r = arg;
	uint32_t mask = r->ring->index_mask;

	pin(1);
	while (!atomic_load(&r->stop)) {
		uint32_t cons = __atomic_load_n(&r->ring->consumer_index,
						__ATOMIC_ACQUIRE);

		__atomic_store_n(&r->ring->producer_index, (cons - 1) & mask,
				 __ATOMIC_RELEASE);
		atomic_fetch_add(&r->rewrites, 1);
	}
	return NULL;
}

static int modify_state(struct ibv_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = { .qp_state = state };

	return ibv_modify_qp(qp, &attr, IBV_QP_STATE);
}

static void flush(struct ibv_context *ctx, struct ibv_pd *pd,
		  enum ibv_qp_type type, const char *name)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 256, NULL, NULL, 0);
	struct ibv_qp_init_attr init = {
		.qp_type = type,
		.cap = { .max_send_wr = SQ_DEPTH, .max_recv_wr = 1,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				    .qkey = 0x11111111 };
	struct refill r = {};
	struct vu_map old[MAX_MAPS];
	double worst = 0, t, t_modify, t_destroy;
	unsigned int slots;
	struct ibv_wc wc;
	struct ibv_qp *qp;
	pthread_t th;
	char what[160];
	int count, i;

	if (!cq)
		die("ibv_create_cq");
	init.send_cq = cq;
	init.recv_cq = cq;
	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	qp = ibv_create_qp(pd, &init);
	if (!qp) {
		perror("ibv_create_qp (16383 sends)");
		exit(1);
	}
	r.ring = new_send_ring(old, count);
	slots = r.ring->index_mask + 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | (type == IBV_QPT_UD ? IBV_QP_QKEY :
					 IBV_QP_ACCESS_FLAGS)) ||
	    modify_state(qp, IBV_QPS_ERR))
		die("QP RESET -> INIT -> ERR");
	if (pthread_create(&th, NULL, refill_thread, &r))
		die("pthread_create");
	while (atomic_load(&r.rewrites) < 1000)
		sched_yield();
	for (i = 0; i < DOORBELLS; i++) {
		t = now_s();
		vu_doorbell(qp);
		t = now_s() - t;
		if (t > worst)
			worst = t;
		while (ibv_poll_cq(cq, 1, &wc) > 0)
			;
	}
	t_modify = now_s();
	modify_state(qp, IBV_QPS_RESET);
	t_modify = now_s() - t_modify;
	modify_state(qp, IBV_QPS_ERR);
	vu_doorbell(qp);
	/* The provider unmaps the ring on destroy: the thread stops first,
	 * the flush its last rewrite left may still be running.
	 */
	atomic_store(&r.stop, true);
	pthread_join(th, NULL);
	t_destroy = now_s();
	if (ibv_destroy_qp(qp))
		die("ibv_destroy_qp");
	t_destroy = now_s() - t_destroy;
	ibv_destroy_cq(cq);
	printf("%s QP in ERR, %u-slot send queue kept full by a second thread (%lu rewrites)\n",
	       name, slots, atomic_load(&r.rewrites));
	snprintf(what, sizeof(what),
		 "  %d doorbells each returned within %.0f s (slowest %.3f s)",
		 DOORBELLS, doorbell_max_s, worst);
	vu_check(&failures, worst < doorbell_max_s, what);
	snprintf(what, sizeof(what),
		 "  modify to RESET meanwhile (%.3f s) and destroy after (%.3f s)",
		 t_modify, t_destroy);
	vu_check(&failures, t_modify < doorbell_max_s &&
		 t_destroy < doorbell_max_s, what);
}

/* RESET -> RTS claiming to be in RTS (CUR_STATE) must fail, whatever
 * the QP type, and leave the QP in RESET.
 */
static void cur_state(struct ibv_context *ctx, struct ibv_pd *pd,
		      enum ibv_qp_type type, const char *name)
{
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_qp_init_attr init = {
		.qp_type = type,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_RTS,
		.cur_qp_state = IBV_QPS_RTS,
	};
	struct ibv_qp *qp;
	char what[160];
	int err;

	if (!cq)
		die("ibv_create_cq");
	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");
	err = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_CUR_STATE);
	snprintf(what, sizeof(what),
		 "%s QP in RESET told to go to RTS \"from RTS\" (IB_QP_CUR_STATE): %s, QP in %s",
		 name, err ? strerror(err) : "accepted",
		 vu_qp_state(qp) == IBV_QPS_RESET ? "RESET" : "another state");
	vu_check(&failures, err == EINVAL && vu_qp_state(qp) == IBV_QPS_RESET,
		 what);
	if (type == IBV_QPT_UD && err) {
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT,
					 .port_num = 1, .qkey = 1 };

		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				  IBV_QP_PORT | IBV_QP_QKEY) ||
		    modify_state(qp, IBV_QPS_RTR))
			die("UD QP to RTR");
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = 0;
		if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
			die("UD QP to RTS");
		a.cur_qp_state = IBV_QPS_RTS;
		err = ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_CUR_STATE);
		snprintf(what, sizeof(what),
			 "  a true CUR_STATE (RTS -> RTS from RTS) is taken: %s",
			 err ? strerror(err) : "yes");
		vu_check(&failures, !err && vu_qp_state(qp) == IBV_QPS_RTS,
			 what);
	}
	ibv_destroy_qp(qp);
	ibv_destroy_cq(cq);
}

int main(int argc, char **argv)
{
	struct ibv_context *ctx;
	struct ibv_pd *pd;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: %s DEV [SECONDS]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		doorbell_max_s = atof(argv[2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin(0);
	printf("uid %u\n", (unsigned int)getuid());
	ctx = vu_open(argv[1]);
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cur_state(ctx, pd, IBV_QPT_RC, "RC");
	cur_state(ctx, pd, IBV_QPT_UD, "UD");
	flush(ctx, pd, IBV_QPT_UD, "UD");
	flush(ctx, pd, IBV_QPT_RC, "RC");
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return failures ? 1 : 0;
}
