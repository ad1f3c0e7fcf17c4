// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_ring_fuzz: a process that does to its rings what a hostile or
 * broken one can. Every ring the device maps into a process is memory the
 * process may write at any time: producer and consumer indices, and WQEs
 * after the doorbell rang. The kernel must take what it finds there as
 * untrusted: errors come back as verbs errors (a failed post, an error
 * completion, a QP in ERR, a CQ_ERR event), never as a splat, memory
 * corruption or a kworker that spins.
 *
 *   verbs_ring_fuzz DEV GID_INDEX SEED ROUNDS
 *
 * Two RC QPs of DEV connected to each other through GID_INDEX, the
 * receiver on an SRQ. Each round does one of: a WRITE or a SEND; a random
 * producer or consumer index written into one of the process's rings; a
 * slot of a ring overwritten with random bytes; a work request with a
 * random opcode, SGE count, length and keys; a CQ or SRQ resized; the
 * pair destroyed and made again. Then, with the last pair's rings as the
 * fuzz left them, the kernel's CPU time is read for 2 s (a spinning
 * engine would show), everything is destroyed, and a fresh pair must
 * move 64 KiB byte for byte. Same SEED, same rounds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "verbs_util.h"

#define die vu_die

#define BUF		(64 * 1024)
#define DEPTH		64
#define MAX_MAPS	64
#define RECREATE_EVERY	200

/* The rings of the pair, each a mapping of the uverbs device: a struct
 * rxe_queue_buf header, then the slots.
 */
enum ring_kind { CQ_A, CQ_B, SRQ, SQ_A, RQ_A, SQ_B, NR_RINGS };

struct pair {
	struct ibv_cq *cq_a, *cq_b;
	struct ibv_srq *srq;
	struct ibv_qp *a, *b;
	struct vu_map ring[NR_RINGS];
};

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static uint8_t *buf;
static union ibv_gid gid;
static int gid_index;

/* What the rounds did and what came back, printed at the end. */
static struct {
	unsigned long posts, post_errors, index_writes, wild_indices;
	unsigned long scribbles, bad_wrs, resizes, resize_errors, recreates;
	unsigned long wc_ok, wc_err, async_events;
} n;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

static uint32_t rnd(void)
{
	return (uint32_t)random() ^ ((uint32_t)random() << 16);
}

/* The mappings of now that were not in old[count]: what a create or a
 * resize just mapped (a resize may map the new ring where the old was,
 * but never at the old ring's offset). Returns how many (at most two, first in new[0]).
 */
static int new_maps(const struct vu_map *old, int count, struct vu_map *new)
{
	struct vu_map now[MAX_MAPS];
	int k, i, j, found = 0;

	k = vu_device_maps(now, MAX_MAPS, sizeof(struct rxe_queue_buf));

	for (i = 0; i < k; i++) {
		for (j = 0; j < count && old[j].offset != now[i].offset; j++)
			;
		if (j == count && found < 2)
			new[found++] = now[i];
	}
	return found;
}

static unsigned int elem_size(const struct vu_map *m)
{
	return 1U << ((struct rxe_queue_buf *)m->addr)->log2_elem_size;
}

static void connect_qp(struct ibv_qp *qp, uint32_t peer_qpn)
{
	struct vu_conn c = vu_conn(peer_qpn, &gid, gid_index,
				   IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ |
				   IBV_ACCESS_REMOTE_ATOMIC);

	/* Retries are short: a fuzzed QP that waits for an ACK that will
	 * not come should fail in seconds, not in the patient minutes
	 * vu_conn() allows.
	 */
	c.timeout = 10;
	c.retry_cnt = 2;
	c.rnr_retry = 2;
	if (vu_rc_connect(qp, &c))
		die("INIT, RTR or RTS");
}

/* Records the rings a create or resize mapped since old[count] was
 * taken: want of them, as first and, for a QP with both queues, second
 * (the send queue's slots are the larger: a send WQE holds the remote
 * address and more SGEs).
 */
static void record_rings(struct pair *p, const struct vu_map *old, int count,
		   int want, enum ring_kind first, enum ring_kind second)
{
	struct vu_map new[2], t;

	if (new_maps(old, count, new) != want)
		die("the rings did not show up as the rxe provider maps them");
	if (want == 2 && elem_size(&new[0]) < elem_size(&new[1])) {
		t = new[0];
		new[0] = new[1];
		new[1] = t;
	}
	if (want >= 1)
		p->ring[first] = new[0];
	if (want == 2)
		p->ring[second] = new[1];
}

