// SPDX-License-Identifier: GPL-2.0
/*
 * link_faults: "rdma link add" failed at its allocations in turn. The
 * request (RDMA_NLDEV_CMD_NEWLINK, as iproute2's rdma sends it) is sent
 * once to count its allocations (through /proc/thread-self/fail-nth,
 * which counts them down), then again with fail-nth set to N for every
 * N up to that count, or, where that would take more than ROUNDS rounds
 * (a registration makes hundreds, mostly in the RDMA and driver cores),
 * for every Sth N from an offset the SEED picks. A request so failed must
 * return an error and leave no device behind; one that succeeds all the
 * same leaves a device, deleted before the next round. The kernel's fault
 * injection (failslab, fail_page_alloc) must be set up to fail the
 * allocations that may sleep.
 *
 *   link_faults IBDEV NETDEV [ROUNDS [SEED]]
 *
 * Prints a summary line; exits 0 if every check passed, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <rdma/rdma_netlink.h>
#include <sys/socket.h>

/* Far more allocations than a registration makes: counted down, never reached. */
#define COUNT_NTH	1000000
/* Rounds of a sweep; one takes up to a second on the debug kernel. */
#define DEF_ROUNDS	100

static int nl_fd, nth_fd;
static unsigned int seq;

static void die(const char *what)
{
	perror(what);
	exit(2);
}

struct req {
	struct nlmsghdr nh;
	char attrs[256];
};

static void put_str(struct req *r, uint16_t type, const char *s)
{
	struct nlattr *a = (void *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));
	size_t len = strlen(s) + 1;

	if (NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(*r))
		die("request too long");
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	memcpy((char *)a + NLA_HDRLEN, s, len);
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void put_u32(struct req *r, uint16_t type, uint32_t v)
{
	struct nlattr *a = (void *)((char *)r + NLMSG_ALIGN(r->nh.nlmsg_len));

	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + sizeof(v);
	memcpy((char *)a + NLA_HDRLEN, &v, sizeof(v));
	r->nh.nlmsg_len = NLMSG_ALIGN(r->nh.nlmsg_len) + NLA_ALIGN(a->nla_len);
}

static void start(struct req *r, int cmd, uint16_t flags)
{
	memset(r, 0, sizeof(*r));
	r->nh.nlmsg_len = NLMSG_HDRLEN;
	r->nh.nlmsg_type = RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd);
	r->nh.nlmsg_flags = NLM_F_REQUEST | flags;
	r->nh.nlmsg_seq = ++seq;
}

/*
 * Sends R and reads until its ACK, error or the end of a dump: returns the
 * (negative) error, or, for a dump of the devices, the index of the one
 * named NAME (-ENODEV if none is), else 0.
 */
