// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing: one socket, the "uet" family and its events
 * group resolved by name, one request at a time with the kernel's error
 * explanation (extack) shown to the user.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/uet.h>

#include "uet.h"

/* netlink_dump() fills at most 32 KiB per read; a shorter buffer truncates. */
#define NL_BUF_SIZE	32768

/* Requests are built here and replies read here: uint32_t for alignment. */
static uint32_t buf[NL_BUF_SIZE / sizeof(uint32_t)];

struct nl_req {
	mnl_cb_t cb;
	void *data;
	bool quiet;
	int error;	/* errno the kernel answered with */
};

struct nl_policy {
	const enum mnl_attr_data_type *types;
	unsigned int max;
	const struct nlattr **tb;
};

static int nl_attr_cb(const struct nlattr *a, void *data)
{
	const struct nl_policy *p = data;
	uint16_t type = mnl_attr_get_type(a);

	/* Padding and attributes newer than this tool are skipped. */
	if (type > p->max || p->types[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(a, p->types[type]) < 0) {
		fprintf(stderr, "uet: ignoring malformed attribute %u\n", type);
		return MNL_CB_OK;
	}
	p->tb[type] = a;
	return MNL_CB_OK;
}

void nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *types,
	      unsigned int max, const struct nlattr **tb)
{
	struct nl_policy p = { types, max, tb };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), nl_attr_cb, &p);
}

void nl_parse_nested(const struct nlattr *nest,
		     const enum mnl_attr_data_type *types, unsigned int max,
		     const struct nlattr **tb)
{
	struct nl_policy p = { types, max, tb };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	mnl_attr_parse_nested(nest, nl_attr_cb, &p);
}

/* a, an attribute of a reply, if it is a counter nest of type attr (enum
 * uet_stat_attr) with a name and a value: both, and true.
 */
bool nl_stat(const struct nlattr *a, uint16_t attr, const char **name,
	     uint64_t *value)
{
	static const enum mnl_attr_data_type types[UET_A_STAT_MAX + 1] = {
		[UET_A_STAT_NAME] = MNL_TYPE_NUL_STRING,
		[UET_A_STAT_VALUE] = MNL_TYPE_U64,
	};
	const struct nlattr *tb[UET_A_STAT_MAX + 1];

	if (mnl_attr_get_type(a) != attr ||
	    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
		return false;
	nl_parse_nested(a, types, UET_A_STAT_MAX, tb);
	if (!tb[UET_A_STAT_NAME] || !tb[UET_A_STAT_VALUE])
		return false;
	*name = mnl_attr_get_str(tb[UET_A_STAT_NAME]);
	*value = mnl_attr_get_u64(tb[UET_A_STAT_VALUE]);
	return true;
}

/* Any validated unsigned attribute; its length says its width. */
uint64_t nl_uint(const struct nlattr *a)
{
	switch (mnl_attr_get_payload_len(a)) {
	case 1:
		return mnl_attr_get_u8(a);
	case 2:
		return mnl_attr_get_u16(a);
	case 4:
		return mnl_attr_get_u32(a);
	default:
		return mnl_attr_get_u64(a);
	}
}

/* UET_CMD_UNSPEC for a message too short to have a command */
uint8_t nl_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*genl))
		return UET_CMD_UNSPEC;
	return genl->cmd;
}

struct nlmsghdr *nl_msg(struct uet *u, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *genl;

	nlh->nlmsg_type = u->family;
	/* Even a do request must be acked: a reply alone does not end it. */
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++u->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	/* nlctrl ignores the version, so one value serves both families. */
	genl->version = UET_GENL_VERSION;
	return nlh;
}

/* The nl_put_*() helpers report a request too long for the buffer. */
static bool nl_fits(bool ok)
{
	if (!ok)
		fprintf(stderr, "uet: request too long\n");
	return ok;
}

bool nl_put_strz(struct nlmsghdr *nlh, uint16_t type, const char *s)
{
	return nl_fits(mnl_attr_put_strz_check(nlh, sizeof(buf), type, s));
}

bool nl_put_u8(struct nlmsghdr *nlh, uint16_t type, uint8_t v)
{
	return nl_fits(mnl_attr_put_u8_check(nlh, sizeof(buf), type, v));
}

bool nl_put_u16(struct nlmsghdr *nlh, uint16_t type, uint16_t v)
{
	return nl_fits(mnl_attr_put_u16_check(nlh, sizeof(buf), type, v));
}

