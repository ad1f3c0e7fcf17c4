// SPDX-License-Identifier: GPL-2.0
/*
 * q_uet.so: the tc plugin for the "uet" qdisc (net/sched/sch_uet.c).
 *
 *   tc qdisc add dev DEV root uet [rate RATE] [limit SIZE] [kmin THR]
 *      [kmax THR] [pmax PERCENT] [ecn_mode dequeue|enqueue] [trim on|off]
 *      [trim_size BYTES] [trim_dscp N] [prio_dscp N[,N...]]
 *
 * THR is a SIZE, a share of limit ("30%") or a time at line rate ("750us").
 * Only what the command line names is sent, so "tc qdisc change" alters just
 * those options.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tc_api.h"
#include "../../include/uapi/linux/pkt_sched_uet.h"

#define UET_MAXLEN	1024
#define UET_BSIZE	64

static void explain(void)
{
	fprintf(stderr,
		"Usage: ... uet [rate RATE] [limit SIZE] [kmin THR] [kmax THR]\n"
		"               [pmax PERCENT] [ecn_mode dequeue|enqueue] [trim on|off]\n"
		"               [trim_size BYTES] [trim_dscp N] [prio_dscp N[,N...]]\n"
		" THR := SIZE | PERCENT%% (of limit) | TIME (at line rate, needs rate)\n");
}

static int invalid(const char *what, const char *arg)
{
	fprintf(stderr, "uet: bad %s \"%s\"\n", what, arg);
	return -1;
}

static int parse_uint(const char *s, unsigned long max, unsigned long *val)
{
	char *end;

	if (!*s || *s == '-')
		return -1;
	errno = 0;
	*val = strtoul(s, &end, 10);
	return errno || *end || *val > max ? -1 : 0;
}

static int parse_thresh(const char *s, struct tc_uet_thresh *t)
{
	size_t len = strlen(s);
	unsigned long pct;
	unsigned int size;
	__s64 ns;

	if (len && s[len - 1] == '%') {
		char num[UET_BSIZE];

		if (len >= sizeof(num))
			return -1;
		memcpy(num, s, len - 1);
		num[len - 1] = 0;
		if (parse_uint(num, 100, &pct))
			return -1;
		t->unit = TC_UET_THRESH_PERCENT;
		t->value = pct;
		return 0;
	}
	/* A time needs a unit of time; get_size would take "30s" as nothing. */
	if (strpbrk(s, "sS") && !get_time64(&ns, s)) {
		if (ns < 0 || ns > UINT32_MAX)
			return -1;
		t->unit = TC_UET_THRESH_TIME;
		t->value = ns;
		return 0;
	}
	if (get_size(&size, s))
		return -1;
	t->unit = TC_UET_THRESH_BYTES;
	t->value = size;
	return 0;
}

static int parse_dscp_list(char *s, __u64 *set)
{
	unsigned long dscp;
	char *tok, *save;

	*set = 0;
	for (tok = strtok_r(s, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_uint(tok, 63, &dscp))
			return -1;
		*set |= 1ULL << dscp;
	}
	return 0;
}

static int uet_parse_opt(struct qdisc_util *qu, int argc, char **argv,
			 struct nlmsghdr *n, const char *dev)
{
	struct rtattr *tail;

