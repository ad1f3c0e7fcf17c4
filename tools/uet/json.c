// SPDX-License-Identifier: GPL-2.0
/*
 * A streaming JSON writer to stdout: members are written as they come, so
 * output needs no buffering and a killed monitor leaves whole lines. A
 * NULL key writes an array element. Each top-level value ends its line.
 */
#include "uet.h"

static bool pretty;
static unsigned int depth;
/* bit n: the container at depth n already has a member (before a comma) */
static uint64_t filled;

void json_init(bool indent)
{
	pretty = indent;
}

static void json_newline(void)
{
	unsigned int i;

	putchar('\n');
	for (i = 0; i < depth; i++)
		fputs("  ", stdout);
}

static void json_quote(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '"':
			fputs("\\\"", stdout);
			break;
		case '\\':
			fputs("\\\\", stdout);
			break;
		case '\n':
			fputs("\\n", stdout);
			break;
		case '\t':
			fputs("\\t", stdout);
			break;
		default:
			if (c < 0x20)
				printf("\\u%04x", c);
			else
				putchar(c);
		}
	}
	putchar('"');
}

static void json_member(const char *key)
{
	if (depth) {
		if (filled & (1ULL << depth))
			putchar(',');
		filled |= 1ULL << depth;
		if (pretty)
			json_newline();
	}
	if (key) {
		json_quote(key);
		fputs(pretty ? ": " : ":", stdout);
	}
}

static void json_open(const char *key, char c)
{
	json_member(key);
	putchar(c);
	depth++;
	filled &= ~(1ULL << depth);
}

static void json_close(char c)
{
	bool empty = !(filled & (1ULL << depth));

	depth--;
	if (pretty && !empty)
		json_newline();
	putchar(c);
	if (!depth)
		putchar('\n');
}

void json_obj_open(const char *key)
{
	json_open(key, '{');
}

void json_obj_close(void)
{
	json_close('}');
}

void json_arr_open(const char *key)
{
	json_open(key, '[');
}

void json_arr_close(void)
{
	json_close(']');
}

void json_u64(const char *key, uint64_t val)
{
	json_member(key);
	printf("%llu", (unsigned long long)val);
}

void json_str(const char *key, const char *val)
{
	json_member(key);
	json_quote(val);
}
