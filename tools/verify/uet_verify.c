// SPDX-License-Identifier: GPL-2.0
/*
 * uet-verify: moves patterned data between two hosts over RC QPs with RDMA
 * WRITE (with immediate), SEND and RDMA READ, and checks every byte that
 * lands. perftest measures bandwidth but never looks at the data; this tool
 * exists to catch misplaced, stale, duplicated or reordered data in a
 * provider. A TCP connection carries the setup exchange, flow control
 * credits, round changes and results.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h>

#define DEF_TCP_PORT	18515
#define DEF_SIZE	65536
#define DEF_TOTAL	(64ULL << 20)
#define DEF_DEPTH	16
#define DEF_TIMEOUT	120
#define MAX_QPS		256
#define MAX_DEPTH	8192
#define MAX_SIZE	(1ULL << 30)
/* The immediate of a WRITE carries the message number. */
#define MAX_ITERS	UINT32_MAX
/* Cap on the slot ring each side registers. */
#define BUF_LIMIT	(64ULL << 20)
#define MAX_REPORTS	3
#define POLL_BATCH	32
/* Busy polling looks at the control socket once per this many idle polls. */
#define PUMP_EVERY	256
/* Event mode arms the CQ again after this long asleep (wait_progress()). */
#define EVENT_WAIT_MS	1000
/* Scripts start both sides at once: keep retrying a refused connect. */
#define CONNECT_TRIES	50

#define PROTO_MAGIC	0x55455456	/* "UETV" */
#define PROTO_VERSION	1
#define CTL_LEN		24
#define HELLO_LEN	44
#define CONN_HDR_LEN	56
#define CONN_QP_LEN	8
#define RX_BUF_LEN	4096

#define RC_OK		0
#define RC_MISMATCH	1
#define RC_FAIL		2
#define RC_TIMEOUT	3

#define GOLDEN		0x9e3779b97f4a7c15ULL

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __noreturn	__attribute__((__noreturn__))
#define __printf(a, b)	__attribute__((__format__(printf, a, b)))

enum op { OP_WRITE, OP_SEND, OP_READ, NR_OPS };

static const char *const op_name[NR_OPS] = {
	[OP_WRITE] = "write",
	[OP_SEND] = "send",
	[OP_READ] = "read",
};

/* Control frames on the TCP connection once the setup exchange is done. */
enum ctl_type {
	CTL_HELLO_ACK = 1,	/* server: resources exist, send CONN */
	CTL_START,		/* client: begin op 'arg' */
	CTL_READY,		/* server: receives posted or READ round filled */
	CTL_CREDIT,		/* server: messages 0..v0-1 verified */
	CTL_ROUND,		/* client: refill READ slots for round v0 */
	CTL_RESULT,		/* both: v0 errors, v1 messages verified */
	CTL_ABORT,		/* either: giving up with exit status 'arg' */
};

struct ctl {
	uint32_t type;
	uint32_t arg;
	uint64_t v0;
	uint64_t v1;
};

struct config {
	const char *dev_name;
	const char *server;	/* NULL: we are the server */
	unsigned int tcp_port;
	unsigned int ib_port;
	int gid_index;		/* -1: pick one */
	unsigned int ops;	/* mask of 1 << enum op */
	uint64_t size;
	uint64_t iters;		/* 0: derive from total */
	uint64_t total;
	unsigned int nqps;
	unsigned int tx_depth;
	unsigned int mtu;	/* enum ibv_mtu, 0: port's active MTU */
	unsigned int timeout;
	bool json;
	bool events;
	uint64_t seed;
};

struct remote_qp {
	uint32_t qpn;
	uint32_t psn;
};

struct conn_info {
	union ibv_gid gid;
	uint32_t lid;
	uint32_t mtu;
	uint32_t rd_atom;	/* RDMA READs it accepts in flight per QP */
	uint32_t rkey;
	uint32_t flags;
	uint64_t addr;
	uint64_t len;
	struct remote_qp qp[MAX_QPS];
};

#define CONN_F_GRH	1

struct ctx {
	struct config cfg;
	bool server;
	int sock;
	uint8_t rx[RX_BUF_LEN];	/* received, not yet consumed */
	size_t rx_len;

	char dev_name[IBV_SYSFS_NAME_MAX];
	struct ibv_context *dev;
	struct ibv_device_attr dev_attr;
	struct ibv_port_attr port_attr;
	unsigned int mtu;
	int gid_index;
	union ibv_gid gid;
	bool use_grh;
	uint32_t rd_atom;

	struct ibv_pd *pd;
	struct ibv_comp_channel *chan;
	struct ibv_cq *cq;
	bool cq_armed;
	struct ibv_qp *qp[MAX_QPS];
	uint32_t psn[MAX_QPS];
	struct ibv_mr *mr;
	uint8_t *buf;
	uint64_t nslots;
	struct conn_info remote;

	/* State of the op in progress; message m uses QP m % nqps, slot m % nslots. */
	bool op_active;
	enum op op;
	uint64_t iters;
	uint64_t posted;	/* client: messages posted; server: unused */
	uint64_t completed;	/* work completions consumed */
	uint64_t verified;	/* messages whose bytes were checked */
	uint64_t low;		/* server: messages 0..low-1 verified and slots free */
	uint64_t credit;	/* client: the server's last reported 'low' */
	uint64_t credit_sent;	/* server: last 'low' reported */
	uint64_t round_end;	/* client READ: first message of the next round */
	uint64_t errors;
	uint64_t reported;
	unsigned int idle;
	uint32_t out[MAX_QPS];		/* WRs outstanding per QP */
	uint64_t next_cqe[MAX_QPS];	/* message the next completion must be */
	uint64_t next_rx[MAX_QPS];	/* server: message the next receive is for */
	uint8_t *slot_state;	/* client: slot in use; server: slot verified */
};

/*
 * Read by the SIGALRM handler, so it can say what the run was stuck on;
 * volatile is what C prescribes for data shared with a signal handler.
 */
static const char *volatile wd_what = "startup";
static struct ctx *volatile wd_ctx;
/* Socket to send an ABORT on when we give up; -1 once the peer is gone. */
static int g_sock = -1;