static void pair_create(struct pair *p)
{
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = DEPTH, .max_sge = 2 },
	};
	struct ibv_qp_init_attr qa = {
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH,
			 .max_send_sge = 4, .max_recv_sge = 2,
			 .max_inline_data = 64 },
		.qp_type = IBV_QPT_RC,
	};

	struct vu_map old[MAX_MAPS];
	int count;

	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	p->cq_a = ibv_create_cq(ctx, 2 * DEPTH, NULL, NULL, 0);
	if (!p->cq_a)
		die("ibv_create_cq");
	record_rings(p, old, count, 1, CQ_A, CQ_A);
	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	p->cq_b = ibv_create_cq(ctx, 2 * DEPTH, NULL, NULL, 0);
	if (!p->cq_b)
		die("ibv_create_cq");
	record_rings(p, old, count, 1, CQ_B, CQ_B);
	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	p->srq = ibv_create_srq(pd, &sa);
	if (!p->srq)
		die("ibv_create_srq");
	record_rings(p, old, count, 1, SRQ, SRQ);
	qa.send_cq = qa.recv_cq = p->cq_a;
	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	p->a = ibv_create_qp(pd, &qa);
	if (!p->a)
		die("ibv_create_qp");
	record_rings(p, old, count, 2, SQ_A, RQ_A);
	qa.send_cq = qa.recv_cq = p->cq_b;
	qa.srq = p->srq;
	count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf));
	p->b = ibv_create_qp(pd, &qa);
	if (!p->b)
		die("ibv_create_qp");
	record_rings(p, old, count, 1, SQ_B, SQ_B);
	if (elem_size(&p->ring[SQ_A]) == elem_size(&p->ring[RQ_A]))
		die("cannot tell the send queue from the receive queue");
	connect_qp(p->a, p->b->qp_num);
	connect_qp(p->b, p->a->qp_num);
}

static void pair_destroy(struct pair *p)
{
	if (ibv_destroy_qp(p->a) || ibv_destroy_qp(p->b) ||
	    ibv_destroy_srq(p->srq) || ibv_destroy_cq(p->cq_a) ||
	    ibv_destroy_cq(p->cq_b))
		die("destroying a pair");
}

static void post_recv(struct pair *p)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)buf + BUF,
		.length = BUF,
		.lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { .sg_list = &sge, .num_sge = 1 }, *bad;

	if (ibv_post_srq_recv(p->srq, &wr, &bad))
		n.post_errors++;
}

/* A WRITE or a SEND of a random length from the first half of buf to
 * the second.
 */
static void post_good(struct pair *p)
{
	bool send = rnd() % 2;
	uint32_t len = rnd() % BUF;

	if (send)
		post_recv(p);
	n.posts++;
	if (vu_post(p->a, mr, buf, len, send ? IBV_WR_SEND : IBV_WR_RDMA_WRITE,
		    (uintptr_t)buf + BUF, mr->rkey))
		n.post_errors++;
}

/* Whatever the provider lets through: it checks the SGE count and the
 * inline size, the kernel everything else. No BIND_MW and no inline: the
 * provider would follow the request's pointers itself.
 */
static void post_bad(struct ibv_qp *qp)
{
	struct ibv_sge sge[4];
	struct ibv_send_wr wr = {
		.wr_id = rnd(),
		.sg_list = sge,
		.num_sge = rnd() % 5,
		.opcode = rnd() % 16,
		.send_flags = rnd() & (IBV_SEND_SIGNALED | IBV_SEND_FENCE |
				       IBV_SEND_SOLICITED),
		.wr.rdma = { .remote_addr = rnd() % 2 ? (uintptr_t)buf + BUF :
					    ((uint64_t)rnd() << 32 | rnd()),
			     .rkey = rnd() % 2 ? mr->rkey : rnd() },
	}, *bad;
	int i;

	if (wr.opcode == IBV_WR_BIND_MW)
		wr.opcode = IBV_WR_SEND_WITH_INV;
	for (i = 0; i < 4; i++) {
		sge[i].addr = rnd() % 2 ? (uintptr_t)buf : (uint64_t)rnd() << 12;
		sge[i].length = rnd() % 3 ? rnd() % BUF : rnd();
		sge[i].lkey = rnd() % 2 ? mr->lkey : rnd();
	}
	n.bad_wrs++;
	if (ibv_post_send(qp, &wr, &bad))
		n.post_errors++;
}

