// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_ud: user UD QPs of one device sending to each other through the
 * device's own address (the datagrams go through IP and back, as to
 * another host), and what the kernel must do with UD WQEs a process
 * wrote, or rewrote, in its rings.
 *
 *   verbs_ud DEV GID_INDEX
 *
 * GID_INDEX is an IPv4 GID of port 1. Checks, one line each ("ok: ..."
 * or "FAIL: ..."):
 * - SEND and SEND with immediate of 1 byte to the path MTU, three SGEs
 *   each way, inline data: every payload byte arrives, behind a 40-byte
 *   GRH area whose last 20 bytes are the packet's IPv4 header; the receive
 *   completion says GRH, immediate, the sender's QPN, the length with the
 *   40 bytes;
 * - a datagram with the wrong Q_Key is dropped (counted in drop_access),
 *   the next one arrives;
 * - a send longer than the path MTU, an RDMA WRITE, a QPN over 16 bits
 *   complete in error and move the QP to SQE, which flushes what follows
 *   until the QP is moved back to RTS (IBA: UD send errors);
 * - WQEs written into the ring as librxe writes them, but past its
 *   checks: the kernel takes the length from the SGEs, never from
 *   dma.length, and fails too many SGEs, inline data over the QP's
 *   limit, an unknown opcode, an address vector of another port, of no
 *   network type or with a source address that is not the device's; a
 *   receive WQE rewritten to too many SGEs fails and moves its QP to ERR;
 * - a send posted before RTS fails (EINVAL, as on rdma_rxe) and is not
 *   sent later;
 * - two UD QPs on one SRQ: no RQ of their own (max_recv_wr and
 *   max_recv_sge 0, ibv_post_recv fails), the SRQ not destroyed while they
 *   use it; datagrams from two senders to either QP take the SRQ's WQEs in
 *   order, every byte and the GRH area compared, src_qp the sender's, one
 *   WQE of more SGEs than the QPs' own RQs could hold; an empty SRQ drops
 *   the datagram (counted in drop_backlog); a WQE too small completes with
 *   IBV_WC_LOC_LEN_ERR and the QP goes on; the limit event
 *   (IBV_EVENT_SRQ_LIMIT_REACHED) comes once the SRQ holds fewer WQEs than
 *   the limit, not before, and disarms it; a QP of the SRQ moved to ERR
 *   flushes none of the SRQ's WQEs, the other QP takes them.
 * Exits 1 if a check failed.
 */
#include <arpa/inet.h>
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

#define QKEY		0x11111111u
#define GRH		40
#define BUF		(64 * 1024)
#define DEPTH		16
#define MAX_SGE		4
#define MAX_INLINE	64

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static uint8_t *buf;
static union ibv_gid gid;
static int gid_index;
static struct ibv_ah *ah;
static uint32_t mtu;
static const char *dev;
static int failures;
static uint64_t next_id = 0x5dd0000000000000ull;

struct end {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The next completion of cq within 5 s; false if none came. */
static bool wait_wc(struct ibv_cq *cq, struct ibv_wc *wc)
{
	*wc = vu_wait_wc(cq, 5);
	return wc->status != (enum ibv_wc_status)-1;
}

static int modify(struct ibv_qp *qp, enum ibv_qp_state state)
{
	struct ibv_qp_attr attr = {
		.qp_state = state,
		.port_num = 1,
		.qkey = QKEY,
	};
	int mask = IBV_QP_STATE;

	if (state == IBV_QPS_INIT)
		mask |= IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY;
	if (state == IBV_QPS_RTS)
		mask |= IBV_QP_SQ_PSN;
	return ibv_modify_qp(qp, &attr, mask);
}

/* RESET (from anywhere) -> INIT -> RTR, and on to RTS if rts. */
static void bring_up(struct ibv_qp *qp, bool rts)
{
	if (modify(qp, IBV_QPS_RESET) || modify(qp, IBV_QPS_INIT) ||
	    modify(qp, IBV_QPS_RTR) || (rts && modify(qp, IBV_QPS_RTS)))
		die("ibv_modify_qp of a UD QP");
}

/* A UD QP in RTS on a CQ of its own, receiving from srq if not NULL. */
static struct end ud_end_srq(struct ibv_srq *srq)
{
	struct ibv_qp_init_attr init = {
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH,
			 .max_send_sge = MAX_SGE, .max_recv_sge = MAX_SGE,
			 .max_inline_data = MAX_INLINE },
		.srq = srq,
		.qp_type = IBV_QPT_UD,
		.sq_sig_all = 1,
	};
	struct end e;

	e.cq = ibv_create_cq(ctx, 4 * DEPTH, NULL, NULL, 0);
	if (!e.cq)
		die("ibv_create_cq");
	init.send_cq = e.cq;
	init.recv_cq = e.cq;
	e.qp = ibv_create_qp(pd, &init);
	if (!e.qp)
		die("ibv_create_qp of a UD QP");
	bring_up(e.qp, true);
	return e;
}

static struct end ud_end(void)
{
	return ud_end_srq(NULL);
}

