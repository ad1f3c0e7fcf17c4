// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_attrs: the attributes a device reports (ibv_query_device_ex,
 * ibv_query_port) against what its verbs enforce, as an application
 * meets them. Each limit an application can reach cheaply is accepted at
 * its value and refused one past it with EINVAL (rdma_rxe's errno); a
 * queue asked at its limit comes back no larger; each capability flag is
 * a feature that works, here or in another suite (verbs_mw,
 * verbs_atomic_write, verbs_flush, verbs_kernel_ulp). Then the edge
 * cases the IBA allows, rdma_rxe accepts and middleware uses: a CQ of
 * 135168 entries (libfabric's ofi_rxm); zero-length RDMA WRITE, WRITE
 * with immediate, READ and SEND with no SGE, rkey 0 and address 0 (UCX's
 * flush), to receives with no SGE, on RC and (WRITE with immediate) UC:
 * success, the immediate delivered, the QPs still in RTS and a 4 KiB
 * WRITE after each verified; RC and UD QPs with no send or no receive
 * WRs (qperf): created, a post to the empty queue fails with ENOMEM, the
 * other queue works; a UD receive completion's sl is the RoCE v2 packet
 * type an mlx5 device gives (UCX's ud_verbs reads it), over IPv4 and,
 * given IPv6 GIDs, IPv6.
 *
 *   verbs_attrs DEV_A GID_INDEX_A DEV_B GID_INDEX_B
 *               [GID6_INDEX_A GID6_INDEX_B [NETNS_A NETDEV_A]]
 *
 * A and B are connected by their GIDs as in verbs_mw; GID6_INDEX_A and
 * GID6_INDEX_B are IPv6 GIDs of theirs. Run it in A's network namespace,
 * where the rxe provider resolves A's AHs. With NETNS_A and NETDEV_A,
 * A's netdev and its namespace, the last check takes the link down and
 * up again and waits for A's port events.
 * Prints "attr NAME VALUE" for A's attributes (as ibv_devinfo -v prints
 * them, for the selftest to compare) and one line per check; exits 0
 * when all passed, 1 otherwise.
 */
#include <endian.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define PAGE		4096
#define CQE_TIMEOUT	10
#define EVENT_TIMEOUT	15
#define BUF_LEN		(4 * PAGE)
/* The CQ libfabric's ofi_rxm asks for. */
#define RXM_CQE		135168
#define UD_QKEY		0x11111111u
#define UD_GRH		40
/* The RoCE packet type an mlx5 device puts in a UD receive's sl, as
 * rdma-core's libmlx5 reads it from the CQE: a UDP header (8) and the L3
 * header, IPv4 2 or IPv6 1.
 */
#define SL_ROCE_V2_IPV4	0xa
#define SL_ROCE_V2_IPV6	0x9
/* IB_UVERBS_DEVICE_ATOMIC_WRITE and _FLUSH_GLOBAL (Linux 6.2's
 * ib_user_verbs.h); the second only on kernels 6.2 and later.
 */
#define DEVICE_ATOMIC_WRITE	(1ULL << 40)
#define DEVICE_FLUSH_GLOBAL	(1ULL << 38)
/* The flags a behaviour below or another suite checks. */
#define FLAGS_CHECKED	(IBV_DEVICE_UD_AV_PORT_ENFORCE | \
			 IBV_DEVICE_PORT_ACTIVE_EVENT | \
			 IBV_DEVICE_SYS_IMAGE_GUID | \
			 IBV_DEVICE_RC_RNR_NAK_GEN | \
			 IBV_DEVICE_SRQ_RESIZE | \
			 IBV_DEVICE_MEM_MGT_EXTENSIONS | \
			 IBV_DEVICE_MEM_WINDOW | \
			 IBV_DEVICE_MEM_WINDOW_TYPE_2B | \
			 DEVICE_ATOMIC_WRITE | DEVICE_FLUSH_GLOBAL)

struct side {
	struct vu_side v;
	struct ibv_device_attr_ex dx;
	struct ibv_port_attr port;
};

static int failures;

/* vu_check() of a printf-formatted what; ok is judged first, before
 * snprintf() may touch errno.
 */
#define check(ok, ...)							\
	do {								\
		bool ok_ = (ok);					\
		char what_[256];					\
									\
		snprintf(what_, sizeof(what_), __VA_ARGS__);		\
		vu_check(&failures, ok_, what_);			\
	} while (0)

/* A verb one past a limit: refused with EINVAL, as rdma_rxe refuses it. */
#define refused(failed, err, fmt, ...)					\
	check((failed) && (err) == EINVAL, fmt ": %s", ##__VA_ARGS__,	\
	      (failed) ? strerrorname_np(err) : "accepted")

#define die vu_die

static void side_init(struct side *s, const char *dev, int gid_index)
{
	vu_side_open(&s->v, dev, gid_index, 16);
	if (ibv_query_device_ex(s->v.ctx, NULL, &s->dx) ||
	    ibv_query_port(s->v.ctx, 1, &s->port))
		die("ibv_query_device_ex or ibv_query_port");
	vu_side_buf(&s->v, BUF_LEN, 0, 0, BUF_LEN, IBV_ACCESS_LOCAL_WRITE |
		    IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		    IBV_ACCESS_REMOTE_ATOMIC);
}

/* No attribute says it: rdma_rxe's RXE_MAX_INLINE_DATA, the WQE's SGE
 * space, which the rxe provider's QPs share between SGEs and inline data.
 */
static uint32_t max_inline(const struct side *s)
{
	return s->dx.orig_attr.max_sge * sizeof(struct ibv_sge);
}

/* A GUID as ibv_devinfo prints it. */
static void print_guid(const char *name, __be64 guid)
{
	uint64_t g = be64toh(guid);

	printf("attr %s %04x:%04x:%04x:%04x\n", name,
	       (unsigned int)(g >> 48), (unsigned int)(g >> 32) & 0xffff,
	       (unsigned int)(g >> 16) & 0xffff, (unsigned int)g & 0xffff);
}

static void print_attrs(const struct side *s)
{
	const struct ibv_device_attr *a = &s->dx.orig_attr;
	const struct ibv_port_attr *p = &s->port;

	print_guid("node_guid", a->node_guid);
	print_guid("sys_image_guid", a->sys_image_guid);
	printf("attr vendor_id %#x\n", a->vendor_id);
	printf("attr vendor_part_id %u\n", a->vendor_part_id);
	printf("attr hw_ver %#x\n", a->hw_ver);
	printf("attr max_mr_size %#llx\n", (unsigned long long)a->max_mr_size);
	printf("attr page_size_cap %#llx\n",
	       (unsigned long long)a->page_size_cap);
	printf("attr max_qp %d\n", a->max_qp);
	printf("attr max_qp_wr %d\n", a->max_qp_wr);
	printf("attr device_cap_flags_ex %#llx\n",
	       (unsigned long long)s->dx.device_cap_flags_ex);
	printf("attr max_sge %d\n", a->max_sge);
	printf("attr max_sge_rd %d\n", a->max_sge_rd);
	printf("attr max_cq %d\n", a->max_cq);
	printf("attr max_cqe %d\n", a->max_cqe);
	printf("attr max_mr %d\n", a->max_mr);
	printf("attr max_pd %d\n", a->max_pd);
	printf("attr max_qp_rd_atom %d\n", a->max_qp_rd_atom);
	printf("attr max_qp_init_rd_atom %d\n", a->max_qp_init_rd_atom);
	printf("attr max_res_rd_atom %d\n", a->max_res_rd_atom);
	printf("attr max_mw %d\n", a->max_mw);
	printf("attr max_ah %d\n", a->max_ah);
	printf("attr max_srq %d\n", a->max_srq);
	printf("attr max_srq_wr %d\n", a->max_srq_wr);
	printf("attr max_srq_sge %d\n", a->max_srq_sge);
	printf("attr max_pkeys %u\n", a->max_pkeys);
	printf("attr max_mtu %d\n", 128 << p->max_mtu);
	printf("attr active_mtu %d\n", 128 << p->active_mtu);
	printf("attr max_msg_sz %#x\n", p->max_msg_sz);
	printf("attr gid_tbl_len %d\n", p->gid_tbl_len);
	printf("attr pkey_tbl_len %u\n", p->pkey_tbl_len);
	printf("attr port_cap_flags %#x\n", p->port_cap_flags);
}

static void cq_limits(struct side *s)
{
	int max = s->dx.orig_attr.max_cqe;
	struct ibv_cq *cq;
	int err;

	cq = ibv_create_cq(s->v.ctx, max, NULL, NULL, 0);
	check(cq && cq->cqe == max, "max_cqe %d: a CQ asked at it has %d", max,
	      cq ? cq->cqe : -1);
	if (cq)
		ibv_destroy_cq(cq);
	cq = ibv_create_cq(s->v.ctx, max + 1, NULL, NULL, 0);
	refused(!cq, errno, "max_cqe + 1: ibv_create_cq");
	if (cq)
		ibv_destroy_cq(cq);

	cq = ibv_create_cq(s->v.ctx, 1, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	err = ibv_resize_cq(cq, max);
	check(!err && cq->cqe == max, "max_cqe: a CQ resized to it has %d",
	      cq->cqe);
	err = ibv_resize_cq(cq, max + 1);
	refused(err, err, "max_cqe + 1: ibv_resize_cq");
	ibv_destroy_cq(cq);

	cq = ibv_create_cq(s->v.ctx, RXM_CQE, NULL, NULL, 0);
	check(cq && cq->cqe >= RXM_CQE,
	      "a CQ of %d entries, as libfabric's ofi_rxm asks: %s", RXM_CQE,
	      cq ? "created" : strerrorname_np(errno));
	if (cq)
		ibv_destroy_cq(cq);
}

/* The QP capabilities, by name, with their limits. */
struct qp_cap_limit {
	const char *name;
	size_t off;
	uint32_t max;
};

#define CAP_OFF(f)	offsetof(struct ibv_qp_cap, f)
#define CAP(c, off)	(*(uint32_t *)((char *)(c) + (off)))

static struct ibv_qp *qp_with(struct side *s, enum ibv_qp_type type,
			      struct ibv_qp_cap *cap)
{
	struct ibv_qp_init_attr init = {
		.send_cq = s->v.cq,
		.recv_cq = s->v.cq,
		.cap = *cap,
		.qp_type = type,
	};
	struct ibv_qp *qp = ibv_create_qp(s->v.pd, &init);

	if (qp)
		*cap = init.cap;
	return qp;
}

static void qp_limits(struct side *s, enum ibv_qp_type type)
{
	const struct ibv_device_attr *a = &s->dx.orig_attr;
	const char *t = type == IBV_QPT_RC ? "RC" : "UD";
	const struct qp_cap_limit lim[] = {
		{ "max_send_wr", CAP_OFF(max_send_wr), a->max_qp_wr },
		{ "max_recv_wr", CAP_OFF(max_recv_wr), a->max_qp_wr },
		{ "max_send_sge", CAP_OFF(max_send_sge), a->max_sge },
		{ "max_recv_sge", CAP_OFF(max_recv_sge), a->max_sge },
		{ "max_inline_data", CAP_OFF(max_inline_data), max_inline(s) },
	};
	const struct ibv_qp_cap small = {
		.max_send_wr = 1, .max_recv_wr = 1,
		.max_send_sge = 1, .max_recv_sge = 1,
	};
	struct ibv_qp_cap cap;
	struct ibv_qp *qp;
	size_t i, j;
	bool above;

	for (i = 0; i < ARRAY_SIZE(lim); i++) {
		cap = small;
		CAP(&cap, lim[i].off) = lim[i].max;
		qp = qp_with(s, type, &cap);
		above = false;
		for (j = 0; qp && j < ARRAY_SIZE(lim); j++)
			above |= CAP(&cap, lim[j].off) > lim[j].max;
		check(qp && CAP(&cap, lim[i].off) == lim[i].max && !above,
		      "%s %s %u: a QP asked at it has %u, no cap above its limit",
		      t, lim[i].name, lim[i].max,
		      qp ? CAP(&cap, lim[i].off) : 0);
		if (qp)
			ibv_destroy_qp(qp);

		cap = small;
		CAP(&cap, lim[i].off) = lim[i].max + 1;
		qp = qp_with(s, type, &cap);
		refused(!qp, errno, "%s %s + 1: ibv_create_qp", t, lim[i].name);
		if (qp)
			ibv_destroy_qp(qp);
	}
}

static void srq_limits(struct side *s)
{
	const struct ibv_device_attr *a = &s->dx.orig_attr;
	struct ibv_srq_init_attr si = {
		.attr = { .max_wr = a->max_srq_wr, .max_sge = 1 },
	};
	struct ibv_srq_attr sa;
	struct ibv_srq *srq;
	int err;

	srq = ibv_create_srq(s->v.pd, &si);
	check(srq && si.attr.max_wr == (uint32_t)a->max_srq_wr,
	      "max_srq_wr %d: an SRQ asked at it has %u", a->max_srq_wr,
	      srq ? si.attr.max_wr : 0);
	if (srq)
		ibv_destroy_srq(srq);
	si.attr.max_wr = a->max_srq_wr + 1;
	srq = ibv_create_srq(s->v.pd, &si);
	refused(!srq, errno, "max_srq_wr + 1: ibv_create_srq");
	if (srq)
		ibv_destroy_srq(srq);

	si.attr.max_wr = 16;
	si.attr.max_sge = a->max_srq_sge;
	srq = ibv_create_srq(s->v.pd, &si);
	check(srq && si.attr.max_sge == (uint32_t)a->max_srq_sge,
	      "max_srq_sge %d: an SRQ asked at it has %u", a->max_srq_sge,
	      srq ? si.attr.max_sge : 0);
	if (srq)
		ibv_destroy_srq(srq);
	si.attr.max_sge = a->max_srq_sge + 1;
	srq = ibv_create_srq(s->v.pd, &si);
	refused(!srq, errno, "max_srq_sge + 1: ibv_create_srq");
	if (srq)
		ibv_destroy_srq(srq);

	/* IBV_DEVICE_SRQ_RESIZE: ibv_modify_srq() grows a queue. */
	si.attr.max_sge = 1;
	srq = ibv_create_srq(s->v.pd, &si);
	if (!srq)
		die("ibv_create_srq");
	sa.max_wr = a->max_srq_wr;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR);
	if (!err)
		err = ibv_query_srq(srq, &sa);
	check((s->dx.orig_attr.device_cap_flags & IBV_DEVICE_SRQ_RESIZE) &&
	      !err && sa.max_wr == (uint32_t)a->max_srq_wr,
	      "SRQ_RESIZE: an SRQ of 16 resized to max_srq_wr has %u",
	      err ? 0 : sa.max_wr);
	sa.max_wr = a->max_srq_wr + 1;
	err = ibv_modify_srq(srq, &sa, IBV_SRQ_MAX_WR);
	refused(err, err, "max_srq_wr + 1: ibv_modify_srq");
	ibv_destroy_srq(srq);
}

/* An RC QP of s on s->v.cq with every SGE the device allows. */
static struct ibv_qp *rc_qp(struct side *s)
{
	struct ibv_qp_cap cap = {
		.max_send_wr = 8, .max_recv_wr = 8,
		.max_send_sge = s->dx.orig_attr.max_sge, .max_recv_sge = 1,
	};
	struct ibv_qp *qp = qp_with(s, IBV_QPT_RC, &cap);

	if (!qp)
		die("ibv_create_qp");
	return qp;
}

static struct vu_conn conn_to(const struct side *s, const struct side *peer,
			      uint32_t peer_qpn)
{
	return vu_conn(peer_qpn, &peer->v.gid, s->v.gid_index,
		       IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
		       IBV_ACCESS_REMOTE_ATOMIC);
}

/* READs and atomics in flight (IBA 11.2.4.2, modify QP): max_qp_rd_atom
 * as the responder's resources at RTR, max_qp_init_rd_atom as the
 * initiator's at RTS; the P_Key index against max_pkeys at INIT.
 */
static void qp_attr_limits(struct side *a, struct side *b)
{
	int rd = a->dx.orig_attr.max_qp_rd_atom;
	int init = a->dx.orig_attr.max_qp_init_rd_atom;
	struct ibv_qp *qp = rc_qp(a), *peer = rc_qp(b);
	struct vu_conn c = conn_to(a, b, peer->qp_num);
	struct ibv_qp_init_attr ia;
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.pkey_index = a->dx.orig_attr.max_pkeys,
	};
	int err;

	err = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	refused(err, err, "max_pkeys %u: P_Key index max_pkeys at INIT",
		a->dx.orig_attr.max_pkeys);

	c.max_dest_rd_atomic = rd + 1;
	err = vu_rc_connect(qp, &c) ? errno : 0;
	refused(err && vu_qp_state(qp) == IBV_QPS_INIT, err,
		"max_qp_rd_atom + 1: max_dest_rd_atomic at RTR");
	c.max_dest_rd_atomic = rd;
	c.max_rd_atomic = init + 1;
	err = vu_rc_connect(qp, &c) ? errno : 0;
	refused(err && vu_qp_state(qp) == IBV_QPS_RTR, err,
		"max_qp_init_rd_atom + 1: max_rd_atomic at RTS, after RTR took max_qp_rd_atom");
	ibv_destroy_qp(qp);

	qp = rc_qp(a);
	c.max_rd_atomic = init;
	err = vu_rc_connect(qp, &c);
	if (!err)
		err = ibv_query_qp(qp, &attr, IBV_QP_MAX_QP_RD_ATOMIC |
				   IBV_QP_MAX_DEST_RD_ATOMIC, &ia);
	check(!err && attr.max_rd_atomic == init &&
	      attr.max_dest_rd_atomic == rd,
	      "max_qp_init_rd_atom %d, max_qp_rd_atom %d: a QP at RTS has %d, %d",
	      init, rd, err ? -1 : attr.max_rd_atomic,
	      err ? -1 : attr.max_dest_rd_atomic);
	ibv_destroy_qp(qp);
	ibv_destroy_qp(peer);
}

