// SPDX-License-Identifier: GPL-2.0
/*
 * UC QPs between two devices in one process (selftests/verbs_uc.sh),
 * through whatever the path does to packets (netem loss). A UC message
 * arrives whole or not at all (IBA vol 1 9.7.x):
 * - every send completes with success at the requester, lost or not;
 * - every receive completion holds exactly its message: length and
 *   every byte (each message has its own pattern, named by its
 *   immediate), in posting order, none twice; a lost SEND completes no
 *   receive, and the receive WQE it would have taken serves the next;
 * - a WRITE region whose WRITE with immediate completed holds every byte;
 *   any other holds nothing but its own WRITE's bytes and zeros;
 * - a READ is refused (at post, or completed in error).
 * Prints "sends N received R" for each kind so the caller can compare
 * with the responder's drop counter.
 */
#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "verbs_util.h"

#define NMSG		300
#define SLOT		8192	/* receive buffer and WRITE region each */
#define BATCH		8
#define MARKER		0xffff0000u
#define WAIT_MS		100
#define MARKERS		50

static const uint32_t sizes[] = { 0, 1, 1000, 2800, 5600, SLOT };

struct side {
	struct vu_side v;	/* v.cq takes the sends' completions */
	struct ibv_cq *rcq;
};

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

#define die vu_die

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ull + ts.tv_nsec / 1000000;
}

static uint8_t pattern(uint32_t msg, uint32_t i)
{
	return (uint8_t)(msg * 131 + i * 7 + 1) | 1;	/* never 0 */
}

static uint32_t msg_size(uint32_t msg)
{
	return sizes[msg % ARRAY_SIZE(sizes)];
}

static void side_init(struct side *s, const char *dev, int gid_index)
{
	size_t len = (size_t)(NMSG + 1) * SLOT;
	struct ibv_qp_init_attr init = {
		.cap = { .max_send_wr = 64, .max_recv_wr = NMSG + MARKERS + 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_UC,
		.sq_sig_all = 1,
	};

	vu_side_open(&s->v, dev, gid_index, 128);
	s->rcq = ibv_create_cq(s->v.ctx, 2 * (NMSG + MARKERS), NULL, NULL, 0);
	if (!s->rcq)
		die("ibv_create_cq");
	vu_side_buf(&s->v, len, 0, 0, len,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);
	init.send_cq = s->v.cq;
	init.recv_cq = s->rcq;
	s->v.qp = ibv_create_qp(s->v.pd, &init);
	if (!s->v.qp)
		die("ibv_create_qp(IBV_QPT_UC)");
}

/* RESET -> INIT -> RTR -> RTS with the attributes UC takes (IBA table
 * of QP attributes; ib_modify_qp_is_ok() with IB_QPT_UC).
 */
static void uc_connect(struct side *s, const struct side *peer)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(s->v.qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("INIT");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = peer->v.qp->qp_num;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.dgid = peer->v.gid;
	attr.ah_attr.grh.sgid_index = s->v.gid_index;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.port_num = 1;
	if (ibv_modify_qp(s->v.qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN))
		die("RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(s->v.qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("RTS");
	/* UC has no retry attributes: ib_core refuses them. */
	attr.retry_cnt = 7;
	check(ibv_modify_qp(s->v.qp, &attr, IBV_QP_RETRY_CNT) != 0,
	      "modify_qp with IBV_QP_RETRY_CNT refused on a UC QP");
}

static void post_recv(struct side *b, uint64_t id, uint32_t slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(b->v.buf + (size_t)slot * SLOT),
		.length = SLOT,
		.lkey = b->v.mr->lkey,
	};
	struct ibv_recv_wr wr = {
		.wr_id = id, .sg_list = &sge, .num_sge = 1,
	}, *bad;

	if (ibv_post_recv(b->v.qp, &wr, &bad))
		die("ibv_post_recv");
}

/* A's message msg: op with immediate msg, from A's slot 0. */
static int post_msg(struct side *a, enum ibv_wr_opcode op, uint32_t msg,
		    uint32_t len, uint64_t raddr, uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)a->v.buf, .length = len,
		.lkey = a->v.mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = msg, .sg_list = &sge, .num_sge = len ? 1 : 0,
		.opcode = op, .imm_data = htobe32(msg),
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;
	uint32_t i;

	for (i = 0; i < len; i++)
		a->v.buf[i] = pattern(msg, i);
	return ibv_post_send(a->v.qp, &wr, &bad);
}

