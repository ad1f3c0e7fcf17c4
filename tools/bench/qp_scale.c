// SPDX-License-Identifier: GPL-2.0
/*
 * qp_scale: what many RC QPs between two devices cost, in one process
 * (tools/bench/scale-guest.sh runs it for uet and rdma_rxe).
 *
 *   qp_scale [-n QPS] [-t SECONDS] [-o OUTSTANDING] [-w WRS] [-m BYTES] [-p]
 *            DEV_A GID_INDEX_A DEV_B GID_INDEX_B
 *
 * Creates QPS (default 64) RC QPs on each device, WRS (64) send and
 * receive WRs each, one CQ per device for all of them, and connects each
 * QP of A to one of B (INIT, RTR, RTS with the other's QPN and GID, path
 * MTU 1024; no rdma_cm). Then reports, one "result what=WHAT k=v ..."
 * line each:
 *
 *   setup    create_ms, connect_ms: the wall time to create all 2 x QPS
 *            QPs, then to connect them all; us_per_qp: both over 2 x QPS.
 *   memory   KiB per connected idle QP (what changed from before the
 *            first QP was created to after the last connected, 1 s after
 *            each to let deferred work settle, over 2 x QPS):
 *            /proc/meminfo's MemAvailable (drop), Slab, VmallocUsed and
 *            Percpu, and this process's own heap (RssAnon of
 *            /proc/self/status, which MemAvailable's drop includes);
 *            kernel = MemAvailable's drop less the heap's growth;
 *            large = Slab's growth that no cache of /proc/slabinfo shows
 *            (kmalloc() above 8 KiB takes pages from the page allocator,
 *            counted in Slab). The rxe provider's rings are vmalloc'd by
 *            the kernel and mapped into the process: they count in
 *            VmallocUsed, not the heap.
 *   slab     the 5 caches of /proc/slabinfo (if readable) that grew the
 *            most over the same interval, one line each: KiB of slabs and
 *            objects, per QP.
 *   write    RDMA WRITEs of BYTES (64 KiB) from A to B over every QP for
 *            SECONDS (10) of wall clock: OUTSTANDING (2) posted to each QP
 *            in turn (what completes meanwhile counts already), then each
 *            completion posts the next WRITE on its QP until the window
 *            ends; MBps is the payload completed in the window over the
 *            window. Each QP writes a buffer of its own at B. Then, all
 *            drained, one last WRITE per QP of a pattern of its own,
 *            checked word for word at B (verified: the QPs that matched).
 *            Completions are waited for on a completion channel, or with
 *            -p by busy polling (which takes a CPU from the softirqs that
 *            move the packets).
 *   destroy  destroy_ms, the wall time to destroy all 2 x QPS QPs; then
 *            left_*_kib, what of MemAvailable, Slab and VmallocUsed had
 *            not come back 1 s later (whole KiB, not per QP).
 *
 * Run it in A's network namespace. Exits 0, or 1 on any failure (a verb
 * refused, a completion in error, a pattern that did not match).
 */
#include <getopt.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#include "verbs_util.h"

#define die vu_die

#define TOP_SLABS	5
#define MAX_SLABS	512
#define DRAIN_SECS	120
#define POLL_BATCH	64
/* A line of /proc/slabinfo: name active_objs num_objs objsize objperslab
 * pagesperslab : tunables ... : slabdata active_slabs num_slabs sharedavail
 */
#define SLABINFO_LINE \
	"%63s %lld %lld %*d %*d %lld : tunables %*d %*d %*d : slabdata %*d %lld"

struct side {
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	struct ibv_comp_channel *ch;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	uint8_t *buf;
	union ibv_gid gid;
	int gid_index;
	struct ibv_qp **qps;
};

struct slab {
	char name[64];
	long long objs;		/* active objects */
	long long bytes;	/* slabs x pages per slab x page size */
};

struct mem {
	long long avail, slab, vmalloc, percpu, anon;	/* KiB */
	struct slab slabs[MAX_SLABS];
	int nslabs;
};

static int qps = 64, secs = 10, outstanding = 2, wrs = 64, busy;
static uint32_t msg = 65536;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* /proc/slabinfo into m->slabs; none if it cannot be read. */
static void read_slabs(struct mem *m)
{
	long page = sysconf(_SC_PAGESIZE);
	char line[512];
	FILE *f;

	m->nslabs = 0;
	f = fopen("/proc/slabinfo", "r");
	if (!f)
		return;
	while (m->nslabs < MAX_SLABS && fgets(line, sizeof(line), f)) {
		struct slab *s = &m->slabs[m->nslabs];
		long long active, num, pages, nslabs;

		if (sscanf(line, SLABINFO_LINE, s->name, &active, &num, &pages,
			   &nslabs) != 5)
			continue;	/* the two header lines */
		s->objs = active;
		s->bytes = nslabs * pages * page;
		m->nslabs++;
	}
	fclose(f);
}

