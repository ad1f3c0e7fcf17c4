/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the selftests' verbs programs (verbs_bad_access, verbs_forge,
 * verbs_faults, verbs_ring_fuzz, cq_overflow, ring_charge, qp_lifecycle,
 * verbs_attrs, verbs_mw, verbs_atomic_write, verbs_uc, verbs_ud,
 * verbs_untrusted) share: opening a device by name, one side of a
 * two-device test, creating and connecting an RC QP, ringing a doorbell,
 * waiting for a completion, a QP's state, the rings mapped, printing a
 * check, a value of a /proc file.
 */
#ifndef VERBS_UTIL_H
#define VERBS_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <infiniband/verbs.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* "PROGRAM: what" on stderr, and exit 1 (needs _GNU_SOURCE). */
static inline void vu_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", program_invocation_short_name, what);
	exit(1);
}

/* The number after key (e.g. "MemAvailable:") in file, a /proc file of
 * "Key: value" lines; -1 if no line has it. Exits if file cannot be read.
 */
static inline long long vu_file_value(const char *file, const char *key)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		vu_die(file);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)) &&
		    sscanf(line + strlen(key), " %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/* The RDMA device called name, opened; exits if there is none. */
static inline struct ibv_context *vu_open(const char *name)
{
	struct ibv_device **list = ibv_get_device_list(NULL);
	struct ibv_context *ctx = NULL;
	int i;

	if (!list)
		vu_die("ibv_get_device_list");
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), name))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		vu_die("cannot open the device");
	return ctx;
}

/* One of the two devices a program connects by their GIDs. */
struct vu_side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;
	union ibv_gid gid;	/* port 1's, at gid_index */
	int gid_index;
	struct ibv_qp *qp;	/* the program's, made and destroyed by it */
};

/* s on the device called dev: port 1's GID at gid_index, a PD and a CQ
 * of cqe entries; exits if one cannot be had.
 */
static inline void vu_side_open(struct vu_side *s, const char *dev,
				int gid_index, int cqe)
{
	memset(s, 0, sizeof(*s));
	s->gid_index = gid_index;
	s->ctx = vu_open(dev);
	if (ibv_query_gid(s->ctx, 1, gid_index, &s->gid))
		vu_die("ibv_query_gid");
	s->pd = ibv_alloc_pd(s->ctx);
	s->cq = ibv_create_cq(s->ctx, cqe, NULL, NULL, 0);
	if (!s->pd || !s->cq)
		vu_die("ibv_alloc_pd or ibv_create_cq");
}

/* s->buf, len page-aligned bytes of fill, and s->mr, mr_len bytes of it
 * at mr_off registered with access: a region that starts or ends inside
 * the buffer has guard bytes around it. Exits if either cannot be had.
 */
static inline void vu_side_buf(struct vu_side *s, size_t len, uint8_t fill,
			       size_t mr_off, size_t mr_len,
			       unsigned int access)
{
	s->buf = aligned_alloc(4096, len);
	if (!s->buf)
		vu_die("aligned_alloc");
	memset(s->buf, fill, len);
	s->mr = ibv_reg_mr(s->pd, s->buf + mr_off, mr_len, access);
	if (!s->mr)
		vu_die("ibv_reg_mr");
}

/* Undoes vu_side_open() and vu_side_buf(); the QPs on s must be gone
 * first. Returns 0, or -1 if a verb failed.
 */
static inline int vu_side_close(struct vu_side *s)
{
	if (ibv_dereg_mr(s->mr) || ibv_destroy_cq(s->cq) ||
	    ibv_dealloc_pd(s->pd) || ibv_close_device(s->ctx))
		return -1;
	free(s->buf);
	return 0;
}

/* Async events of ctx read without blocking: ibv_get_async_event() fails
 * when none is waiting.
 */
static inline void vu_async_nonblock(struct ibv_context *ctx)
{
	if (fcntl(ctx->async_fd, F_SETFL,
		  fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK))
		vu_die("O_NONBLOCK on the async fd");
}

/* An RC QP with one SGE per WQE, both queues on cq, every send signaled;
 * NULL if it cannot be created.
 */
