// SPDX-License-Identifier: GPL-2.0
/*
 * verbs_mcast: UD QPs of one device attached to an IP multicast group, and
 * datagrams sent to the group by another QP of the same device. The IP
 * stack loops a copy of each back to its sender's host (IP_MULTICAST_LOOP),
 * which is how the group's members here get it.
 *
 *   verbs_mcast DEV GID_INDEX [GID6_INDEX]
 *
 * GID_INDEX is an IPv4 GID of port 1, GID6_INDEX an IPv6 one. Checks, one
 * line each ("ok: ..." or "FAIL: ..."):
 * - attaching two QPs joins the group's address on the netdev
 *   (/proc/net/igmp), attaching one twice is no error, attaching a unicast
 *   GID or an RC QP fails with EINVAL;
 * - datagrams of 1 byte to the path MTU sent to IB_MULTICAST_QPN reach
 *   both members byte for byte, behind a GRH area holding the IPv4 header
 *   from our address to the group's, the sender's QPN in the completion;
 * - one with another Q_Key reaches neither (drop_access counts both);
 * - the multicast QPN to a unicast address completes in error;
 * - a detached QP gets nothing more (a unicast datagram sent after the
 *   group's is the first it sees), its second detach fails with EINVAL,
 *   and the last detach leaves the group's address;
 * - with GID6_INDEX, the same for an IPv6 group (MLD membership, the
 *   IPv6 header in the GRH area);
 * - an attached QP cannot be destroyed (EBUSY); a group takes
 *   max_mcast_qp_attach QPs and refuses one more (ENOMEM).
 * Exits 1 if a check failed.
 */
#include <arpa/inet.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define QKEY		0x22222222u
#define GRH		40
#define DEPTH		8
#define SLOT		8192
#define GROUP		"239.1.2.4"
#define GROUP_FULL	"239.1.2.5"
#define GROUP6		"ff0e::4:1"
/* IBA: the destination QPN of a datagram to a multicast group. */
#define MCAST_QPN	0xffffff

/* Payload sizes sent to the group; 0 stands for the path MTU. */
static const uint32_t sizes[] = { 1, 64, 1000, 0 };

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_mr *mr;
static uint8_t *buf;
static union ibv_gid gid, mgid, full_mgid;
static int gid_index;
static uint32_t mtu;
static uint8_t *payload;	/* SLOT random bytes, in mr */
static const char *dev;
static int failures;

struct end {
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	uint8_t *rbuf;		/* its receive slots, DEPTH of SLOT bytes */
};

static void set_mgid(union ibv_gid *g, const char *addr)
{
	memset(g, 0, sizeof(*g));
	g->raw[10] = 0xff;
	g->raw[11] = 0xff;
	if (inet_pton(AF_INET, addr, g->raw + 12) != 1)
		die("inet_pton");
}

static struct ibv_qp *ud_qp(struct ibv_cq *cq, uint32_t depth)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_UD,
		.sq_sig_all = 1,
	};
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qkey = QKEY,
	};
	struct ibv_qp *qp = ibv_create_qp(pd, &init);

	if (!qp)
		die("ibv_create_qp of a UD QP");
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			  IBV_QP_PORT | IBV_QP_QKEY))
		die("UD QP to INIT");
	attr.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE))
		die("UD QP to RTR");
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = 0;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("UD QP to RTS");
	return qp;
}

static struct end ud_end(uint8_t *rbuf)
{
	struct end e = { .rbuf = rbuf };

	e.cq = ibv_create_cq(ctx, 4 * DEPTH, NULL, NULL, 0);
	if (!e.cq)
		die("ibv_create_cq");
	e.qp = ud_qp(e.cq, DEPTH);
	return e;
}

static void post_recv(struct end *e, int slot)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(e->rbuf + slot * SLOT),
		.length = SLOT,
		.lkey = mr->lkey,
	};
	struct ibv_recv_wr wr = { .wr_id = slot, .sg_list = &sge, .num_sge = 1 };
	struct ibv_recv_wr *bad;

	if (ibv_post_recv(e->qp, &wr, &bad))
		die("ibv_post_recv");
}

static struct ibv_ah *make_ah(const union ibv_gid *dgid, int sgid_index)
{
	struct ibv_ah_attr attr = {
		.is_global = 1,
		.grh = { .dgid = *dgid, .sgid_index = sgid_index, .hop_limit = 8 },
		.port_num = 1,
	};
	struct ibv_ah *ah = ibv_create_ah(pd, &attr);

	if (!ah)
		die("ibv_create_ah");
	return ah;
}

