// SPDX-License-Identifier: GPL-2.0
/*
 * uet qp: the transport state of QPs, one line each: where each PSN space
 * stands, what is in flight, how much was lost and the RTT estimate; and
 * the load balancing and congestion control of one QP, with the state of
 * its algorithm; and either of them changed.
 */
#include <arpa/inet.h>
#include <stdint.h>
#include <sys/socket.h>

#include <linux/genetlink.h>
#include <linux/uet.h>

#include "uet.h"

#define GID_LEN		16

static const enum mnl_attr_data_type qp_types[UET_A_QP_MAX + 1] = {
	[UET_A_QP_DEV_INDEX] = MNL_TYPE_U32,
	[UET_A_QP_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_QP_QPN] = MNL_TYPE_U32,
	[UET_A_QP_TYPE] = MNL_TYPE_U8,
	[UET_A_QP_STATE] = MNL_TYPE_U8,
	[UET_A_QP_PEER_QPN] = MNL_TYPE_U32,
	[UET_A_QP_PEER_GID] = MNL_TYPE_BINARY,
	[UET_A_QP_SND_UNA] = MNL_TYPE_U32,
	[UET_A_QP_SND_NXT] = MNL_TYPE_U32,
	[UET_A_QP_RCV_NXT] = MNL_TYPE_U32,
	[UET_A_QP_INFLIGHT_PKTS] = MNL_TYPE_U32,
	[UET_A_QP_INFLIGHT_BYTES] = MNL_TYPE_U64,
	[UET_A_QP_SACK_HOLES] = MNL_TYPE_U32,
	[UET_A_QP_RETRANSMITS] = MNL_TYPE_U64,
	[UET_A_QP_RTO_EXPIRED] = MNL_TYPE_U64,
	[UET_A_QP_SRTT_US] = MNL_TYPE_U32,
	[UET_A_QP_MIN_RTT_US] = MNL_TYPE_U32,
	[UET_A_QP_LB] = MNL_TYPE_NUL_STRING,
	[UET_A_QP_ENTROPY_COUNT] = MNL_TYPE_U32,
	[UET_A_QP_CC] = MNL_TYPE_NUL_STRING,
	/*
	 * UET_A_QP_ENTROPY and UET_A_QP_CC_STAT repeat: qp_print_entropy()
	 * and print_stats() walk the message.
	 */
};

/* The plain counters and PSNs, in the order "qp show" prints them. */
static const struct qp_field {
	const char *name;
	uint16_t attr;
} qp_fields[] = {
	{ "snd_una", UET_A_QP_SND_UNA },
	{ "snd_nxt", UET_A_QP_SND_NXT },
	{ "rcv_nxt", UET_A_QP_RCV_NXT },
	{ "inflight_pkts", UET_A_QP_INFLIGHT_PKTS },
	{ "inflight_bytes", UET_A_QP_INFLIGHT_BYTES },
	{ "sack_holes", UET_A_QP_SACK_HOLES },
	{ "retransmits", UET_A_QP_RETRANSMITS },
	{ "rto_expired", UET_A_QP_RTO_EXPIRED },
	{ "srtt_us", UET_A_QP_SRTT_US },
	{ "min_rtt_us", UET_A_QP_MIN_RTT_US },
};

/* enum ib_qp_type and enum ib_qp_state, as ibv_devinfo spells them */
static const char *const qp_type_names[] = {
	"SMI", "GSI", "RC", "UC", "UD"
};

static const char *const qp_state_names[] = {
	"RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR"
};

void qp_usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ -j ] qp show [ dev DEV ] [ qpn QPN ]\n"
		"       uet qp set dev DEV qpn QPN [ lb { single | spray | reps } ]\n"
		"                                  [ cc { none | nscc | dcqcn } ]\n"
		"       uet qp help\n"
		"QPN needs DEV; qp set needs lb, cc or both.\n");
}

void qp_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	nl_parse(nlh, qp_types, UET_A_QP_MAX, tb);
}

/* A value this tool has no name for (a newer kernel's) shows as a number. */
static void qp_print_enum(const char *key, const char *const *names,
			  size_t n, const struct nlattr *a)
{
	uint64_t v = nl_uint(a);
	char num[24];

	if (v < n) {
		print_pair_str(key, names[v]);
		return;
	}
	snprintf(num, sizeof(num), "%llu", (unsigned long long)v);
	print_pair_str(key, num);
}

void qp_print_state(const struct nlattr *a)
{
	qp_print_enum("state", qp_state_names, ARRAY_SIZE(qp_state_names), a);
}

static void qp_print_gid(const struct nlattr *a)
{
	char s[INET6_ADDRSTRLEN];

	/* RoCE v2 GIDs are IPv6 addresses, IPv4 ones mapped (::ffff:a.b.c.d). */
	if (mnl_attr_get_payload_len(a) == GID_LEN &&
	    inet_ntop(AF_INET6, mnl_attr_get_payload(a), s, sizeof(s)))
		print_pair_str("peer_gid", s);
}

static void qp_print_entropy(const struct nlmsghdr *nlh)
{
	const struct nlattr *a;
	bool open = false;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != UET_A_QP_ENTROPY ||
		    mnl_attr_validate(a, MNL_TYPE_U16) < 0)
			continue;
		if (!open) {
			print_arr_open("entropy");
			print_text(" entropy");
		}
		print_elem_u64(open ? ",%llu" : " %llu", mnl_attr_get_u16(a));
		open = true;
	}
	if (open)
		print_arr_close();
}