struct rx {
	int sends_ok;			/* send completions with success */
	int sends_bad;
	int received;			/* data receive completions */
	int64_t last;			/* immediate of the newest */
	bool got[NMSG];
	bool marker;			/* a marker arrived */
};

/* A's send completions until count data messages completed, 5 s at
 * most: each WQE is complete once sent, lost or not. Markers' are not
 * counted.
 */
static void poll_send(struct side *a, struct rx *r, int count)
{
	uint64_t end = now_ms() + 5000;
	struct ibv_wc wc;

	while (r->sends_ok + r->sends_bad < count && now_ms() < end) {
		if (ibv_poll_cq(a->v.cq, 1, &wc) <= 0 || wc.wr_id >= MARKER)
			continue;
		if (wc.status == IBV_WC_SUCCESS)
			r->sends_ok++;
		else
			r->sends_bad++;
	}
}

/* B's receive completions until one with an immediate >= until arrived
 * or WAIT_MS passed; checks each. is_write: WRITEs with immediate, whose
 * data is in B's region msg, not in the receive buffer.
 */
static void poll_recv(struct side *b, struct rx *r, uint32_t until,
		      bool is_write)
{
	uint64_t end = now_ms() + WAIT_MS;
	struct ibv_wc wc;
	uint32_t imm, i;
	const uint8_t *d;
	bool ok;

	while (now_ms() < end) {
		if (ibv_poll_cq(b->rcq, 1, &wc) <= 0)
			continue;
		imm = be32toh(wc.imm_data);
		if (wc.status != IBV_WC_SUCCESS || !(wc.wc_flags & IBV_WC_WITH_IMM)) {
			printf("  receive %llu: status %d flags %#x\n",
			       (unsigned long long)wc.wr_id, wc.status,
			       wc.wc_flags);
			failures++;
			continue;
		}
		if (imm >= MARKER) {
			r->marker = true;
			if (imm >= until)
				return;
			continue;
		}
		ok = imm < NMSG && (int64_t)imm > r->last && !r->got[imm];
		if (ok && !is_write) {
			ok = wc.byte_len == msg_size(imm) &&
			     wc.opcode == IBV_WC_RECV;
			d = b->v.buf + wc.wr_id * SLOT;
			for (i = 0; ok && i < wc.byte_len; i++)
				ok = d[i] == pattern(imm, i);
		} else if (ok) {
			ok = wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM;
			d = b->v.buf + (size_t)imm * SLOT;
			for (i = 0; ok && i < msg_size(imm); i++)
				ok = d[i] == pattern(imm, i);
		}
		if (!ok) {
			printf("  receive of message %u (len %u, opcode %d) is not its message\n",
			       imm, wc.byte_len, wc.opcode);
			failures++;
		} else {
			r->got[imm] = true;
			r->last = imm;
			r->received++;
		}
		if (imm >= until)
			return;
	}
}

/* Markers until one arrives: then every message before it was received
 * or dropped, as the responder ends a message at the next one's packet.
 */
static void flush_markers(struct side *a, struct side *b, struct rx *r,
			  bool is_write)
{
	uint32_t k;

	for (k = 0; k < MARKERS && !r->marker; k++) {
		if (post_msg(a, IBV_WR_SEND_WITH_IMM, MARKER + k, 1, 0, 0))
			die("ibv_post_send (marker)");
		poll_recv(b, r, MARKER, is_write);
	}
	check(r->marker, "a marker message arrived after the messages");
	vu_drain(a->v.cq);
}