/* A random index in a random ring. The kernel reads the producer index
 * of a work queue and the consumer index of a CQ, and writes the others;
 * it must trust neither. The provider in this process adds the very
 * indices the kernel reads to the ring's address unmasked: a wild one
 * there (beyond index_mask) is left for the kernel for 20 ms, made to
 * read it by a doorbell, a message that takes a receive WQE or one that
 * completes into the CQ, and is then masked back before the provider
 * uses the ring again.
 */
static void write_index(struct pair *p)
{
	static const uint32_t edge[] = { 1, 0x7fffffff, 0x80000000,
					 0xffffffff, 0xfffffffe };
	enum ring_kind k = rnd() % NR_RINGS;
	struct rxe_queue_buf *q = (struct rxe_queue_buf *)p->ring[k].addr;
	bool cq = k == CQ_A || k == CQ_B, prod = rnd() % 2;
	uint32_t *field = prod ? &q->producer_index : &q->consumer_index;
	uint32_t v = rnd() % 2 ? rnd() : edge[rnd() % 5];

	n.index_writes++;
	__atomic_store_n(field, v, __ATOMIC_RELEASE);
	if (v <= q->index_mask || prod == cq)
		return;
	n.wild_indices++;
	if (k == SQ_A || k == SQ_B)
		vu_doorbell(k == SQ_A ? p->a : p->b);
	else if (k == RQ_A || k == SRQ)
		vu_post(k == RQ_A ? p->b : p->a, mr, buf, 64, IBV_WR_SEND, 0, 0);
	else
		vu_post(k == CQ_A ? p->a : p->b, mr, buf, 64,
			IBV_WR_RDMA_WRITE, (uintptr_t)buf + BUF, mr->rkey);
	sleep_ms(20);
	__atomic_store_n(field, v & q->index_mask, __ATOMIC_RELEASE);
}

/* Random bytes over one slot of a random ring: a WQE rewritten after the
 * doorbell, a CQE the process scribbled on.
 */
static void scribble(struct pair *p)
{
	struct vu_map *m = &p->ring[rnd() % NR_RINGS];
	struct rxe_queue_buf *q = (struct rxe_queue_buf *)m->addr;
	size_t len = 1UL << q->log2_elem_size, off, i;

	off = (size_t)(rnd() & q->index_mask) * len;
	if (sizeof(*q) + off + len > m->len)
		die("a ring smaller than its header says");
	for (i = 0; i < len; i++)
		q->data[off + i] = rnd();
	n.scribbles++;
}

static void resize(struct pair *p)
{
	struct ibv_srq_attr sa = { .max_wr = 1 + rnd() % (4 * DEPTH) };
	enum ring_kind k = rnd() % 3 ? (rnd() % 2 ? CQ_A : CQ_B) : SRQ;
	struct vu_map old[MAX_MAPS];
	int count = vu_device_maps(old, MAX_MAPS, sizeof(struct rxe_queue_buf)), err;

	n.resizes++;
	if (k == SRQ)
		err = ibv_modify_srq(p->srq, &sa, IBV_SRQ_MAX_WR);
	else
		err = ibv_resize_cq(k == CQ_A ? p->cq_a : p->cq_b,
				    1 + rnd() % (8 * DEPTH));
	record_rings(p, old, count, !err, k, k);
	if (err)
		n.resize_errors++;
}

static void poll_all(struct pair *p)
{
	struct ibv_cq *cq[] = { p->cq_a, p->cq_b };
	struct ibv_async_event ev;
	struct ibv_wc wc[16];
	int i, k, got;

	for (i = 0; i < 2; i++) {
		/* A scribbled producer index may show a whole ring of CQEs. */
		for (k = 0; k < 1024; k++) {
			got = ibv_poll_cq(cq[i], 16, wc);
			if (got <= 0)
				break;
			while (got--)
				if (wc[got].status == IBV_WC_SUCCESS)
					n.wc_ok++;
				else
					n.wc_err++;
		}
	}
	while (!ibv_get_async_event(ctx, &ev)) {
		n.async_events++;
		ibv_ack_async_event(&ev);
	}
}