static void send_abort(int rc)
{
	uint8_t b[CTL_LEN] = { 0 };
	uint32_t v;

	v = htobe32(CTL_ABORT);
	memcpy(b, &v, 4);
	v = htobe32(rc);
	memcpy(b + 4, &v, 4);
	/* Best effort: we are exiting anyway. */
	if (send(g_sock, b, sizeof(b), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		return;
}

static void __noreturn __printf(2, 3)
die(int rc, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("uet-verify: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (g_sock >= 0)
		send_abort(rc);
	exit(rc);
}

/* Signal-safe output for the watchdog: no stdio, no allocation. */
static void wd_put(const char *s)
{
	if (write(STDERR_FILENO, s, strlen(s)) < 0)
		return;
}

static void wd_putu(const char *name, uint64_t v)
{
	char b[24];
	int i = sizeof(b) - 1;

	b[i] = '\0';
	do {
		b[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	wd_put(name);
	wd_put(b + i);
}

static void on_alarm(int sig)
{
	struct ctx *c = wd_ctx;

	(void)sig;
	wd_put("uet-verify: timeout: still waiting for ");
	wd_put(wd_what);
	if (c && c->op_active) {
		wd_put(" (op=");
		wd_put(op_name[c->op]);
		wd_putu(" msgs=", c->iters);
		if (!c->server)
			wd_putu(" posted=", c->posted);
		wd_putu(" completed=", c->completed);
		wd_putu(" verified=", c->verified);
		if (!c->server && c->op != OP_READ)
			wd_putu(" server_verified=", c->credit);
		wd_put(")");
	}
	wd_put("\n");
	_exit(RC_TIMEOUT);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Data pattern. Every message gets its own splitmix64 stream keyed by
 * (seed, op, message number); word i of the message is the stream's i-th
 * output, stored little-endian so both hosts agree whatever their byte
 * order. A block from another message, another op, another run or another
 * offset therefore never matches.
 */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t pat_key(uint64_t seed, enum op op, uint64_t msgno)
{
	/* mix64 is a bijection, so distinct (op, msgno) give distinct keys. */
	return mix64(seed ^ mix64(((uint64_t)op << 56) ^ msgno));
}

static uint64_t pat_word(uint64_t key, uint64_t idx)
{
	return htole64(mix64(key + (idx + 1) * GOLDEN));
}

static void pat_fill(uint8_t *p, uint64_t len, uint64_t key)
{
	uint64_t i, w, nw = len / 8;

	for (i = 0; i < nw; i++) {
		w = pat_word(key, i);
		memcpy(p + 8 * i, &w, 8);
	}
	if (len % 8) {
		w = pat_word(key, nw);
		memcpy(p + 8 * nw, &w, len % 8);
	}
}

/* Where a message first went wrong: the bad byte and its 8-byte group. */
struct mismatch {
	uint64_t off;
	uint64_t grp;
	unsigned int len;
	uint8_t want[8];
	uint8_t have[8];
};

static uint64_t pat_check_group(const uint8_t *p, unsigned int n,
				uint64_t want, uint64_t grp, uint64_t bad,
				struct mismatch *mm)
{
	const uint8_t *w = (const uint8_t *)&want;
	uint64_t nbad = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (p[i] == w[i])
			continue;
		if (!bad && !nbad) {
			mm->off = grp + i;
			mm->grp = grp;
			mm->len = n;
			memcpy(mm->want, w, n);
			memcpy(mm->have, p, n);
		}
		nbad++;
	}
	return nbad;
}

/* Returns the number of bytes that differ from the pattern. */
static uint64_t pat_check(const uint8_t *p, uint64_t len, uint64_t key,
			  struct mismatch *mm)
{
	uint64_t i, w, have, bad = 0, nw = len / 8;

	for (i = 0; i < nw; i++) {
		w = pat_word(key, i);
		memcpy(&have, p + 8 * i, 8);
		if (have != w)
			bad += pat_check_group(p + 8 * i, 8, w, 8 * i, bad, mm);
	}
	if (len % 8)
		bad += pat_check_group(p + 8 * nw, len % 8, pat_word(key, nw),
				       8 * nw, bad, mm);
	return bad;
}

static void hex(char *out, const uint8_t *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

/* Counts one error and describes the first few of each op. */
static void __printf(3, 4)
note(struct ctx *c, uint64_t count, const char *fmt, ...)
{
	va_list ap;

	c->errors += count;
	if (c->reported++ >= MAX_REPORTS)
		return;
	fprintf(stderr, "uet-verify: op=%s ", op_name[c->op]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void verify(struct ctx *c, uint64_t m, const uint8_t *p)
{
	char want[17], have[17];
	struct mismatch mm;
	uint64_t bad;

	bad = pat_check(p, c->cfg.size, pat_key(c->cfg.seed, c->op, m), &mm);
	c->verified++;
	if (!bad)
		return;
	hex(want, mm.want, mm.len);
	hex(have, mm.have, mm.len);
	note(c, bad,
	     "msg=%" PRIu64 " offset=%" PRIu64 ": expected 0x%02x got 0x%02x (bytes %" PRIu64
	     "..%" PRIu64 " expected %s got %s; %" PRIu64 " bad bytes in this message)",
	     m, mm.off, mm.want[mm.off - mm.grp], mm.have[mm.off - mm.grp],
	     mm.grp, mm.grp + mm.len - 1, want, have, bad);
}

/* Numbers with an optional binary K/M/G suffix. */
static bool parse_num(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	uint64_t mul = 1;
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	switch (*end) {
	case 'k':
	case 'K':
		mul = 1ULL << 10;
		end++;
		break;
	case 'm':
	case 'M':
		mul = 1ULL << 20;
		end++;
		break;
	case 'g':
	case 'G':
		mul = 1ULL << 30;
		end++;
		break;
	}
	if (*end || v > UINT64_MAX / mul)
		return false;
	v *= mul;
	if (v < min || v > max)
		return false;
	*out = v;
	return true;
}

static uint64_t slot_count(uint64_t size, unsigned int nqps, unsigned int depth)
{
	uint64_t n = (uint64_t)nqps * depth;

	if (n * size > BUF_LIMIT)
		n = BUF_LIMIT / size;
	return n ? n : 1;
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, 4);
	return p + 4;
}

static uint8_t *put64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, 8);
	return p + 8;
}

static const uint8_t *get32(const uint8_t *p, uint32_t *v)
{
	memcpy(v, p, 4);
	*v = be32toh(*v);
	return p + 4;
}

static const uint8_t *get64(const uint8_t *p, uint64_t *v)
{
	memcpy(v, p, 8);
	*v = be64toh(*v);
	return p + 8;
}

static void sock_send(struct ctx *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = send(c->sock, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			g_sock = -1;
			die(RC_FAIL, "send to peer: %s", strerror(errno));
		}
		p += n;
		len -= n;
	}
}

/* Appends what the socket holds to rx; waits for at least a byte if 'block'. */
static void sock_fill(struct ctx *c, bool block)
{
	ssize_t n;

	if (c->rx_len == sizeof(c->rx))
		return;
	do {
		n = recv(c->sock, c->rx + c->rx_len, sizeof(c->rx) - c->rx_len,
			 block ? 0 : MSG_DONTWAIT);
	} while (n < 0 && errno == EINTR);
	if (n < 0 && !block && (errno == EAGAIN || errno == EWOULDBLOCK))
		return;
	if (n <= 0) {
		g_sock = -1;
		die(RC_FAIL, "peer connection %s while waiting for %s",
		    n ? strerror(errno) : "closed", wd_what);
	}
	c->rx_len += n;
}

static void sock_read(struct ctx *c, void *buf, size_t len)
{
	while (c->rx_len < len)
		sock_fill(c, true);
	memcpy(buf, c->rx, len);
	c->rx_len -= len;
	memmove(c->rx, c->rx + len, c->rx_len);
}

static void ctl_send(struct ctx *c, uint32_t type, uint32_t arg, uint64_t v0,
		     uint64_t v1)
{
	uint8_t b[CTL_LEN], *p = b;

	p = put32(p, type);
	p = put32(p, arg);
	p = put64(p, v0);
	put64(p, v1);
	sock_send(c, b, sizeof(b));
}

static void ctl_decode(const uint8_t *b, struct ctl *m)
{
	b = get32(b, &m->type);
	b = get32(b, &m->arg);
	b = get64(b, &m->v0);
	get64(b, &m->v1);
}

static void __noreturn peer_aborted(const struct ctl *m)
{
	g_sock = -1;
	die(RC_FAIL, "peer gave up (exit status %u) while we waited for %s; see its output",
	    m->arg, wd_what);
}

/* Blocking read of the next frame; an ABORT from the peer ends the run. */
static void ctl_recv(struct ctx *c, struct ctl *m)
{
	uint8_t b[CTL_LEN];

	sock_read(c, b, sizeof(b));
	ctl_decode(b, m);
	if (m->type == CTL_ABORT)
		peer_aborted(m);
}

static void ctl_expect(struct ctx *c, uint32_t type, struct ctl *m)
{
	ctl_recv(c, m);
	if (m->type != type)
		die(RC_FAIL, "protocol error: got control frame %u, expected %u while waiting for %s",
		    m->type, type, wd_what);
}

/*
 * Handles frames that arrive while an op runs: credits and aborts. Stops at
 * any other frame, which is then read in order by ctl_expect().
 */
static void ctl_pump(struct ctx *c)
{
	struct ctl m;

	sock_fill(c, false);
	while (c->rx_len >= CTL_LEN) {
		ctl_decode(c->rx, &m);
		if (m.type == CTL_ABORT)
			peer_aborted(&m);
		if (m.type != CTL_CREDIT)
			return;
		if (c->server || m.v0 < c->credit || m.v0 > c->iters)
			die(RC_FAIL, "protocol error: bad credit %" PRIu64 " (have %" PRIu64 ")",
			    m.v0, c->credit);
		c->credit = m.v0;
		c->rx_len -= CTL_LEN;
		memmove(c->rx, c->rx + CTL_LEN, c->rx_len);
	}
}

/*
 * Nothing to do until a completion or a control frame arrives. Busy mode
 * just returns so the caller polls again; event mode arms the CQ (the caller
 * must poll once more after arming, or a completion that raced the arming
 * would never wake us) and then sleeps on the CQ channel and the socket.
 * Not for ever: the kernel drops a completion event it has no memory for
 * (ib_uverbs_comp_handler allocates it with GFP_ATOMIC and gives up), and
 * a CQ that fired is not armed until we arm it again.
 */
static void wait_progress(struct ctx *c)
{
	struct pollfd pfd[2];
	struct ibv_cq *cq;
	void *cq_ctx;
	int err, n;

	if (!c->cfg.events) {
		if (++c->idle % PUMP_EVERY == 0)
			ctl_pump(c);
		return;
	}
	if (!c->cq_armed) {
		err = ibv_req_notify_cq(c->cq, 0);
		if (err)
			die(RC_FAIL, "ibv_req_notify_cq: %s", strerror(err));
		c->cq_armed = true;
		return;
	}
	pfd[0].fd = c->chan->fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = c->sock;
	pfd[1].events = POLLIN;
	n = poll(pfd, 2, EVENT_WAIT_MS);
	if (n < 0) {
		if (errno == EINTR)
			return;
		die(RC_FAIL, "poll: %s", strerror(errno));
	}
	/* Arm again and look: the event may have been lost. */
	if (!n) {
		c->cq_armed = false;
		return;
	}
	if (pfd[0].revents) {
		if (ibv_get_cq_event(c->chan, &cq, &cq_ctx))
			die(RC_FAIL, "ibv_get_cq_event: %s", strerror(errno));
		ibv_ack_cq_events(cq, 1);
		c->cq_armed = false;
	}
	if (pfd[1].revents)
		ctl_pump(c);
}

static bool gid_is_zero(const union ibv_gid *g)
{
	static const union ibv_gid zero;

	return !memcmp(g, &zero, sizeof(*g));
}

static bool gid_is_v4mapped(const union ibv_gid *g)
{
	static const uint8_t prefix[12] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	return !memcmp(g->raw, prefix, sizeof(prefix));
}

/*
 * RoCE v2 with an IPv4-mapped address is what routes between two hosts on
 * a plain IPv4 network; a link-local RoCE v1/v2 GID would only work on one
 * L2 segment, so it is merely the fallback.
 */
static int pick_gid(struct ctx *c)
{
	struct ibv_gid_entry e;
	int i, first = -1;

	for (i = 0; i < c->port_attr.gid_tbl_len; i++) {
		if (ibv_query_gid_ex(c->dev, c->cfg.ib_port, i, &e, 0))
			continue;
		if (gid_is_zero(&e.gid))
			continue;
		if (e.gid_type == IBV_GID_TYPE_ROCE_V2 && gid_is_v4mapped(&e.gid))
			return i;
		if (first < 0)
			first = i;
	}
	return first;
}

static int mtu_bytes(unsigned int mtu)
{
	return mtu ? 128 << mtu : 0;
}

static void open_device(struct ctx *c)
{
	struct ibv_device **list;
	struct ibv_context *dev;
	int i, n, err;

	wd_what = "the RDMA device";
	list = ibv_get_device_list(&n);
	/* Fails outright when the kernel has no uverbs support loaded. */
	if (!list)
		die(RC_FAIL, "no RDMA devices found (%s)", strerror(errno));
	if (!n)
		die(RC_FAIL, "no RDMA devices found");
	for (i = 0; i < n; i++)
		if (!c->cfg.dev_name ||
		    !strcmp(ibv_get_device_name(list[i]), c->cfg.dev_name))
			break;
	if (i == n)
		die(RC_FAIL, "RDMA device %s not found", c->cfg.dev_name);
	snprintf(c->dev_name, sizeof(c->dev_name), "%s",
		 ibv_get_device_name(list[i]));
	dev = ibv_open_device(list[i]);
	if (!dev)
		die(RC_FAIL, "cannot open %s: %s", c->dev_name, strerror(errno));
	ibv_free_device_list(list);
	c->dev = dev;

	err = ibv_query_device(dev, &c->dev_attr);
	if (err)
		die(RC_FAIL, "ibv_query_device %s: %s", c->dev_name, strerror(err));
	err = ibv_query_port(dev, c->cfg.ib_port, &c->port_attr);
	if (err)
		die(RC_FAIL, "%s port %u: %s", c->dev_name, c->cfg.ib_port,
		    strerror(err));
	if (c->port_attr.state != IBV_PORT_ACTIVE)
		die(RC_FAIL, "%s port %u is %s, not ACTIVE", c->dev_name,
		    c->cfg.ib_port, ibv_port_state_str(c->port_attr.state));

	c->mtu = c->port_attr.active_mtu;
	if (c->cfg.mtu) {
		if (c->cfg.mtu > c->mtu)
			die(RC_FAIL, "MTU %d exceeds the active MTU %d of %s port %u",
			    mtu_bytes(c->cfg.mtu), mtu_bytes(c->mtu), c->dev_name,
			    c->cfg.ib_port);
		c->mtu = c->cfg.mtu;
	}

	/* IB can route by LID alone; Ethernet needs a GRH on every packet. */
	c->use_grh = c->port_attr.link_layer == IBV_LINK_LAYER_ETHERNET ||
		     c->cfg.gid_index >= 0;
	c->gid_index = c->cfg.gid_index >= 0 ? c->cfg.gid_index : pick_gid(c);
	if (c->gid_index < 0) {
		if (c->use_grh)
			die(RC_FAIL, "%s port %u has no usable GID", c->dev_name,
			    c->cfg.ib_port);
	} else if (ibv_query_gid(c->dev, c->cfg.ib_port, c->gid_index, &c->gid)) {
		die(RC_FAIL, "%s port %u has no GID index %d", c->dev_name,
		    c->cfg.ib_port, c->gid_index);
	}
	if (c->use_grh && gid_is_zero(&c->gid))
		die(RC_FAIL, "%s port %u GID index %d is empty", c->dev_name,
		    c->cfg.ib_port, c->gid_index);
	if (!c->use_grh && !c->port_attr.lid)
		die(RC_FAIL, "%s port %u has no LID; give a GID index with -g",
		    c->dev_name, c->cfg.ib_port);
}

/* Both sides run this on the same parameters, so the layouts agree. */
static void create_resources(struct ctx *c)
{
	struct config *cfg = &c->cfg;
	struct ibv_qp_init_attr init = { 0 };
	struct ibv_qp_attr attr = { 0 };
	uint64_t cqe = (uint64_t)cfg->nqps * cfg->tx_depth;
	unsigned int q;
	void *buf;
	int err;

	wd_what = "RDMA resources";
	if (cfg->tx_depth > (unsigned int)c->dev_attr.max_qp_wr)
		die(RC_FAIL, "depth %u exceeds the max_qp_wr %d of %s", cfg->tx_depth,
		    c->dev_attr.max_qp_wr, c->dev_name);
	if (cqe > (uint64_t)c->dev_attr.max_cqe)
		die(RC_FAIL, "%u QPs x depth %u exceeds the max_cqe %d of %s",
		    cfg->nqps, cfg->tx_depth, c->dev_attr.max_cqe, c->dev_name);
	if (cfg->nqps > (unsigned int)c->dev_attr.max_qp)
		die(RC_FAIL, "%u QPs exceed the max_qp %d of %s", cfg->nqps,
		    c->dev_attr.max_qp, c->dev_name);
	if (cfg->size > c->port_attr.max_msg_sz)
		die(RC_FAIL, "size %" PRIu64 " exceeds the max_msg_sz %u of %s port %u",
		    cfg->size, c->port_attr.max_msg_sz, c->dev_name, cfg->ib_port);

	c->rd_atom = c->dev_attr.max_qp_rd_atom;
	if (c->rd_atom > cfg->tx_depth)
		c->rd_atom = cfg->tx_depth;
	if (c->rd_atom > UINT8_MAX)
		c->rd_atom = UINT8_MAX;

	c->nslots = slot_count(cfg->size, cfg->nqps, cfg->tx_depth);
	if (posix_memalign(&buf, sysconf(_SC_PAGESIZE), c->nslots * cfg->size))
		die(RC_FAIL, "cannot allocate %" PRIu64 " bytes", c->nslots * cfg->size);
	c->buf = buf;
	memset(c->buf, 0, c->nslots * cfg->size);
	c->slot_state = calloc(c->nslots, 1);
	if (!c->slot_state)
		die(RC_FAIL, "out of memory");

	c->pd = ibv_alloc_pd(c->dev);
	if (!c->pd)
		die(RC_FAIL, "ibv_alloc_pd: %s", strerror(errno));
	c->mr = ibv_reg_mr(c->pd, c->buf, c->nslots * cfg->size,
			   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			   IBV_ACCESS_REMOTE_READ);
	if (!c->mr)
		die(RC_FAIL, "ibv_reg_mr of %" PRIu64 " bytes: %s",
		    c->nslots * cfg->size, strerror(errno));
	if (cfg->events) {
		c->chan = ibv_create_comp_channel(c->dev);
		if (!c->chan)
			die(RC_FAIL, "ibv_create_comp_channel: %s", strerror(errno));
	}
	/* The client only sees send completions and the server only receive ones. */
	c->cq = ibv_create_cq(c->dev, cqe, NULL, c->chan, 0);
	if (!c->cq)
		die(RC_FAIL, "ibv_create_cq of %" PRIu64 " entries: %s", cqe,
		    strerror(errno));

	init.send_cq = c->cq;
	init.recv_cq = c->cq;
	init.cap.max_send_wr = cfg->tx_depth;
	init.cap.max_recv_wr = cfg->tx_depth;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.qp_type = IBV_QPT_RC;
	attr.qp_state = IBV_QPS_INIT;
	attr.port_num = cfg->ib_port;
	attr.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			       IBV_ACCESS_REMOTE_READ;
	for (q = 0; q < cfg->nqps; q++) {
		c->qp[q] = ibv_create_qp(c->pd, &init);
		if (!c->qp[q])
			die(RC_FAIL, "ibv_create_qp #%u: %s", q, strerror(errno));
		err = ibv_modify_qp(c->qp[q], &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX |
				    IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
		if (err)
			die(RC_FAIL, "QP 0x%x to INIT: %s", c->qp[q]->qp_num,
			    strerror(err));
		c->psn[q] = mix64(cfg->seed ^ ((uint64_t)getpid() << 32) ^
				  (uint64_t)(now() * 1e9) ^ q) & 0xffffff;
	}
}

static void destroy_resources(struct ctx *c)
{
	unsigned int q;

	for (q = 0; q < c->cfg.nqps; q++)
		if (c->qp[q])
			ibv_destroy_qp(c->qp[q]);
	if (c->cq)
		ibv_destroy_cq(c->cq);
	if (c->chan)
		ibv_destroy_comp_channel(c->chan);
	if (c->mr)
		ibv_dereg_mr(c->mr);
	if (c->pd)
		ibv_dealloc_pd(c->pd);
	if (c->dev)
		ibv_close_device(c->dev);
	free(c->buf);
	free(c->slot_state);
}

static void send_hello(struct ctx *c)
{
	uint8_t b[HELLO_LEN], *p = b;

	p = put32(p, PROTO_MAGIC);
	p = put32(p, PROTO_VERSION);
	p = put32(p, c->cfg.ops);
	p = put32(p, c->cfg.nqps);
	p = put32(p, c->cfg.tx_depth);
	p = put64(p, c->cfg.size);
	p = put64(p, c->iters);
	put64(p, c->cfg.seed);
	sock_send(c, b, sizeof(b));
}

/* The client's parameters govern the run; they are checked like user input. */
static void recv_hello(struct ctx *c)
{
	uint8_t b[HELLO_LEN];
	const uint8_t *p = b;
	uint32_t magic, version;

	wd_what = "the client's parameters";
	sock_read(c, b, sizeof(b));
	p = get32(p, &magic);
	p = get32(p, &version);
	p = get32(p, &c->cfg.ops);
	p = get32(p, &c->cfg.nqps);
	p = get32(p, &c->cfg.tx_depth);
	p = get64(p, &c->cfg.size);
	p = get64(p, &c->iters);
	get64(p, &c->cfg.seed);
	if (magic != PROTO_MAGIC || version != PROTO_VERSION)
		die(RC_FAIL, "peer is not uet-verify protocol %d", PROTO_VERSION);
	if (!c->cfg.ops || c->cfg.ops >= 1U << NR_OPS ||
	    !c->cfg.nqps || c->cfg.nqps > MAX_QPS ||
	    !c->cfg.tx_depth || c->cfg.tx_depth > MAX_DEPTH ||
	    !c->cfg.size || c->cfg.size > MAX_SIZE ||
	    !c->iters || c->iters > MAX_ITERS)
		die(RC_FAIL, "client sent bad parameters");
}

static void send_conn(struct ctx *c)
{
	uint8_t b[CONN_HDR_LEN + MAX_QPS * CONN_QP_LEN], *p = b;
	unsigned int q;

	p = put32(p, PROTO_MAGIC);
	p = put32(p, c->port_attr.lid);
	p = put32(p, c->mtu);
	p = put32(p, c->rd_atom);
	p = put32(p, c->mr->rkey);
	p = put32(p, c->use_grh ? CONN_F_GRH : 0);
	p = put64(p, (uintptr_t)c->buf);
	p = put64(p, c->nslots * c->cfg.size);
	memcpy(p, c->gid.raw, 16);
	p += 16;
	for (q = 0; q < c->cfg.nqps; q++) {
		p = put32(p, c->qp[q]->qp_num);
		p = put32(p, c->psn[q]);
	}
	sock_send(c, b, p - b);
}

static void recv_conn(struct ctx *c)
{
	uint8_t b[CONN_HDR_LEN + MAX_QPS * CONN_QP_LEN];
	struct conn_info *r = &c->remote;
	const uint8_t *p = b;
	uint32_t magic;
	unsigned int q;

	wd_what = "the peer's QP information";
	sock_read(c, b, CONN_HDR_LEN + c->cfg.nqps * CONN_QP_LEN);
	p = get32(p, &magic);
	p = get32(p, &r->lid);
	p = get32(p, &r->mtu);
	p = get32(p, &r->rd_atom);
	p = get32(p, &r->rkey);
	p = get32(p, &r->flags);
	p = get64(p, &r->addr);
	p = get64(p, &r->len);
	memcpy(r->gid.raw, p, 16);
	p += 16;
	for (q = 0; q < c->cfg.nqps; q++) {
		p = get32(p, &r->qp[q].qpn);
		p = get32(p, &r->qp[q].psn);
		if (!r->qp[q].qpn || r->qp[q].qpn > 0xffffff || r->qp[q].psn > 0xffffff)
			die(RC_FAIL, "peer sent bad QP #%u: qpn 0x%x psn 0x%x", q,
			    r->qp[q].qpn, r->qp[q].psn);
	}
	if (magic != PROTO_MAGIC)
		die(RC_FAIL, "protocol error in the peer's QP information");
	if (r->mtu < IBV_MTU_256 || r->mtu > IBV_MTU_4096)
		die(RC_FAIL, "peer sent bad MTU %u", r->mtu);
	if (r->len < c->nslots * c->cfg.size || r->addr > UINT64_MAX - r->len)
		die(RC_FAIL, "peer buffer 0x%" PRIx64 "+%" PRIu64 " is smaller than %" PRIu64,
		    r->addr, r->len, c->nslots * c->cfg.size);
	/* Catches -g on only one side of an IB link: the AVs would not match. */
	if (!(r->flags & CONN_F_GRH) != !c->use_grh)
		die(RC_FAIL, "only one side addresses by GID; give -g on both sides or on neither");
	if (!c->use_grh && (!r->lid || r->lid > 0xffff))
		die(RC_FAIL, "peer has no LID; give -g on both sides");
}

static void connect_qps(struct ctx *c)
{
	struct conn_info *r = &c->remote;
	unsigned int q, init_atom;
	struct ibv_qp_attr attr;
	int err;

	init_atom = c->dev_attr.max_qp_init_rd_atom;
	if (init_atom > r->rd_atom)
		init_atom = r->rd_atom;
	if (!c->server && (c->cfg.ops & 1U << OP_READ) && !init_atom)
		die(RC_FAIL, "RDMA READ needs max_rd_atomic > 0 (local %d, peer %u)",
		    c->dev_attr.max_qp_init_rd_atom, r->rd_atom);

	for (q = 0; q < c->cfg.nqps; q++) {
		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_RTR;
		attr.path_mtu = c->mtu < r->mtu ? c->mtu : r->mtu;
		attr.dest_qp_num = r->qp[q].qpn;
		attr.rq_psn = r->qp[q].psn;
		attr.max_dest_rd_atomic = c->rd_atom;
		/* 0.64 ms: short, as receives are reposted as soon as checked. */
		attr.min_rnr_timer = 12;
		attr.ah_attr.port_num = c->cfg.ib_port;
		attr.ah_attr.dlid = r->lid;
		if (c->use_grh) {
			attr.ah_attr.is_global = 1;
			attr.ah_attr.grh.dgid = r->gid;
			attr.ah_attr.grh.sgid_index = c->gid_index;
			attr.ah_attr.grh.hop_limit = 64;
		}
		err = ibv_modify_qp(c->qp[q], &attr, IBV_QP_STATE | IBV_QP_AV |
				    IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				    IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
				    IBV_QP_MIN_RNR_TIMER);
		if (err)
			die(RC_FAIL, "QP 0x%x to RTR: %s", c->qp[q]->qp_num,
			    strerror(err));

		memset(&attr, 0, sizeof(attr));
		attr.qp_state = IBV_QPS_RTS;
		attr.timeout = 14;
		attr.retry_cnt = 7;
		/* 7 retries RNR forever: a slow checker is not an error. */
		attr.rnr_retry = 7;
		attr.sq_psn = c->psn[q];
		attr.max_rd_atomic = init_atom;
		err = ibv_modify_qp(c->qp[q], &attr, IBV_QP_STATE | IBV_QP_TIMEOUT |
				    IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				    IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
		if (err)
			die(RC_FAIL, "QP 0x%x to RTS: %s", c->qp[q]->qp_num,
			    strerror(err));
	}
}

static void print_setup(struct ctx *c)
{
	char lgid[INET6_ADDRSTRLEN], rgid[INET6_ADDRSTRLEN];
	unsigned int mtu = c->mtu < c->remote.mtu ? c->mtu : c->remote.mtu;

	inet_ntop(AF_INET6, c->gid.raw, lgid, sizeof(lgid));
	inet_ntop(AF_INET6, c->remote.gid.raw, rgid, sizeof(rgid));
	fprintf(stderr,
		"uet-verify: %s dev=%s port=%u gid[%d]=%s peer_gid=%s mtu=%d qps=%u depth=%u slots=%" PRIu64
		" size=%" PRIu64 " msgs=%" PRIu64 "\n",
		c->server ? "server" : "client", c->dev_name, c->cfg.ib_port,
		c->gid_index, lgid, rgid, mtu_bytes(mtu), c->cfg.nqps,
		c->cfg.tx_depth, c->nslots, c->cfg.size, c->iters);
}

static void tcp_accept(struct ctx *c)
{
	struct sockaddr_in6 a6 = { 0 };
	struct sockaddr_in a4 = { 0 };
	int fd, one = 1, zero = 0;
	struct sockaddr *sa;
	socklen_t salen;

	fd = socket(AF_INET6, SOCK_STREAM, 0);
	if (fd >= 0) {
		/* One socket for IPv4 and IPv6 clients alike. */
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		a6.sin6_family = AF_INET6;
		a6.sin6_addr = in6addr_any;
		a6.sin6_port = htons(c->cfg.tcp_port);
		sa = (struct sockaddr *)&a6;
		salen = sizeof(a6);
	} else {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			die(RC_FAIL, "socket: %s", strerror(errno));
		a4.sin_family = AF_INET;
		a4.sin_addr.s_addr = htonl(INADDR_ANY);
		a4.sin_port = htons(c->cfg.tcp_port);
		sa = (struct sockaddr *)&a4;
		salen = sizeof(a4);
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, sa, salen) || listen(fd, 1))
		die(RC_FAIL, "TCP port %u: %s", c->cfg.tcp_port, strerror(errno));

	wd_what = "a client to connect";
	fprintf(stderr, "uet-verify: server on %s, waiting for a client on TCP port %u\n",
		c->dev_name, c->cfg.tcp_port);
	do {
		c->sock = accept(fd, NULL, NULL);
	} while (c->sock < 0 && errno == EINTR);
	if (c->sock < 0)
		die(RC_FAIL, "accept: %s", strerror(errno));
	close(fd);
	setsockopt(c->sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	g_sock = c->sock;
}

static void tcp_connect(struct ctx *c)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	int gai, err = ENOTCONN, fd = -1, one = 1, tries;
	char port[8];

	wd_what = "the TCP connection to the server";
	snprintf(port, sizeof(port), "%u", c->cfg.tcp_port);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	gai = getaddrinfo(c->cfg.server, port, &hints, &res);
	if (gai)
		die(RC_FAIL, "%s: %s", c->cfg.server, gai_strerror(gai));
	for (tries = 0; fd < 0 && tries < CONNECT_TRIES; tries++) {
		if (tries)
			usleep(100000);
		for (ai = res; ai; ai = ai->ai_next) {
			fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
			if (fd < 0) {
				err = errno;
				continue;
			}
			if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
				break;
			err = errno;
			close(fd);
			fd = -1;
		}
		if (fd < 0 && err != ECONNREFUSED)
			break;
	}
	freeaddrinfo(res);
	if (fd < 0)
		die(RC_FAIL, "cannot connect to %s port %s: %s", c->cfg.server,
		    port, strerror(err));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	c->sock = fd;
	g_sock = fd;
}

static void op_reset(struct ctx *c, enum op op)
{
	unsigned int q;

	c->op = op;
	c->posted = 0;
	c->completed = 0;
	c->verified = 0;
	c->low = 0;
	c->credit = 0;
	c->credit_sent = 0;
	c->errors = 0;
	c->reported = 0;
	for (q = 0; q < c->cfg.nqps; q++) {
		c->out[q] = 0;
		c->next_cqe[q] = q;
		c->next_rx[q] = q;
	}
	memset(c->slot_state, 0, c->nslots);
	c->op_active = true;
}

static uint8_t *slot(struct ctx *c, uint64_t m)
{
	return c->buf + (m % c->nslots) * c->cfg.size;
}

/* Common checks on a completion; returns the QP index of message wr_id. */
static unsigned int check_wc(struct ctx *c, const struct ibv_wc *wc,
			     uint64_t limit)
{
	uint64_t m = wc->wr_id;
	/* Client slots are busy while in flight; server slots until verified. */
	uint8_t busy = !c->server;
	unsigned int q;

	if (wc->status != IBV_WC_SUCCESS)
		die(RC_FAIL, "op=%s msg=%" PRIu64 " qp=0x%x: completion error: %s (status %u vendor_err 0x%x)",
		    op_name[c->op], m, wc->qp_num, ibv_wc_status_str(wc->status),
		    wc->status, wc->vendor_err);
	q = m % c->cfg.nqps;
	if (m >= limit || wc->qp_num != c->qp[q]->qp_num ||
	    c->slot_state[m % c->nslots] != busy)
		die(RC_FAIL, "op=%s: completion for a message not in flight: wr_id %" PRIu64
		    " qp 0x%x", op_name[c->op], m, wc->qp_num);
	/* RC completes the work requests of one QP in the order they were posted. */
	if (m != c->next_cqe[q])
		note(c, 1, "qp=0x%x: completion for msg=%" PRIu64 ", expected msg=%" PRIu64,
		     wc->qp_num, m, c->next_cqe[q]);
	c->next_cqe[q] = m + c->cfg.nqps;
	c->out[q]--;
	c->completed++;
	return q;
}

static void client_post(struct ctx *c)
{
	struct ibv_send_wr wr, *bad;
	struct ibv_sge sge;
	unsigned int q;
	uint64_t m;
	uint8_t *p;
	int err;

	while (c->posted < c->round_end) {
		m = c->posted;
		q = m % c->cfg.nqps;
		if (c->out[q] >= c->cfg.tx_depth || c->slot_state[m % c->nslots])
			break;
		/* The server's copy of this slot must have been checked. */
		if (c->op != OP_READ && m >= c->credit + c->nslots)
			break;
		p = slot(c, m);
		memset(&wr, 0, sizeof(wr));
		sge.addr = (uintptr_t)p;
		sge.length = c->cfg.size;
		sge.lkey = c->mr->lkey;
		wr.wr_id = m;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.send_flags = IBV_SEND_SIGNALED;
		if (c->op == OP_SEND) {
			wr.opcode = IBV_WR_SEND;
		} else {
			wr.opcode = c->op == OP_WRITE ? IBV_WR_RDMA_WRITE_WITH_IMM :
				    IBV_WR_RDMA_READ;
			wr.wr.rdma.remote_addr = c->remote.addr +
						 (m % c->nslots) * c->cfg.size;
			wr.wr.rdma.rkey = c->remote.rkey;
		}
		/* The immediate lets the server cross-check which message landed. */
		if (c->op == OP_WRITE)
			wr.imm_data = htobe32((uint32_t)m);
		if (c->op != OP_READ)
			pat_fill(p, c->cfg.size, pat_key(c->cfg.seed, c->op, m));
		err = ibv_post_send(c->qp[q], &wr, &bad);
		if (err)
			die(RC_FAIL, "ibv_post_send op=%s msg=%" PRIu64 " qp=0x%x: %s",
			    op_name[c->op], m, c->qp[q]->qp_num, strerror(err));
		c->out[q]++;
		c->slot_state[m % c->nslots] = 1;
		c->posted++;
	}
}

static void client_complete(struct ctx *c, const struct ibv_wc *wc)
{
	static const enum ibv_wc_opcode want[NR_OPS] = {
		[OP_WRITE] = IBV_WC_RDMA_WRITE,
		[OP_SEND] = IBV_WC_SEND,
		[OP_READ] = IBV_WC_RDMA_READ,
	};
	uint64_t m = wc->wr_id;

	check_wc(c, wc, c->posted);
	if (wc->opcode != want[c->op])
		note(c, 1, "msg=%" PRIu64 ": completion opcode %u, expected %u", m,
		     wc->opcode, want[c->op]);
	if (c->op == OP_READ)
		verify(c, m, slot(c, m));
	c->slot_state[m % c->nslots] = 0;
}

static const char *client_waiting(struct ctx *c)
{
	if (c->op != OP_READ && c->posted < c->iters &&
	    c->posted >= c->credit + c->nslots)
		return "the server to verify earlier messages (credits)";
	if (c->completed == c->posted && c->completed == c->iters)
		return "the server to verify the last messages (credits)";
	return c->op == OP_READ ? "RDMA READ completions" : "send completions";
}

/* Exchanges the per-op results; returns the errors both sides found. */
static uint64_t exchange_results(struct ctx *c, const struct ctl *peer)
{
	struct ctl m;

	wd_what = "the peer's results";
	ctl_send(c, CTL_RESULT, c->op, c->errors, c->verified);
	if (!peer) {
		ctl_expect(c, CTL_RESULT, &m);
		peer = &m;
	}
	if (c->reported > MAX_REPORTS)
		fprintf(stderr, "uet-verify: op=%s: %" PRIu64 " more problems not shown\n",
			op_name[c->op], c->reported - MAX_REPORTS);
	c->op_active = false;
	return c->errors + peer->v0;
}

static void print_result(struct ctx *c, double secs, uint64_t errors)
{
	uint64_t bytes = c->iters * c->cfg.size;
	double mbps;

	if (secs < 1e-9)
		secs = 1e-9;
	mbps = bytes / secs / 1e6;
	if (c->cfg.json)
		printf("{\"op\":\"%s\",\"size\":%" PRIu64 ",\"bytes\":%" PRIu64 ",\"msgs\":%" PRIu64
		       ",\"qps\":%u,\"secs\":%.3f,\"MBps\":%.1f,\"Gbps\":%.3f,\"errors\":%" PRIu64 "}\n",
		       op_name[c->op], c->cfg.size, bytes, c->iters, c->cfg.nqps,
		       secs, mbps, mbps * 8 / 1000, errors);
	else
		printf("op=%s size=%" PRIu64 " bytes=%" PRIu64 " msgs=%" PRIu64
		       " qps=%u secs=%.3f MBps=%.1f Gbps=%.3f errors=%" PRIu64 "\n",
		       op_name[c->op], c->cfg.size, bytes, c->iters, c->cfg.nqps,
		       secs, mbps, mbps * 8 / 1000, errors);
	fflush(stdout);
}

/*
 * WRITE and SEND: the client fills slot m % nslots with the pattern of
 * message m and sends it; the server checks it and returns credits, and the
 * client never runs more than nslots messages ahead of the server's checks,
 * so a slot is never overwritten before it has been verified.
 * READ: the server fills its slots for one round of nslots messages; the
 * client reads and checks them, then asks for the next round.
 */
static uint64_t client_op(struct ctx *c, enum op op)
{
	struct ibv_wc wc[POLL_BATCH];
	struct ctl m;
	double t0, t1;
	uint64_t errors;
	int i, n;

	op_reset(c, op);
	c->round_end = op == OP_READ && c->nslots < c->iters ? c->nslots : c->iters;
	wd_what = "the server to get ready";
	ctl_send(c, CTL_START, op, 0, 0);
	ctl_expect(c, CTL_READY, &m);
	t0 = now();
	for (;;) {
		client_post(c);
		if (c->completed == c->iters &&
		    (op == OP_READ || c->credit == c->iters))
			break;
		if (op == OP_READ && c->completed == c->round_end) {
			wd_what = "the server to refill its READ slots";
			ctl_send(c, CTL_ROUND, op, c->round_end / c->nslots, 0);
			ctl_expect(c, CTL_READY, &m);
			c->round_end += c->nslots;
			if (c->round_end > c->iters)
				c->round_end = c->iters;
			continue;
		}
		n = ibv_poll_cq(c->cq, POLL_BATCH, wc);
		if (n < 0)
			die(RC_FAIL, "ibv_poll_cq failed");
		for (i = 0; i < n; i++)
			client_complete(c, &wc[i]);
		if (!n) {
			wd_what = client_waiting(c);
			wait_progress(c);
		}
	}
	t1 = now();
	errors = exchange_results(c, NULL);
	print_result(c, t1 - t0, errors);
	return errors;
}

static void server_post_recvs(struct ctx *c)
{
	struct ibv_recv_wr wr, *bad;
	struct ibv_sge sge;
	unsigned int q;
	uint64_t m;
	int err;

	for (q = 0; q < c->cfg.nqps; q++) {
		/* m < low + nslots: the slot's previous message was verified. */
		while ((m = c->next_rx[q]) < c->iters && m < c->low + c->nslots &&
		       c->out[q] < c->cfg.tx_depth) {
			memset(&wr, 0, sizeof(wr));
			wr.wr_id = m;
			/* WRITE data goes to the slot itself; the receive only carries the immediate. */
			if (c->op == OP_SEND) {
				sge.addr = (uintptr_t)slot(c, m);
				sge.length = c->cfg.size;
				sge.lkey = c->mr->lkey;
				wr.sg_list = &sge;
				wr.num_sge = 1;
			}
			err = ibv_post_recv(c->qp[q], &wr, &bad);
			if (err)
				die(RC_FAIL, "ibv_post_recv op=%s msg=%" PRIu64 " qp=0x%x: %s",
				    op_name[c->op], m, c->qp[q]->qp_num, strerror(err));
			c->out[q]++;
			c->next_rx[q] += c->cfg.nqps;
		}
	}
}

static void server_complete(struct ctx *c, const struct ibv_wc *wc)
{
	uint64_t m = wc->wr_id;
	unsigned int q;

	q = check_wc(c, wc, c->iters);
	if (m < c->low || m >= c->low + c->nslots || m >= c->next_rx[q])
		die(RC_FAIL, "op=%s: completion for a receive not posted: msg %" PRIu64,
		    op_name[c->op], m);
	if (c->op == OP_WRITE) {
		if (wc->opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
		    !(wc->wc_flags & IBV_WC_WITH_IMM))
			note(c, 1, "msg=%" PRIu64 ": completion opcode %u flags 0x%x, expected RDMA_WRITE_WITH_IMM",
			     m, wc->opcode, wc->wc_flags);
		else if (be32toh(wc->imm_data) != (uint32_t)m)
			note(c, 1, "msg=%" PRIu64 ": immediate %u, expected %u", m,
			     be32toh(wc->imm_data), (uint32_t)m);
	} else {
		if (wc->opcode != IBV_WC_RECV)
			note(c, 1, "msg=%" PRIu64 ": completion opcode %u, expected RECV",
			     m, wc->opcode);
		else if (wc->byte_len != c->cfg.size)
			note(c, 1, "msg=%" PRIu64 ": received %u bytes, expected %" PRIu64,
			     m, wc->byte_len, c->cfg.size);
	}
	verify(c, m, slot(c, m));
	c->slot_state[m % c->nslots] = 1;
	while (c->low < c->iters && c->slot_state[c->low % c->nslots]) {
		c->slot_state[c->low % c->nslots] = 0;
		c->low++;
	}
}

static void server_fill_round(struct ctx *c, uint64_t round)
{
	uint64_t m, first = round * c->nslots;

	for (m = first; m < c->iters && m < first + c->nslots; m++)
		pat_fill(slot(c, m), c->cfg.size, pat_key(c->cfg.seed, c->op, m));
}

static uint64_t server_op(struct ctx *c, enum op op)
{
	/* Credits in quarters of the ring keep the client busy with few frames. */
	uint64_t batch = c->nslots / 4 ? c->nslots / 4 : 1;
	uint64_t round = 0, errors;
	struct ibv_wc wc[POLL_BATCH];
	struct ctl m, *peer = NULL;
	double t0, t1;
	int i, n;

	op_reset(c, op);
	if (op == OP_READ)
		server_fill_round(c, 0);
	else
		server_post_recvs(c);
	ctl_send(c, CTL_READY, op, 0, 0);
	t0 = now();
	if (op == OP_READ) {
		for (;;) {
			wd_what = "the client's READ round requests";
			ctl_recv(c, &m);
			if (m.type == CTL_RESULT)
				break;
			if (m.type != CTL_ROUND)
				die(RC_FAIL, "protocol error: got control frame %u during READ",
				    m.type);
			if (m.v0 != round + 1 || m.v0 > (c->iters - 1) / c->nslots)
				die(RC_FAIL, "protocol error: READ round %" PRIu64
				    " requested after %" PRIu64, m.v0, round);
			round = m.v0;
			server_fill_round(c, round);
			ctl_send(c, CTL_READY, op, 0, 0);
		}
		peer = &m;
	}
	while (op != OP_READ && c->low < c->iters) {
		n = ibv_poll_cq(c->cq, POLL_BATCH, wc);
		if (n < 0)
			die(RC_FAIL, "ibv_poll_cq failed");
		for (i = 0; i < n; i++)
			server_complete(c, &wc[i]);
		if (n) {
			server_post_recvs(c);
			if (c->low - c->credit_sent >= batch || c->low == c->iters) {
				ctl_send(c, CTL_CREDIT, op, c->low, 0);
				c->credit_sent = c->low;
			}
		} else {
			wd_what = op == OP_WRITE ? "RDMA WRITE with immediate from the client" :
				  "SENDs from the client";
			wait_progress(c);
		}
	}
	t1 = now();
	errors = exchange_results(c, peer);
	print_result(c, t1 - t0, errors);
	return errors;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: uet-verify [options]           run as server\n"
		"       uet-verify [options] SERVER    run as client\n"
		"Moves patterned data over RC QPs and verifies every byte.\n"
		"  -d DEV     RDMA device (default: the first one)\n"
		"  -i PORT    device port (default 1)\n"
		"  -g INDEX   GID index (default: first RoCE v2 IPv4-mapped GID, else first non-zero)\n"
		"  -p PORT    TCP port of the control connection (default %d)\n"
		"  -o OP      write, send, read or all (default all, in that order)\n"
		"  -s SIZE    message size in bytes, K/M/G suffixes allowed (default 64K)\n"
		"  -n ITERS   messages per op\n"
		"  -b BYTES   bytes per op, instead of -n (default 64M)\n"
		"  -q QPS     queue pairs; messages go round-robin over them (default 1)\n"
		"  -t DEPTH   outstanding messages per QP (default %d)\n"
		"  -m MTU     path MTU 256..4096 (default: the port's active MTU)\n"
		"  -T SECS    give up after SECS seconds and exit 3; 0: never (default %d)\n"
		"  -e         sleep on completion events instead of busy polling\n"
		"  -j         print results as JSON lines\n"
		"  -h         this help\n"
		"-o, -s, -n, -b, -q and -t act on the client; the server takes them from it.\n"
		"Exit status: 0 all verified, 1 data mismatch, 2 completion or other error,\n"
		"3 timeout.\n",
		DEF_TCP_PORT, DEF_DEPTH, DEF_TIMEOUT);
}

static void __noreturn __printf(1, 2)
usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("uet-verify: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("; see uet-verify -h\n", stderr);
	exit(RC_FAIL);
}

static bool expect(bool ok, const char *what)
{
	if (!ok)
		fprintf(stderr, "uet-verify: selftest FAILED: %s\n", what);
	return ok;
}

/* Checks that the checker catches what it exists to catch. */
static int run_selftest(void)
{
	static const uint64_t sizes[] = { 1, 7, 8, 13, 4096, 65539 };
	const uint64_t seed = 0x0123456789abcdefULL;
	struct mismatch mm;
	uint8_t *a, *b, t;
	uint64_t v, len, off, bad;
	bool ok = true;
	unsigned int i;

	a = malloc(65539);
	b = malloc(65539);
	if (!a || !b)
		return RC_FAIL;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		len = sizes[i];
		pat_fill(a, len, pat_key(seed, OP_WRITE, 5));
		ok &= expect(!pat_check(a, len, pat_key(seed, OP_WRITE, 5), &mm),
			     "clean message verifies");
		off = len / 2 + 1 < len ? len / 2 + 1 : len - 1;
		a[off] ^= 0x10;
		bad = pat_check(a, len, pat_key(seed, OP_WRITE, 5), &mm);
		ok &= expect(bad == 1 && mm.off == off && mm.grp == (off & ~7ULL) &&
			     mm.want[off - mm.grp] == (mm.have[off - mm.grp] ^ 0x10),
			     "flipped bit found at its offset");
		a[off] ^= 0x10;
		if (len < 8)
			continue;
		ok &= expect(pat_check(a, len, pat_key(seed, OP_WRITE, 6), &mm) > len / 2,
			     "next message's data rejected");
		ok &= expect(pat_check(a, len, pat_key(seed, OP_WRITE, 5 + 16), &mm) > len / 2,
			     "stale data from the previous lap of the ring rejected");
		ok &= expect(pat_check(a, len, pat_key(seed, OP_SEND, 5), &mm) > len / 2,
			     "other op's data rejected");
		ok &= expect(pat_check(a, len, pat_key(seed + 1, OP_WRITE, 5), &mm) > len / 2,
			     "other run's data rejected");
	}

	/* Two 8-byte-aligned blocks of one message swapped. */
	len = 4096;
	pat_fill(a, len, pat_key(seed, OP_READ, 9));
	memcpy(b, a, len);
	memcpy(b + 512, a + 1024, 64);
	memcpy(b + 1024, a + 512, 64);
	bad = pat_check(b, len, pat_key(seed, OP_READ, 9), &mm);
	ok &= expect(bad > 64 && mm.off >= 512 && mm.off < 520, "swapped blocks found");

	/* A block of another message in the middle. */
	pat_fill(b, len, pat_key(seed, OP_READ, 10));
	memcpy(b + 2048, a + 2048, 8);
	bad = pat_check(b, len, pat_key(seed, OP_READ, 10), &mm);
	ok &= expect(bad >= 7 && bad <= 8 && mm.grp == 2048, "foreign word found");

	/* A byte shift (misplaced by one) must not pass. */
	pat_fill(a, len, pat_key(seed, OP_SEND, 1));
	memmove(b + 1, a, len - 1);
	b[0] = a[0];
	ok &= expect(pat_check(b, len, pat_key(seed, OP_SEND, 1), &mm) > len / 2,
		     "shifted data rejected");

	t = 0;
	for (i = 0; i < 64; i++)
		t |= pat_key(seed, OP_WRITE, i) == pat_key(seed, OP_WRITE, i + 1);
	ok &= expect(!t, "message keys distinct");

	ok &= expect(parse_num("64K", 1, UINT64_MAX, &v) && v == 65536, "64K");
	ok &= expect(parse_num("256M", 1, UINT64_MAX, &v) && v == 256ULL << 20, "256M");
	ok &= expect(parse_num("1g", 1, UINT64_MAX, &v) && v == 1ULL << 30, "1g");
	ok &= expect(parse_num("12", 1, UINT64_MAX, &v) && v == 12, "12");
	ok &= expect(!parse_num("12Q", 1, UINT64_MAX, &v), "12Q rejected");
	ok &= expect(!parse_num("-1", 0, UINT64_MAX, &v), "-1 rejected");
	ok &= expect(!parse_num("", 0, UINT64_MAX, &v), "empty rejected");
	ok &= expect(!parse_num("99999999999999999999", 0, UINT64_MAX, &v),
		     "overflow rejected");
	ok &= expect(!parse_num("17179869184G", 0, UINT64_MAX, &v),
		     "suffix overflow rejected");
	ok &= expect(!parse_num("0", 1, 10, &v), "below minimum rejected");

	ok &= expect(slot_count(65536, 1, 16) == 16, "slots 64K x 16");
	ok &= expect(slot_count(16ULL << 20, 4, 16) == 4, "slots capped by buffer limit");
	ok &= expect(slot_count(1ULL << 30, 1, 1) == 1, "at least one slot");

	free(a);
	free(b);
	printf("uet-verify: selftest %s\n", ok ? "ok" : "FAILED");
	return ok ? RC_OK : RC_MISMATCH;
}

static unsigned int parse_mtu(const char *s)
{
	uint64_t v;

	if (!parse_num(s, 256, 4096, &v))
		return 0;
	switch (v) {
	case 256:
		return IBV_MTU_256;
	case 512:
		return IBV_MTU_512;
	case 1024:
		return IBV_MTU_1024;
	case 2048:
		return IBV_MTU_2048;
	case 4096:
		return IBV_MTU_4096;
	}
	return 0;
}

static void parse_args(struct ctx *c, int argc, char **argv)
{
	enum { OPT_SELFTEST = 0x100 };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "selftest", no_argument, NULL, OPT_SELFTEST },
		{ NULL, 0, NULL, 0 }
	};
	struct config *cfg = &c->cfg;
	uint64_t v;
	int opt;

	cfg->tcp_port = DEF_TCP_PORT;
	cfg->ib_port = 1;
	cfg->gid_index = -1;
	cfg->ops = (1U << NR_OPS) - 1;
	cfg->size = DEF_SIZE;
	cfg->nqps = 1;
	cfg->tx_depth = DEF_DEPTH;
	cfg->timeout = DEF_TIMEOUT;

	while ((opt = getopt_long(argc, argv, "d:i:g:p:o:s:n:b:q:t:m:T:ejh",
				  longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			cfg->dev_name = optarg;
			break;
		case 'i':
			if (!parse_num(optarg, 1, UINT8_MAX, &v))
				usage_error("bad device port %s", optarg);
			cfg->ib_port = v;
			break;
		case 'g':
			if (!parse_num(optarg, 0, INT32_MAX, &v))
				usage_error("bad GID index %s", optarg);
			cfg->gid_index = v;
			break;
		case 'p':
			if (!parse_num(optarg, 1, UINT16_MAX, &v))
				usage_error("bad TCP port %s", optarg);
			cfg->tcp_port = v;
			break;
		case 'o':
			if (!strcmp(optarg, "all"))
				cfg->ops = (1U << NR_OPS) - 1;
			else if (!strcmp(optarg, "write"))
				cfg->ops = 1U << OP_WRITE;
			else if (!strcmp(optarg, "send"))
				cfg->ops = 1U << OP_SEND;
			else if (!strcmp(optarg, "read"))
				cfg->ops = 1U << OP_READ;
			else
				usage_error("bad op %s", optarg);
			break;
		case 's':
			if (!parse_num(optarg, 1, MAX_SIZE, &cfg->size))
				usage_error("bad size %s (1..%llu)", optarg, MAX_SIZE);
			break;
		case 'n':
			if (!parse_num(optarg, 1, MAX_ITERS, &cfg->iters))
				usage_error("bad message count %s (1..%u)", optarg,
					    MAX_ITERS);
			break;
		case 'b':
			if (!parse_num(optarg, 1, UINT64_MAX, &cfg->total))
				usage_error("bad byte count %s", optarg);
			break;
		case 'q':
			if (!parse_num(optarg, 1, MAX_QPS, &v))
				usage_error("bad QP count %s (1..%d)", optarg, MAX_QPS);
			cfg->nqps = v;
			break;
		case 't':
			if (!parse_num(optarg, 1, MAX_DEPTH, &v))
				usage_error("bad depth %s (1..%d)", optarg, MAX_DEPTH);
			cfg->tx_depth = v;
			break;
		case 'm':
			cfg->mtu = parse_mtu(optarg);
			if (!cfg->mtu)
				usage_error("bad MTU %s (256, 512, 1024, 2048 or 4096)",
					    optarg);
			break;
		case 'T':
			if (!parse_num(optarg, 0, UINT32_MAX, &v))
				usage_error("bad timeout %s", optarg);
			cfg->timeout = v;
			break;
		case 'e':
			cfg->events = true;
			break;
		case 'j':
			cfg->json = true;
			break;
		case 'h':
			usage(stdout);
			exit(RC_OK);
		case OPT_SELFTEST:
			exit(run_selftest());
		default:
			fputs("uet-verify: see uet-verify -h\n", stderr);
			exit(RC_FAIL);
		}
	}
	if (argc - optind > 1)
		usage_error("more than one server given");
	if (argc - optind == 1)
		cfg->server = argv[optind];
	c->server = !cfg->server;
	if (cfg->iters && cfg->total)
		usage_error("-n and -b are exclusive");
	if (!cfg->iters) {
		v = (cfg->total ? cfg->total : DEF_TOTAL) / cfg->size;
		cfg->iters = !v ? 1 : v > MAX_ITERS ? MAX_ITERS : v;
	}
	c->iters = cfg->iters;
}

int main(int argc, char **argv)
{
	static struct ctx ctx = { .sock = -1 };
	struct ctx *c = &ctx;
	uint64_t errors = 0;
	struct ctl m;
	int op;

	parse_args(c, argc, argv);
	signal(SIGALRM, on_alarm);
	wd_ctx = c;
	alarm(c->cfg.timeout);
	c->cfg.seed = mix64((uint64_t)(now() * 1e9) ^ ((uint64_t)getpid() << 40));

	open_device(c);
	if (c->server) {
		tcp_accept(c);
		recv_hello(c);
		create_resources(c);
		ctl_send(c, CTL_HELLO_ACK, 0, 0, 0);
	} else {
		create_resources(c);
		tcp_connect(c);
		send_hello(c);
		wd_what = "the server to set up";
		ctl_expect(c, CTL_HELLO_ACK, &m);
	}
	send_conn(c);
	recv_conn(c);
	connect_qps(c);
	print_setup(c);

	for (op = 0; op < NR_OPS; op++) {
		if (!(c->cfg.ops & 1U << op))
			continue;
		if (c->server) {
			wd_what = "the client to start the next op";
			ctl_expect(c, CTL_START, &m);
			if (m.arg != (unsigned int)op)
				die(RC_FAIL, "protocol error: client started op %u, expected %s",
				    m.arg, op_name[op]);
			errors += server_op(c, op);
		} else {
			errors += client_op(c, op);
		}
	}

	g_sock = -1;
	close(c->sock);
	destroy_resources(c);
	return errors ? RC_MISMATCH : RC_OK;
}