static inline struct ibv_qp *vu_rc_qp(struct ibv_pd *pd, struct ibv_cq *cq,
				      uint32_t depth)
{
	struct ibv_qp_init_attr init = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = depth, .max_recv_wr = depth,
			 .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
		.sq_sig_all = 1,
	};

	return ibv_create_qp(pd, &init);
}

/* Where and how vu_rc_connect() connects an RC QP. */
struct vu_conn {
	uint32_t peer_qpn;
	union ibv_gid dgid;	/* the peer's GID */
	int sgid_index;		/* ours, in port 1's table */
	unsigned int access;	/* qp_access_flags */
	uint32_t sq_psn, rq_psn;
	uint8_t timeout, retry_cnt, rnr_retry, min_rnr_timer;
	/* READs and atomics in flight: ours, and the peer's we answer. */
	uint8_t max_rd_atomic, max_dest_rd_atomic;
};

/* A patient connection: 7 retries of a 67 ms timeout, RNR NACKs retried
 * for ever after a 0.64 ms wait, PSNs 0, one READ or atomic in flight
 * each way.
 */
static inline struct vu_conn vu_conn(uint32_t peer_qpn,
				     const union ibv_gid *dgid,
				     int sgid_index, unsigned int access)
{
	struct vu_conn c = {
		.peer_qpn = peer_qpn,
		.dgid = *dgid,
		.sgid_index = sgid_index,
		.access = access,
		.timeout = 14,
		.retry_cnt = 7,
		.rnr_retry = 7,
		.min_rnr_timer = 12,
		.max_rd_atomic = 1,
		.max_dest_rd_atomic = 1,
	};

	return c;
}

/* RESET (or INIT) -> INIT -> RTR -> RTS, path MTU 1024. Returns 0, or -1
 * from the transition that failed (errno says why).
 */
static inline int vu_rc_connect(struct ibv_qp *qp, const struct vu_conn *c)
{
	struct ibv_qp_attr attr = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = c->access,
	};
	int err;

	err = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
			    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
	if (err)
		goto out;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = c->peer_qpn;
	attr.rq_psn = c->rq_psn;
	attr.max_dest_rd_atomic = c->max_dest_rd_atomic;
	attr.min_rnr_timer = c->min_rnr_timer;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.grh.dgid = c->dgid;
	attr.ah_attr.grh.sgid_index = c->sgid_index;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.port_num = 1;
	err = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV |
			    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
			    IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER);
	if (err)
		goto out;
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.timeout = c->timeout;
	attr.retry_cnt = c->retry_cnt;
	attr.rnr_retry = c->rnr_retry;
	attr.sq_psn = c->sq_psn;
	attr.max_rd_atomic = c->max_rd_atomic;
	err = ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
			    IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
			    IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
out:
	/* ibv_modify_qp() returns the errno, which the caller may want. */
	if (err)
		errno = err;
	return err ? -1 : 0;
}

/* One signaled work request of len bytes at addr in mr; raddr and rkey
 * for RDMA ops. Returns ibv_post_send()'s result.
 */
static inline int vu_post(struct ibv_qp *qp, struct ibv_mr *mr, void *addr,
			  uint32_t len, enum ibv_wr_opcode op, uint64_t raddr,
			  uint32_t rkey)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)addr,
		.length = len,
		.lkey = mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = 1,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = op,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = { .remote_addr = raddr, .rkey = rkey },
	}, *bad;

	return ibv_post_send(qp, &wr, &bad);
}

/* The send doorbell of qp, without a WQE: the rxe provider refuses a
 * request with more SGEs than the QP has, and rings the doorbell all the
 * same (a WQE it wrote to the ring earlier is sent now).
 */
static inline void vu_doorbell(struct ibv_qp *qp)
{
	struct ibv_sge sge[64] = {};
	struct ibv_send_wr wr = {
		.sg_list = sge,
		.num_sge = 64,
		.opcode = IBV_WR_SEND,
	}, *bad;

	ibv_post_send(qp, &wr, &bad);
}

/* The state qp is in (ibv_query_qp); exits if it cannot be read. */
static inline enum ibv_qp_state vu_qp_state(struct ibv_qp *qp)
{
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;

	if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &init))
		vu_die("ibv_query_qp");
	return attr.qp_state;
}

