// SPDX-License-Identifier: GPL-2.0
/*
 * uet dev: show devices with their parameters and counters, change the
 * parameters. The kernel owns the valid ranges; this only checks that a
 * value fits its attribute, and shows the kernel's refusal when not.
 */
#include <stdint.h>
#include <string.h>

#include <linux/genetlink.h>
#include <linux/uet.h>

#include "uet.h"

static const enum mnl_attr_data_type dev_types[UET_A_DEV_MAX + 1] = {
	[UET_A_DEV_INDEX] = MNL_TYPE_U32,
	[UET_A_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_DEV_NETDEV_IFINDEX] = MNL_TYPE_U32,
	[UET_A_DEV_NETDEV_NAME] = MNL_TYPE_NUL_STRING,
	[UET_A_DEV_NETNS_COOKIE] = MNL_TYPE_U64,
	[UET_A_DEV_PORT_UP] = MNL_TYPE_U8,
	[UET_A_DEV_UDP_PORT] = MNL_TYPE_U16,
	[UET_A_DEV_CC] = MNL_TYPE_NUL_STRING,
	[UET_A_DEV_LB] = MNL_TYPE_NUL_STRING,
	/*
	 * The numeric parameters come as UET_A_DEV_PARAM nests too, named:
	 * this prints and sets them by those. UET_A_DEV_STAT,
	 * UET_A_DEV_CC_PARAM and UET_A_DEV_PARAM repeat: the printers walk
	 * the message.
	 */
};

/* The kernel's policy for the strings of cc-param and param nests */
#define CC_ALGO_MAX	15
#define CC_NAME_MAX	63
#define PARAM_NAME_MAX	31

void dev_usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ -j ] [ -s ] dev show [ DEV ]\n"
		"       uet dev set DEV PARAM VALUE [ PARAM VALUE ]...\n"
		"       uet dev help\n"
		"where  PARAM := NAME NUMBER, a numeric parameter \"uet -d dev show\" lists\n"
		"            | cc { none | nscc | dcqcn } | lb { single | spray | reps }\n"
		"            | cc-param [ ALGO. ]NAME NUMBER\n"
		"cc-param may repeat; without ALGO, NAME is looked up in the device's\n"
		"algorithm (or the one cc sets), else in the only algorithm having it.\n");
}

void dev_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	nl_parse(nlh, dev_types, UET_A_DEV_MAX, tb);
}

