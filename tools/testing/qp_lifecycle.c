// SPDX-License-Identifier: GPL-2.0
/*
 * qp_lifecycle: a QP's state changes while its peer floods it, for
 * selftests/qp_lifecycle.sh. One process opens two RDMA devices and
 * connects RC QPs between them by their GIDs.
 *
 *   qp_lifecycle DEV_A GID_INDEX_A DEV_B GID_INDEX_B MODE SECONDS
 *
 * In every mode but "reuse", a thread keeps B's QP writing 64 KiB
 * messages to A's region, 16 in flight, and when B's QP fails (as it
 * does whenever A's goes away under it) moves it through RESET back to
 * RTS towards A's QP of the moment. Meanwhile, for SECONDS, A's QP:
 *
 *   reset    posts WRITEs to B and goes RTS -> RESET -> INIT -> RTR -> RTS
 *            at once, with its sends and B's packets in flight
 *   sqd      posts WRITEs, goes RTS -> SQD, changes its address vector
 *            eight times in SQD, and goes back to RTS
 *   destroy  is created, connected, posts WRITEs and is destroyed at once
 *   reuse    (no flood) sends 100 SENDs, both QPs go through RESET and
 *            are connected again, 100 more: every one must complete with
 *            success and every byte must land
 *
 * A's QP may fail under the flood (its WRITEs out of retries, on a slow
 * kernel): it is then reset, connected again and counted. Prints what it
 * did; exits 0 if every verb the mode expects to succeed did, 1
 * otherwise. The kernel's part (no splat, no leak) is the
 * script's to check.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define MSG		65536
#define BUF_LEN		(16 * MSG)
#define FLOOD_DEPTH	16
#define CQ_DEPTH	256
#define REUSE_MSGS	100
#define REUSE_LEN	4096
#define CQE_TIMEOUT	30

static struct vu_side a, b;
/* A's QP number of the moment, for the flood to connect to. */
static pthread_mutex_t a_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t a_qpn;
/* Times A's QP was found in the error state and started again. */
static unsigned long a_errors;
static atomic_bool done;

#define die vu_die

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct ibv_qp *qp_create(struct vu_side *s)
{
	return vu_rc_qp(s->pd, s->cq, 64);
}

static int to_state(struct ibv_qp *qp, enum ibv_qp_state st)
{
	struct ibv_qp_attr attr = { .qp_state = st };

	return ibv_modify_qp(qp, &attr, IBV_QP_STATE);
}

static void av_fill(struct ibv_ah_attr *ah, const struct vu_side *s,
		    const struct vu_side *peer, uint32_t flow_label)
{
	memset(ah, 0, sizeof(*ah));
	ah->is_global = 1;
	ah->grh.dgid = peer->gid;
	ah->grh.sgid_index = s->gid_index;
	ah->grh.hop_limit = 64;
	ah->grh.flow_label = flow_label;
	ah->port_num = 1;
}

/* RESET -> INIT -> RTR -> RTS towards the peer's QP number peer_qpn.
 * Short timeouts and few retries: a QP whose peer went away fails soon.
 */
static int qp_connect(struct vu_side *s, const struct vu_side *peer,
		      uint32_t peer_qpn)
{
	struct vu_conn c = vu_conn(peer_qpn, &peer->gid, s->gid_index,
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ);

	c.timeout = 10;
	c.retry_cnt = 2;
	c.rnr_retry = 2;
	c.min_rnr_timer = 1;
	return vu_rc_connect(s->qp, &c);
}

/* A SEND, or an RDMA WRITE to the same offset of the peer's region. */
static int post_op(struct vu_side *s, const struct vu_side *peer,
		   enum ibv_wr_opcode op, uint64_t id, size_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf + off,
		.length = len,
		.lkey = s->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = id,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.wr.rdma = { .remote_addr = (uintptr_t)peer->buf + off,
			     .rkey = peer->mr->rkey },
	}, *bad;

	return ibv_post_send(s->qp, &wr, &bad);
}

static int post_write(struct vu_side *s, const struct vu_side *peer,
		      uint64_t id, size_t off, uint32_t len)
{
	return post_op(s, peer, IBV_WR_RDMA_WRITE, id, off, len);
}

static int post_recv(struct vu_side *s, uint64_t id, size_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)s->buf + off,
		.length = len,
		.lkey = s->mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = id,
		.sg_list = &sge,
		.num_sge = 1,
	}, *bad;

	return ibv_post_recv(s->qp, &wr, &bad);
}