/* A mapping of the uverbs device: a ring the rxe provider mapped. */
struct vu_map {
	unsigned char *addr;
	size_t len;
	unsigned long offset;	/* the device gives each ring its own */
};

/* The process's mappings of a uverbs device at least min_len long (a
 * ring's header), at most max of them, into m; returns how many.
 */
static inline int vu_device_maps(struct vu_map *m, int max, size_t min_len)
{
	char line[512];
	int count = 0;
	FILE *f;

	f = fopen("/proc/self/maps", "r");
	if (!f)
		vu_die("/proc/self/maps");
	while (count < max && fgets(line, sizeof(line), f)) {
		unsigned long start, end, offset;

		if (!strstr(line, "/dev/infiniband/uverbs") ||
		    sscanf(line, "%lx-%lx %*s %lx", &start, &end, &offset) != 3 ||
		    end - start < min_len)
			continue;
		m[count].addr = (unsigned char *)start;
		m[count].len = end - start;
		m[count].offset = offset;
		count++;
	}
	fclose(f);
	return count;
}

/* Completions left over (flushes of a failed QP) are not the next's. */
static inline void vu_drain(struct ibv_cq *cq)
{
	struct ibv_wc wc;

	while (ibv_poll_cq(cq, 1, &wc) > 0)
		;
}

/* New RC QPs of a and b from make(), connected to each other, b's
 * open to a with remote access b_access; the pair's QPs before them
 * destroyed and their completions drained.
 */
static inline void vu_rc_pair_new(struct vu_side *a, struct vu_side *b,
				  struct ibv_qp *(*make)(struct vu_side *s),
				  int b_access)
{
	struct vu_conn c;

	if (a->qp && (ibv_destroy_qp(a->qp) || ibv_destroy_qp(b->qp)))
		vu_die("ibv_destroy_qp");
	vu_drain(a->cq);
	vu_drain(b->cq);
	a->qp = make(a);
	b->qp = make(b);
	if (!a->qp || !b->qp)
		vu_die("create the QPs");
	c = vu_conn(b->qp->qp_num, &b->gid, a->gid_index, 0);
	if (vu_rc_connect(a->qp, &c))
		vu_die("A: INIT, RTR or RTS");
	c = vu_conn(a->qp->qp_num, &a->gid, b->gid_index, b_access);
	if (vu_rc_connect(b->qp, &c))
		vu_die("B: INIT, RTR or RTS");
}

/* The next completion of cq, or one of status -1 after seconds. */
static inline struct ibv_wc vu_wait_wc(struct ibv_cq *cq, int seconds)
{
	time_t end = time(NULL) + seconds;
	struct ibv_wc wc = { .status = -1 };
	int n;

	while (time(NULL) < end) {
		n = ibv_poll_cq(cq, 1, &wc);
		if (n < 0)
			break;
		if (n)
			return wc;
	}
	wc.status = -1;
	return wc;
}

/* Counter name of port 1 of the device dev (hw_counters), as it stands
 * now; exits if it cannot be read. ib_core answers with the values it
 * read within the last 10 ms (its hw_stats lifespan, rounded up to
 * jiffies): a value read before the caller's last event is waited out.
 */
static inline long long vu_counter(const char *dev, const char *name)
{
	char path[256];
	long long v = -1;
	FILE *f;

	nanosleep(&(struct timespec){ 0, 25 * 1000 * 1000 }, NULL);

	snprintf(path, sizeof(path),
		 "/sys/class/infiniband/%s/ports/1/hw_counters/%s", dev, name);
	f = fopen(path, "r");
	if (!f || fscanf(f, "%lld", &v) != 1)
		vu_die("a hw_counters file is unreadable");
	fclose(f);
	return v;
}

/* Counter name of dev reaches at least want within seconds. */
static inline int vu_counter_reaches(const char *dev, const char *name,
				     long long want, int seconds)
{
	time_t end = time(NULL) + seconds;

	do {
		if (vu_counter(dev, name) >= want)
			return 1;
	} while (time(NULL) < end);
	return 0;
}

/* "ok: what" or "FAIL: what" on stdout; counts failures in *failures. */
static inline void vu_check(int *failures, int ok, const char *what)
{
	printf("%s: %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		(*failures)++;
}

#endif /* VERBS_UTIL_H */