/* A param nest of a reply, with its name and value at least; or false. */
static bool dev_param_parse(const struct nlattr *a, const struct nlattr **tb)
{
	static const enum mnl_attr_data_type types[UET_A_PARAM_MAX + 1] = {
		[UET_A_PARAM_NAME] = MNL_TYPE_NUL_STRING,
		[UET_A_PARAM_VALUE] = MNL_TYPE_U32,
		[UET_A_PARAM_RANGE_MIN] = MNL_TYPE_U32,
		[UET_A_PARAM_RANGE_MAX] = MNL_TYPE_U32,
		[UET_A_PARAM_DEFAULT] = MNL_TYPE_U32,
		[UET_A_PARAM_NEW_QPS] = MNL_TYPE_FLAG,
	};

	if (mnl_attr_get_type(a) != UET_A_DEV_PARAM ||
	    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
		return false;
	nl_parse_nested(a, types, UET_A_PARAM_MAX, tb);
	return tb[UET_A_PARAM_NAME] && tb[UET_A_PARAM_VALUE];
}

/*
 * The numeric parameters, in the kernel's order: "NAME VALUE" pairs on a
 * line; with -d one per line with its range, default and when it
 * applies, and in JSON a "params" object of those besides.
 */
static void dev_print_params(const struct nlmsghdr *nlh, const struct uet *u)
{
	const struct nlattr *tb[UET_A_PARAM_MAX + 1];
	const struct nlattr *a;
	bool line = false;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!dev_param_parse(a, tb))
			continue;
		if (!line || u->details)
			print_text("\n   ");
		line = true;
		print_pair_u64(mnl_attr_get_str(tb[UET_A_PARAM_NAME]),
			       nl_uint(tb[UET_A_PARAM_VALUE]));
		if (!u->details || u->json)
			continue;
		printf(" (");
		if (tb[UET_A_PARAM_RANGE_MIN] && tb[UET_A_PARAM_RANGE_MAX])
			printf("%llu..%llu, ",
			       (unsigned long long)nl_uint(tb[UET_A_PARAM_RANGE_MIN]),
			       (unsigned long long)nl_uint(tb[UET_A_PARAM_RANGE_MAX]));
		if (tb[UET_A_PARAM_DEFAULT])
			printf("default %llu, ",
			       (unsigned long long)nl_uint(tb[UET_A_PARAM_DEFAULT]));
		printf("%s)", tb[UET_A_PARAM_NEW_QPS] ? "new QPs" : "at once");
	}
	if (!u->details || !u->json)
		return;
	print_obj_open("params");
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!dev_param_parse(a, tb))
			continue;
		print_obj_open(mnl_attr_get_str(tb[UET_A_PARAM_NAME]));
		print_u64("value", NULL, nl_uint(tb[UET_A_PARAM_VALUE]));
		if (tb[UET_A_PARAM_RANGE_MIN])
			print_u64("min", NULL, nl_uint(tb[UET_A_PARAM_RANGE_MIN]));
		if (tb[UET_A_PARAM_RANGE_MAX])
			print_u64("max", NULL, nl_uint(tb[UET_A_PARAM_RANGE_MAX]));
		if (tb[UET_A_PARAM_DEFAULT])
			print_u64("default", NULL,
				  nl_uint(tb[UET_A_PARAM_DEFAULT]));
		print_str("applies", NULL,
			  tb[UET_A_PARAM_NEW_QPS] ? "new_qps" : "now");
		print_obj_close();
	}
	print_obj_close();
}

/* A cc-param nest of a reply, with its algorithm, name and value; or false. */
static bool dev_cc_param_parse(const struct nlattr *a,
			       const struct nlattr **tb)
{
	static const enum mnl_attr_data_type types[UET_A_CC_PARAM_MAX + 1] = {
		[UET_A_CC_PARAM_ALGO] = MNL_TYPE_NUL_STRING,
		[UET_A_CC_PARAM_NAME] = MNL_TYPE_NUL_STRING,
		[UET_A_CC_PARAM_VALUE] = MNL_TYPE_U32,
	};

	if (mnl_attr_get_type(a) != UET_A_DEV_CC_PARAM ||
	    mnl_attr_validate(a, MNL_TYPE_NESTED) < 0)
		return false;
	nl_parse_nested(a, types, UET_A_CC_PARAM_MAX, tb);
	return tb[UET_A_CC_PARAM_ALGO] && tb[UET_A_CC_PARAM_NAME] &&
	       tb[UET_A_CC_PARAM_VALUE];
}

/* Text: the parameters of the device's algorithm @cc, on a line of their own. */
static void dev_print_cc_text(const struct nlmsghdr *nlh, const char *cc)
{
	const struct nlattr *tb[UET_A_CC_PARAM_MAX + 1];
	const struct nlattr *a;
	bool line = false;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!dev_cc_param_parse(a, tb) ||
		    strcmp(mnl_attr_get_str(tb[UET_A_CC_PARAM_ALGO]), cc))
			continue;
		if (!line)
			print_text("\n   ");
		line = true;
		print_str(NULL, " cc-param %s",
			  mnl_attr_get_str(tb[UET_A_CC_PARAM_NAME]));
		print_u64(NULL, " %llu", nl_uint(tb[UET_A_CC_PARAM_VALUE]));
	}
}

