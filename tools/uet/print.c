// SPDX-License-Identifier: GPL-2.0
/*
 * Output in text or JSON from the same calls, as iproute2's print_*()
 * helpers do, so both formats always show the same attributes.
 */
#include <linux/genetlink.h>
#include <linux/uet.h>

#include "uet.h"

static bool json;
static bool list_open;

void print_init(bool want_json)
{
	json = want_json;
}

void print_obj_open(const char *key)
{
	if (json)
		json_obj_open(key);
}

void print_obj_close(void)
{
	if (json)
		json_obj_close();
}

void print_arr_open(const char *key)
{
	if (json)
		json_arr_open(key);
}

void print_arr_close(void)
{
	if (json)
		json_arr_close();
}

/* An element of the array print_arr_open() opened; @fmt is for text. */
void print_elem_u64(const char *fmt, uint64_t val)
{
	if (json)
		json_u64(NULL, val);
	else
		printf(fmt, (unsigned long long)val);
}

void print_u64(const char *key, const char *fmt, uint64_t val)
{
	if (json) {
		if (key)
			json_u64(key, val);
	} else if (fmt) {
		printf(fmt, (unsigned long long)val);
	}
}

void print_str(const char *key, const char *fmt, const char *val)
{
	if (json) {
		if (key)
			json_str(key, val);
	} else if (fmt) {
		printf(fmt, val);
	}
}

void print_pair_u64(const char *key, uint64_t val)
{
	if (json)
		json_u64(key, val);
	else
		printf(" %s %llu", key, (unsigned long long)val);
}

void print_pair_str(const char *key, const char *val)
{
	if (json)
		json_str(key, val);
	else
		printf(" %s %s", key, val);
}

void print_text(const char *s)
{
	if (!json)
		fputs(s, stdout);
}

/*
 * A show command's objects form one JSON array, opened by the first
 * object so that a request that fails at once prints nothing.
 */
void print_list_item(void)
{
	if (json && !list_open) {
		json_arr_open(NULL);
		list_open = true;
	}
}

/* @ok: the request succeeded, so even no objects make an (empty) array */
void print_list_end(bool ok)
{
	if (ok)
		print_list_item();
	if (list_open) {
		json_arr_close();
		list_open = false;
	}
}

/* The nests of type attr in nlh, each a counter (enum uet_stat_attr): a
 * JSON object called name; in text, header before the first (if any) and
 * sep before each "NAME VALUE" pair (if any).
 */
void print_stats(const struct nlmsghdr *nlh, uint16_t attr, const char *name,
		 const char *header, const char *sep)
{
	const struct nlattr *a;
	const char *stat;
	bool open = false;
	uint64_t val;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (!nl_stat(a, attr, &stat, &val))
			continue;
		if (!open) {
			print_obj_open(name);
			if (header)
				print_text(header);
			open = true;
		}
		if (sep)
			print_text(sep);
		print_pair_u64(stat, val);
	}
	if (open)
		print_obj_close();
}