/* s sends len bytes at payload to qpn through ah; the send's status. */
static enum ibv_wc_status send_to(struct end *s, struct ibv_ah *ah,
				  uint32_t qpn, uint32_t qkey,
				  const uint8_t *payload, uint32_t len)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)payload,
		.length = len,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = len,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_SEND,
		.wr.ud = { .ah = ah, .remote_qpn = qpn, .remote_qkey = qkey },
	}, *bad;
	struct ibv_wc wc;

	if (ibv_post_send(s->qp, &wr, &bad))
		die("ibv_post_send");
	wc = vu_wait_wc(s->cq, 5);
	if ((int)wc.status == -1)
		die("no send completion");
	return wc.status;
}

static bool v4mapped(const union ibv_gid *g)
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(g->raw, prefix, sizeof(prefix));
}

/* Does the GRH area at grh hold the IP header of a UDP packet from src
 * to dst? RoCE v2: IPv4's 20 bytes last, IPv6's 40 all of it.
 */
static bool grh_ok(const uint8_t *grh, const union ibv_gid *src,
		   const union ibv_gid *dst)
{
	const uint8_t *ip = grh + 20;

	if (v4mapped(src))
		return ip[0] == 0x45 && ip[9] == IPPROTO_UDP &&
		       !memcmp(ip + 12, src->raw + 12, 4) &&
		       !memcmp(ip + 16, dst->raw + 12, 4);
	return grh[0] >> 4 == 6 && grh[6] == IPPROTO_UDP &&
	       !memcmp(grh + 8, src->raw, 16) && !memcmp(grh + 24, dst->raw, 16);
}

/* The next receive of r is len bytes equal to want, sent by s from src
 * to dst.
 */
static bool got(struct end *r, struct end *s, const uint8_t *want,
		uint32_t len, const union ibv_gid *src, const union ibv_gid *dst)
{
	const uint8_t *slot;
	struct ibv_wc wc;

	wc = vu_wait_wc(r->cq, 5);
	if ((int)wc.status == -1) {
		printf("# QP %u: no receive completion\n", r->qp->qp_num);
		return false;
	}
	slot = r->rbuf + wc.wr_id * SLOT;
	post_recv(r, wc.wr_id);
	if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV ||
	    wc.byte_len != len + GRH || !(wc.wc_flags & IBV_WC_GRH) ||
	    wc.src_qp != s->qp->qp_num) {
		printf("# QP %u: status %s opcode %d byte_len %u flags %#x src_qp %u\n",
		       r->qp->qp_num, ibv_wc_status_str(wc.status), wc.opcode,
		       wc.byte_len, wc.wc_flags, wc.src_qp);
		return false;
	}
	if (!grh_ok(slot, src, dst)) {
		printf("# QP %u: the GRH area has no IP header from the source to the destination\n",
		       r->qp->qp_num);
		return false;
	}
	if (memcmp(slot + GRH, want, len)) {
		printf("# QP %u: payload of %u bytes differs\n", r->qp->qp_num, len);
		return false;
	}
	return true;
}

/* Does file (/proc/net/igmp or igmp6) have a line with want in it? */
static bool proc_lists(const char *file, const char *want)
{
	char line[256];
	bool found = false;
	FILE *f = fopen(file, "r");

	if (!f)
		die(file);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, want))
			found = true;
	fclose(f);
	return found;
}

/* Has the netdev of the device joined addr (dotted)? */
static bool igmp_joined(const char *addr)
{
	char want[16];
	uint32_t a;

	if (inet_pton(AF_INET, addr, &a) != 1)
		die("inet_pton");
	/* The kernel prints the group's network-order word as a number. */
	snprintf(want, sizeof(want), "%08X", a);
	return proc_lists("/proc/net/igmp", want);
}

/* Has the netdev joined the IPv6 group g (32 hex digits in igmp6)? */
static bool mld_joined(const union ibv_gid *g)
{
	char want[33];
	int i;

	for (i = 0; i < 16; i++)
		sprintf(want + 2 * i, "%02x", g->raw[i]);
	return proc_lists("/proc/net/igmp6", want);
}

