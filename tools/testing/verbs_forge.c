// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_forge: what a process on the peer's host can do to a live RC QP
 * by sending UDP to the uet port with the peer's address, and what it must
 * not. One process opens two RDMA devices, connects RC QPs between them
 * by their GIDs (IPv4), and forges packets from sockets it opens in each
 * device's network namespace.
 *
 *   verbs_forge DEV_A GID_INDEX_A NETNS_A ALT_A DEV_B GID_INDEX_B NETNS_B ALT_B [SEED]
 *
 * NETNS_x is the path of the namespace holding DEV_x's address (as
 * /run/netns/NAME); ALT_x a second IPv4 address on that host. Each case
 * runs on a fresh QP pair, A the requester: the forgery must be counted
 * as dropped (hw_counters) and change nothing, and a real SEND then lands
 * byte for byte. The last case floods B with junk from A's address while
 * A writes and sends, every byte checked. Prints one line per check;
 * exits 0 when all passed, 1 otherwise.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define UET_PORT	4793
#define MSG_LEN		4096
#define BUF_LEN		(64 * 1024)
#define PSN_A		0x1000
#define PSN_B		0x2000
#define CQE_TIMEOUT	30
#define FLOOD_ROUNDS	32
#define FLOOD_PKTS	256

/* Wire constants (Documentation/uet/design/wire-format.rst). */
#define PDS_RUD_REQ	2
#define PDS_ACK_CC	8
#define PDS_NACK	10
#define PDS_TYPE_SHIFT	11
#define NEXT_VERBS	(0xf << 7)
#define F_SYN		0x04
#define OP_SEND		1
#define OP_WRITE	4
#define OP_READ_RESP	7
#define READ_LEN	64
#define NACK_RNR	0x09
#define PDS_ACK		7
#define PDS_CONTROL	11
#define ACK_F_PROBE	0x08
#define CTL_PROBE	6
#define CTL_CNP		15
#define CTL_LEN		16
#define PLAIN_ACK_LEN	12
#define PROBE_FLOOD	6000
#define ANSWERS_MAX	512	/* per 100 ms (net/uet/peer.h) */
#define REQ_HDR_LEN	48
#define ACK_LEN		32
#define NACK_LEN	16

struct side {
	struct vu_side v;
	const char *name;
	struct in_addr addr, alt;
	int sock;	/* UDP, in this side's namespace, bound to addr */
	int sock_alt;	/* ... bound to alt */
};

static int failures;

static void check(bool ok, const char *what)
{
	vu_check(&failures, ok, what);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

/* A UDP socket in the namespace at ns_path, bound to addr. */
static int ns_socket(const char *ns_path, struct in_addr addr)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr = addr };
	int self = open("/proc/self/ns/net", O_RDONLY);
	int ns = open(ns_path, O_RDONLY);
	int s;

	if (self < 0 || ns < 0 || setns(ns, CLONE_NEWNET))
		die("cannot enter the namespace");
	s = socket(AF_INET, SOCK_DGRAM, 0);
	if (s < 0 || bind(s, (struct sockaddr *)&sin, sizeof(sin)))
		die("cannot bind a UDP socket to the address");
	if (setns(self, CLONE_NEWNET))
		die("cannot return to our namespace");
	close(ns);
	close(self);
	return s;
}

static void side_init(struct side *s, const char *dev, int gid_index,
		      const char *ns_path, const char *alt)
{
	s->name = dev;
	vu_side_open(&s->v, dev, gid_index, 64);
	memcpy(&s->addr, &s->v.gid.raw[12], 4);
	if (inet_pton(AF_INET, alt, &s->alt) != 1)
		die("ALT is not an IPv4 address");
	vu_side_buf(&s->v, BUF_LEN, 0, 0, BUF_LEN,
		    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
		    IBV_ACCESS_REMOTE_READ);
	s->sock = ns_socket(ns_path, s->addr);
	s->sock_alt = ns_socket(ns_path, s->alt);
}

static void qp_connect(struct side *s, const struct side *peer, uint32_t psn,
		       uint32_t peer_psn, uint8_t retry_cnt)
{
	struct vu_conn c = vu_conn(peer->v.qp->qp_num, &peer->v.gid,
				   s->v.gid_index,
				   IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);

	c.sq_psn = psn;
	c.rq_psn = peer_psn;
	c.retry_cnt = retry_cnt;
	if (vu_rc_connect(s->v.qp, &c))
		die("INIT, RTR or RTS");
}