bool nl_put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v)
{
	return nl_fits(mnl_attr_put_u32_check(nlh, sizeof(buf), type, v));
}

bool nl_put_bin(struct nlmsghdr *nlh, uint16_t type, const void *data,
		size_t len)
{
	return nl_fits(mnl_attr_put_check(nlh, sizeof(buf), type, len, data));
}

/* NULL, reported, when the request is too long; close with nl_nest_end() */
struct nlattr *nl_nest_start(struct nlmsghdr *nlh, uint16_t type)
{
	struct nlattr *nest = mnl_attr_nest_start_check(nlh, sizeof(buf), type);

	nl_fits(nest);
	return nest;
}

void nl_nest_end(struct nlmsghdr *nlh, struct nlattr *nest)
{
	mnl_attr_nest_end(nlh, nest);
}

static const char *nl_extack_msg(const struct nlmsghdr *nlh, size_t off)
{
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    off > mnl_nlmsg_get_payload_len(nlh))
		return NULL;
	mnl_attr_for_each(a, nlh, off)
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
			return mnl_attr_get_str(a);
	return NULL;
}

/*
 * The valid range of the attribute an error is about, when the kernel
 * sent its policy along (a value out of range): true with @min and @max.
 */
static bool nl_extack_range(const struct nlmsghdr *nlh, size_t off,
			    uint64_t *min, uint64_t *max)
{
	const struct nlattr *a, *p;
	bool lo = false, hi = false;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    off > mnl_nlmsg_get_payload_len(nlh))
		return false;
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) != NLMSGERR_ATTR_POLICY ||
		    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
			continue;
		mnl_attr_for_each_nested(p, a) {
			if (mnl_attr_validate(p, MNL_TYPE_U64) < 0)
				continue;
			if (mnl_attr_get_type(p) == NL_POLICY_TYPE_ATTR_MIN_VALUE_U) {
				*min = mnl_attr_get_u64(p);
				lo = true;
			} else if (mnl_attr_get_type(p) == NL_POLICY_TYPE_ATTR_MAX_VALUE_U) {
				*max = mnl_attr_get_u64(p);
				hi = true;
			}
		}
	}
	return lo && hi;
}

/* @off: where the extack attributes would start in the payload */
static int nl_status(struct nl_req *req, const struct nlmsghdr *nlh,
		     int error, size_t off)
{
	const char *msg = nl_extack_msg(nlh, off);

	if (!error) {
		if (msg && !req->quiet)
			fprintf(stderr, "uet: Warning: %s\n", msg);
		return MNL_CB_STOP;
	}
	req->error = error;
	if (!req->quiet) {
		uint64_t min = 0, max = 0;

		if (msg && nl_extack_range(nlh, off, &min, &max))
			fprintf(stderr, "uet: Error: %s (valid: %llu..%llu)\n",
				msg, (unsigned long long)min,
				(unsigned long long)max);
		else if (msg)
			fprintf(stderr, "uet: Error: %s\n", msg);
		else
			fprintf(stderr, "uet: %s\n", strerror(error));
	}
	return MNL_CB_ERROR;
}

static int nl_error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	/* Uncapped, the request we sent sits between header and extack. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg);
	return nl_status(data, nlh, -err->error, off);
}

/* A dump ends with its status, which carries extack like an ack does. */
static int nl_done_cb(const struct nlmsghdr *nlh, void *data)
{
	int status;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(status))
		return MNL_CB_STOP;
	memcpy(&status, mnl_nlmsg_get_payload(nlh), sizeof(status));
	return nl_status(data, nlh, -status, sizeof(status));
}

static int nl_data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl_req *req = data;

	return req->cb ? req->cb(nlh, req->data) : MNL_CB_OK;
}

/*
 * Send @nlh and feed every reply to @cb until the ack or the end of the
 * dump. Returns 0 or a negative errno, reported on stderr unless @quiet.
 */
static int nl_talk(struct uet *u, struct nlmsghdr *nlh, mnl_cb_t cb,
		   void *data, bool quiet)
{
	/* not const: libmnl 1.0.4 takes a mutable array */
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = nl_error_cb,
		[NLMSG_DONE] = nl_done_cb,
	};
	struct nl_req req = { .cb = cb, .data = data, .quiet = quiet };
	ssize_t n;
	int ret;

	if (mnl_socket_sendto(u->sock, nlh, nlh->nlmsg_len) < 0)
		goto fail;
	do {
		/* This overwrites the request: nothing below reads it. */
		n = mnl_socket_recvfrom(u->sock, buf, sizeof(buf));
		if (n < 0)
			goto fail;
		ret = mnl_cb_run2(buf, n, u->seq, u->portid, nl_data_cb, &req,
				  ctl, NLMSG_MIN_TYPE);
	} while (ret == MNL_CB_OK);
	if (ret == MNL_CB_STOP)
		return 0;
	if (req.error)
		return -req.error;