/* The receiver's pass may run after the sender's post returned (another
 * CPU's work item): its outcome is waited for, up to 5 s.
 */
static bool wait_state(struct ibv_qp *qp, enum ibv_qp_state state)
{
	double end = now_s() + 5;

	while (vu_qp_state(qp) != state)
		if (now_s() >= end)
			return false;
	return true;
}

static void post_recv(struct end *e, uint64_t id, struct ibv_sge *sge, int n)
{
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n };
	struct ibv_recv_wr *bad;

	if (ibv_post_recv(e->qp, &wr, &bad))
		die("ibv_post_recv");
}

static void post_send(struct end *e, uint64_t id, struct ibv_sge *sge, int n,
		      enum ibv_wr_opcode op, unsigned int flags, uint32_t imm,
		      uint32_t qpn, uint32_t qkey)
{
	struct ibv_send_wr wr = {
		.wr_id = id,
		.sg_list = sge,
		.num_sge = n,
		.opcode = op,
		.send_flags = flags,
		.imm_data = htonl(imm),
		.wr.ud = { .ah = ah, .remote_qpn = qpn, .remote_qkey = qkey },
	}, *bad;

	if (ibv_post_send(e->qp, &wr, &bad))
		die("ibv_post_send");
}

static struct ibv_sge sge_at(size_t off, uint32_t len)
{
	struct ibv_sge s = {
		.addr = (uintptr_t)(buf + off),
		.length = len,
		.lkey = mr->lkey,
	};

	return s;
}

static void fill(size_t off, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[off + i] = rand();
}

/* The send of id on s completed with status; it was signaled. */
static bool send_done(struct end *s, uint64_t id, enum ibv_wc_status status)
{
	struct ibv_wc wc;

	if (!wait_wc(s->cq, &wc)) {
		printf("# no send completion for %#llx\n", (unsigned long long)id);
		return false;
	}
	if (wc.wr_id != id || wc.status != status || wc.opcode != IBV_WC_SEND) {
		printf("# send %#llx: wr_id %#llx status %s opcode %d\n",
		       (unsigned long long)id, (unsigned long long)wc.wr_id,
		       ibv_wc_status_str(wc.status), wc.opcode);
		return false;
	}
	return true;
}

/* The receive id on r completed, taking len bytes (plus the GRH area at
 * rbuf) from s, with immediate imm if with_imm.
 */
static bool recv_wc(struct end *r, struct end *s, uint64_t id,
		    const uint8_t *rbuf, uint32_t len, bool with_imm,
		    uint32_t imm)
{
	const uint8_t *ip = rbuf + 20;
	struct ibv_wc wc;

	if (!wait_wc(r->cq, &wc)) {
		printf("# no receive completion for %#llx\n", (unsigned long long)id);
		return false;
	}
	if (wc.wr_id != id || wc.status != IBV_WC_SUCCESS ||
	    wc.opcode != IBV_WC_RECV || wc.byte_len != len + GRH ||
	    !(wc.wc_flags & IBV_WC_GRH) || wc.src_qp != s->qp->qp_num ||
	    wc.qp_num != r->qp->qp_num ||
	    !!(wc.wc_flags & IBV_WC_WITH_IMM) != with_imm ||
	    (with_imm && ntohl(wc.imm_data) != imm)) {
		printf("# receive %#llx: wr_id %#llx status %s opcode %d byte_len %u flags %#x src_qp %u qp_num %u imm %#x\n",
		       (unsigned long long)id, (unsigned long long)wc.wr_id,
		       ibv_wc_status_str(wc.status), wc.opcode, wc.byte_len,
		       wc.wc_flags, wc.src_qp, wc.qp_num, ntohl(wc.imm_data));
		return false;
	}
	/* RoCE v2 over IPv4: the IP header in the GRH area's last 20 bytes. */
	if (ip[0] != 0x45 || ip[9] != IPPROTO_UDP ||
	    memcmp(ip + 12, gid.raw + 12, 4) || memcmp(ip + 16, gid.raw + 12, 4)) {
		printf("# receive %#llx: no IPv4 header from and to us in the GRH area\n",
		       (unsigned long long)id);
		return false;
	}
	return true;
}

/* The payload of receive id equals len bytes at want. */
static bool payload_ok(uint64_t id, const uint8_t *payload,
		       const uint8_t *want, uint32_t len)
{
	if (!memcmp(payload, want, len))
		return true;
	printf("# receive %#llx: payload differs\n", (unsigned long long)id);
	return false;
}

/* recv_wc(), and the payload equal to len bytes at want. */
static bool recv_done(struct end *r, struct end *s, uint64_t id,
		      const uint8_t *rbuf, uint32_t len, bool with_imm,
		      uint32_t imm, const uint8_t *payload, const uint8_t *want)
{
	return recv_wc(r, s, id, rbuf, len, with_imm, imm) &&
	       payload_ok(id, payload, want, len);
}