/* A fresh QP pair, A connected to B; A gives up after retry_cnt
 * retransmissions. B's QP stays in RESET unless connect_b.
 */
static void pair_make(struct side *a, struct side *b, uint8_t retry_cnt,
		      bool connect_b)
{
	if (a->v.qp && (ibv_destroy_qp(a->v.qp) || ibv_destroy_qp(b->v.qp)))
		die("ibv_destroy_qp");
	vu_drain(a->v.cq);
	vu_drain(b->v.cq);
	a->v.qp = vu_rc_qp(a->v.pd, a->v.cq, 64);
	b->v.qp = vu_rc_qp(b->v.pd, b->v.cq, 64);
	if (!a->v.qp || !b->v.qp)
		die("ibv_create_qp");
	qp_connect(a, b, PSN_A, PSN_B, retry_cnt);
	if (connect_b)
		qp_connect(b, a, PSN_B, PSN_A, 7);
}

static void pair_new(struct side *a, struct side *b, uint8_t retry_cnt)
{
	pair_make(a, b, retry_cnt, true);
}

static long hw_counter(const struct side *s, const char *name)
{
	char path[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", s->name, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%ld", &v) != 1)
		die("cannot read a hw counter");
	fclose(f);
	return v;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* Wait up to 5 s for s's counter name to reach at least want. */
static bool counter_reaches(const struct side *s, const char *name, long want)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (hw_counter(s, name) >= want)
			return true;
		sleep_ms(10);
	}
	printf("  %s %s: %ld, expected %ld\n", s->name, name,
	       hw_counter(s, name), want);
	return false;
}

static void forge(int sock, struct in_addr to, const void *pkt, size_t len)
{
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(UET_PORT),
		.sin_addr = to,
	};

	if (sendto(sock, pkt, len, 0, (struct sockaddr *)&sin, sizeof(sin)) < 0)
		die("sendto");
}

/* A RUD request with a verbs header: the whole message in one packet. */
static size_t pack_req(uint8_t *p, uint8_t flags, uint32_t psn, uint16_t spdcid,
		       uint16_t dpdcid, uint8_t op, uint32_t msn, uint32_t len)
{
	memset(p, 0, REQ_HDR_LEN);
	put16(p, PDS_RUD_REQ << PDS_TYPE_SHIFT | NEXT_VERBS | flags);
	put32(p + 4, psn);
	put16(p + 8, spdcid);
	put16(p + 10, dpdcid);
	p[13] = op;
	put32(p + 16, msn);
	put32(p + 20, len);
	put32(p + 44, len);
	memset(p + REQ_HDR_LEN, 0xee, len);
	return REQ_HDR_LEN + len;
}

static size_t pack_ack(uint8_t *p, uint32_t cack, uint16_t spdcid,
		       uint16_t dpdcid)
{
	memset(p, 0, ACK_LEN);
	put16(p, PDS_ACK_CC << PDS_TYPE_SHIFT);
	put32(p + 4, cack);
	put16(p + 8, spdcid);
	put16(p + 10, dpdcid);
	return ACK_LEN;
}

static size_t pack_rnr_nack(uint8_t *p, uint32_t psn, uint16_t spdcid,
			    uint16_t dpdcid)
{
	memset(p, 0, NACK_LEN);
	put16(p, PDS_NACK << PDS_TYPE_SHIFT);
	p[2] = NACK_RNR;
	put32(p + 4, psn);
	put16(p + 8, spdcid);
	put16(p + 10, dpdcid);
	put32(p + 12, 20);	/* 10.24 ms RNR wait (IBA table 45) */
	return NACK_LEN;
}

static bool post_recv(struct side *b, uint32_t off, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)b->v.buf + off,
		.length = len,
		.lkey = b->v.mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = 2, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	return !ibv_post_recv(b->v.qp, &wr, &bad);
}

static bool post_send(struct side *a, enum ibv_wr_opcode op, uint32_t off,
		      uint32_t len, uint64_t raddr, uint32_t rkey)
{
	return !vu_post(a->v.qp, a->v.mr, a->v.buf + off, len, op, raddr, rkey);
}