fail:
	ret = errno;
	if (!quiet) {
		/* libmnl's answer to NLM_F_DUMP_INTR */
		if (ret == EINTR)
			fprintf(stderr, "uet: the dump changed under us, try again\n");
		else
			fprintf(stderr, "uet: netlink: %s\n", strerror(ret));
	}
	return -ret;
}

int nl_request(struct uet *u, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	return nl_talk(u, nlh, cb, data, false);
}

static int nl_family_cb(const struct nlmsghdr *nlh, void *data)
{
	static const enum mnl_attr_data_type types[CTRL_ATTR_MAX + 1] = {
		[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
		[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
	};
	static const enum mnl_attr_data_type grp_types[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
		[CTRL_ATTR_MCAST_GRP_NAME] = MNL_TYPE_NUL_STRING,
		[CTRL_ATTR_MCAST_GRP_ID] = MNL_TYPE_U32,
	};
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];
	const struct nlattr *gtb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	const struct nlattr *grp;
	struct uet *u = data;

	nl_parse(nlh, types, CTRL_ATTR_MAX, tb);
	if (tb[CTRL_ATTR_FAMILY_ID])
		u->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS]) {
		nl_parse_nested(grp, grp_types, CTRL_ATTR_MCAST_GRP_MAX, gtb);
		if (gtb[CTRL_ATTR_MCAST_GRP_NAME] && gtb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(gtb[CTRL_ATTR_MCAST_GRP_NAME]),
			    UET_GENL_MCGRP_EVENTS))
			u->events_grp = mnl_attr_get_u32(gtb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return MNL_CB_OK;
}

static int nl_resolve(struct uet *u)
{
	struct nlmsghdr *nlh;
	int ret;

	nlh = nl_msg(u, CTRL_CMD_GETFAMILY, 0);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nl_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, UET_GENL_NAME);
	ret = nl_talk(u, nlh, nl_family_cb, u, true);
	if (ret == -ENOENT || (!ret && !u->family)) {
		fprintf(stderr,
			"uet: the uet generic netlink family is not available (is rdma_uet loaded?)\n");
		return -1;
	}
	if (ret) {
		fprintf(stderr, "uet: cannot look up the uet family: %s\n",
			strerror(-ret));
		return -1;
	}
	return 0;
}

int nl_open(struct uet *u)
{
	int one = 1;

	u->sock = mnl_socket_open(NETLINK_GENERIC);
	if (!u->sock || mnl_socket_bind(u->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr, "uet: cannot open a netlink socket: %s\n",
			strerror(errno));
		return -1;
	}
	/*
	 * Errors then carry the kernel's explanation and not our request.
	 * Kernels without these options still work, with bare errnos.
	 */
	mnl_socket_setsockopt(u->sock, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(u->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	u->portid = mnl_socket_get_portid(u->sock);
	u->seq = time(NULL);
	return nl_resolve(u);
}

/* Join the events group and feed each event to @cb; returns on errors only. */
void nl_listen(struct uet *u, mnl_cb_t cb, void *data)
{
	int grp = u->events_grp;
	ssize_t n;

	if (!grp) {
		fprintf(stderr, "uet: the uet family has no \"%s\" group\n",
			UET_GENL_MCGRP_EVENTS);
		return;
	}
	if (mnl_socket_setsockopt(u->sock, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0) {
		fprintf(stderr, "uet: cannot join the events group: %s\n",
			strerror(errno));
		return;
	}
	for (;;) {
		n = mnl_socket_recvfrom(u->sock, buf, sizeof(buf));
		if (n < 0 && errno == ENOBUFS) {
			/* The queue overflowed; what follows is still good. */
			fprintf(stderr, "uet: warning: events were lost (receive queue full)\n");
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		/* Events answer no request: no sequence or port to match. */
		if (n < 0 || mnl_cb_run(buf, n, 0, 0, cb, data) == MNL_CB_ERROR) {
			fprintf(stderr, "uet: netlink: %s\n", strerror(errno));
			return;
		}
	}
}

void nl_close(struct uet *u)
{
	if (u->sock)
		mnl_socket_close(u->sock);
}