static void port_table_limits(struct side *s)
{
	int gids = s->port.gid_tbl_len;
	union ibv_gid gid;
	uint16_t pkey;

	check(!ibv_query_pkey(s->v.ctx, 1, s->port.pkey_tbl_len - 1, &pkey) &&
	      pkey == 0xffff &&
	      ibv_query_pkey(s->v.ctx, 1, s->port.pkey_tbl_len, &pkey),
	      "pkey_tbl_len %u: the last P_Key is the default, none past it",
	      s->port.pkey_tbl_len);
	check(!ibv_query_gid(s->v.ctx, 1, gids - 1, &gid) &&
	      ibv_query_gid(s->v.ctx, 1, gids, &gid),
	      "gid_tbl_len %d: the last GID index can be read, none past it",
	      gids);
}

/* The size check of ibv_reg_mr() without pinning 4 GiB: at the limit a
 * PROT_NONE range gets as far as pinning, which fails (EFAULT).
 */
static void mr_size_limit(struct side *s)
{
	uint64_t max = s->dx.orig_attr.max_mr_size;
	struct ibv_mr *mr;
	void *p;

	if (max > (1ULL << 40)) {
		printf("# max_mr_size %#llx: too large to map\n",
		       (unsigned long long)max);
		return;
	}
	p = mmap(NULL, max + PAGE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	mr = ibv_reg_mr(s->v.pd, p, max, IBV_ACCESS_LOCAL_WRITE);
	check(!mr && errno != EINVAL,
	      "max_mr_size %#llx: a region of it passes the size check (%s)",
	      (unsigned long long)max, mr ? "registered" : strerrorname_np(errno));
	if (mr)
		ibv_dereg_mr(mr);
	mr = ibv_reg_mr(s->v.pd, p, max + 1, IBV_ACCESS_LOCAL_WRITE);
	refused(!mr, errno, "max_mr_size + 1: ibv_reg_mr");
	if (mr)
		ibv_dereg_mr(mr);
	munmap(p, max + PAGE);
}

/* New connected RC QPs of a and b; a's of a_cap if not NULL, which
 * then says what it got. False if that one could not be created (errno
 * says why).
 */
static bool pair_new(struct side *a, struct side *b, uint8_t rnr_retry,
		     struct ibv_qp_cap *a_cap)
{
	struct vu_conn c;

	if (a->v.qp && (ibv_destroy_qp(a->v.qp) || ibv_destroy_qp(b->v.qp)))
		die("ibv_destroy_qp");
	vu_drain(a->v.cq);
	vu_drain(b->v.cq);
	a->v.qp = a_cap ? qp_with(a, IBV_QPT_RC, a_cap) : rc_qp(a);
	if (!a->v.qp)
		return false;
	b->v.qp = rc_qp(b);
	c = conn_to(a, b, b->v.qp->qp_num);
	c.rnr_retry = rnr_retry;
	if (vu_rc_connect(a->v.qp, &c))
		die("A: INIT, RTR or RTS");
	c = conn_to(b, a, a->v.qp->qp_num);
	if (vu_rc_connect(b->v.qp, &c))
		die("B: INIT, RTR or RTS");
	return true;
}

/* Posts wr on qp, signaled; the status of its completion on cq. */
static int run_wr_on(struct ibv_qp *qp, struct ibv_cq *cq,
		     struct ibv_send_wr *wr)
{
	struct ibv_send_wr *bad;
	int err;

	wr->send_flags = IBV_SEND_SIGNALED;
	err = ibv_post_send(qp, wr, &bad);
	if (err) {
		printf("# ibv_post_send: %s\n", strerrorname_np(err));
		return -1;
	}
	return vu_wait_wc(cq, CQE_TIMEOUT).status;
}

/* Posts wr on A's QP; the status of its completion. */
static int run_wr(struct side *a, struct ibv_send_wr *wr)
{
	return run_wr_on(a->v.qp, a->v.cq, wr);
}

/* A READ into max_sge_rd SGEs, every other 8 bytes of A's buffer. */
static void read_sges(struct side *a, struct side *b)
{
	int n = a->dx.orig_attr.max_sge_rd, i, st;
	struct ibv_sge *sge = calloc(n + 1, sizeof(*sge));
	struct ibv_send_wr wr = {
		.sg_list = sge,
		.num_sge = n,
		.opcode = IBV_WR_RDMA_READ,
		.wr.rdma = { .remote_addr = (uintptr_t)b->v.buf,
			     .rkey = b->v.mr->rkey },
	}, *bad;
	bool same = true;

	if (!sge || (size_t)(n + 1) * 16 > BUF_LEN)
		die("SGEs");
	for (i = 0; i < n * 8; i++)
		b->v.buf[i] = i * 7 + 1;
	memset(a->v.buf, 0, BUF_LEN);
	for (i = 0; i <= n; i++)
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)a->v.buf + 16 * i,
					   .length = 8, .lkey = a->v.mr->lkey };
	st = run_wr(a, &wr);
	for (i = 0; i < n * 8; i++)
		same &= a->v.buf[(i / 8) * 16 + i % 8] == b->v.buf[i];
	check(st == IBV_WC_SUCCESS && same,
	      "max_sge_rd %d: a READ scattered to that many SGEs: %s, %s", n,
	      st < 0 ? "no completion" : ibv_wc_status_str(st),
	      same ? "bytes verified" : "bytes differ");
	wr.num_sge = n + 1;
	/* The rxe provider's refusal is -EINVAL, not the errno itself. */
	st = abs(ibv_post_send(a->v.qp, &wr, &bad));
	refused(st, st, "max_sge_rd + 1: ibv_post_send of a READ");
	free(sge);
}

