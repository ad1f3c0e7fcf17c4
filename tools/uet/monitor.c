// SPDX-License-Identifier: GPL-2.0
/*
 * uet monitor: one line per event of the "events" group until killed.
 * A line names the object and what changed; JSON adds every attribute
 * the event carries. Each line is flushed at once, since scripts read
 * it through a pipe or a file.
 */
#include <linux/uet.h>

#include "uet.h"

void monitor_usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ -j ] monitor\n"
		"       uet monitor help\n");
}

static void monitor_dev(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[UET_A_DEV_MAX + 1];

	dev_parse(nlh, tb);
	print_obj_open(NULL);
	print_str("event", "%s", "dev");
	if (tb[UET_A_DEV_NAME])
		print_str("dev", " %s", mnl_attr_get_str(tb[UET_A_DEV_NAME]));
	if (tb[UET_A_DEV_INDEX])
		print_u64("index", NULL, nl_uint(tb[UET_A_DEV_INDEX]));
	if (tb[UET_A_DEV_NETDEV_NAME])
		print_str("netdev", NULL,
			  mnl_attr_get_str(tb[UET_A_DEV_NETDEV_NAME]));
	if (tb[UET_A_DEV_NETDEV_IFINDEX])
		print_u64("ifindex", NULL, nl_uint(tb[UET_A_DEV_NETDEV_IFINDEX]));
	if (tb[UET_A_DEV_PORT_UP])
		print_pair_str("port",
			       nl_uint(tb[UET_A_DEV_PORT_UP]) ? "up" : "down");
	print_text("\n");
	print_obj_close();
}

static void monitor_qp(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[UET_A_QP_MAX + 1];

	qp_parse(nlh, tb);
	print_obj_open(NULL);
	print_str("event", "%s", "qp");
	if (tb[UET_A_QP_DEV_NAME])
		print_str("dev", " %s", mnl_attr_get_str(tb[UET_A_QP_DEV_NAME]));
	if (tb[UET_A_QP_DEV_INDEX])
		print_u64("dev_index", NULL, nl_uint(tb[UET_A_QP_DEV_INDEX]));
	if (tb[UET_A_QP_QPN])
		print_pair_u64("qpn", nl_uint(tb[UET_A_QP_QPN]));
	if (tb[UET_A_QP_STATE])
		qp_print_state(tb[UET_A_QP_STATE]);
	if (tb[UET_A_QP_PEER_QPN])
		print_u64("peer_qpn", NULL, nl_uint(tb[UET_A_QP_PEER_QPN]));
	print_text("\n");
	print_obj_close();
}

static int monitor_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct uet *u = data;

	if (nlh->nlmsg_type != u->family)
		return MNL_CB_OK;
	switch (nl_cmd(nlh)) {
	case UET_CMD_DEV_NTF:
		monitor_dev(nlh);
		break;
	case UET_CMD_QP_NTF:
		monitor_qp(nlh);
		break;
	default:
		/* a newer kernel's event */
		return MNL_CB_OK;
	}
	fflush(stdout);
	return MNL_CB_OK;
}

int do_monitor(struct uet *u, int argc, char **argv)
{
	static const char *const cmds[] = { "help", NULL };

	if (argc) {
		if (lookup(argv[0], cmds) == 0) {
			monitor_usage(stdout);
			return 0;
		}
		fprintf(stderr, "uet: unexpected \"%s\"\n", argv[0]);
		monitor_usage(stderr);
		return 1;
	}
	if (nl_open(u))
		return 1;
	nl_listen(u, monitor_cb, u);
	return 1;
}