/* s sends len bytes in one SGE to r; both complete, the bytes arrive. */
static bool one_send(struct end *s, struct end *r, uint32_t len,
		     enum ibv_wr_opcode op, unsigned int flags)
{
	uint64_t sid = next_id++, rid = next_id++;
	uint32_t imm = rand();
	struct ibv_sge ss = sge_at(0, len), rs = sge_at(BUF / 2, GRH + len);

	fill(0, len);
	memset(buf + BUF / 2, 0xee, GRH + len);
	post_recv(r, rid, &rs, 1);
	post_send(s, sid, &ss, 1, op, flags, imm, r->qp->qp_num, QKEY);
	return send_done(s, sid, IBV_WC_SUCCESS) &&
	       recv_done(r, s, rid, buf + BUF / 2, len,
			 op == IBV_WR_SEND_WITH_IMM, imm, buf + BUF / 2 + GRH,
			 buf);
}

static void check_sizes(struct end *a, struct end *b)
{
	uint32_t sizes[] = { 1, 2, 63, 512, 1000, mtu }, i;
	bool ok = true;
	char what[128];

	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		ok = ok && one_send(a, b, sizes[i], i & 1 ? IBV_WR_SEND :
				    IBV_WR_SEND_WITH_IMM, 0);
	snprintf(what, sizeof(what),
		 "SEND and SEND with immediate of 1 .. %u bytes arrive whole behind a GRH", mtu);
	vu_check(&failures, ok, what);
}

static void check_sges(struct end *a, struct end *b)
{
	struct ibv_sge ss[3] = { sge_at(0, 100), sge_at(1000, 200), sge_at(3000, 300) };
	struct ibv_sge rs[3] = { sge_at(BUF / 2, GRH + 250), sge_at(BUF / 2 + 5000, 200),
				 sge_at(BUF / 2 + 9000, 400) };
	uint64_t sid = next_id++, rid = next_id++;
	uint8_t want[600], got[600];
	bool ok;

	fill(0, 4000);
	memcpy(want, buf, 100);
	memcpy(want + 100, buf + 1000, 200);
	memcpy(want + 300, buf + 3000, 300);
	post_recv(b, rid, rs, 3);
	post_send(a, sid, ss, 3, IBV_WR_SEND, 0, 0, b->qp->qp_num, QKEY);
	ok = send_done(a, sid, IBV_WC_SUCCESS) &&
	     recv_wc(b, a, rid, buf + BUF / 2, 600, false, 0);
	if (ok) {
		memcpy(got, buf + BUF / 2 + GRH, 250);
		memcpy(got + 250, buf + BUF / 2 + 5000, 200);
		memcpy(got + 450, buf + BUF / 2 + 9000, 150);
		ok = payload_ok(rid, got, want, 600);
	}
	vu_check(&failures, ok, "three SGEs each way: 600 bytes arrive in order");
}

static void check_inline(struct end *a, struct end *b)
{
	vu_check(&failures, one_send(a, b, 48, IBV_WR_SEND_WITH_IMM, IBV_SEND_INLINE),
		 "48 bytes of inline data arrive");
}

/* A datagram with another Q_Key, then one with the QP's: the first is
 * dropped and counted, the receive WQE takes the second (the path is one
 * queue, in order).
 */
static void check_qkey(struct end *a, struct end *b)
{
	uint64_t s1 = next_id++, s2 = next_id++, rid = next_id++;
	struct ibv_sge ss = sge_at(0, 64), rs = sge_at(BUF / 2, GRH + 64);
	long long before = vu_counter(dev, "drop_access");
	bool ok;

	fill(0, 64);
	post_recv(b, rid, &rs, 1);
	post_send(a, s1, &ss, 1, IBV_WR_SEND_WITH_IMM, 0, 1, b->qp->qp_num, QKEY + 1);
	ok = send_done(a, s1, IBV_WC_SUCCESS);
	post_send(a, s2, &ss, 1, IBV_WR_SEND_WITH_IMM, 0, 2, b->qp->qp_num, QKEY);
	ok = ok && send_done(a, s2, IBV_WC_SUCCESS) &&
	     recv_done(b, a, rid, buf + BUF / 2, 64, true, 2, buf + BUF / 2 + GRH, buf) &&
	     vu_counter_reaches(dev, "drop_access", before + 1, 5);
	vu_check(&failures, ok, "a datagram with a wrong Q_Key is dropped and counted");
}

/* After a send that completed in error: the QP is in SQE, a send posted
 * now is flushed, and back in RTS the QP sends again.
 */
static bool sqe_and_back(struct end *a, struct end *b)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTS, .cur_qp_state = IBV_QPS_SQE };
	uint64_t id = next_id++;
	struct ibv_sge ss = sge_at(0, 8);

	if (vu_qp_state(a->qp) != IBV_QPS_SQE) {
		printf("# the QP is in state %d, not SQE\n", vu_qp_state(a->qp));
		return false;
	}
	post_send(a, id, &ss, 1, IBV_WR_SEND, 0, 0, b->qp->qp_num, QKEY);
	if (!send_done(a, id, IBV_WC_WR_FLUSH_ERR))
		return false;
	if (ibv_modify_qp(a->qp, &attr, IBV_QP_STATE | IBV_QP_CUR_STATE)) {
		printf("# SQE -> RTS failed\n");
		return false;
	}
	return one_send(a, b, 100, IBV_WR_SEND, 0);
}