static void run(struct side *a, struct side *b, bool is_write)
{
	struct rx r = { .last = -1 };
	uint32_t msg, len;
	uint64_t raddr;
	enum ibv_wr_opcode op;
	char what[160];
	int lost_whole = 0;

	for (msg = 0; msg < NMSG; msg++) {
		len = msg_size(msg);
		op = IBV_WR_SEND_WITH_IMM;
		raddr = (uintptr_t)b->v.buf + (size_t)msg * SLOT;
		if (is_write)
			op = msg % 2 ? IBV_WR_RDMA_WRITE_WITH_IMM :
			     IBV_WR_RDMA_WRITE;
		if (post_msg(a, op, msg, len, raddr, b->v.mr->rkey))
			die("ibv_post_send");
		/* One message built at a time: A's buffer is its pattern. */
		poll_send(a, &r, msg + 1);
		if (r.sends_ok + r.sends_bad < (int)msg + 1)
			die("no send completion in 5 s");
		/* The responder keeps up: a batch lands before the next. */
		if (msg % BATCH == BATCH - 1)
			poll_recv(b, &r, msg, is_write);
	}
	flush_markers(a, b, &r, is_write);

	snprintf(what, sizeof(what), "%s: every send completed with success (%d of %d)",
		 is_write ? "WRITE" : "SEND", r.sends_ok, NMSG);
	check(r.sends_ok == NMSG && !r.sends_bad, what);
	if (is_write) {
		/* Plain WRITEs complete nothing: a region holds its whole
		 * message, or part of it (a lost packet) and zeros.
		 */
		int whole = 0, partial = 0, foreign = 0;
		uint32_t i, set;

		for (msg = 0; msg < NMSG; msg++) {
			const uint8_t *d = b->v.buf +
					   (size_t)msg * SLOT;

			len = msg_size(msg);
			for (i = 0, set = 0; i < SLOT; i++) {
				if (i < len && d[i] == pattern(msg, i))
					set++;
				else if (d[i])
					foreign++;
			}
			if (set == len)
				whole++;
			else if (set)
				partial++;
			else if (len)
				lost_whole++;
		}
		printf("WRITE regions: %d whole, %d partly placed, %d untouched\n",
		       whole, partial, lost_whole);
		check(!foreign, "WRITE: no byte of a region is another's");
		for (msg = 1; msg < NMSG; msg += 2)
			if (r.got[msg] && msg_size(msg)) {
				const uint8_t *d = b->v.buf +
						   (size_t)msg * SLOT;

				for (i = 0; i < msg_size(msg); i++)
					if (d[i] != pattern(msg, i))
						foreign++;
			}
		check(!foreign, "WRITE with immediate: each completed one is whole");
	}
	printf("%s: sends %d received %d\n", is_write ? "WRITE_IMM" : "SEND",
	       is_write ? NMSG / 2 : NMSG, r.received);
	check(r.received > 0, "some messages were received");
}

int main(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	struct ibv_wc wc;
	uint32_t i;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B\n",
			argv[0]);
		return 2;
	}
	side_init(&a, argv[1], atoi(argv[2]));
	side_init(&b, argv[3], atoi(argv[4]));
	uc_connect(&a, &b);
	uc_connect(&b, &a);

	for (i = 0; i < NMSG + MARKERS; i++)
		post_recv(&b, i, i % NMSG);
	run(&a, &b, false);

	/* Fresh receive WQEs and zeroed regions for the WRITEs. */
	vu_drain(b.rcq);
	memset(b.v.buf, 0, (size_t)(NMSG + 1) * SLOT);
	for (i = 0; i < NMSG / 2 + MARKERS; i++)
		post_recv(&b, i, NMSG);
	run(&a, &b, true);

	/* A READ: refused at post, or failed with a local QP error. */
	err = post_msg(&a, IBV_WR_RDMA_READ, 1, 8, (uintptr_t)b.v.buf,
		       b.v.mr->rkey);
	if (!err) {
		uint64_t end = now_ms() + 5000;

		wc.status = IBV_WC_SUCCESS;
		while (now_ms() < end && ibv_poll_cq(a.v.cq, 1, &wc) == 0)
			;
		err = wc.status == IBV_WC_LOC_QP_OP_ERR;
	}
	check(err, "RDMA READ on a UC QP is refused");
	return failures ? 1 : 0;
}