static int qp_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[UET_A_QP_MAX + 1];
	size_t i;

	(void)data;
	qp_parse(nlh, tb);
	print_list_item();
	print_obj_open(NULL);
	if (tb[UET_A_QP_DEV_NAME])
		print_str("dev", "%s", mnl_attr_get_str(tb[UET_A_QP_DEV_NAME]));
	if (tb[UET_A_QP_DEV_INDEX])
		print_u64("dev_index", NULL, nl_uint(tb[UET_A_QP_DEV_INDEX]));
	if (tb[UET_A_QP_QPN])
		print_pair_u64("qpn", nl_uint(tb[UET_A_QP_QPN]));
	if (tb[UET_A_QP_TYPE])
		qp_print_enum("type", qp_type_names, ARRAY_SIZE(qp_type_names),
			      tb[UET_A_QP_TYPE]);
	if (tb[UET_A_QP_STATE])
		qp_print_state(tb[UET_A_QP_STATE]);
	if (tb[UET_A_QP_PEER_QPN])
		print_pair_u64("peer_qpn", nl_uint(tb[UET_A_QP_PEER_QPN]));
	if (tb[UET_A_QP_PEER_GID])
		qp_print_gid(tb[UET_A_QP_PEER_GID]);
	for (i = 0; i < ARRAY_SIZE(qp_fields); i++)
		if (tb[qp_fields[i].attr])
			print_pair_u64(qp_fields[i].name,
				       nl_uint(tb[qp_fields[i].attr]));
	if (tb[UET_A_QP_LB])
		print_pair_str("lb", mnl_attr_get_str(tb[UET_A_QP_LB]));
	qp_print_entropy(nlh);
	if (tb[UET_A_QP_ENTROPY_COUNT])
		print_pair_u64("entropy_count",
			       nl_uint(tb[UET_A_QP_ENTROPY_COUNT]));
	if (tb[UET_A_QP_CC])
		print_pair_str("cc", mnl_attr_get_str(tb[UET_A_QP_CC]));
	print_stats(nlh, UET_A_QP_CC_STAT, "cc_stats", NULL, NULL);
	print_text("\n");
	print_obj_close();
	return MNL_CB_OK;
}

static int qp_show(struct uet *u, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "qpn", NULL };
	const char *dev = NULL;
	bool do_one = false;
	unsigned long qpn;
	struct nlmsghdr *nlh;
	int ret;

	for (; argc; argc -= 2, argv += 2) {
		int k = arg_key(argc, argv, keys, qp_usage);

		if (k < 0)
			return 1;
		if (!k) {
			dev = argv[1];
		} else if (parse_uint(argv[1], UINT32_MAX, &qpn)) {
			do_one = true;
		} else {
			fprintf(stderr, "uet: qpn must be a number, not \"%s\"\n",
				argv[1]);
			return 1;
		}
	}
	if (do_one && !dev) {
		fprintf(stderr, "uet: qpn needs dev: QP numbers are per device\n");
		return 1;
	}

	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_QP_GET, do_one ? 0 : NLM_F_DUMP);
	if (dev && !nl_put_strz(nlh, UET_A_QP_DEV_NAME, dev))
		return 1;
	if (do_one && !nl_put_u32(nlh, UET_A_QP_QPN, qpn))
		return 1;
	ret = nl_request(u, nlh, qp_show_cb, NULL);
	print_list_end(!ret);
	return ret ? 1 : 0;
}

static int qp_set(struct uet *u, int argc, char **argv)
{
	static const char *const keys[] = { "dev", "qpn", "lb", "cc", NULL };
	/* the attributes of lb and cc */
	static const uint16_t attrs[] = { UET_A_QP_LB, UET_A_QP_CC };
	const char *val[ARRAY_SIZE(keys) - 1] = { NULL };
	struct nlmsghdr *nlh;
	unsigned long qpn;
	size_t i;

	/* Every argument is checked before anything reaches the kernel. */
	for (; argc; argc -= 2, argv += 2) {
		int k = arg_key(argc, argv, keys, qp_usage);

		if (k < 0)
			return 1;
		if (val[k]) {
			fprintf(stderr, "uet: %s given twice\n", keys[k]);
			return 1;
		}
		val[k] = argv[1];
	}
	for (i = 0; i < 2; i++) {
		if (!val[i]) {
			fprintf(stderr, "uet: qp set needs %s\n", keys[i]);
			qp_usage(stderr);
			return 1;
		}
	}
	if (!val[2] && !val[3]) {
		fprintf(stderr, "uet: qp set needs lb or cc\n");
		qp_usage(stderr);
		return 1;
	}
	if (!parse_uint(val[1], UINT32_MAX, &qpn)) {
		fprintf(stderr, "uet: qpn must be a number, not \"%s\"\n", val[1]);
		return 1;
	}

	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_QP_SET, 0);
	if (!nl_put_strz(nlh, UET_A_QP_DEV_NAME, val[0]) ||
	    !nl_put_u32(nlh, UET_A_QP_QPN, qpn))
		return 1;
	for (i = 0; i < ARRAY_SIZE(attrs); i++)
		if (val[i + 2] && !nl_put_strz(nlh, attrs[i], val[i + 2]))
			return 1;
	return nl_request(u, nlh, NULL, NULL) ? 1 : 0;
}

int do_qp(struct uet *u, int argc, char **argv)
{
	return show_set_help(u, "qp", argc, argv, qp_show, qp_set,
			     qp_usage);
}