static void check_send_errors(struct end *a, struct end *b)
{
	struct ibv_sge ss = sge_at(0, mtu + 1);
	uint64_t id = next_id++;
	bool ok;

	post_send(a, id, &ss, 1, IBV_WR_SEND, 0, 0, b->qp->qp_num, QKEY);
	ok = send_done(a, id, IBV_WC_LOC_LEN_ERR) && sqe_and_back(a, b);
	vu_check(&failures, ok, "a send longer than the path MTU: IBV_WC_LOC_LEN_ERR, SQE, flush, RTS again");

	id = next_id++;
	ss.length = 64;
	post_send(a, id, &ss, 1, IBV_WR_RDMA_WRITE, 0, 0, b->qp->qp_num, QKEY);
	ok = send_done(a, id, IBV_WC_LOC_QP_OP_ERR) && sqe_and_back(a, b);
	vu_check(&failures, ok, "an RDMA WRITE on a UD QP: IBV_WC_LOC_QP_OP_ERR, SQE, flush, RTS again");

	id = next_id++;
	post_send(a, id, &ss, 1, IBV_WR_SEND, 0, 0, 0x10000 | b->qp->qp_num, QKEY);
	ok = send_done(a, id, IBV_WC_LOC_QP_OP_ERR) && sqe_and_back(a, b);
	vu_check(&failures, ok, "a QPN over 16 bits: IBV_WC_LOC_QP_OP_ERR, SQE, flush, RTS again");
}

/* A datagram to the subnet's broadcast address (the GID's IPv4 address
 * with 255 last, a /24) leaves nothing: the send completes, as a datagram
 * the network lost, and no packet is counted.
 */
static void check_broadcast(struct end *a, struct end *b)
{
	struct ibv_ah_attr attr = {
		.is_global = 1,
		.port_num = 1,
		.grh = { .dgid = gid, .sgid_index = gid_index, .hop_limit = 64 },
	};
	struct ibv_sge ss = sge_at(0, 64);
	struct ibv_ah *unicast = ah;
	uint64_t id = next_id++;
	long long tx;
	bool ok;

	attr.grh.dgid.raw[15] = 255;
	ah = ibv_create_ah(pd, &attr);
	if (!ah)
		die("ibv_create_ah (broadcast)");
	tx = vu_counter(dev, "tx_packets");
	post_send(a, id, &ss, 1, IBV_WR_SEND, 0, 0, b->qp->qp_num, QKEY);
	ok = send_done(a, id, IBV_WC_SUCCESS) &&
	     vu_counter(dev, "tx_packets") == tx;
	vu_check(&failures, ok, "a datagram to the subnet's broadcast address: nothing sent");
	if (ibv_destroy_ah(ah))
		die("ibv_destroy_ah");
	ah = unicast;
}

/* The slot of the WQE whose wr_id is id, in a ring this process maps:
 * slots follow the 384-byte header, each a power of two of 64 bytes or
 * more, and begin with the wr_id. A send WQE (ring set) has its opcode at
 * byte 12, where the completion of the same wr_id in a CQ has 0
 * (IBV_WC_SEND). *ring: where the ring's header is.
 */
static void *find_slot(uint64_t id, struct rxe_queue_buf **ring)
{
	char line[512];
	unsigned long lo, hi, off;
	FILE *f = fopen("/proc/self/maps", "r");
	void *slot = NULL;

	if (!f)
		die("/proc/self/maps");
	while (!slot && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "/dev/infiniband/uverbs") ||
		    sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		for (off = 384; off + 8 <= hi - lo; off += 64)
			if (*(uint64_t *)(lo + off) == id &&
			    (!ring || *(uint32_t *)(lo + off + 12) == IBV_WR_SEND)) {
				slot = (void *)(lo + off);
				if (ring)
					*ring = (struct rxe_queue_buf *)lo;
				break;
			}
	}
	fclose(f);
	if (!slot)
		die("a posted WQE is in none of the rings");
	return slot;
}

enum tamper {
	T_LENGTH, T_NUM_SGE, T_INLINE, T_OPCODE, T_PORT, T_NETTYPE, T_SGID,
};

/* A send queue and a WQE librxe wrote there, to write others like it. */
struct sq {
	struct rxe_queue_buf *ring;
	uint32_t elem;
	uint8_t *tmpl;
};

/* wqe written into the next slot of the ring, the producer index moved on
 * and the doorbell rung, as librxe does, but without its checks.
 */
static void inject(struct end *c, struct sq *sq, const void *wqe)
{
	struct rxe_queue_buf *q = sq->ring;
	uint32_t prod = __atomic_load_n(&q->producer_index, __ATOMIC_ACQUIRE);

	memcpy(q->data + (size_t)(prod & q->index_mask) * sq->elem, wqe, sq->elem);
	__atomic_store_n(&q->producer_index, (prod + 1) & q->index_mask,
			 __ATOMIC_RELEASE);
	vu_doorbell(c->qp);
}