/* atomic_cap IBV_ATOMIC_HCA: a fetch-and-add is carried out. */
static void atomic_add(struct side *a, struct side *b)
{
	uint64_t *dst = (uint64_t *)(b->v.buf + PAGE);
	uint64_t *old = (uint64_t *)a->v.buf;
	struct ibv_sge sge = { .addr = (uintptr_t)old, .length = 8,
			       .lkey = a->v.mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_ATOMIC_FETCH_AND_ADD,
		.wr.atomic = { .remote_addr = (uintptr_t)dst,
			       .compare_add = 5, .rkey = b->v.mr->rkey },
	};
	int st;

	*dst = 37;
	*old = 0;
	st = run_wr(a, &wr);
	check(a->dx.orig_attr.atomic_cap == IBV_ATOMIC_HCA &&
	      st == IBV_WC_SUCCESS && *old == 37 && *dst == 42,
	      "atomic_cap ATOMIC_HCA: a FETCH_AND_ADD returns 37, leaves 42: %s, %llu, %llu",
	      st < 0 ? "no completion" : ibv_wc_status_str(st),
	      (unsigned long long)*old, (unsigned long long)*dst);
}

/* A WRITE of max_msg_sz + 1 bytes: max_sge SGEs over one region, which
 * is the message's length over max_sge. The message itself (2 GiB) is
 * not sent.
 */
