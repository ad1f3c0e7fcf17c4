// SPDX-License-Identifier: GPL-2.0
/*
 * uet path: the entropy values (UDP source ports) of each peer, one line
 * each with its state and counters; and the operator's deny and allow of
 * a value, towards one peer or all of them.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/uet.h>

#include "uet.h"

#define GID_LEN		16

static const enum mnl_attr_data_type path_types[UET_A_PATH_MAX + 1] = {
	[UET_A_PATH_DEV_INDEX] = MNL_TYPE_U32,
	[UET_A_PATH_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_PATH_PEER] = MNL_TYPE_BINARY,
	[UET_A_PATH_ENTROPY] = MNL_TYPE_U16,
	[UET_A_PATH_STATE] = MNL_TYPE_U8,
	[UET_A_PATH_PKTS] = MNL_TYPE_U64,
	[UET_A_PATH_ECN] = MNL_TYPE_U64,
	[UET_A_PATH_NACKS] = MNL_TYPE_U64,
	[UET_A_PATH_LOSSES] = MNL_TYPE_U64,
	[UET_A_PATH_TIMEOUTS] = MNL_TYPE_U64,
};

/* The counters, in the order "path show" prints them. */
static const struct path_field {
	const char *name;
	uint16_t attr;
} path_fields[] = {
	{ "pkts", UET_A_PATH_PKTS },
	{ "ecn", UET_A_PATH_ECN },
	{ "nacks", UET_A_PATH_NACKS },
	{ "losses", UET_A_PATH_LOSSES },
	{ "timeouts", UET_A_PATH_TIMEOUTS },
};

/* enum uet_path_state */
static const char *const path_state_names[] = {
	[UET_PATH_GOOD] = "good",
	[UET_PATH_SKIP] = "skip",
	[UET_PATH_ASSUMED_BAD] = "assumed_bad",
	[UET_PATH_DENIED] = "denied",
	NULL
};

void path_usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ -j ] path show [ dev DEV ] [ state STATE ]\n"
		"       uet path set dev DEV entropy ENTROPY { deny | allow } [ peer ADDR ]\n"
		"       uet path help\n"
		"where  STATE := { good | skip | assumed_bad | denied }\n"
		"       ADDR := an IPv4 or IPv6 address; without it, every peer of DEV\n");
}

struct path_filter {
	int state;	/* -1: every state */
};

/* A peer as IPv4 when v4-mapped (::ffff:a.b.c.d), else as IPv6. */
static void path_print_peer(const struct nlattr *a)
{
	const struct in6_addr *addr = mnl_attr_get_payload(a);
	char s[INET6_ADDRSTRLEN];

	if (mnl_attr_get_payload_len(a) != GID_LEN)
		return;
	if (IN6_IS_ADDR_V4MAPPED(addr)) {
		if (!inet_ntop(AF_INET, &addr->s6_addr[12], s, sizeof(s)))
			return;
	} else if (!inet_ntop(AF_INET6, addr, s, sizeof(s))) {
		return;
	}
	print_pair_str("peer", s);
}

/* A state this tool has no name for (a newer kernel's) shows as a number. */
static void path_print_state(uint64_t v)
{
	char num[24];

	if (v < ARRAY_SIZE(path_state_names) - 1) {
		print_pair_str("state", path_state_names[v]);
		return;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	print_pair_str("state", num);
}

static int path_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[UET_A_PATH_MAX + 1];
	const struct path_filter *filter = data;
	size_t i;

	nl_parse(nlh, path_types, UET_A_PATH_MAX, tb);
	if (filter->state >= 0 && (!tb[UET_A_PATH_STATE] ||
	    nl_uint(tb[UET_A_PATH_STATE]) != (uint64_t)filter->state))
		return MNL_CB_OK;
	print_list_item();
	print_obj_open(NULL);
	if (tb[UET_A_PATH_DEV_NAME])
		print_str("dev", "%s", mnl_attr_get_str(tb[UET_A_PATH_DEV_NAME]));
	if (tb[UET_A_PATH_PEER])
		path_print_peer(tb[UET_A_PATH_PEER]);
	if (tb[UET_A_PATH_ENTROPY])
		print_pair_u64("entropy", nl_uint(tb[UET_A_PATH_ENTROPY]));
	if (tb[UET_A_PATH_STATE])
		path_print_state(nl_uint(tb[UET_A_PATH_STATE]));
	for (i = 0; i < ARRAY_SIZE(path_fields); i++)
		if (tb[path_fields[i].attr])
			print_pair_u64(path_fields[i].name,
				       nl_uint(tb[path_fields[i].attr]));
	print_text("\n");
	print_obj_close();
	return MNL_CB_OK;
}