	tail = addattr_nest(n, UET_MAXLEN, TCA_OPTIONS);
	for (; argc > 0; argc--, argv++) {
		const char *key = *argv, *arg;
		struct tc_uet_thresh thr;
		unsigned long v;
		unsigned int size;
		__u64 v64;
		__u32 v32;
		__u8 v8;

		if (!strcmp(key, "help")) {
			explain();
			return -1;
		}
		if (argc < 2) {
			fprintf(stderr, "uet: \"%s\" needs a value\n", key);
			explain();
			return -1;
		}
		arg = *++argv;
		argc--;
		if (!strcmp(key, "rate")) {
			if (get_rate64(&v64, arg))
				return invalid("rate", arg);
			addattr_l(n, UET_MAXLEN, TCA_UET_RATE, &v64, sizeof(v64));
		} else if (!strcmp(key, "limit")) {
			if (get_size(&size, arg) || !size)
				return invalid("limit", arg);
			v32 = size;
			addattr_l(n, UET_MAXLEN, TCA_UET_LIMIT, &v32, sizeof(v32));
		} else if (!strcmp(key, "kmin") || !strcmp(key, "kmax")) {
			if (parse_thresh(arg, &thr))
				return invalid(key, arg);
			addattr_l(n, UET_MAXLEN, key[2] == 'i' ? TCA_UET_KMIN : TCA_UET_KMAX,
				  &thr, sizeof(thr));
		} else if (!strcmp(key, "pmax")) {
			if (parse_uint(arg, 100, &v))
				return invalid("pmax (a percentage 0..100)", arg);
			v32 = v;
			addattr_l(n, UET_MAXLEN, TCA_UET_PMAX, &v32, sizeof(v32));
		} else if (!strcmp(key, "ecn_mode")) {
			if (!strcmp(arg, "dequeue"))
				v8 = TC_UET_ECN_DEQUEUE;
			else if (!strcmp(arg, "enqueue"))
				v8 = TC_UET_ECN_ENQUEUE;
			else
				return invalid("ecn_mode (dequeue or enqueue)", arg);
			addattr_l(n, UET_MAXLEN, TCA_UET_ECN_MODE, &v8, sizeof(v8));
		} else if (!strcmp(key, "trim")) {
			if (strcmp(arg, "on") && strcmp(arg, "off"))
				return invalid("trim (on or off)", arg);
			v8 = !strcmp(arg, "on");
			addattr_l(n, UET_MAXLEN, TCA_UET_TRIM, &v8, sizeof(v8));
		} else if (!strcmp(key, "trim_size")) {
			if (get_size(&size, arg))
				return invalid("trim_size", arg);
			v32 = size;
			addattr_l(n, UET_MAXLEN, TCA_UET_TRIM_SIZE, &v32, sizeof(v32));
		} else if (!strcmp(key, "trim_dscp")) {
			if (parse_uint(arg, 63, &v))
				return invalid("trim_dscp (0..63)", arg);
			v8 = v;
			addattr_l(n, UET_MAXLEN, TCA_UET_TRIM_DSCP, &v8, sizeof(v8));
		} else if (!strcmp(key, "prio_dscp")) {
			char list[256];

			if (strlen(arg) >= sizeof(list))
				return invalid("prio_dscp", arg);
			strcpy(list, arg);
			if (parse_dscp_list(list, &v64))
				return invalid("prio_dscp (DSCPs 0..63, comma separated)", arg);
			addattr_l(n, UET_MAXLEN, TCA_UET_PRIO_DSCP, &v64, sizeof(v64));
		} else {
			fprintf(stderr, "uet: unknown option \"%s\"\n", key);
			explain();
			return -1;
		}
	}
	addattr_nest_end(n, tail);
	return 0;
}

static void print_thresh(const char *key, struct rtattr *rta)
{
	struct tc_uet_thresh t;
	char buf[UET_BSIZE], fmt[16];

	if (!rta || RTA_PAYLOAD(rta) < sizeof(t))
		return;
	memcpy(&t, RTA_DATA(rta), sizeof(t));
	switch (t.unit) {
	case TC_UET_THRESH_PERCENT:
		snprintf(buf, sizeof(buf), "%u%%", t.value);
		break;
	case TC_UET_THRESH_TIME:
		sprint_time64(t.value, buf);
		break;
	default:
		sprint_size(t.value, buf);
		break;
	}
	snprintf(fmt, sizeof(fmt), "%s %%s ", key);
	print_color_string(PRINT_ANY, COLOR_NONE, key, fmt, buf);
}