/* A sample of the kernel's memory, after 1 s for deferred work. */
static void read_mem(struct mem *m)
{
	sleep(1);
	m->avail = vu_file_value("/proc/meminfo", "MemAvailable:");
	m->slab = vu_file_value("/proc/meminfo", "Slab:");
	m->vmalloc = vu_file_value("/proc/meminfo", "VmallocUsed:");
	m->percpu = vu_file_value("/proc/meminfo", "Percpu:");
	m->anon = vu_file_value("/proc/self/status", "RssAnon:");
	read_slabs(m);
}

/* How much all caches of /proc/slabinfo grew from a to b, in KiB. */
static long long slabs_grew(const struct mem *a, const struct mem *b)
{
	long long sum = 0;
	int i;

	for (i = 0; i < b->nslabs; i++)
		sum += b->slabs[i].bytes;
	for (i = 0; i < a->nslabs; i++)
		sum -= a->slabs[i].bytes;
	return sum / 1024;
}

/* The top TOP_SLABS caches by growth from a to b, per QP. */
static void print_slabs(const struct mem *a, const struct mem *b, int nqps)
{
	long long grew[MAX_SLABS], objs[MAX_SLABS];
	int i, j, k;

	for (i = 0; i < b->nslabs; i++) {
		grew[i] = b->slabs[i].bytes;
		objs[i] = b->slabs[i].objs;
		for (j = 0; j < a->nslabs; j++)
			if (!strcmp(a->slabs[j].name, b->slabs[i].name)) {
				grew[i] -= a->slabs[j].bytes;
				objs[i] -= a->slabs[j].objs;
				break;
			}
	}
	for (k = 0; k < TOP_SLABS; k++) {
		int top = -1;

		for (i = 0; i < b->nslabs; i++)
			if (grew[i] > 0 && (top < 0 || grew[i] > grew[top]))
				top = i;
		if (top < 0)
			break;
		printf("result what=slab qps=%d rank=%d cache=%s", qps, k + 1,
		       b->slabs[top].name);
		printf(" kib_per_qp=%.2f objs_per_qp=%.2f\n",
		       grew[top] / 1024.0 / nqps, (double)objs[top] / nqps);
		grew[top] = 0;
	}
}

static void side_open(struct side *s, const char *dev, int gid_index,
		      int cqe, unsigned int access)
{
	size_t len = (size_t)qps * msg;

	memset(s, 0, sizeof(*s));
	s->gid_index = gid_index;
	s->ctx = vu_open(dev);
	if (ibv_query_gid(s->ctx, 1, gid_index, &s->gid))
		die("ibv_query_gid");
	s->pd = ibv_alloc_pd(s->ctx);
	s->ch = ibv_create_comp_channel(s->ctx);
	if (!s->pd || !s->ch)
		die("ibv_alloc_pd or ibv_create_comp_channel");
	s->cq = ibv_create_cq(s->ctx, cqe, NULL, s->ch, 0);
	if (!s->cq)
		die("ibv_create_cq (fewer QPs or OUTSTANDING?)");
	s->buf = aligned_alloc(4096, len);
	s->qps = calloc(qps, sizeof(*s->qps));
	if (!s->buf || !s->qps)
		die("out of memory");
	memset(s->buf, 0, len);
	s->mr = ibv_reg_mr(s->pd, s->buf, len, access);
	if (!s->mr)
		die("ibv_reg_mr");
}

static void side_close(struct side *s)
{
	if (ibv_dereg_mr(s->mr) || ibv_destroy_cq(s->cq) ||
	    ibv_destroy_comp_channel(s->ch) || ibv_dealloc_pd(s->pd) ||
	    ibv_close_device(s->ctx))
		die("closing a device");
	free(s->buf);
	free(s->qps);
}

/* Word j of the message QP i writes in round r (0: the window, 1: the
 * last WRITE); QPs and rounds differ in every word.
 */
static uint32_t pattern(uint64_t i, uint64_t j, uint64_t r)
{
	uint64_t x = ((i << 40) ^ (r << 39) ^ j) * 0x9e3779b97f4a7c15ULL;

	return (uint32_t)(x ^ (x >> 32));
}

static void fill(uint8_t *p, int i, int r)
{
	uint32_t *w = (uint32_t *)p;
	uint32_t j;

	for (j = 0; j < msg / 4; j++)
		w[j] = pattern(i, j, r);
}