/* A copy of the template, a send of 64 bytes from c to b, rewritten as
 * t says, put in c's ring.
 */
static bool tampered_send(struct end *c, struct sq *sq, struct end *b,
			  enum tamper t, enum ibv_wc_status want)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTS, .cur_qp_state = IBV_QPS_SQE };
	uint64_t sid = next_id++, rid = next_id++;
	struct ibv_sge rs = sge_at(BUF / 2, GRH + 64);
	struct rxe_send_wqe *wqe = malloc(sq->elem);
	bool ok;

	if (!wqe)
		die("malloc");
	memcpy(wqe, sq->tmpl, sq->elem);
	wqe->wr.wr_id = sid;
	fill(0, 64);
	if (want == IBV_WC_SUCCESS)
		post_recv(b, rid, &rs, 1);
	switch (t) {
	case T_LENGTH:
		/* rdma_rxe would send 60000 bytes of whatever follows. */
		wqe->dma.length = 60000;
		wqe->dma.resid = 60000;
		break;
	case T_NUM_SGE:
		wqe->dma.num_sge = 1000;
		break;
	case T_INLINE:
		wqe->wr.send_flags |= IBV_SEND_INLINE;
		wqe->dma.length = 1000;
		break;
	case T_OPCODE:
		wqe->wr.opcode = 0x100 | IBV_WR_SEND;
		break;
	case T_PORT:
		wqe->wr.wr.ud.av.port_num = 2;
		break;
	case T_NETTYPE:
		wqe->wr.wr.ud.av.network_type = 7;
		break;
	case T_SGID:
		/* Another host's address: no spoofing from a user ring. */
		wqe->wr.wr.ud.av.sgid_addr._sockaddr_in.sin_addr.s_addr =
			htonl(0x0a090909);
		break;
	}
	inject(c, sq, wqe);
	free(wqe);
	ok = send_done(c, sid, want);
	if (ok && want == IBV_WC_SUCCESS)
		ok = recv_done(b, c, rid, buf + BUF / 2, 64, false, 0,
			       buf + BUF / 2 + GRH, buf);
	if (ok && want != IBV_WC_SUCCESS) {
		if (vu_qp_state(c->qp) != IBV_QPS_SQE) {
			printf("# the QP is in state %d, not SQE\n", vu_qp_state(c->qp));
			ok = false;
		}
		if (ibv_modify_qp(c->qp, &attr, IBV_QP_STATE | IBV_QP_CUR_STATE))
			die("SQE -> RTS");
	}
	return ok;
}

static void check_tampered(struct end *b)
{
	struct end c = ud_end();
	struct sq sq;
	uint8_t *slot;
	uint64_t id;

	/* A send as librxe writes it, the template of the others. */
	id = next_id;
	if (!one_send(&c, b, 64, IBV_WR_SEND, 0))
		die("the template send failed");
	slot = find_slot(id, &sq.ring);
	sq.elem = 1u << sq.ring->log2_elem_size;
	sq.tmpl = malloc(sq.elem);
	if (!sq.tmpl)
		die("malloc");
	memcpy(sq.tmpl, slot, sq.elem);

	vu_check(&failures, tampered_send(&c, &sq, b, T_LENGTH, IBV_WC_SUCCESS),
		 "ring: dma.length 60000 over a 64-byte SGE: 64 bytes sent");
	vu_check(&failures, tampered_send(&c, &sq, b, T_NUM_SGE, IBV_WC_LOC_QP_OP_ERR),
		 "ring: 1000 SGEs: IBV_WC_LOC_QP_OP_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_INLINE, IBV_WC_LOC_LEN_ERR),
		 "ring: 1000 bytes inline: IBV_WC_LOC_LEN_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_OPCODE, IBV_WC_LOC_QP_OP_ERR),
		 "ring: opcode 0x102: IBV_WC_LOC_QP_OP_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_PORT, IBV_WC_LOC_QP_OP_ERR),
		 "ring: address vector of port 2: IBV_WC_LOC_QP_OP_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_NETTYPE, IBV_WC_LOC_QP_OP_ERR),
		 "ring: address vector of network type 7: IBV_WC_LOC_QP_OP_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_SGID, IBV_WC_LOC_QP_OP_ERR),
		 "ring: source address 10.9.9.9: IBV_WC_LOC_QP_OP_ERR, SQE");
	vu_check(&failures, tampered_send(&c, &sq, b, T_LENGTH, IBV_WC_SUCCESS),
		 "the QP sends again after the last error");
	free(sq.tmpl);
	if (ibv_destroy_qp(c.qp) || ibv_destroy_cq(c.cq))
		die("destroy");
}

/* A send posted before RTS fails at its doorbell, as with rdma_rxe, and
 * is not sent once the QP is in RTS: the datagram that arrives is the
 * one posted then.
 */