/* B writes to A's region without pause, and reconnects to A's QP of the
 * moment whenever its own failed or A's changed.
 */
static void *flood(void *arg)
{
	unsigned long ok = 0, failed = 0, reconnects = 0;
	uint32_t target = 0;
	int inflight = 0, n, i;
	struct ibv_wc wc[16];
	uint64_t id = 0;
	bool broken = true;

	(void)arg;
	while (!atomic_load(&done)) {
		pthread_mutex_lock(&a_lock);
		if (a_qpn != target)
			broken = true;
		if (broken && a_qpn) {
			target = a_qpn;
			vu_drain(b.cq);
			inflight = 0;
			to_state(b.qp, IBV_QPS_RESET);
			vu_drain(b.cq);
			broken = qp_connect(&b, &a, target) != 0;
			reconnects++;
		}
		pthread_mutex_unlock(&a_lock);
		if (broken) {
			usleep(1000);
			continue;
		}
		while (inflight < FLOOD_DEPTH &&
		       !post_write(&b, &a, id, (id % 16) * MSG, MSG)) {
			id++;
			inflight++;
		}
		n = ibv_poll_cq(b.cq, 16, wc);
		for (i = 0; i < n; i++) {
			inflight--;
			if (wc[i].status == IBV_WC_SUCCESS) {
				ok++;
			} else {
				failed++;
				broken = true;
			}
		}
	}
	printf("B: %lu WRITEs completed, %lu failed, %lu reconnects\n",
	       ok, failed, reconnects);
	return NULL;
}

static void a_connect(void)
{
	if (qp_connect(&a, &b, b.qp->qp_num))
		die("connecting A");
	pthread_mutex_lock(&a_lock);
	a_qpn = a.qp->qp_num;
	pthread_mutex_unlock(&a_lock);
}

static void a_post_some(void)
{
	int i;

	for (i = 0; i < 8; i++)
		if (post_write(&a, &b, i, i * MSG, MSG))
			break;
}

static unsigned long mode_reset(double end)
{
	unsigned long cycles = 0;

	while (now() < end) {
		a_post_some();
		if (to_state(a.qp, IBV_QPS_RESET))
			die("RTS -> RESET");
		vu_drain(a.cq);
		if (qp_connect(&a, &b, b.qp->qp_num))
			die("RESET -> RTS");
		cycles++;
	}
	return cycles;
}

/* A modify of A's QP failed: allowed only if the QP went to the error
 * state under it (its WRITEs ran out of retries, as on a slow kernel
 * with a 1 ms RTO); A then starts again from RESET.
 */
static void a_recover(const char *what)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(a.qp, &attr, IBV_QP_STATE, &init) ||
	    attr.qp_state != IBV_QPS_ERR)
		die(what);
	if (to_state(a.qp, IBV_QPS_RESET))
		die("ERR -> RESET");
	vu_drain(a.cq);
	if (qp_connect(&a, &b, b.qp->qp_num))
		die("RESET -> RTS");
	a_errors++;
}

static unsigned long mode_sqd(double end)
{
	unsigned long cycles = 0;
	struct ibv_qp_attr attr;
	uint32_t k;

	while (now() < end) {
		cycles++;
		a_post_some();
		if (to_state(a.qp, IBV_QPS_SQD)) {
			a_recover("RTS -> SQD");
			continue;
		}
		for (k = 1; k <= 8; k++) {
			memset(&attr, 0, sizeof(attr));
			attr.qp_state = IBV_QPS_SQD;
			av_fill(&attr.ah_attr, &a, &b, k);
			attr.ah_attr.grh.traffic_class = (k & 1) << 2;
			if (ibv_modify_qp(a.qp, &attr, IBV_QP_STATE | IBV_QP_AV))
				break;
		}
		if (k <= 8) {
			a_recover("SQD -> SQD with a new address vector");
			continue;
		}
		if (to_state(a.qp, IBV_QPS_RTS))
			a_recover("SQD -> RTS");
		vu_drain(a.cq);
	}
	return cycles;
}