/* Whether a cc-param nest before @end names the algorithm @algo */
static bool dev_cc_algo_seen(const struct nlmsghdr *nlh,
			     const struct nlattr *end, const char *algo)
{
	const struct nlattr *tb[UET_A_CC_PARAM_MAX + 1];
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (a == end)
			break;
		if (dev_cc_param_parse(a, tb) &&
		    !strcmp(mnl_attr_get_str(tb[UET_A_CC_PARAM_ALGO]), algo))
			return true;
	}
	return false;
}

/*
 * JSON: "cc_params", one object per algorithm in the order the kernel
 * first names it, mapping every parameter of it to its value. An
 * algorithm without parameters (none) has no key.
 */
static void dev_print_cc_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[UET_A_CC_PARAM_MAX + 1];
	const struct nlattr *a, *b;
	bool open = false;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		const char *algo;

		if (!dev_cc_param_parse(a, tb))
			continue;
		/* in the message buffer, which outlives this callback */
		algo = mnl_attr_get_str(tb[UET_A_CC_PARAM_ALGO]);
		if (dev_cc_algo_seen(nlh, a, algo))
			continue;
		if (!open)
			print_obj_open("cc_params");
		open = true;
		print_obj_open(algo);
		mnl_attr_for_each(b, nlh, sizeof(struct genlmsghdr)) {
			if (!dev_cc_param_parse(b, tb) ||
			    strcmp(mnl_attr_get_str(tb[UET_A_CC_PARAM_ALGO]), algo))
				continue;
			print_u64(mnl_attr_get_str(tb[UET_A_CC_PARAM_NAME]), NULL,
				  nl_uint(tb[UET_A_CC_PARAM_VALUE]));
		}
		print_obj_close();
	}
	if (open)
		print_obj_close();
}

static int dev_show_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[UET_A_DEV_MAX + 1];
	struct uet *u = data;

	dev_parse(nlh, tb);
	print_list_item();
	print_obj_open(NULL);
	if (tb[UET_A_DEV_NAME])
		print_str("dev", "%s:", mnl_attr_get_str(tb[UET_A_DEV_NAME]));
	if (tb[UET_A_DEV_INDEX])
		print_u64("index", NULL, nl_uint(tb[UET_A_DEV_INDEX]));
	if (tb[UET_A_DEV_NETDEV_NAME])
		print_pair_str("netdev",
			       mnl_attr_get_str(tb[UET_A_DEV_NETDEV_NAME]));
	if (tb[UET_A_DEV_NETDEV_IFINDEX])
		print_u64("ifindex", " (ifindex %llu)",
			  nl_uint(tb[UET_A_DEV_NETDEV_IFINDEX]));
	if (tb[UET_A_DEV_NETNS_COOKIE])
		print_u64("netns_cookie", NULL,
			  nl_uint(tb[UET_A_DEV_NETNS_COOKIE]));
	if (tb[UET_A_DEV_PORT_UP])
		print_pair_str("port",
			       nl_uint(tb[UET_A_DEV_PORT_UP]) ? "up" : "down");
	if (tb[UET_A_DEV_UDP_PORT])
		print_pair_u64("udp_port", nl_uint(tb[UET_A_DEV_UDP_PORT]));
	dev_print_params(nlh, u);
	if (u->details)
		print_text("\n   ");
	if (tb[UET_A_DEV_CC])
		print_pair_str("cc", mnl_attr_get_str(tb[UET_A_DEV_CC]));
	if (tb[UET_A_DEV_LB])
		print_pair_str("lb", mnl_attr_get_str(tb[UET_A_DEV_LB]));
	if (u->json)
		dev_print_cc_json(nlh);
	else if (tb[UET_A_DEV_CC])
		dev_print_cc_text(nlh, mnl_attr_get_str(tb[UET_A_DEV_CC]));
	if (u->stats)
		print_stats(nlh, UET_A_DEV_STAT, "stats", "\n    stats:",
			    "\n       ");
	print_text("\n");
	print_obj_close();
	return MNL_CB_OK;
}