static void msg_size_limit(struct side *a, struct side *b)
{
	uint64_t total = (uint64_t)a->port.max_msg_sz + 1, left = total;
	int n = a->dx.orig_attr.max_sge, i = 0, st;
	uint64_t len = ((total + n - 1) / n + PAGE - 1) & ~(uint64_t)(PAGE - 1);
	struct ibv_sge *sge = calloc(n, sizeof(*sge));
	struct ibv_send_wr wr = {
		.sg_list = sge,
		.opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = (uintptr_t)b->v.buf,
			     .rkey = b->v.mr->rkey },
	};
	struct ibv_mr *mr;
	void *p;

	if (len > (256 << 20)) {
		printf("# max_msg_sz %#x: a region of %llu MiB to reach it, not tried\n",
		       a->port.max_msg_sz, (unsigned long long)(len >> 20));
		return;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	mr = p == MAP_FAILED ? NULL :
	     ibv_reg_mr(a->v.pd, p, len, IBV_ACCESS_LOCAL_WRITE);
	if (!sge || !mr)
		die("a region for max_msg_sz");
	for (; left; i++) {
		sge[i] = (struct ibv_sge){ .addr = (uintptr_t)p,
					   .length = left < len ? left : len,
					   .lkey = mr->lkey };
		left -= sge[i].length;
	}
	wr.num_sge = i;
	st = run_wr(a, &wr);
	check(st == IBV_WC_LOC_LEN_ERR,
	      "max_msg_sz %#x: a WRITE one byte longer completes with IBV_WC_LOC_LEN_ERR: %s",
	      a->port.max_msg_sz,
	      st < 0 ? "no completion" : ibv_wc_status_str(st));
	ibv_dereg_mr(mr);
	munmap(p, len);
	free(sge);
}