static void check_early_post(struct end *b)
{
	struct end c = ud_end();
	uint64_t early = next_id++, sid = next_id++, rid = next_id++;
	struct ibv_sge ss = sge_at(0, 64), rs = sge_at(BUF / 2, GRH + 64);
	struct ibv_send_wr wr = {
		.wr_id = early,
		.sg_list = &ss,
		.num_sge = 1,
		.opcode = IBV_WR_SEND_WITH_IMM,
		.imm_data = htonl(1),
		.wr.ud = { .ah = ah, .remote_qpn = b->qp->qp_num, .remote_qkey = QKEY },
	}, *bad;
	bool ok;

	bring_up(c.qp, false);
	fill(0, 64);
	ok = ibv_post_send(c.qp, &wr, &bad) == EINVAL;
	if (modify(c.qp, IBV_QPS_RTS))
		die("RTR -> RTS");
	post_recv(b, rid, &rs, 1);
	post_send(&c, sid, &ss, 1, IBV_WR_SEND_WITH_IMM, 0, 2, b->qp->qp_num, QKEY);
	ok = ok && send_done(&c, sid, IBV_WC_SUCCESS) &&
	     recv_done(b, &c, rid, buf + BUF / 2, 64, true, 2, buf + BUF / 2 + GRH, buf);
	vu_check(&failures, ok, "a send posted in RTR fails with EINVAL and is never sent");
	if (ibv_destroy_qp(c.qp) || ibv_destroy_cq(c.cq))
		die("destroy");
}

/* A receive WQE rewritten to 1000 SGEs: the datagram completes it with
 * IBV_WC_LOC_QP_OP_ERR and its QP goes to ERR.
 */
static void check_tampered_recv(struct end *a)
{
	struct end d = ud_end();
	uint64_t sid = next_id++, rid = next_id++;
	struct ibv_sge ss = sge_at(0, 64), rs = sge_at(BUF / 2, GRH + 64);
	struct rxe_recv_wqe *wqe;
	struct ibv_wc wc;
	bool ok;

	post_recv(&d, rid, &rs, 1);
	wqe = find_slot(rid, NULL);
	wqe->dma.num_sge = 1000;
	post_send(a, sid, &ss, 1, IBV_WR_SEND, 0, 0, d.qp->qp_num, QKEY);
	ok = send_done(a, sid, IBV_WC_SUCCESS) && wait_wc(d.cq, &wc) &&
	     wc.wr_id == rid && wc.status == IBV_WC_LOC_QP_OP_ERR &&
	     wait_state(d.qp, IBV_QPS_ERR);
	vu_check(&failures, ok, "ring: a receive WQE of 1000 SGEs: IBV_WC_LOC_QP_OP_ERR, ERR");
	if (ibv_destroy_qp(d.qp) || ibv_destroy_cq(d.cq))
		die("destroy");
}

/* UD QPs on an SRQ: its WQEs have one SGE more than the QPs' RQs may, and
 * each receives into a slot of its own in the second half of buf.
 */
#define SRQ_DEPTH	16
#define SRQ_SGE		(MAX_SGE + 1)
#define SLOT		2048

static uint8_t *slot(int k)
{
	return buf + BUF / 2 + k * SLOT;
}

static void srq_post(struct ibv_srq *srq, uint64_t id, struct ibv_sge *sge, int n)
{
	struct ibv_recv_wr wr = { .wr_id = id, .sg_list = sge, .num_sge = n }, *bad;

	if (ibv_post_srq_recv(srq, &wr, &bad))
		die("ibv_post_srq_recv");
}

/* A WQE of len bytes, GRH area included, at slot k, posted to srq as id. */
static void srq_post_slot(struct ibv_srq *srq, uint64_t id, int k, uint32_t len)
{
	struct ibv_sge rs = sge_at(BUF / 2 + k * SLOT, len);

	memset(slot(k), 0xee, len);
	srq_post(srq, id, &rs, 1);
}

/* s sends len bytes with an immediate to r; the SRQ's WQE id, at slot k,
 * takes them.
 */
static bool srq_send(struct end *s, struct end *r, uint64_t id, int k,
		     uint32_t len)
{
	uint64_t sid = next_id++;
	uint32_t imm = rand();
	struct ibv_sge ss = sge_at(0, len);

	fill(0, len);
	post_send(s, sid, &ss, 1, IBV_WR_SEND_WITH_IMM, 0, imm, r->qp->qp_num, QKEY);
	return send_done(s, sid, IBV_WC_SUCCESS) &&
	       recv_done(r, s, id, slot(k), len, true, imm, slot(k) + GRH, buf);
}

/* No completion on cq for a second: a flush would have come by then. */
static bool cq_quiet(struct ibv_cq *cq)
{
	double end = now_s() + 1;
	struct ibv_wc wc;
	int n;

	do {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			die("ibv_poll_cq");
		if (n) {
			printf("# completion %#llx, status %s\n",
			       (unsigned long long)wc.wr_id, ibv_wc_status_str(wc.status));
			return false;
		}
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	} while (now_s() < end);
	return true;
}

/* The limit event of srq arrives within wait seconds; other events are
 * shown and acknowledged (ibv_destroy_* waits for the acknowledgement).
 */