/* The members m1 and m2 in an IPv6 group, sent to from the GID gid6_index. */
static void ipv6_group(struct end *snd, struct end *m1, struct end *m2,
		       int gid6_index)
{
	union ibv_gid gid6, mgid6;
	struct ibv_ah *ah6;
	bool ok;

	if (ibv_query_gid(ctx, 1, gid6_index, &gid6))
		die("ibv_query_gid");
	memset(&mgid6, 0, sizeof(mgid6));
	if (inet_pton(AF_INET6, GROUP6, mgid6.raw) != 1)
		die("inet_pton");
	vu_check(&failures, !ibv_attach_mcast(m1->qp, &mgid6, 0) &&
	      !ibv_attach_mcast(m2->qp, &mgid6, 0) && mld_joined(&mgid6),
	      "two QPs attach to " GROUP6 ", the netdev joined it (MLD)");
	ah6 = make_ah(&mgid6, gid6_index);
	ok = send_to(snd, ah6, MCAST_QPN, QKEY, payload + 4, 1000) ==
	     IBV_WC_SUCCESS &&
	     got(m1, snd, payload + 4, 1000, &gid6, &mgid6) &&
	     got(m2, snd, payload + 4, 1000, &gid6, &mgid6);
	vu_check(&failures, ok, "a datagram to " GROUP6 " reaches both members whole");
	vu_check(&failures, !ibv_detach_mcast(m1->qp, &mgid6, 0) &&
	      !ibv_detach_mcast(m2->qp, &mgid6, 0) && !mld_joined(&mgid6),
	      "the last detach leaves " GROUP6);
	ibv_destroy_ah(ah6);
}

/* A group takes max_mcast_qp_attach QPs, no more; attached, a QP stays. */
static void limits(uint32_t max_attach)
{
	struct ibv_qp **qps = calloc(max_attach + 1, sizeof(*qps));
	struct ibv_cq *cq = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	bool all = true, busy;
	uint32_t i;
	int err;

	if (!qps || !cq)
		die("allocating the QPs of the limit check");
	for (i = 0; i <= max_attach; i++)
		qps[i] = ud_qp(cq, 1);
	for (i = 0; i < max_attach; i++)
		all &= !ibv_attach_mcast(qps[i], &full_mgid, 0);
	vu_check(&failures, all, "a group takes max_mcast_qp_attach QPs");
	err = ibv_attach_mcast(qps[max_attach], &full_mgid, 0);
	vu_check(&failures, err == ENOMEM, "one QP more is refused with ENOMEM");
	err = ibv_destroy_qp(qps[0]);
	busy = err == EBUSY;
	vu_check(&failures, busy, "an attached QP cannot be destroyed (EBUSY)");
	for (i = 0; i < max_attach; i++)
		if (ibv_detach_mcast(qps[i], &full_mgid, 0))
			die("ibv_detach_mcast");
	vu_check(&failures, !igmp_joined(GROUP_FULL), "the last detach left " GROUP_FULL);
	for (i = busy ? 0 : 1; i <= max_attach; i++)
		if (ibv_destroy_qp(qps[i]))
			die("ibv_destroy_qp");
	ibv_destroy_cq(cq);
	free(qps);
}