/* IBV_DEVICE_RC_RNR_NAK_GEN: B has no receive posted and NAKs A's SEND
 * RNR; A, with no RNR retry, completes it with IBV_WC_RNR_RETRY_EXC_ERR.
 */
static void rnr_nak(struct side *a, struct side *b)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->v.buf, .length = 8,
			       .lkey = a->v.mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
	};
	int st;

	pair_new(a, b, 0, NULL);
	st = run_wr(a, &wr);
	check((b->dx.orig_attr.device_cap_flags & IBV_DEVICE_RC_RNR_NAK_GEN) &&
	      st == IBV_WC_RNR_RETRY_EXC_ERR,
	      "RC_RNR_NAK_GEN: a SEND to no receive, no RNR retry: %s",
	      st < 0 ? "no completion" : ibv_wc_status_str(st));
}

/* An RC QP's send side carries data: a 4 KiB WRITE from A's buffer lands
 * in B's, byte for byte.
 */
static bool write_4k(struct side *a, struct side *b, uint8_t seed)
{
	struct ibv_sge sge = { .addr = (uintptr_t)a->v.buf, .length = PAGE,
			       .lkey = a->v.mr->lkey };
	struct ibv_send_wr wr = {
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.wr.rdma = { .remote_addr = (uintptr_t)b->v.buf + PAGE,
			     .rkey = b->v.mr->rkey },
	};
	int i;

	for (i = 0; i < PAGE; i++)
		a->v.buf[i] = i * 13 + seed;
	memset(b->v.buf + PAGE, 0, PAGE);
	return run_wr(a, &wr) == IBV_WC_SUCCESS &&
	       !memcmp(a->v.buf, b->v.buf + PAGE, PAGE);
}

/* Zero-length operations with no SGE, as UCX flushes an RC endpoint: a
 * WRITE of rkey 0 to address 0, the same with an immediate, a READ, a
 * SEND; B's receives have no SGE either. Each completes with success
 * (IBA C9-88: no rkey check for an empty READ or WRITE), the immediate
 * arrives, both QPs stay in RTS and a 4 KiB WRITE after it lands.
 */
static void zero_length(struct side *a, struct side *b)
{
	static const struct {
		const char *name;
		enum ibv_wr_opcode opcode;
		enum ibv_wc_opcode recv;	/* B's receive; 0: B takes none */
	} ops[] = {
		{ "RDMA WRITE", IBV_WR_RDMA_WRITE, 0 },
		{ "RDMA WRITE with immediate", IBV_WR_RDMA_WRITE_WITH_IMM,
		  IBV_WC_RECV_RDMA_WITH_IMM },
		{ "RDMA READ", IBV_WR_RDMA_READ, 0 },
		{ "SEND", IBV_WR_SEND, IBV_WC_RECV },
	};
	struct ibv_recv_wr rwr = { .wr_id = 7 }, *rbad;
	struct ibv_send_wr wr;
	bool got, rts, data;
	struct ibv_wc wc;
	size_t i;
	int st;

	pair_new(a, b, 7, NULL);
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (ops[i].recv && ibv_post_recv(b->v.qp, &rwr, &rbad))
			die("ibv_post_recv of no SGE");
		wr = (struct ibv_send_wr){
			.opcode = ops[i].opcode,
			.imm_data = htobe32(0x5eed0 + i),
		};
		st = run_wr(a, &wr);
		got = true;
		if (ops[i].recv) {
			wc = vu_wait_wc(b->v.cq, CQE_TIMEOUT);
			got = wc.status == IBV_WC_SUCCESS && wc.wr_id == 7 &&
			      wc.opcode == ops[i].recv && wc.byte_len == 0 &&
			      (ops[i].recv != IBV_WC_RECV_RDMA_WITH_IMM ||
			       ((wc.wc_flags & IBV_WC_WITH_IMM) &&
				wc.imm_data == wr.imm_data));
		}
		rts = vu_qp_state(a->v.qp) == IBV_QPS_RTS &&
		      vu_qp_state(b->v.qp) == IBV_QPS_RTS;
		data = write_4k(a, b, i);
		check(st == IBV_WC_SUCCESS && got && rts && data,
		      "zero-length %s, no SGE, rkey 0, address 0: %s%s, QPs %s, a 4 KiB WRITE after it %s",
		      ops[i].name,
		      st < 0 ? "no completion" : ibv_wc_status_str(st),
		      !ops[i].recv ? "" : got ? ", B's receive of no SGE completes" :
		      ", B's receive missing or wrong",
		      rts ? "in RTS" : "not in RTS",
		      data ? "lands" : "does not land");
	}
}