static bool srq_limit_event(struct ibv_srq *srq, double wait)
{
	double end = now_s() + wait;
	struct ibv_async_event ev;
	bool hit;

	do {
		while (!ibv_get_async_event(ctx, &ev)) {
			hit = ev.event_type == IBV_EVENT_SRQ_LIMIT_REACHED &&
			      ev.element.srq == srq;
			if (!hit)
				printf("# async event: %s\n",
				       ibv_event_type_str(ev.event_type));
			ibv_ack_async_event(&ev);
			if (hit)
				return true;
		}
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	} while (now_s() < end);
	return false;
}

/* QPs x and y share an SRQ; a and b, on RQs of their own, send to them. */
static void check_srq(struct end *a, struct end *b)
{
	struct ibv_srq_init_attr sa = {
		.attr = { .max_wr = SRQ_DEPTH, .max_sge = SRQ_SGE },
	};
	struct ibv_srq_attr lim = { .srq_limit = 2 };
	struct ibv_qp_attr qattr = { .qp_state = IBV_QPS_ERR };
	struct ibv_qp_init_attr qinit;
	uint64_t id[8], sid = next_id++;
	struct ibv_recv_wr rwr = { .wr_id = next_id++ }, *bad;
	struct ibv_sge ss = sge_at(0, 500), rs[SRQ_SGE];
	uint8_t got[500];
	struct ibv_srq *srq;
	struct ibv_wc wc;
	struct end x, y;
	long long before;
	bool ok;
	int i;

	srq = ibv_create_srq(pd, &sa);
	if (!srq)
		die("ibv_create_srq");
	x = ud_end_srq(srq);
	y = ud_end_srq(srq);
	vu_async_nonblock(ctx);

	/* librxe refuses the post itself: it mapped no RQ for these QPs. */
	if (ibv_query_qp(x.qp, &qattr, IBV_QP_CAP, &qinit))
		die("ibv_query_qp");
	ok = qattr.cap.max_recv_wr == 0 && qattr.cap.max_recv_sge == 0;
	if (!ok)
		printf("# max_recv_wr %u max_recv_sge %u\n",
		       qattr.cap.max_recv_wr, qattr.cap.max_recv_sge);
	ok = ok && ibv_post_recv(x.qp, &rwr, &bad) != 0 &&
	     ibv_destroy_srq(srq) == EBUSY;
	vu_check(&failures, ok, "SRQ: UD QPs on it have max_recv_wr 0, no ibv_post_recv; it is not destroyed under them");

	/* In order: WQE i takes the i-th datagram, whichever QP it is for. */
	for (i = 0; i < 4; i++) {
		id[i] = next_id++;
		srq_post_slot(srq, id[i], i, GRH + 1000);
	}
	ok = srq_send(a, &x, id[0], 0, 1000) && srq_send(b, &y, id[1], 1, 700) &&
	     srq_send(a, &y, id[2], 2, 1) && srq_send(b, &x, id[3], 3, 512);
	vu_check(&failures, ok, "SRQ: datagrams from two QPs to two others take its WQEs in order, whole, behind a GRH");

	/* SRQ_SGE SGEs: the GRH area and 100 bytes, then 100 in each other. */
	id[4] = next_id++;
	rs[0] = sge_at(BUF / 2, GRH + 100);
	for (i = 1; i < SRQ_SGE; i++)
		rs[i] = sge_at(BUF / 2 + i * SLOT, 100);
	memset(buf + BUF / 2, 0xee, SRQ_SGE * SLOT);
	srq_post(srq, id[4], rs, SRQ_SGE);
	fill(0, 500);
	post_send(b, sid, &ss, 1, IBV_WR_SEND, 0, 0, y.qp->qp_num, QKEY);
	ok = send_done(b, sid, IBV_WC_SUCCESS) &&
	     recv_wc(&y, b, id[4], slot(0), 500, false, 0);
	if (ok) {
		memcpy(got, slot(0) + GRH, 100);
		for (i = 1; i < SRQ_SGE; i++)
			memcpy(got + i * 100, slot(i), 100);
		ok = payload_ok(id[4], got, buf, 500);
	}
	vu_check(&failures, ok, "SRQ: a WQE of 5 SGEs, its max_sge, one more than the RQs here: 500 bytes arrive in order");

	/* Empty: the datagram is dropped, the next WQE takes the next one. */
	before = vu_counter(dev, "drop_backlog");
	sid = next_id++;
	ss.length = 64;
	fill(0, 64);
	post_send(a, sid, &ss, 1, IBV_WR_SEND_WITH_IMM, 0, 1, x.qp->qp_num, QKEY);
	ok = send_done(a, sid, IBV_WC_SUCCESS) &&
	     vu_counter_reaches(dev, "drop_backlog", before + 1, 5);
	id[5] = next_id++;
	srq_post_slot(srq, id[5], 0, GRH + 64);
	ok = ok && srq_send(a, &x, id[5], 0, 64);
	vu_check(&failures, ok, "SRQ: empty, it drops the datagram (drop_backlog); the next lands");

	/* Too small: class E, the WQE completes in error, the QP goes on. */
	before = vu_counter(dev, "drop_access");
	id[6] = next_id++;
	id[7] = next_id++;
	srq_post_slot(srq, id[6], 0, GRH + 10);
	srq_post_slot(srq, id[7], 1, GRH + 100);
	sid = next_id++;
	post_send(a, sid, &ss, 1, IBV_WR_SEND, 0, 0, y.qp->qp_num, QKEY);
	ok = send_done(a, sid, IBV_WC_SUCCESS) && wait_wc(y.cq, &wc);
	if (ok && (wc.wr_id != id[6] || wc.status != IBV_WC_LOC_LEN_ERR)) {
		printf("# receive %#llx: wr_id %#llx status %s\n",
		       (unsigned long long)id[6], (unsigned long long)wc.wr_id,
		       ibv_wc_status_str(wc.status));
		ok = false;
	}
	ok = ok && vu_qp_state(y.qp) == IBV_QPS_RTS &&
	     srq_send(a, &y, id[7], 1, 100) &&
	     vu_counter_reaches(dev, "drop_access", before + 1, 5);
	vu_check(&failures, ok, "SRQ: a WQE too small for the datagram: IBV_WC_LOC_LEN_ERR, the QP stays in RTS");

	/* Limit 2 over 3 WQEs: the event comes when the second is taken. */
	for (i = 0; i < 3; i++) {
		id[i] = next_id++;
		srq_post_slot(srq, id[i], i, GRH + 100);
	}
	if (srq_limit_event(srq, 0))
		printf("# a limit event before the limit was set\n");
	if (ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT))
		die("ibv_modify_srq");
	ok = srq_send(a, &x, id[0], 0, 100) && !srq_limit_event(srq, 0.2) &&
	     srq_send(b, &y, id[1], 1, 100) && srq_limit_event(srq, 5) &&
	     !ibv_query_srq(srq, &lim) && lim.srq_limit == 0 &&
	     srq_send(a, &x, id[2], 2, 100);
	vu_check(&failures, ok, "SRQ: IBV_EVENT_SRQ_LIMIT_REACHED below the limit, not before; the limit disarmed");

	/* ERR flushes x's queues, not the SRQ: y takes the WQEs. */
	for (i = 0; i < 2; i++) {
		id[i] = next_id++;
		srq_post_slot(srq, id[i], i, GRH + 100);
	}
	qattr.qp_state = IBV_QPS_ERR;
	ok = !ibv_modify_qp(x.qp, &qattr, IBV_QP_STATE) && cq_quiet(x.cq) &&
	     srq_send(a, &y, id[0], 0, 100) && srq_send(b, &y, id[1], 1, 100);
	vu_check(&failures, ok, "SRQ: a QP of it in ERR flushes none of its WQEs; the other QP takes them");

	if (ibv_destroy_qp(x.qp) || ibv_destroy_qp(y.qp) ||
	    ibv_destroy_cq(x.cq) || ibv_destroy_cq(y.cq) || ibv_destroy_srq(srq))
		die("destroy");
}