static int dev_show(struct uet *u, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	int ret;

	if (argc > 1) {
		fprintf(stderr, "uet: unexpected \"%s\"\n", argv[1]);
		dev_usage(stderr);
		return 1;
	}
	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_DEV_GET, argc ? 0 : NLM_F_DUMP);
	if (argc && !nl_put_strz(nlh, UET_A_DEV_NAME, argv[0]))
		return 1;
	ret = nl_request(u, nlh, dev_show_cb, u);
	print_list_end(!ret);
	return ret ? 1 : 0;
}

/* "cc-param [ ALGO. ]NAME VALUE" takes two values, every other PARAM one. */
static const char dev_cc_param[] = "cc-param";

static int dev_arg_len(const char *param)
{
	return strcmp(param, dev_cc_param) ? 2 : 3;
}

/*
 * The NAME of "cc-param [ ALGO. ]NAME", with ALGO copied to @algo ("" when
 * not given); NULL, said why, for a name or algorithm the kernel refuses.
 */
static const char *dev_cc_param_split(const char *arg,
				      char algo[CC_ALGO_MAX + 1])
{
	const char *dot = strchr(arg, '.');
	const char *name = dot ? dot + 1 : arg;
	size_t len = dot ? (size_t)(dot - arg) : 0;

	if (dot && (!len || len > CC_ALGO_MAX)) {
		fprintf(stderr, "uet: cc-param \"%s\": the algorithm must be 1..%u characters\n",
			arg, CC_ALGO_MAX);
		return NULL;
	}
	if (!*name || strlen(name) > CC_NAME_MAX) {
		fprintf(stderr, "uet: cc-param \"%s\": the name must be 1..%u characters\n",
			arg, CC_NAME_MAX);
		return NULL;
	}
	memcpy(algo, arg, len);
	algo[len] = '\0';
	return name;
}

/* "cc-param [ ALGO. ]NAME VALUE" at @argv, checked, as a nest */
static bool dev_put_cc_param(struct nlmsghdr *nlh, char **argv)
{
	char algo[CC_ALGO_MAX + 1];
	struct nlattr *nest;
	unsigned long num;
	const char *name;

	name = dev_cc_param_split(argv[1], algo);
	if (!name || !parse_uint(argv[2], UINT32_MAX, &num))
		return false;
	nest = nl_nest_start(nlh, UET_A_DEV_CC_PARAM);
	if (!nest || (*algo && !nl_put_strz(nlh, UET_A_CC_PARAM_ALGO, algo)) ||
	    !nl_put_strz(nlh, UET_A_CC_PARAM_NAME, name) ||
	    !nl_put_u32(nlh, UET_A_CC_PARAM_VALUE, num))
		return false;
	nl_nest_end(nlh, nest);
	return true;
}

/* "NAME NUMBER" at @argv, checked, as a param nest */
static bool dev_put_param(struct nlmsghdr *nlh, char **argv)
{
	struct nlattr *nest;
	unsigned long num;

	if (!parse_uint(argv[1], UINT32_MAX, &num))
		return false;
	nest = nl_nest_start(nlh, UET_A_DEV_PARAM);
	if (!nest || !nl_put_strz(nlh, UET_A_PARAM_NAME, argv[0]) ||
	    !nl_put_u32(nlh, UET_A_PARAM_VALUE, num))
		return false;
	nl_nest_end(nlh, nest);
	return true;
}

/* "cc" and "lb" take an algorithm's name: their attribute; else 0. */
static uint16_t dev_algo_attr(const char *param)
{
	if (!strcmp(param, "cc"))
		return UET_A_DEV_CC;
	if (!strcmp(param, "lb"))
		return UET_A_DEV_LB;
	return 0;
}

/* The name an argument sets: the cc-param's, or the PARAM itself. */
static const char *dev_arg_name(char **argv)
{
	return dev_arg_len(argv[0]) == 3 ? argv[1] : argv[0];
}