/* RESET -> INIT -> RTR -> RTS with the attributes UC takes. */
static void uc_connect(struct ibv_qp *qp, const struct side *s,
		       const struct side *peer, uint32_t peer_qpn)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_REMOTE_WRITE,
	};

	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		die("UC: INIT");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = peer_qpn;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.dgid = peer->v.gid;
	attr.ah_attr.grh.sgid_index = s->v.gid_index;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.port_num = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			  IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN))
		die("UC: RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("UC: RTS");
}

/* The zero-length WRITE with immediate and rkey 0 on UC QPs: B's receive
 * gets the immediate (UC's responder drops a message it refuses).
 */
static void zero_length_uc(struct side *a, struct side *b)
{
	struct ibv_qp_cap cap = { .max_send_wr = 4, .max_recv_wr = 4,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_qp *qa = qp_with(a, IBV_QPT_UC, &cap);
	struct ibv_qp *qb = qp_with(b, IBV_QPT_UC, &cap);
	struct ibv_recv_wr rwr = { .wr_id = 9 }, *rbad;
	struct ibv_send_wr wr = { .opcode = IBV_WR_RDMA_WRITE_WITH_IMM,
				  .imm_data = htobe32(0xc0ffee) };
	struct ibv_wc wc;
	bool got;
	int st;

	if (!qa || !qb)
		die("ibv_create_qp(IBV_QPT_UC)");
	uc_connect(qa, a, b, qb->qp_num);
	uc_connect(qb, b, a, qa->qp_num);
	vu_drain(a->v.cq);
	vu_drain(b->v.cq);
	if (ibv_post_recv(qb, &rwr, &rbad))
		die("ibv_post_recv of no SGE");
	st = run_wr_on(qa, a->v.cq, &wr);
	wc = vu_wait_wc(b->v.cq, CQE_TIMEOUT);
	got = wc.status == IBV_WC_SUCCESS && wc.wr_id == 9 &&
	      wc.opcode == IBV_WC_RECV_RDMA_WITH_IMM && wc.byte_len == 0 &&
	      (wc.wc_flags & IBV_WC_WITH_IMM) && wc.imm_data == wr.imm_data;
	check(st == IBV_WC_SUCCESS && got && vu_qp_state(qb) == IBV_QPS_RTS,
	      "UC: zero-length RDMA WRITE with immediate, no SGE, rkey 0: %s, B's receive %s",
	      st < 0 ? "no completion" : ibv_wc_status_str(st),
	      got ? "has the immediate" : "missing or wrong");
	ibv_destroy_qp(qa);
	ibv_destroy_qp(qb);
}

/* A UD QP of s, in RTS; NULL if it cannot be created. */
static struct ibv_qp *ud_qp(struct side *s, struct ibv_qp_cap *cap)
{
	struct ibv_qp *qp = qp_with(s, IBV_QPT_UD, cap);
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qkey = UD_QKEY,
	};

	if (!qp)
		return NULL;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		die("UD: INIT");
	attr.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE))
		die("UD: RTR");
	attr.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("UD: RTS");
	return qp;
}

static struct ibv_ah *ud_ah(struct side *s, int sgid_index,
			    const union ibv_gid *dgid)
{
	struct ibv_ah_attr attr = {
		.is_global = 1,
		.grh = { .dgid = *dgid, .sgid_index = sgid_index,
			 .hop_limit = 64 },
		.port_num = 1,
	};
	struct ibv_ah *ah = ibv_create_ah(s->v.pd, &attr);

	if (!ah)
		die("ibv_create_ah");
	return ah;
}

/* A queue of no WRs, as qperf's rc_bw asks for one: the QP is created,
 * as on rdma_rxe; a post to that queue fails with ENOMEM, the QP's other
 * queue works. First an RC QP of A with no send WRs: a 4 KiB SEND from
 * B lands in its receive queue.
 */
