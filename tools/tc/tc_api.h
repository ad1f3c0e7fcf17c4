/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The part of iproute2's tc plugin interface q_uet.so uses. tc (Debian
 * iproute2 6.1) loads q_<kind>.so and looks up <kind>_qdisc_util; the
 * helpers below are exported by the tc binary itself. Layouts and
 * prototypes as in iproute2 6.1 tc/tc_util.h, include/json_print.h,
 * include/color.h and include/libnetlink.h.
 */
#ifndef _UET_TC_API_H
#define _UET_TC_API_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/types.h>

struct qdisc_util {
	struct qdisc_util *next;
	const char *id;
	int (*parse_qopt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_qopt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*print_xstats)(struct qdisc_util *qu, FILE *f, struct rtattr *xstats);
	int (*parse_copt)(struct qdisc_util *qu, int argc, char **argv,
			  struct nlmsghdr *n, const char *dev);
	int (*print_copt)(struct qdisc_util *qu, FILE *f, struct rtattr *opt);
	int (*has_block)(struct qdisc_util *qu, struct rtattr *opt, __u32 block_idx,
			 bool *p_has);
};

enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = 4,
};

enum color_attr {
	COLOR_NONE,
};

int get_rate64(__u64 *rate, const char *str);
int get_size(unsigned int *size, const char *str);
int get_time64(__s64 *time, const char *str);
char *sprint_size(__u32 size, char *buf);
char *sprint_time64(__s64 time, char *buf);
void tc_print_rate(enum output_type t, const char *key, const char *fmt,
		   unsigned long long rate);

int addattr_l(struct nlmsghdr *n, int maxlen, int type, const void *data, int alen);
struct rtattr *addattr_nest(struct nlmsghdr *n, int maxlen, int type);
int addattr_nest_end(struct nlmsghdr *n, struct rtattr *nest);
int parse_rtattr(struct rtattr *tb[], int max, struct rtattr *rta, int len);

bool is_json_context(void);
void print_color_string(enum output_type t, enum color_attr color, const char *key,
			const char *fmt, const char *value);
void print_color_u64(enum output_type t, enum color_attr color, const char *key,
		     const char *fmt, uint64_t value);
void print_color_size(enum output_type t, enum color_attr color, const char *key,
		      const char *fmt, __u32 size);
void print_nl(void);

#endif /* _UET_TC_API_H */