static int matches(const uint8_t *p, int i, int r)
{
	const uint32_t *w = (const uint32_t *)p;
	uint32_t j;

	for (j = 0; j < msg / 4; j++)
		if (w[j] != pattern(i, j, r))
			return 0;
	return 1;
}

static void post_write(struct side *a, const struct side *b, int i)
{
	struct ibv_sge sge = {
		.addr = (uintptr_t)(a->buf + (size_t)i * msg),
		.length = msg,
		.lkey = a->mr->lkey,
	};
	struct ibv_send_wr wr = {
		.wr_id = i,
		.sg_list = &sge,
		.num_sge = 1,
		.opcode = IBV_WR_RDMA_WRITE,
		.send_flags = IBV_SEND_SIGNALED,
		.wr.rdma = {
			.remote_addr = (uintptr_t)(b->buf + (size_t)i * msg),
			.rkey = b->mr->rkey,
		},
	}, *bad;

	if (ibv_post_send(a->qps[i], &wr, &bad))
		die("ibv_post_send");
}

/* Up to max completions of s's CQ into wc, waiting for at least one (on
 * the channel, or polling with -p) until the time limit; 0 on timeout.
 */
static int wait_wcs(struct side *s, struct ibv_wc *wc, int max, double limit)
{
	struct pollfd pfd = { .fd = s->ch->fd, .events = POLLIN };
	struct ibv_cq *cq;
	void *ctx;
	int n;

	for (;;) {
		n = ibv_poll_cq(s->cq, max, wc);
		if (n)
			break;
		if (now() > limit)
			return 0;
		if (busy)
			continue;
		if (ibv_req_notify_cq(s->cq, 0))
			die("ibv_req_notify_cq");
		/* A completion that came before the CQ was armed. */
		n = ibv_poll_cq(s->cq, max, wc);
		if (n)
			break;
		if (poll(&pfd, 1, 100) < 0)
			die("poll");
		if (!(pfd.revents & POLLIN))
			continue;
		if (ibv_get_cq_event(s->ch, &cq, &ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(cq, 1);
	}
	if (n < 0)
		die("ibv_poll_cq");
	for (int k = 0; k < n; k++)
		if (wc[k].status != IBV_WC_SUCCESS) {
			fprintf(stderr, "qp_scale: QP %d: %s\n",
				(int)wc[k].wr_id,
				ibv_wc_status_str(wc[k].status));
			exit(1);
		}
	return n;
}

/* The window of WRITEs, then the last one per QP; returns the QPs whose
 * last WRITE arrived intact.
 */
static int writes(struct side *a, struct side *b)
{
	long long done = 0, inflight = 0;
	struct ibv_wc wc[POLL_BATCH];
	int i, k, n, next = 0, ok = 0;
	double end, t;

	for (i = 0; i < qps; i++)
		fill(a->buf + (size_t)i * msg, i, 0);
	end = now() + secs;
	while (inflight || next < qps) {
		if (next < qps) {
			/* OUTSTANDING to the next QP, and what completed
			 * meanwhile, without waiting: with many QPs the
			 * first ones complete while the last are posted.
			 */
			for (k = 0; k < outstanding; k++, inflight++)
				post_write(a, b, next);
			next++;
			n = wait_wcs(a, wc, POLL_BATCH, 0);
		} else {
			n = wait_wcs(a, wc, POLL_BATCH, end + DRAIN_SECS);
			if (!n)
				die("WRITEs still outstanding 120 s after the window");
		}
		t = now();
		for (k = 0; k < n; k++) {
			if (t > end) {
				inflight--;
				continue;
			}
			done++;
			post_write(a, b, wc[k].wr_id);
		}
	}
	printf("result what=write qps=%d msg=%u outstanding=%d secs=%d", qps,
	       msg, outstanding, secs);
	printf(" msgs=%lld MBps=%.2f drain_s=%.2f", done,
	       (double)done * msg / secs / 1e6, now() - end);
	fflush(stdout);

	for (i = 0; i < qps; i++)
		fill(a->buf + (size_t)i * msg, i, 1);
	for (i = 0; i < qps; i++)
		post_write(a, b, i);
	for (inflight = qps; inflight; inflight -= n) {
		n = wait_wcs(a, wc, POLL_BATCH, now() + DRAIN_SECS);
		if (!n)
			die("the last WRITEs did not complete");
	}
	for (i = 0; i < qps; i++)
		ok += matches(b->buf + (size_t)i * msg, i, 1);
	printf(" verified=%d\n", ok);
	return ok;
}

static void help(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-n QPS] [-t SECONDS] [-o OUTSTANDING] [-w WRS] [-m BYTES] [-p]\n"
		"          DEV_A GID_INDEX_A DEV_B GID_INDEX_B\n", prog);
	exit(1);
}