static void zero_send_wr(struct side *a, struct side *b)
{
	struct ibv_qp_cap cap = { .max_send_wr = 0, .max_recv_wr = 8,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_sge sge = { .addr = (uintptr_t)a->v.buf, .length = PAGE,
			       .lkey = a->v.mr->lkey };
	struct ibv_sge bsge = { .addr = (uintptr_t)b->v.buf, .length = PAGE,
				.lkey = b->v.mr->lkey };
	struct ibv_recv_wr rwr = { .wr_id = 3, .sg_list = &sge, .num_sge = 1 };
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	struct ibv_send_wr send = { .sg_list = &bsge, .num_sge = 1,
				    .opcode = IBV_WR_SEND };
	struct ibv_recv_wr *rbad;
	struct ibv_send_wr *bad;
	struct ibv_wc wc;
	int err, st, i;
	bool same;

	if (!pair_new(a, b, 7, &cap)) {
		check(false, "RC max_send_wr 0: ibv_create_qp: %s",
		      strerrorname_np(errno));
		return;
	}
	err = ibv_post_send(a->v.qp, &wr, &bad);
	if (ibv_post_recv(a->v.qp, &rwr, &rbad))
		die("ibv_post_recv");
	for (i = 0; i < PAGE; i++)
		b->v.buf[i] = i * 11 + 5;
	memset(a->v.buf, 0, PAGE);
	st = run_wr_on(b->v.qp, b->v.cq, &send);
	wc = vu_wait_wc(a->v.cq, CQE_TIMEOUT);
	same = !memcmp(a->v.buf, b->v.buf, PAGE);
	check(cap.max_send_wr == 0 && err == ENOMEM && st == IBV_WC_SUCCESS &&
	      wc.status == IBV_WC_SUCCESS && wc.wr_id == 3 && same,
	      "RC max_send_wr 0: created with %u, ibv_post_send %s; a 4 KiB SEND from B %s",
	      cap.max_send_wr, err ? strerrorname_np(err) : "accepted",
	      same ? "received, bytes verified" : "not received");
}

/* An RC QP of A with no receive WRs: its 4 KiB WRITE lands. */
static void zero_recv_wr(struct side *a, struct side *b)
{
	struct ibv_qp_cap cap = { .max_send_wr = 8, .max_recv_wr = 0,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_recv_wr rwr = { .wr_id = 4 }, *rbad;
	bool data;
	int err;

	if (!pair_new(a, b, 7, &cap)) {
		check(false, "RC max_recv_wr 0: ibv_create_qp: %s",
		      strerrorname_np(errno));
		return;
	}
	err = ibv_post_recv(a->v.qp, &rwr, &rbad);
	data = write_4k(a, b, 0x42);
	check(cap.max_recv_wr == 0 && err == ENOMEM && data,
	      "RC max_recv_wr 0: created with %u, ibv_post_recv %s; a 4 KiB WRITE %s",
	      cap.max_recv_wr, err ? strerrorname_np(err) : "accepted",
	      data ? "lands" : "does not land");
}

/* A UD QP with neither: both posts fail. */
static void zero_ud_wrs(struct side *a)
{
	struct ibv_qp_cap cap = { .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_sge sge = { .addr = (uintptr_t)a->v.buf, .length = 64,
			       .lkey = a->v.mr->lkey };
	struct ibv_recv_wr rwr = { .sg_list = &sge, .num_sge = 1 }, *rbad;
	struct ibv_send_wr wr = { .sg_list = &sge, .num_sge = 1,
				  .opcode = IBV_WR_SEND }, *bad;
	struct ibv_qp *qp = ud_qp(a, &cap);
	int serr, rerr;

	if (!qp) {
		check(false, "UD max_send_wr and max_recv_wr 0: ibv_create_qp: %s",
		      strerrorname_np(errno));
		return;
	}
	wr.wr.ud.ah = ud_ah(a, a->v.gid_index, &a->v.gid);
	wr.wr.ud.remote_qpn = qp->qp_num;
	wr.wr.ud.remote_qkey = UD_QKEY;
	serr = ibv_post_send(qp, &wr, &bad);
	rerr = ibv_post_recv(qp, &rwr, &rbad);
	check(cap.max_send_wr == 0 && cap.max_recv_wr == 0 &&
	      serr == ENOMEM && rerr == ENOMEM,
	      "UD max_send_wr and max_recv_wr 0: created with %u and %u, ibv_post_send %s, ibv_post_recv %s",
	      cap.max_send_wr, cap.max_recv_wr,
	      serr ? strerrorname_np(serr) : "accepted",
	      rerr ? strerrorname_np(rerr) : "accepted");
	ibv_destroy_qp(qp);
	ibv_destroy_ah(wr.wr.ud.ah);
}

/* A UD receive completion carries the RoCE packet type in sl as mlx5
 * devices give it (UCX's ud_verbs reads it there): A's datagram to B
 * from A's GID gid_a to B's gid_b.
 */
static void ud_sl(struct side *a, struct side *b, int gid_a, int gid_b,
		  const char *net, uint8_t want)
{
	struct ibv_qp_cap cap = { .max_send_wr = 1, .max_recv_wr = 1,
				  .max_send_sge = 1, .max_recv_sge = 1 };
	struct ibv_qp *qa = ud_qp(a, &cap), *qb = ud_qp(b, &cap);
	struct ibv_sge rsge = { .addr = (uintptr_t)b->v.buf,
				.length = UD_GRH + 64, .lkey = b->v.mr->lkey };
	struct ibv_sge ssge = { .addr = (uintptr_t)a->v.buf, .length = 64,
				.lkey = a->v.mr->lkey };
	struct ibv_recv_wr rwr = { .sg_list = &rsge, .num_sge = 1 }, *rbad;
	struct ibv_send_wr wr = { .sg_list = &ssge, .num_sge = 1,
				  .opcode = IBV_WR_SEND };
	union ibv_gid dgid;
	struct ibv_ah *ah;
	struct ibv_wc wc;
	int st;

	if (!qa || !qb || ibv_query_gid(b->v.ctx, 1, gid_b, &dgid))
		die("UD QPs, B's GID");
	ah = ud_ah(a, gid_a, &dgid);
	wr.wr.ud.ah = ah;
	wr.wr.ud.remote_qpn = qb->qp_num;
	wr.wr.ud.remote_qkey = UD_QKEY;
	vu_drain(a->v.cq);
	vu_drain(b->v.cq);
	if (ibv_post_recv(qb, &rwr, &rbad))
		die("ibv_post_recv");
	st = run_wr_on(qa, a->v.cq, &wr);
	wc = vu_wait_wc(b->v.cq, CQE_TIMEOUT);
	check(st == IBV_WC_SUCCESS && wc.status == IBV_WC_SUCCESS &&
	      (wc.wc_flags & IBV_WC_GRH) && wc.sl == want,
	      "UD over %s: the receive completion's sl is mlx5's RoCE v2 packet type %#x: %s, sl %#x",
	      net, want,
	      (int)wc.status < 0 ? "no completion" : ibv_wc_status_str(wc.status),
	      wc.sl);
	ibv_destroy_qp(qa);
	ibv_destroy_qp(qb);
	ibv_destroy_ah(ah);
}

/* IBV_DEVICE_UD_AV_PORT_ENFORCE: an AV of a port the device lacks is
 * refused; of port 1, accepted. To A's own GID, as verbs_ud sends: the
 * rxe provider resolves an AH's MAC itself, with no traffic.
 */
static void ah_port(struct side *a)
{
	struct ibv_ah_attr attr = {
		.is_global = 1,
		.grh = { .dgid = a->v.gid, .sgid_index = a->v.gid_index,
			 .hop_limit = 64 },
		.port_num = 1,
	};
	struct ibv_ah *ah1, *ah2;
	int err1, err2;

	ah1 = ibv_create_ah(a->v.pd, &attr);
	err1 = errno;
	attr.port_num = 2;
	ah2 = ibv_create_ah(a->v.pd, &attr);
	err2 = errno;
	check((a->dx.orig_attr.device_cap_flags &
	       IBV_DEVICE_UD_AV_PORT_ENFORCE) && ah1 && !ah2,
	      "UD_AV_PORT_ENFORCE: an AH of port 1 %s, of port 2 %s",
	      ah1 ? "created" : strerrorname_np(err1),
	      ah2 ? "created" : strerrorname_np(err2));
	if (ah1)
		ibv_destroy_ah(ah1);
	if (ah2)
		ibv_destroy_ah(ah2);
}

static void flags(struct side *a)
{
	uint64_t f = a->dx.device_cap_flags_ex;
	struct ibv_mw *mw1, *mw2;

	check(!(f & ~(uint64_t)FLAGS_CHECKED),
	      "device_cap_flags_ex %#llx: no flag that no suite checks (%#llx)",
	      (unsigned long long)f, (unsigned long long)(f & ~FLAGS_CHECKED));
	check((uint32_t)f == a->dx.orig_attr.device_cap_flags,
	      "device_cap_flags is the low half of device_cap_flags_ex");
	mw1 = ibv_alloc_mw(a->v.pd, IBV_MW_TYPE_1);
	mw2 = ibv_alloc_mw(a->v.pd, IBV_MW_TYPE_2);
	check((f & IBV_DEVICE_MEM_WINDOW) && (f & IBV_DEVICE_MEM_WINDOW_TYPE_2B) &&
	      mw1 && mw2,
	      "MEM_WINDOW, MEM_WINDOW_TYPE_2B: type 1 and type 2 windows allocated (verbs_mw uses them)");
	if (mw1)
		ibv_dealloc_mw(mw1);
	if (mw2)
		ibv_dealloc_mw(mw2);
	check((f & IBV_DEVICE_SYS_IMAGE_GUID) && a->dx.orig_attr.sys_image_guid &&
	      a->dx.orig_attr.sys_image_guid == a->dx.orig_attr.node_guid,
	      "SYS_IMAGE_GUID: the system image GUID is the node GUID, nonzero");
	check(a->dx.orig_attr.vendor_part_id == 0 &&
	      a->dx.orig_attr.vendor_id == 0xffffff,
	      "vendor_id %#x, vendor_part_id %u: rdma_rxe's (no IEEE OUI)",
	      a->dx.orig_attr.vendor_id, a->dx.orig_attr.vendor_part_id);
}

/* The next async event of s that is want, within EVENT_TIMEOUT. */
static bool port_event(struct side *s, enum ibv_event_type want)
{
	struct pollfd pfd = { .fd = s->v.ctx->async_fd, .events = POLLIN };
	time_t end = time(NULL) + EVENT_TIMEOUT;
	struct ibv_async_event ev;
	enum ibv_event_type type;

	while (time(NULL) < end) {
		if (poll(&pfd, 1, 1000) <= 0 ||
		    ibv_get_async_event(s->v.ctx, &ev))
			continue;
		type = ev.event_type;
		ibv_ack_async_event(&ev);
		if (type == want)
			return true;
	}
	return false;
}

static bool link_set(const char *ns, const char *dev, const char *how)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "ip -n %s link set dev %s %s", ns, dev, how);
	return system(cmd) == 0;
}

/* IBV_DEVICE_PORT_ACTIVE_EVENT: the port's events follow the netdev. */
static void port_events(struct side *a, const char *ns, const char *dev)
{
	bool down, up;

	vu_async_nonblock(a->v.ctx);
	down = link_set(ns, dev, "down") && port_event(a, IBV_EVENT_PORT_ERR);
	up = link_set(ns, dev, "up") && port_event(a, IBV_EVENT_PORT_ACTIVE);
	check((a->dx.orig_attr.device_cap_flags & IBV_DEVICE_PORT_ACTIVE_EVENT) &&
	      down && up,
	      "PORT_ACTIVE_EVENT: %s down, IBV_EVENT_PORT_ERR %s; up, IBV_EVENT_PORT_ACTIVE %s",
	      dev, down ? "seen" : "missing", up ? "seen" : "missing");
}

int main(int argc, char **argv)
{
	struct side a = { 0 }, b = { 0 };

	if (argc != 5 && argc != 7 && argc != 9) {
		fprintf(stderr,
			"usage: %s DEV_A GID_INDEX_A DEV_B GID_INDEX_B [GID6_INDEX_A GID6_INDEX_B [NETNS_A NETDEV_A]]\n",
			argv[0]);
		return 2;
	}
	side_init(&a, argv[1], atoi(argv[2]));
	side_init(&b, argv[3], atoi(argv[4]));
	print_attrs(&a);

	flags(&a);
	cq_limits(&a);
	qp_limits(&a, IBV_QPT_RC);
	qp_limits(&a, IBV_QPT_UD);
	srq_limits(&a);
	qp_attr_limits(&a, &b);
	port_table_limits(&a);
	mr_size_limit(&a);
	ah_port(&a);

	pair_new(&a, &b, 7, NULL);
	read_sges(&a, &b);
	pair_new(&a, &b, 7, NULL);
	atomic_add(&a, &b);
	msg_size_limit(&a, &b);
	rnr_nak(&a, &b);

	zero_length(&a, &b);
	zero_length_uc(&a, &b);
	ud_sl(&a, &b, a.v.gid_index, b.v.gid_index, "IPv4", SL_ROCE_V2_IPV4);
	if (argc >= 7)
		ud_sl(&a, &b, atoi(argv[5]), atoi(argv[6]), "IPv6",
		      SL_ROCE_V2_IPV6);
	zero_send_wr(&a, &b);
	zero_recv_wr(&a, &b);
	zero_ud_wrs(&a);

	if (argc == 9)
		port_events(&a, argv[7], argv[8]);
	return failures ? 1 : 0;
}