static int path_show(struct uet *u, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "state", NULL };
	struct path_filter filter = { .state = -1 };
	const char *dev = NULL;
	struct nlmsghdr *nlh;
	int ret;

	for (; argc; argc -= 2, argv += 2) {
		int k = arg_key(argc, argv, keys, path_usage);

		if (k < 0)
			return 1;
		if (!k) {
			dev = argv[1];
			continue;
		}
		filter.state = lookup(argv[1], path_state_names);
		if (filter.state < 0) {
			fprintf(stderr, "uet: unknown state \"%s\"\n", argv[1]);
			path_usage(stderr);
			return 1;
		}
	}

	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_PATH_GET, NLM_F_DUMP);
	if (dev && !nl_put_strz(nlh, UET_A_PATH_DEV_NAME, dev))
		return 1;
	ret = nl_request(u, nlh, path_show_cb, &filter);
	print_list_end(!ret);
	return ret ? 1 : 0;
}

/* IPv4 as a v4-mapped IPv6 address, as the kernel names peers. */
static bool path_parse_peer(const char *s, struct in6_addr *addr)
{
	struct in_addr v4;

	if (inet_pton(AF_INET, s, &v4) == 1) {
		memset(addr, 0, sizeof(*addr));
		addr->s6_addr[10] = 0xff;
		addr->s6_addr[11] = 0xff;
		memcpy(&addr->s6_addr[12], &v4, sizeof(v4));
		return true;
	}
	return inet_pton(AF_INET6, s, addr) == 1;
}

static int path_set(struct uet *u, int argc, char **argv)
{
	enum { KEY_DEV, KEY_ENTROPY, KEY_PEER, KEY_DENY, KEY_ALLOW };
	static const char *const keys[] = {
		"dev", "entropy", "peer", "deny", "allow", NULL
	};
	const char *dev = NULL, *entropy = NULL, *peer = NULL;
	struct in6_addr addr;
	struct nlmsghdr *nlh;
	unsigned long ev;
	int deny = -1;

	/* Every argument is checked before anything reaches the kernel. */
	while (argc) {
		int k = lookup(argv[0], keys);
		const char **val;

		if (k < 0) {
			fprintf(stderr, "uet: unexpected \"%s\"\n", argv[0]);
			path_usage(stderr);
			return 1;
		}
		if (k == KEY_DENY || k == KEY_ALLOW) {
			if (deny >= 0) {
				fprintf(stderr, "uet: deny or allow given twice\n");
				return 1;
			}
			deny = k == KEY_DENY;
			argc--;
			argv++;
			continue;
		}
		if (argc < 2) {
			fprintf(stderr, "uet: %s needs a value\n", keys[k]);
			return 1;
		}
		val = k == KEY_DEV ? &dev : k == KEY_ENTROPY ? &entropy : &peer;
		if (*val) {
			fprintf(stderr, "uet: %s given twice\n", keys[k]);
			return 1;
		}
		*val = argv[1];
		argc -= 2;
		argv += 2;
	}
	if (!dev || !entropy || deny < 0) {
		fprintf(stderr, "uet: path set needs dev, entropy and deny or allow\n");
		path_usage(stderr);
		return 1;
	}
	if (!parse_uint(entropy, UINT16_MAX, &ev)) {
		fprintf(stderr, "uet: entropy must be a number 0..%u, not \"%s\"\n",
			UINT16_MAX, entropy);
		return 1;
	}
	if (peer && !path_parse_peer(peer, &addr)) {
		fprintf(stderr, "uet: peer must be an IPv4 or IPv6 address, not \"%s\"\n",
			peer);
		return 1;
	}

	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_PATH_SET, 0);
	if (!nl_put_strz(nlh, UET_A_PATH_DEV_NAME, dev) ||
	    !nl_put_u16(nlh, UET_A_PATH_ENTROPY, ev) ||
	    !nl_put_u8(nlh, UET_A_PATH_DENY, deny) ||
	    (peer && !nl_put_bin(nlh, UET_A_PATH_PEER, &addr, sizeof(addr))))
		return 1;
	return nl_request(u, nlh, NULL, NULL) ? 1 : 0;
}

int do_path(struct uet *u, int argc, char **argv)
{
	return show_set_help(u, "path", argc, argv, path_show, path_set,
			     path_usage);
}