/* The status of s's next completion, or -1 after CQE_TIMEOUT. */
static int next_cqe(struct side *s)
{
	time_t end = time(NULL) + CQE_TIMEOUT;
	struct ibv_wc wc;
	int n;

	while (time(NULL) < end) {
		n = ibv_poll_cq(s->v.cq, 1, &wc);
		if (n < 0)
			return -1;
		if (n)
			return wc.status;
	}
	printf("  %s: no completion in %d s\n", s->name, CQE_TIMEOUT);
	return -1;
}

static void fill(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + 1);
}

/* A real SEND of MSG_LEN bytes from A lands in B's receive buffer (posted
 * before) byte for byte.
 */
static bool send_lands(struct side *a, struct side *b, unsigned int seed)
{
	int sa, sb;

	fill(a->v.buf, MSG_LEN, seed);
	memset(b->v.buf, 0, MSG_LEN);
	if (!post_send(a, IBV_WR_SEND, 0, MSG_LEN, 0, 0))
		return false;
	sa = next_cqe(a);
	sb = next_cqe(b);
	if (sa || sb) {
		printf("  SEND: %s at A, %s at B\n",
		       sa < 0 ? "none" : ibv_wc_status_str(sa),
		       sb < 0 ? "none" : ibv_wc_status_str(sb));
		return false;
	}
	if (memcmp(a->v.buf, b->v.buf, MSG_LEN)) {
		printf("  SEND: B received other bytes than A sent\n");
		return false;
	}
	return true;
}

/* One forged SEND from sock to B's address to, with B's receive posted,
 * naming as its source A's QPN + qpn_delta: it is counted as ctr, and a
 * real SEND from A then lands.
 */
static void forged_send(struct side *a, struct side *b, const char *what,
			int sock, struct in_addr to, uint16_t qpn_delta,
			uint32_t psn, const char *ctr)
{
	uint8_t pkt[REQ_HDR_LEN + 64];
	long was;
	size_t n;

	pair_new(a, b, 7);
	if (!post_recv(b, 0, MSG_LEN))
		die("ibv_post_recv");
	was = hw_counter(b, ctr);
	n = pack_req(pkt, F_SYN, psn, a->v.qp->qp_num + qpn_delta,
		     b->v.qp->qp_num, OP_SEND, 0, 64);
	forge(sock, to, pkt, n);
	printf("%s\n", what);
	check(counter_reaches(b, ctr, was + 1), "  B counted it");
	check(send_lands(a, b, psn), "  a real SEND then lands intact");
}

/* A forged ACK to A from B's address for PSNs A never sent is dropped,
 * and A's SEND still completes (which needs the real ACK).
 */
static void forged_ack(struct side *a, struct side *b, uint32_t ahead)
{
	uint8_t pkt[ACK_LEN];
	char what[128];
	long was;

	pair_new(a, b, 7);
	if (!post_recv(b, 0, MSG_LEN))
		die("ibv_post_recv");
	was = hw_counter(a, "drop_out_of_window");
	forge(b->sock, a->addr, pkt,
	      pack_ack(pkt, PSN_A + ahead, b->v.qp->qp_num, a->v.qp->qp_num));
	snprintf(what, sizeof(what),
		 "an ACK from B's address acknowledging %u PSNs A never sent", ahead);
	printf("%s\n", what);
	check(counter_reaches(a, "drop_out_of_window", was + 1),
	      "  A counted it out of window");
	check(send_lands(a, b, ahead), "  a real SEND then lands intact");
}

/* RNR NACKs for a PSN A never sent, every 10 ms, must not keep a SEND to
 * a peer that went silent (its QP in ERR drops everything) alive: A's
 * retries run out as without them.
 */
static void forged_rnr(struct side *a, struct side *b)
{
	struct ibv_qp_attr attr = { .qp_state = IBV_QPS_ERR };
	uint8_t pkt[NACK_LEN];
	time_t end;
	int status = -1;
	struct ibv_wc wc;
	long was;
	size_t n;

	pair_new(a, b, 1);
	if (ibv_modify_qp(b->v.qp, &attr, IBV_QP_STATE))
		die("B to ERR");
	was = hw_counter(a, "rnr_nacks_received");
	n = pack_rnr_nack(pkt, PSN_A + 5, b->v.qp->qp_num, a->v.qp->qp_num);
	fill(a->v.buf, MSG_LEN, 7);
	if (!post_send(a, IBV_WR_SEND, 0, 64, 0, 0))
		die("ibv_post_send");
	printf("RNR NACKs from B's address for a PSN A never sent, every 10 ms, to a SEND B never answers\n");
	end = time(NULL) + 10;
	while (time(NULL) < end) {
		forge(b->sock, a->addr, pkt, n);
		if (ibv_poll_cq(a->v.cq, 1, &wc) > 0) {
			status = wc.status;
			break;
		}
		sleep_ms(10);
	}
	check(hw_counter(a, "rnr_nacks_received") > was, "  A received them");
	printf("  A's SEND: %s\n",
	       status < 0 ? "no completion in 10 s" : ibv_wc_status_str(status));
	check(status == IBV_WC_RETRY_EXC_ERR,
	      "  its retries ran out (transport retry counter exceeded)");
}