/* Jiffies the kernel spent (system, irq, softirq) over ms, all CPUs. */
static unsigned long long kernel_ticks(void)
{
	unsigned long long user, nice, sys, idle, iow, irq, sirq;
	FILE *f = fopen("/proc/stat", "r");

	if (!f || fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu", &user,
			 &nice, &sys, &idle, &iow, &irq, &sirq) != 7)
		die("/proc/stat");
	fclose(f);
	return sys + irq + sirq;
}

/* A fresh pair moves 64 KiB by WRITE, every byte checked. */
static bool verify_fresh(void)
{
	struct ibv_wc wc;
	struct pair p;
	int i, got = 0;

	pair_create(&p);
	for (i = 0; i < BUF; i++) {
		buf[i] = (uint8_t)(i * 7 + 3);
		buf[BUF + i] = 0;
	}
	if (vu_post(p.a, mr, buf, BUF, IBV_WR_RDMA_WRITE,
		    (uintptr_t)buf + BUF, mr->rkey))
		return false;
	for (i = 0; i < 1000 && !got; i++) {
		got = ibv_poll_cq(p.cq_a, 1, &wc);
		if (!got)
			sleep_ms(10);
	}
	pair_destroy(&p);
	return got == 1 && wc.status == IBV_WC_SUCCESS &&
	       !memcmp(buf, buf + BUF, BUF);
}

int main(int argc, char **argv)
{
	unsigned long long t0, busy;
	int failures = 0, round, rounds;
	struct pair p;
	char what[128];

	if (argc != 5)
		die("usage: verbs_ring_fuzz DEV GID_INDEX SEED ROUNDS");
	ctx = vu_open(argv[1]);
	gid_index = atoi(argv[2]);
	srandom(strtoul(argv[3], NULL, 0));
	rounds = atoi(argv[4]);
	if (ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_gid");
	vu_async_nonblock(ctx);
	pd = ibv_alloc_pd(ctx);
	buf = calloc(2, BUF);
	if (!pd || !buf)
		die("ibv_alloc_pd or calloc");
	mr = ibv_reg_mr(pd, buf, 2 * BUF, IBV_ACCESS_LOCAL_WRITE |
			IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_ATOMIC);
	if (!mr)
		die("ibv_reg_mr");

	pair_create(&p);
	for (round = 1; round <= rounds; round++) {
		switch (rnd() % 8) {
		case 0:
		case 1:
			post_good(&p);
			break;
		case 2:
			write_index(&p);
			post_good(&p);
			break;
		case 3:
			scribble(&p);
			post_good(&p);
			break;
		case 4:
			post_bad(rnd() % 2 ? p.a : p.b);
			break;
		case 5:
			resize(&p);
			break;
		default:
			break;
		}
		poll_all(&p);
		if (round % RECREATE_EVERY == 0 && round < rounds) {
			pair_destroy(&p);
			pair_create(&p);
			n.recreates++;
		}
	}

	t0 = kernel_ticks();
	sleep_ms(2000);
	busy = kernel_ticks() - t0;
	poll_all(&p);
	pair_destroy(&p);

	printf("%d rounds (seed %s): %lu posts, %lu index writes (%lu wild), %lu slots scribbled, %lu bad WRs, %lu resizes, %lu pairs made again\n",
	       rounds, argv[3], n.posts, n.index_writes, n.wild_indices,
	       n.scribbles, n.bad_wrs, n.resizes, n.recreates);
	/* A wild CQ producer index shows old and scribbled slots as CQEs:
	 * the counts are of what was read, not of what completed.
	 */
	printf("came back: %lu posts and %lu resizes refused, %lu CQEs read with status success, %lu with an error, %lu async events\n",
	       n.post_errors, n.resize_errors, n.wc_ok, n.wc_err,
	       n.async_events);
	/* Idle, the kernel takes a few ticks of the 2 s; an engine spinning
	 * on a ring takes a whole CPU, 200 of the 100 Hz ticks.
	 */
	snprintf(what, sizeof(what),
		 "the kernel idles with the fuzzed rings left as they are (%llu ticks of 2 s, at most 100)",
		 busy);
	vu_check(&failures, busy <= 100, what);
	vu_check(&failures, verify_fresh(),
		 "a fresh pair moves 64 KiB by WRITE, every byte intact");
	return failures ? 1 : 0;
}