static __u64 rta_u64(struct rtattr *rta)
{
	__u64 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static __u32 rta_u32(struct rtattr *rta)
{
	__u32 v;

	memcpy(&v, RTA_DATA(rta), sizeof(v));
	return v;
}

static __u8 rta_u8(struct rtattr *rta)
{
	return *(__u8 *)RTA_DATA(rta);
}

static void print_dscp_set(__u64 set)
{
	char buf[256];
	size_t off = 0;
	int d;

	buf[0] = 0;
	for (d = 0; d < 64; d++)
		if (set & 1ULL << d)
			off += snprintf(buf + off, sizeof(buf) - off, "%s%d",
					off ? "," : "", d);
	print_color_string(PRINT_ANY, COLOR_NONE, "prio_dscp", "prio_dscp %s ",
			   off ? buf : "none");
}

static int uet_print_opt(struct qdisc_util *qu, FILE *f, struct rtattr *opt)
{
	struct rtattr *tb[TCA_UET_MAX + 1];
	__u64 rate;

	if (!opt)
		return 0;
	parse_rtattr(tb, TCA_UET_MAX, RTA_DATA(opt), RTA_PAYLOAD(opt));

	if (tb[TCA_UET_RATE] && RTA_PAYLOAD(tb[TCA_UET_RATE]) >= sizeof(__u64)) {
		rate = rta_u64(tb[TCA_UET_RATE]);
		if (rate) {
			tc_print_rate(PRINT_ANY, "rate", "rate %s ", rate);
		} else {
			print_color_u64(PRINT_JSON, COLOR_NONE, "rate", NULL, 0);
			print_color_string(PRINT_FP, COLOR_NONE, NULL, "rate %s ", "unlimited");
		}
	}
	if (tb[TCA_UET_LIMIT] && RTA_PAYLOAD(tb[TCA_UET_LIMIT]) >= sizeof(__u32))
		print_color_size(PRINT_ANY, COLOR_NONE, "limit", "limit %s ",
				 rta_u32(tb[TCA_UET_LIMIT]));
	print_thresh("kmin", tb[TCA_UET_KMIN]);
	print_thresh("kmax", tb[TCA_UET_KMAX]);
	if (tb[TCA_UET_PMAX] && RTA_PAYLOAD(tb[TCA_UET_PMAX]) >= sizeof(__u32))
		print_color_u64(PRINT_ANY, COLOR_NONE, "pmax", "pmax %llu ",
				rta_u32(tb[TCA_UET_PMAX]));
	if (tb[TCA_UET_ECN_MODE] && RTA_PAYLOAD(tb[TCA_UET_ECN_MODE]) >= 1)
		print_color_string(PRINT_ANY, COLOR_NONE, "ecn_mode", "ecn_mode %s ",
				   rta_u8(tb[TCA_UET_ECN_MODE]) == TC_UET_ECN_ENQUEUE ?
				   "enqueue" : "dequeue");
	if (tb[TCA_UET_TRIM] && RTA_PAYLOAD(tb[TCA_UET_TRIM]) >= 1)
		print_color_string(PRINT_ANY, COLOR_NONE, "trim", "trim %s ",
				   rta_u8(tb[TCA_UET_TRIM]) ? "on" : "off");
	if (tb[TCA_UET_TRIM_SIZE] && RTA_PAYLOAD(tb[TCA_UET_TRIM_SIZE]) >= sizeof(__u32))
		print_color_u64(PRINT_ANY, COLOR_NONE, "trim_size", "trim_size %llu ",
				rta_u32(tb[TCA_UET_TRIM_SIZE]));
	if (tb[TCA_UET_TRIM_DSCP] && RTA_PAYLOAD(tb[TCA_UET_TRIM_DSCP]) >= 1)
		print_color_u64(PRINT_ANY, COLOR_NONE, "trim_dscp", "trim_dscp %llu ",
				rta_u8(tb[TCA_UET_TRIM_DSCP]));
	if (tb[TCA_UET_PRIO_DSCP] && RTA_PAYLOAD(tb[TCA_UET_PRIO_DSCP]) >= sizeof(__u64))
		print_dscp_set(rta_u64(tb[TCA_UET_PRIO_DSCP]));
	return 0;
}

static int uet_print_xstats(struct qdisc_util *qu, FILE *f, struct rtattr *xstats)
{
	struct tc_uet_xstats st = {};
	char buf[UET_BSIZE];

	if (!xstats)
		return 0;
	/* An older module may send a shorter struct: the rest reads as zero. */
	memcpy(&st, RTA_DATA(xstats),
	       RTA_PAYLOAD(xstats) < sizeof(st) ? RTA_PAYLOAD(xstats) : sizeof(st));

#define U64(name, fmt) print_color_u64(PRINT_ANY, COLOR_NONE, #name, fmt, st.name)
#define U64K(key, name, fmt) print_color_u64(PRINT_ANY, COLOR_NONE, key, fmt, st.name)
	print_nl();
	U64(enqueued, "  enqueued %llu");
	U64(dequeued, " dequeued %llu");
	U64(ecn_marked, " ecn_marked %llu");
	U64(trimmed, " trimmed %llu");
	print_nl();
	U64(drop_limit, "  dropped: limit %llu");
	U64(drop_notrim, " not_trimmable %llu");
	U64(drop_trim, " trim_band %llu");
	U64(drop_prio, " prio_band %llu");
	print_nl();
	U64(backlog_data, "  backlog: data %llub");
	U64(backlog_prio, " prio %llub");
	U64(backlog_trim, " trim %llub");
	U64(peak_backlog, " peak %llub");
	U64(peak_data, " peak_data %llub");
	U64K("kmin_bytes", kmin, " kmin %llub");
	U64K("kmax_bytes", kmax, " kmax %llub");
	print_nl();
	U64(busy_ns, "  busy_ns %llu");
	U64(line_ns, " line_ns %llu");
#undef U64K
#undef U64
	/* Below 90 %, the machine cannot keep up with the configured rate. */
	if (st.busy_ns && !is_json_context()) {
		unsigned long long pct = st.line_ns * 100 / st.busy_ns;

		sprint_time64(st.busy_ns, buf);
		fprintf(f, " (busy %s, sending at %llu%% of rate%s)", buf,
			pct > 100 ? 100 : pct, pct < 90 ? ": rate not sustained" : "");
	}
	return 0;
}

struct qdisc_util uet_qdisc_util = {
	.id = "uet",
	.parse_qopt = uet_parse_opt,
	.print_qopt = uet_print_opt,
	.print_xstats = uet_print_xstats,
};