/* A READ's answer from B's address that says B's PSNs start at a PSN of
 * its choosing (SYN), not at A's rq_psn, while A's READ waits for its
 * answer (B's QP is still in INIT and drops it): A takes none of its
 * bytes, and once B reaches RTS the real answer completes the READ.
 */
static void forged_answer(struct side *a, struct side *b)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_READ,
	};
	uint8_t pkt[REQ_HDR_LEN + READ_LEN], want[READ_LEN];
	long was;
	size_t n;
	int st;

	pair_make(a, b, 7, false);
	if (ibv_modify_qp(b->v.qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("B's QP to INIT");
	fill(b->v.buf, READ_LEN, 11);
	memcpy(want, b->v.buf, READ_LEN);
	memset(a->v.buf, 0, READ_LEN);
	if (!post_send(a, IBV_WR_RDMA_READ, 0, READ_LEN,
		       (uintptr_t)b->v.buf, b->v.mr->rkey))
		die("ibv_post_send (READ)");
	was = hw_counter(a, "drop_out_of_window");
	n = pack_req(pkt, F_SYN, PSN_B + 5000, b->v.qp->qp_num,
		     a->v.qp->qp_num, OP_READ_RESP, 0, READ_LEN);
	printf("a SYN READ answer from B's address starting elsewhere than A's rq_psn\n");
	forge(b->sock, a->addr, pkt, n);
	check(counter_reaches(a, "drop_out_of_window", was + 1),
	      "  A counted it out of window");
	check(a->v.buf[0] != 0xee && a->v.buf[READ_LEN - 1] != 0xee,
	      "  none of its bytes reached A's READ buffer");
	qp_connect(b, a, PSN_B, PSN_A, 7);
	st = next_cqe(a);
	printf("  A's READ: %s\n", st < 0 ? "no completion" : ibv_wc_status_str(st));
	check(st == IBV_WC_SUCCESS && !memcmp(a->v.buf, want, READ_LEN),
	      "  B's real answer completed it, byte for byte");
}

/* A CNP from B's address naming a PSN A never sent is dropped before it
 * reaches A's congestion control; one naming a PSN A sent is taken.
 */
static void forged_cnp(struct side *a, struct side *b)
{
	uint8_t pkt[CTL_LEN];
	long was, cnps;

	pair_new(a, b, 7);
	if (!post_recv(b, 0, MSG_LEN))
		die("ibv_post_recv");
	check(send_lands(a, b, 3), "a SEND, so that A has sent PSNs");
	memset(pkt, 0, CTL_LEN);
	put16(pkt, PDS_CONTROL << PDS_TYPE_SHIFT | CTL_CNP << 7);
	put32(pkt + 4, PSN_A + 1000000);
	put16(pkt + 8, b->v.qp->qp_num);
	put16(pkt + 10, a->v.qp->qp_num);
	was = hw_counter(a, "drop_out_of_window");
	cnps = hw_counter(a, "cnps_received");
	printf("a CNP from B's address naming a PSN A never sent\n");
	forge(b->sock, a->addr, pkt, CTL_LEN);
	check(counter_reaches(a, "drop_out_of_window", was + 1),
	      "  A counted it out of window");
	check(hw_counter(a, "cnps_received") == cnps,
	      "  and did not take it as a CNP");
	put32(pkt + 4, PSN_A);
	printf("a CNP from B's address naming the PSN of A's SEND\n");
	forge(b->sock, a->addr, pkt, CTL_LEN);
	check(counter_reaches(a, "cnps_received", cnps + 1),
	      "  A took it as a CNP");
}

static size_t pack_probe(uint8_t *p, uint16_t ev, bool answer, uint32_t nonce)
{
	memset(p, 0, CTL_LEN);
	if (answer) {
		put16(p, PDS_ACK << PDS_TYPE_SHIFT | ACK_F_PROBE);
		put16(p + 2, ev);
		put32(p + 4, nonce);
		return PLAIN_ACK_LEN;
	}
	put16(p, PDS_CONTROL << PDS_TYPE_SHIFT | CTL_PROBE << 7);
	put16(p + 2, ev);
	put32(p + 12, nonce);
	return CTL_LEN;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Probes are answered for the hosts B's QPs talk to only, at a bounded
 * rate; an answer that does not echo the prober's nonce is dropped.
 */
static void forged_probes(struct side *a, struct side *b)
{
	long ans, noqp, got;
	uint8_t pkt[CTL_LEN];
	double t0, ms;
	int i;

	pair_new(a, b, 7);
	printf("a probe from A's address, a peer of B\n");
	ans = hw_counter(b, "probes_answered");
	forge(a->sock, b->addr, pkt, pack_probe(pkt, 40000, false, 1));
	check(counter_reaches(b, "probes_answered", ans + 1), "  B answered it");

	printf("a probe from another address of A's host, which no QP of B talks to\n");
	ans = hw_counter(b, "probes_answered");
	noqp = hw_counter(b, "drop_no_qp");
	forge(a->sock_alt, b->addr, pkt, pack_probe(pkt, 40001, false, 1));
	check(counter_reaches(b, "drop_no_qp", noqp + 1), "  B dropped it");
	check(hw_counter(b, "probes_answered") == ans, "  and did not answer it");

	printf("a probe answer from B's address that does not echo A's nonce\n");
	noqp = hw_counter(a, "drop_no_qp");
	forge(b->sock, a->addr, pkt, pack_probe(pkt, 40002, true, 0));
	check(counter_reaches(a, "drop_no_qp", noqp + 1), "  A dropped it");

	ans = hw_counter(b, "probes_answered");
	t0 = now_ms();
	for (i = 0; i < PROBE_FLOOD; i++)
		forge(a->sock, b->addr, pkt, pack_probe(pkt, 40000 + i % 1000,
							false, 1));
	/* Whatever B has not processed yet is not counted: the bound holds
	 * for what was answered by now, since the first probe, in as many
	 * 100 ms periods as began since the one in force at that time.
	 */
	got = hw_counter(b, "probes_answered") - ans;
	ms = now_ms() - t0;
	printf("%d probes from A's address in %.0f ms: B answered %ld by then\n",
	       PROBE_FLOOD, ms, got);
	check(got <= ANSWERS_MAX * ((long)ms / 100 + 2),
	      "  at most 512 answers per 100 ms");
}

enum junk_kind {
	J_RANDOM, J_FAR_PSN, J_TRUNCATED, J_FORGED_ACK, J_OTHER_QPN,
	J_ANY_TYPE, J_BAD_VERBS, J_TRIMMED, J_FRAGMENTED, J_CONTROL, J_KINDS
};

static const char *const junk_names[J_KINDS] = {
	"random", "far PSN", "truncated", "forged ACK", "other source QPN",
	"any PDS type and next_hdr", "bad verbs header", "trimmed or ECN",
	"IP-fragmented", "NACK, CNP or probe",
};

/* Values at the edges of a 32-bit field. */
static uint32_t edge32(void)
{
	static const uint32_t v[] = { 0, 1, 0x7fffffff, 0x80000000,
				      0xfffffffe, 0xffffffff, 4096, 65536 };

	return rand() % 2 ? (uint32_t)rand() : v[rand() % 8];
}

/* DSCP and ECN of the junk that follows, as IP_TOS sets them. */
static void junk_tos(const struct side *a, int tos)
{
	if (setsockopt(a->sock, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))
		die("IP_TOS");
}

/* Junk of one of several kinds, from A's address to B's QP. What could be
 * a valid packet in B's window is not junk but a forgery that verbs
 * cannot tell from the peer's (the kinds near B's window are each
 * invalid in some field, or only make A resend).
 */
static size_t junk(uint8_t *p, size_t room, const struct side *a,
		   const struct side *b, unsigned int *kinds)
{
	uint16_t sq = a->v.qp->qp_num, dq = b->v.qp->qp_num;
	enum junk_kind kind = rand() % J_KINDS;
	size_t n, i;

	kinds[kind]++;
	switch (kind) {
	case J_RANDOM:
		n = rand() % 200;
		for (i = 0; i < n; i++)
			p[i] = rand();
		return n;
	case J_FAR_PSN:	/* a request half a PSN space away */
		return pack_req(p, 0, PSN_A + 0x80000000u + rand() % 1000, sq,
				dq, OP_WRITE, rand(), 64);
	case J_TRUNCATED: /* a request truncated inside its verbs header */
		pack_req(p, 0, PSN_A + rand() % 64, sq, dq, OP_SEND, 0, 64);
		return 12 + rand() % 36;
	case J_FORGED_ACK: /* an ACK for PSNs B never sent */
		return pack_ack(p, PSN_B + 100000 + rand() % 100000, sq, dq);
	case J_OTHER_QPN:
		return pack_req(p, F_SYN, PSN_A + rand() % 64, sq + 100, dq,
				OP_SEND, 0, 64);
	case J_ANY_TYPE: /* every prologue, far from B's window */
		n = pack_req(p, 0, PSN_A + 0x80000000u, sq, dq, OP_SEND, 0, 64);
		put16(p, (rand() & 0x1f) << PDS_TYPE_SHIFT | (rand() & 0x7ff));
		return rand() % 4 ? n : (size_t)(rand() % (n + 1));
	case J_BAD_VERBS: /* in B's window, but no uet sends it */
		n = pack_req(p, 0, PSN_A + rand() % 64, sq, dq, OP_WRITE,
			     edge32(), 64);
		switch (rand() % 3) {
		case 0:
			p[12] = 1 + rand() % 255;		/* version */
			p[13] = rand();
			break;
		case 1:
			p[13] = rand() % 2 ? 0 : 16 + rand() % 240;	/* opcode */
			break;
		default:
			put32(p + 20, rand() % 64);		/* msg_len */
			put32(p + 24, 64 + edge32() % 0x7fffff00); /* offset past it */
			break;
		}
		put32(p + 28, edge32());	/* addr */
		put32(p + 36, edge32());	/* rkey */
		return n;
	case J_TRIMMED: /* CE, the trimmed DSCP, or a short payload: A resends */
		junk_tos(a, rand() % 2 ? 3 : 30 << 2 | (rand() & 3));
		n = pack_req(p, 0, PSN_A + 0x80000000u * (rand() % 2) +
			     rand() % 64, sq, dq, OP_WRITE, 0, 64);
		/* pay_len above the 64 bytes sent: a trimmed packet (64
		 * alone made a valid WRITE with rkey 0 one time in 4096,
		 * which the QP rightly failed with a remote access error).
		 */
		put32(p + 44, 65 + rand() % 4096);
		return n;
	case J_FRAGMENTED: /* larger than veth's MTU: reassembled, non-linear */
		n = pack_req(p, 0, PSN_A + 0x80000000u, sq, dq, OP_WRITE, 0,
			     2000 + rand() % (room - REQ_HDR_LEN - 2000));
		if (rand() % 2)
			put32(p + 4, PSN_A + rand() % 64);
		put32(p + 44, 0xffffffff);
		return n;
	default:	/* NACKs for PSNs B never sent, CNPs, probes */
		switch (rand() % 3) {
		case 0:
			n = pack_rnr_nack(p, PSN_B + edge32(), sq, dq);
			p[2] = rand();
			return n;
		case 1:
			n = pack_probe(p, 40000 + rand() % 1000, rand() % 2, rand());
			put16(p, PDS_CONTROL << PDS_TYPE_SHIFT | 15 << 7);
			return n;
		default:
			return pack_probe(p, 40000 + rand() % 1000, rand() % 2,
					  rand());
		}
	}
}

/* Junk from A's address while A WRITEs and SENDs to B, every byte checked. */
static void flood(struct side *a, struct side *b, unsigned int seed)
{
	unsigned int kinds[J_KINDS] = { 0 }, r, i, ok = 0;
	long mal = hw_counter(b, "drop_malformed"), win = hw_counter(b, "drop_out_of_window");
	long noqp = hw_counter(b, "drop_no_qp");
	static uint8_t pkt[8192];
	int sa, sb;

	pair_new(a, b, 7);
	/* B's stream starts with A's first SYN: before it, every request is
	 * out of B's window, and junk would not reach the checks behind it.
	 */
	if (!post_recv(b, 0, MSG_LEN) || !send_lands(a, b, seed))
		die("the first SEND before the junk");
	srand(seed);
	printf("%u rounds of %u junk packets from A's address to B's QP, each followed by a 16 KiB WRITE and a SEND (seed %u)\n",
	       FLOOD_ROUNDS, FLOOD_PKTS, seed);
	for (r = 0; r < FLOOD_ROUNDS; r++) {
		for (i = 0; i < FLOOD_PKTS; i++) {
			forge(a->sock, b->addr, pkt,
			      junk(pkt, sizeof(pkt), a, b, kinds));
			junk_tos(a, 0);
		}
		fill(a->v.buf + MSG_LEN, 16384, r);
		fill(a->v.buf, MSG_LEN, r + 1000);
		memset(b->v.buf, 0, MSG_LEN + 16384);
		if (!post_recv(b, 0, MSG_LEN) ||
		    !post_send(a, IBV_WR_RDMA_WRITE, MSG_LEN, 16384,
			       (uintptr_t)b->v.buf + MSG_LEN, b->v.mr->rkey) ||
		    !post_send(a, IBV_WR_SEND, 0, MSG_LEN, 0, 0))
			break;
		sa = next_cqe(a);
		sa = sa ?: next_cqe(a);
		sb = next_cqe(b);
		if (sa || sb) {
			printf("  round %u: %s at A, %s at B\n", r,
			       sa < 0 ? "none" : ibv_wc_status_str(sa),
			       sb < 0 ? "none" : ibv_wc_status_str(sb));
			break;
		}
		if (memcmp(a->v.buf, b->v.buf, MSG_LEN + 16384)) {
			printf("  round %u: B holds other bytes than A sent\n", r);
			break;
		}
		ok++;
	}
	printf("  junk sent:");
	for (i = 0; i < J_KINDS; i++)
		printf("%s %u %s", i ? "," : "", kinds[i], junk_names[i]);
	printf("\n");
	printf("  B dropped: %ld malformed, %ld out of window, %ld not from the peer\n",
	       hw_counter(b, "drop_malformed") - mal,
	       hw_counter(b, "drop_out_of_window") - win,
	       hw_counter(b, "drop_no_qp") - noqp);
	check(ok == FLOOD_ROUNDS, "  every round's WRITE and SEND landed intact");
	check(hw_counter(b, "drop_out_of_window") - win >=
	      kinds[J_FAR_PSN] + kinds[J_FORGED_ACK],
	      "  every far PSN was dropped out of window");
	check(hw_counter(b, "drop_no_qp") - noqp >= kinds[J_OTHER_QPN],
	      "  every other source QPN was dropped");
	check(hw_counter(b, "drop_malformed") - mal >= kinds[J_BAD_VERBS],
	      "  every bad verbs header was dropped as malformed");
}

int main(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };
	unsigned int seed;

	if (argc != 9 && argc != 10) {
		fprintf(stderr, "usage: %s DEV_A GID_INDEX_A NETNS_A ALT_A DEV_B GID_INDEX_B NETNS_B ALT_B [SEED]\n",
			argv[0]);
		return 2;
	}
	seed = argc == 10 ? strtoul(argv[9], NULL, 0) : (unsigned int)time(NULL);
	side_init(&a, argv[1], atoi(argv[2]), argv[3], argv[4]);
	side_init(&b, argv[5], atoi(argv[6]), argv[7], argv[8]);

	forged_send(&a, &b, "a SYN from A's address starting elsewhere than B's rq_psn",
		    a.sock, b.addr, 0, PSN_A + 1000, "drop_out_of_window");
	forged_send(&a, &b, "a SEND from A's address naming another source QPN",
		    a.sock, b.addr, 100, PSN_A, "drop_no_qp");
	forged_send(&a, &b, "a SEND from another address of A's host",
		    a.sock_alt, b.addr, 0, PSN_A, "drop_no_qp");
	forged_send(&a, &b, "a SEND to another address of B's host",
		    a.sock, b.alt, 0, PSN_A, "drop_no_qp");
	forged_answer(&a, &b);
	forged_ack(&a, &b, 10);
	forged_ack(&a, &b, 1000000);
	forged_rnr(&a, &b);
	forged_cnp(&a, &b);
	forged_probes(&a, &b);
	flood(&a, &b, seed);
	return failures ? 1 : 0;
}
