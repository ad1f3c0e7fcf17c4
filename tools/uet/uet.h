/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet: show and change uet RDMA devices and their QPs through the "uet"
 * generic netlink family, whose UAPI is in include/uapi/linux/.
 */
#ifndef UET_TOOL_H
#define UET_TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libmnl/libmnl.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct uet {
	bool json;
	bool stats;
	bool details;
	struct mnl_socket *sock;
	unsigned int portid;
	unsigned int seq;
	uint16_t family;
	uint32_t events_grp;	/* 0 when the family has no "events" group */
};

/* uet.c */
int lookup(const char *arg, const char *const *words);
int arg_key(int argc, char **argv, const char *const *keys,
	    void (*usage)(FILE *));
int show_set_help(struct uet *u, const char *obj, int argc, char **argv,
		  int (*show)(struct uet *, int, char **),
		  int (*set)(struct uet *, int, char **),
		  void (*usage)(FILE *));
bool parse_uint(const char *s, unsigned long max, unsigned long *val);

/* nl.c */
int nl_open(struct uet *u);
void nl_close(struct uet *u);
struct nlmsghdr *nl_msg(struct uet *u, uint8_t cmd, uint16_t flags);
bool nl_put_strz(struct nlmsghdr *nlh, uint16_t type, const char *s);
bool nl_put_u8(struct nlmsghdr *nlh, uint16_t type, uint8_t v);
bool nl_put_u16(struct nlmsghdr *nlh, uint16_t type, uint16_t v);
bool nl_put_u32(struct nlmsghdr *nlh, uint16_t type, uint32_t v);
bool nl_put_bin(struct nlmsghdr *nlh, uint16_t type, const void *data,
		size_t len);
struct nlattr *nl_nest_start(struct nlmsghdr *nlh, uint16_t type);
void nl_nest_end(struct nlmsghdr *nlh, struct nlattr *nest);
int nl_request(struct uet *u, struct nlmsghdr *nlh, mnl_cb_t cb, void *data);
void nl_parse(const struct nlmsghdr *nlh, const enum mnl_attr_data_type *types,
	      unsigned int max, const struct nlattr **tb);
void nl_parse_nested(const struct nlattr *nest,
		     const enum mnl_attr_data_type *types, unsigned int max,
		     const struct nlattr **tb);
bool nl_stat(const struct nlattr *a, uint16_t attr, const char **name,
	     uint64_t *value);
uint64_t nl_uint(const struct nlattr *a);
uint8_t nl_cmd(const struct nlmsghdr *nlh);
void nl_listen(struct uet *u, mnl_cb_t cb, void *data);

/* json.c */
void json_init(bool pretty);
void json_obj_open(const char *key);
void json_obj_close(void);
void json_arr_open(const char *key);
void json_arr_close(void);
void json_u64(const char *key, uint64_t val);
void json_str(const char *key, const char *val);

/*
 * print.c: one call site for both output formats. A NULL key prints
 * nothing in JSON, a NULL fmt nothing in text. "Pairs" print as
 * " key value" in text, so a line is its indentation followed by pairs.
 */
void print_init(bool json);
void print_obj_open(const char *key);
void print_obj_close(void);
void print_arr_open(const char *key);
void print_arr_close(void);
void print_elem_u64(const char *fmt, uint64_t val);
void print_u64(const char *key, const char *fmt, uint64_t val);
void print_str(const char *key, const char *fmt, const char *val);
void print_pair_u64(const char *key, uint64_t val);
void print_stats(const struct nlmsghdr *nlh, uint16_t attr, const char *name,
		 const char *header, const char *sep);
void print_pair_str(const char *key, const char *val);
void print_text(const char *s);
void print_list_item(void);
void print_list_end(bool ok);

/* dev.c, qp.c, path.c, monitor.c, tune.c */
void dev_usage(FILE *f);
void dev_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);
int do_dev(struct uet *u, int argc, char **argv);
void qp_usage(FILE *f);
int do_qp(struct uet *u, int argc, char **argv);
void qp_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);
void qp_print_state(const struct nlattr *a);
void path_usage(FILE *f);
int do_path(struct uet *u, int argc, char **argv);
void monitor_usage(FILE *f);
int do_monitor(struct uet *u, int argc, char **argv);
void tune_usage(FILE *f);
int do_tune(struct uet *u, int argc, char **argv);

#endif