static unsigned long mode_destroy(double end)
{
	unsigned long cycles = 0;

	while (now() < end) {
		if (ibv_destroy_qp(a.qp))
			die("ibv_destroy_qp");
		vu_drain(a.cq);
		a.qp = qp_create(&a);
		if (!a.qp)
			die("ibv_create_qp");
		a_connect();
		a_post_some();
		usleep(rand() % 2000);
		cycles++;
	}
	return cycles;
}

/* Wait for n successful completions on s; false on an error or timeout. */
static bool reap(struct vu_side *s, int n)
{
	double end = now() + CQE_TIMEOUT;
	struct ibv_wc wc;
	int got;

	while (n > 0 && now() < end) {
		got = ibv_poll_cq(s->cq, 1, &wc);
		if (got < 0)
			return false;
		if (!got)
			continue;
		if (wc.status != IBV_WC_SUCCESS) {
			printf("reuse: completion %s\n", ibv_wc_status_str(wc.status));
			return false;
		}
		n--;
	}
	return !n;
}

/* REUSE_MSGS SENDs of a fresh pattern, each received in its own slot:
 * each takes a receive WQE, so a message number, which a reset must
 * start again on both sides.
 */
static bool reuse_round(unsigned int round)
{
	int i, n;

	for (i = 0; i < BUF_LEN; i++)
		a.buf[i] = (uint8_t)(i * 7 + round * 13 + 1);
	for (i = 0; i < REUSE_MSGS; i += n) {
		n = REUSE_MSGS - i < 32 ? REUSE_MSGS - i : 32;
		for (int j = i; j < i + n; j++)
			if (post_recv(&b, j, (size_t)j * REUSE_LEN, REUSE_LEN) ||
			    post_op(&a, &b, IBV_WR_SEND, j, (size_t)j * REUSE_LEN,
				    REUSE_LEN))
				return false;
		if (!reap(&a, n) || !reap(&b, n))
			return false;
	}
	return !memcmp(a.buf, b.buf, (size_t)REUSE_MSGS * REUSE_LEN);
}

static int mode_reuse(void)
{
	bool first, second;

	first = reuse_round(0);
	printf("reuse: first connection: %d SENDs %s\n", REUSE_MSGS,
	       first ? "landed" : "FAILED");
	if (to_state(a.qp, IBV_QPS_RESET) || to_state(b.qp, IBV_QPS_RESET))
		die("RESET");
	vu_drain(a.cq);
	vu_drain(b.cq);
	if (qp_connect(&a, &b, b.qp->qp_num) || qp_connect(&b, &a, a.qp->qp_num))
		die("reconnecting after RESET");
	second = reuse_round(1);
	printf("reuse: after RESET: %d SENDs %s\n", REUSE_MSGS,
	       second ? "landed" : "FAILED");
	return first && second ? 0 : 1;
}

int main(int argc, char **argv)
{
	unsigned long cycles;
	const char *mode;
	pthread_t thr;
	double end;

	if (argc != 7) {
		fprintf(stderr,
			"usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B reset|sqd|destroy|reuse SECONDS\n",
			argv[0]);
		return 2;
	}
	mode = argv[5];
	vu_side_open(&a, argv[1], atoi(argv[2]), CQ_DEPTH);
	vu_side_buf(&a, BUF_LEN, 0, 0, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
		    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	vu_side_open(&b, argv[3], atoi(argv[4]), CQ_DEPTH);
	vu_side_buf(&b, BUF_LEN, 0, 0, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
		    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
	a.qp = qp_create(&a);
	b.qp = qp_create(&b);
	if (!a.qp || !b.qp)
		die("ibv_create_qp");
	if (!strcmp(mode, "reuse")) {
		if (qp_connect(&b, &a, a.qp->qp_num))
			die("connecting B");
		a_connect();
		return mode_reuse();
	}

	a_connect();
	if (pthread_create(&thr, NULL, flood, NULL))
		die("pthread_create");
	end = now() + atof(argv[6]);
	if (!strcmp(mode, "reset"))
		cycles = mode_reset(end);
	else if (!strcmp(mode, "sqd"))
		cycles = mode_sqd(end);
	else if (!strcmp(mode, "destroy"))
		cycles = mode_destroy(end);
	else
		die("unknown mode");
	atomic_store(&done, true);
	pthread_join(thr, NULL);
	printf("%s: %lu cycles of QP A, %lu from the error state\n", mode,
	       cycles, a_errors);
	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) ||
	    vu_side_close(&a) || vu_side_close(&b))
		die("teardown");
	return 0;
}