int main(int argc, char **argv)
{
	struct ibv_device_attr dattr;
	struct ibv_port_attr pattr;
	struct ibv_ah *group_ah, *host_ah;
	struct end snd, m1, m2;
	union ibv_gid bad_gid;
	struct ibv_qp *rc;
	struct ibv_cq *rc_cq;
	uint32_t len;
	bool ok;
	int i;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: %s DEV GID_INDEX [GID6_INDEX]\n", argv[0]);
		return 2;
	}
	dev = argv[1];
	gid_index = atoi(argv[2]);
	srand(42);

	ctx = vu_open(dev);
	if (ibv_query_device(ctx, &dattr) || ibv_query_port(ctx, 1, &pattr) ||
	    ibv_query_gid(ctx, 1, gid_index, &gid))
		die("ibv_query_device/port/gid");
	mtu = 128u << pattr.active_mtu;
	pd = ibv_alloc_pd(ctx);
	buf = calloc(4, DEPTH * SLOT);
	if (!pd || !buf)
		die("PD and buffer");
	mr = ibv_reg_mr(pd, buf, 4 * DEPTH * SLOT, IBV_ACCESS_LOCAL_WRITE);
	if (!mr)
		die("ibv_reg_mr");
	payload = buf + 3 * DEPTH * SLOT;
	for (i = 0; i < SLOT; i++)
		payload[i] = rand();
	set_mgid(&mgid, GROUP);
	set_mgid(&full_mgid, GROUP_FULL);

	snd = ud_end(buf);
	m1 = ud_end(buf + DEPTH * SLOT);
	m2 = ud_end(buf + 2 * DEPTH * SLOT);
	for (i = 0; i < DEPTH; i++) {
		post_recv(&m1, i);
		post_recv(&m2, i);
	}
	group_ah = make_ah(&mgid, gid_index);
	host_ah = make_ah(&gid, gid_index);

	vu_check(&failures, !ibv_attach_mcast(m1.qp, &mgid, 0) &&
	      !ibv_attach_mcast(m2.qp, &mgid, 0) &&
	      !ibv_attach_mcast(m2.qp, &mgid, 0),
	      "two QPs attach to " GROUP ", one of them twice");
	vu_check(&failures, igmp_joined(GROUP), "the netdev joined " GROUP);
	bad_gid = gid;
	vu_check(&failures, ibv_attach_mcast(m1.qp, &bad_gid, 0) == EINVAL,
	      "attaching to a unicast GID fails with EINVAL");
	rc_cq = ibv_create_cq(ctx, 1, NULL, NULL, 0);
	rc = rc_cq ? vu_rc_qp(pd, rc_cq, 1) : NULL;
	if (!rc)
		die("an RC QP");
	vu_check(&failures, ibv_attach_mcast(rc, &mgid, 0) == EINVAL,
	      "attaching an RC QP fails with EINVAL");
	ibv_destroy_qp(rc);
	ibv_destroy_cq(rc_cq);

	ok = true;
	for (i = 0; i < (int)ARRAY_SIZE(sizes) && ok; i++) {
		len = sizes[i] ? sizes[i] : mtu;
		ok = send_to(&snd, group_ah, MCAST_QPN, QKEY, payload, len) ==
		     IBV_WC_SUCCESS &&
		     got(&m1, &snd, payload, len, &gid, &mgid) &&
		     got(&m2, &snd, payload, len, &gid, &mgid);
	}
	vu_check(&failures, ok, "datagrams of 1 byte to the path MTU reach both members whole");

	{
		long long before = vu_counter(dev, "drop_access");

		ok = send_to(&snd, group_ah, MCAST_QPN, QKEY + 1, payload, 64) ==
		     IBV_WC_SUCCESS &&
		     vu_counter_reaches(dev, "drop_access", before + 2, 5);
		/* Then a good one: the first either member sees. */
		ok = ok && send_to(&snd, group_ah, MCAST_QPN, QKEY, payload + 1,
				   64) == IBV_WC_SUCCESS &&
		     got(&m1, &snd, payload + 1, 64, &gid, &mgid) &&
		     got(&m2, &snd, payload + 1, 64, &gid, &mgid);
		vu_check(&failures, ok, "another Q_Key reaches neither member (drop_access +2)");
	}

	vu_check(&failures, send_to(&snd, host_ah, MCAST_QPN, QKEY, payload, 64) ==
	      IBV_WC_LOC_QP_OP_ERR,
	      "the multicast QPN to a unicast address completes in error");
	{
		struct ibv_qp_attr attr = { .qp_state = IBV_QPS_RTS };

		if (ibv_modify_qp(snd.qp, &attr, IBV_QP_STATE))
			die("SQE back to RTS");
	}

	vu_check(&failures, !ibv_detach_mcast(m2.qp, &mgid, 0), "the second member detaches");
	ok = send_to(&snd, group_ah, MCAST_QPN, QKEY, payload + 2, 100) ==
	     IBV_WC_SUCCESS &&
	     got(&m1, &snd, payload + 2, 100, &gid, &mgid) &&
	     send_to(&snd, host_ah, m2.qp->qp_num, QKEY, payload + 3, 100) ==
	     IBV_WC_SUCCESS &&
	     got(&m2, &snd, payload + 3, 100, &gid, &gid);
	vu_check(&failures, ok, "a detached QP gets no more of the group's datagrams");
	vu_check(&failures, ibv_detach_mcast(m2.qp, &mgid, 0) == EINVAL,
	      "detaching it again fails with EINVAL");
	vu_check(&failures, !ibv_detach_mcast(m1.qp, &mgid, 0) && !igmp_joined(GROUP),
	      "the last detach leaves " GROUP);

	if (argc == 4)
		ipv6_group(&snd, &m1, &m2, atoi(argv[3]));
	limits(dattr.max_mcast_qp_attach);

	ibv_destroy_ah(group_ah);
	ibv_destroy_ah(host_ah);
	ibv_destroy_qp(snd.qp);
	ibv_destroy_qp(m1.qp);
	ibv_destroy_qp(m2.qp);
	ibv_destroy_cq(snd.cq);
	ibv_destroy_cq(m1.cq);
	ibv_destroy_cq(m2.cq);
	ibv_dereg_mr(mr);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	free(buf);
	return failures ? 1 : 0;
}