int main(int argc, char **argv)
{
	struct ibv_port_attr port;
	struct ibv_ah_attr ah_attr = {
		.is_global = 1,
		.port_num = 1,
		.grh.hop_limit = 64,
	};
	struct end a, b;

	if (argc != 3) {
		fprintf(stderr, "usage: %s DEV GID_INDEX\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	gid_index = atoi(argv[2]);
	srand(1);
	ctx = vu_open(dev);
	if (ibv_query_port(ctx, 1, &port) || ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_port/gid");
	mtu = 128u << port.active_mtu;
	pd = ibv_alloc_pd(ctx);
	buf = calloc(1, BUF);
	if (!pd || !buf)
		die("ibv_alloc_pd");
	mr = ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	ah_attr.grh.dgid = gid;
	ah_attr.grh.sgid_index = gid_index;
	ah = ibv_create_ah(pd, &ah_attr);
	if (!ah)
		die("ibv_create_ah");

	a = ud_end();
	b = ud_end();
	check_sizes(&a, &b);
	check_sges(&a, &b);
	check_inline(&a, &b);
	check_qkey(&a, &b);
	check_send_errors(&a, &b);
	check_broadcast(&a, &b);
	check_tampered(&b);
	check_early_post(&b);
	check_tampered_recv(&a);
	check_srq(&a, &b);
	vu_check(&failures, one_send(&a, &b, mtu, IBV_WR_SEND_WITH_IMM, 0),
		 "after all that, a full datagram still arrives");

	if (ibv_destroy_qp(a.qp) || ibv_destroy_qp(b.qp) ||
	    ibv_destroy_cq(a.cq) || ibv_destroy_cq(b.cq) ||
	    ibv_destroy_ah(ah) || ibv_dereg_mr(mr) || ibv_dealloc_pd(pd) ||
	    ibv_close_device(ctx))
		die("teardown");
	free(buf);
	return failures ? 1 : 0;
}