static int transact(struct req *r, bool send_armed, unsigned int nth,
		    const char *name)
{
	int ret = name ? -ENODEV : 0;
	char buf[16384];

	if (send_armed) {
		char s[16];
		int len = snprintf(s, sizeof(s), "%u", nth);

		if (pwrite(nth_fd, s, len, 0) != len)
			die("writing fail-nth");
	}
	if (send(nl_fd, r, r->nh.nlmsg_len, 0) < 0) {
		/* The send itself may be what failed. */
		if (send_armed && (errno == ENOMEM || errno == ENOBUFS))
			return -errno;
		die("send");
	}
	for (;;) {
		ssize_t n = recv(nl_fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (n < 0)
			die("recv");
		for (h = (void *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			struct nlattr *a = NLMSG_DATA(h);
			int left = h->nlmsg_len - NLMSG_HDRLEN;
			bool match = false;
			uint32_t idx = 0;

			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error ? e->error : ret;
			}
			if (h->nlmsg_type == NLMSG_DONE || !name)
				return ret;
			while (left >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
			       a->nla_len <= left) {
				char *v = (char *)a + NLA_HDRLEN;

				switch (a->nla_type & NLA_TYPE_MASK) {
				case RDMA_NLDEV_ATTR_DEV_INDEX:
					memcpy(&idx, v, sizeof(idx));
					break;
				case RDMA_NLDEV_ATTR_DEV_NAME:
					match = !strncmp(v, name, a->nla_len - NLA_HDRLEN);
					break;
				}
				left -= NLA_ALIGN(a->nla_len);
				a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
			}
			if (match)
				ret = idx;
		}
	}
}

/* Index of the device named NAME, or -ENODEV. */
static int dev_index(const char *name)
{
	struct req r;

	start(&r, RDMA_NLDEV_CMD_GET, NLM_F_DUMP);
	return transact(&r, false, 0, name);
}

/* Disarms; returns what fail-nth counted down to (0: it fired). */
static unsigned int nth_disarm(void)
{
	char s[16] = "";

	if (pread(nth_fd, s, sizeof(s) - 1, 0) <= 0)
		die("reading fail-nth");
	if (pwrite(nth_fd, "0", 1, 0) != 1)
		die("writing fail-nth");
	return strtoul(s, NULL, 10);
}

static int link_add(const char *ibdev, const char *ndev, unsigned int nth)
{
	struct req r;

	start(&r, RDMA_NLDEV_CMD_NEWLINK, NLM_F_ACK);
	put_str(&r, RDMA_NLDEV_ATTR_DEV_NAME, ibdev);
	put_str(&r, RDMA_NLDEV_ATTR_LINK_TYPE, "uet");
	put_str(&r, RDMA_NLDEV_ATTR_NDEV_NAME, ndev);
	return transact(&r, true, nth, NULL);
}

static void link_del(const char *ibdev, int idx)
{
	struct req r;
	int err;

	start(&r, RDMA_NLDEV_CMD_DELLINK, NLM_F_ACK);
	put_u32(&r, RDMA_NLDEV_ATTR_DEV_INDEX, idx);
	err = transact(&r, false, 0, NULL);
	if (err) {
		printf("deleting %s: %s\n", ibdev, strerror(-err));
		exit(1);
	}
}

int main(int argc, char **argv)
{
	unsigned int nth, total, stride, first, rounds = DEF_ROUNDS, seed = 0;
	unsigned int fired = 0, errors = 0;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int err, idx, bad = 0;

	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: %s IBDEV NETDEV [ROUNDS [SEED]]\n", argv[0]);
		return 2;
	}
	if (argc > 3)
		rounds = strtoul(argv[3], NULL, 0);
	if (argc > 4)
		seed = strtoul(argv[4], NULL, 0);
	if (!rounds) {
		fprintf(stderr, "ROUNDS must be at least 1\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	nl_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_RDMA);
	if (nl_fd < 0 || bind(nl_fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("NETLINK_RDMA socket");
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	if (nth_fd < 0)
		die("/proc/thread-self/fail-nth");
	if (dev_index(argv[1]) >= 0) {
		fprintf(stderr, "%s exists already\n", argv[1]);
		return 2;
	}

	/* fail-nth counts down once per allocation it may fail. */
	err = link_add(argv[1], argv[2], COUNT_NTH);
	total = COUNT_NTH - nth_disarm();
	idx = dev_index(argv[1]);
	if (err || idx < 0) {
		printf("link add without a fault: %s\n", err ? strerror(-err) : "no device");
		return 1;
	}
	link_del(argv[1], idx);

	stride = (total + rounds - 1) / rounds;
	first = 1 + seed % stride;
	for (nth = first; nth <= total; nth += stride) {
		err = link_add(argv[1], argv[2], nth);
		if (nth_disarm())
			continue;	/* this request allocated less */
		fired++;
		idx = dev_index(argv[1]);
		if (err && idx >= 0) {
			printf("nth %u: the request failed (%s) but %s exists\n",
			       nth, strerror(-err), argv[1]);
			bad = 1;
		}
		if (!err && idx < 0) {
			printf("nth %u: the request succeeded but there is no %s\n",
			       nth, argv[1]);
			bad = 1;
		}
		if (idx >= 0)
			link_del(argv[1], idx);
		errors += !!err;
	}
	printf("link add: %u allocations; every %u from the %u-th (seed %u) failed: %u times, %u errors, %u successes despite\n",
	       total, stride, first, seed, fired, errors, fired - errors);
	return bad;
}