/*
 * Whether the argument at @argv sets what one of the @done arguments at
 * @args set already (the same PARAM, or the same cc-param as spelled).
 */
static bool dev_given(char **args, int done, char **argv)
{
	int n;

	for (; done; done -= n, args += n) {
		n = dev_arg_len(args[0]);
		if (n == dev_arg_len(argv[0]) &&
		    !strcmp(dev_arg_name(args), dev_arg_name(argv)))
			return true;
	}
	return false;
}

/* Checks "cc-param" at @argv, with the @done arguments before it at @args. */
static bool dev_check_cc_param(char **args, int done, int argc, char **argv)
{
	char algo[CC_ALGO_MAX + 1];
	unsigned long num;

	if (argc < 3) {
		fprintf(stderr, "uet: %s needs a name and a value\n", dev_cc_param);
		return false;
	}
	if (!dev_cc_param_split(argv[1], algo))
		return false;
	if (!parse_uint(argv[2], UINT32_MAX, &num)) {
		fprintf(stderr, "uet: %s %s must be a number 0..%u, not \"%s\"\n",
			dev_cc_param, argv[1], UINT32_MAX, argv[2]);
		return false;
	}
	if (dev_given(args, done, argv)) {
		fprintf(stderr, "uet: %s %s given twice\n", dev_cc_param, argv[1]);
		return false;
	}
	return true;
}

static int dev_set(struct uet *u, int argc, char **argv)
{
	struct nlmsghdr *nlh;
	unsigned long num;
	uint16_t attr;
	const char *dev;
	char **args;
	int nargs, n, i;
	bool ok;

	if (argc < 2) {
		fprintf(stderr, "uet: dev set needs a device and a parameter\n");
		dev_usage(stderr);
		return 1;
	}
	dev = argv[0];
	args = argv + 1;
	nargs = argc - 1;
	/*
	 * Every argument is checked before anything reaches the kernel; the
	 * names and ranges of the numeric parameters are the kernel's.
	 */
	for (i = 0; i < nargs; i += n) {
		n = dev_arg_len(args[i]);
		if (n == 3) {
			if (!dev_check_cc_param(args, i, nargs - i, args + i))
				return 1;
			continue;
		}
		if (nargs - i < 2) {
			fprintf(stderr, "uet: %s needs a value\n", args[i]);
			return 1;
		}
		if (dev_given(args, i, args + i)) {
			fprintf(stderr, "uet: %s given twice\n", args[i]);
			return 1;
		}
		if (dev_algo_attr(args[i]))
			continue;
		if (strlen(args[i]) > PARAM_NAME_MAX) {
			fprintf(stderr, "uet: unknown parameter \"%s\"\n", args[i]);
			dev_usage(stderr);
			return 1;
		}
		if (!parse_uint(args[i + 1], UINT32_MAX, &num)) {
			fprintf(stderr, "uet: %s must be a number 0..%u, not \"%s\"\n",
				args[i], UINT32_MAX, args[i + 1]);
			return 1;
		}
	}

	if (nl_open(u))
		return 1;
	nlh = nl_msg(u, UET_CMD_DEV_SET, 0);
	ok = nl_put_strz(nlh, UET_A_DEV_NAME, dev);
	for (i = 0; ok && i < nargs; i += n) {
		n = dev_arg_len(args[i]);
		attr = dev_algo_attr(args[i]);
		if (n == 3)
			ok = dev_put_cc_param(nlh, args + i);
		else if (attr)
			ok = nl_put_strz(nlh, attr, args[i + 1]);
		else
			ok = dev_put_param(nlh, args + i);
	}
	if (!ok)
		return 1;
	return nl_request(u, nlh, NULL, NULL) ? 1 : 0;
}

int do_dev(struct uet *u, int argc, char **argv)
{
	return show_set_help(u, "dev", argc, argv, dev_show, dev_set,
			     dev_usage);
}