int main(int argc, char **argv)
{
	struct mem *before, *after, *gone;
	double t0, t1, t2;
	struct side a, b;
	struct vu_conn c;
	int i, opt, ok;

	while ((opt = getopt(argc, argv, "n:t:o:w:m:p")) != -1) {
		switch (opt) {
		case 'n':
			qps = atoi(optarg);
			break;
		case 't':
			secs = atoi(optarg);
			break;
		case 'o':
			outstanding = atoi(optarg);
			break;
		case 'w':
			wrs = atoi(optarg);
			break;
		case 'm':
			msg = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			busy = 1;
			break;
		default:
			help(argv[0]);
		}
	}
	if (argc - optind != 4 || qps < 1 || secs < 1 || outstanding < 1 ||
	    wrs <= outstanding || !msg || msg % 4)
		help(argv[0]);
	before = malloc(sizeof(*before));
	after = malloc(sizeof(*after));
	gone = malloc(sizeof(*gone));
	if (!before || !after || !gone)
		die("out of memory");
	setvbuf(stdout, NULL, _IOLBF, 0);

	side_open(&a, argv[optind], atoi(argv[optind + 1]),
		  qps * outstanding + 1, IBV_ACCESS_LOCAL_WRITE);
	side_open(&b, argv[optind + 2], atoi(argv[optind + 3]), 1,
		  IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE);

	read_mem(before);
	t0 = now();
	for (i = 0; i < qps; i++) {
		a.qps[i] = vu_rc_qp(a.pd, a.cq, wrs);
		b.qps[i] = vu_rc_qp(b.pd, b.cq, wrs);
		if (!a.qps[i] || !b.qps[i]) {
			fprintf(stderr, "qp_scale: QP %d of %d: %s\n", i + 1,
				qps, strerror(errno));
			exit(1);
		}
	}
	t1 = now();
	for (i = 0; i < qps; i++) {
		c = vu_conn(b.qps[i]->qp_num, &b.gid, a.gid_index, 0);
		if (vu_rc_connect(a.qps[i], &c))
			die("A: INIT, RTR or RTS");
		c = vu_conn(a.qps[i]->qp_num, &a.gid, b.gid_index,
			    IBV_ACCESS_REMOTE_WRITE);
		if (vu_rc_connect(b.qps[i], &c))
			die("B: INIT, RTR or RTS");
	}
	t2 = now();
	printf("result what=setup qps=%d wrs=%d create_ms=%.1f connect_ms=%.1f us_per_qp=%.1f\n",
	       qps, wrs, (t1 - t0) * 1e3, (t2 - t1) * 1e3,
	       (t2 - t0) * 1e6 / (2 * qps));

	read_mem(after);
#define PER_QP(f)	((double)(f) / (2 * qps))
	printf("result what=memory qps=%d avail_kib=%.2f heap_kib=%.2f", qps,
	       PER_QP(before->avail - after->avail),
	       PER_QP(after->anon - before->anon));
	printf(" kernel_kib=%.2f slab_kib=%.2f", PER_QP(before->avail -
	       after->avail - (after->anon - before->anon)),
	       PER_QP(after->slab - before->slab));
	if (after->nslabs)
		printf(" large_kib=%.2f", PER_QP(after->slab - before->slab -
		       slabs_grew(before, after)));
	printf(" vmalloc_kib=%.2f percpu_kib=%.2f\n",
	       PER_QP(after->vmalloc - before->vmalloc),
	       PER_QP(after->percpu - before->percpu));
#undef PER_QP
	print_slabs(before, after, 2 * qps);

	ok = writes(&a, &b);

	t0 = now();
	for (i = 0; i < qps; i++)
		if (ibv_destroy_qp(a.qps[i]) || ibv_destroy_qp(b.qps[i]))
			die("ibv_destroy_qp");
	t1 = now();
	read_mem(gone);
	printf("result what=destroy qps=%d destroy_ms=%.1f us_per_qp=%.1f", qps,
	       (t1 - t0) * 1e3, (t1 - t0) * 1e6 / (2 * qps));
	printf(" left_avail_kib=%lld left_slab_kib=%lld left_vmalloc_kib=%lld\n",
	       before->avail - gone->avail, gone->slab - before->slab,
	       gone->vmalloc - before->vmalloc);

	side_close(&a);
	side_close(&b);
	free(before);
	free(after);
	free(gone);
	return ok == qps ? 0 : 1;
}
