// SPDX-License-Identifier: GPL-2.0
/*
 * uet: command line of the uet generic netlink family, in the style of
 * iproute2's rdma and devlink: global options, then an object, then a
 * command. Keywords may be abbreviated while they stay unambiguous.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "uet.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: uet [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       uet help\n"
		"where  OBJECT := { dev | qp | path | monitor | tune }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -s[tatistics] | -d[etails] |\n"
		"                    -h[elp] }\n");
}

/*
 * Index of the word @arg names, exactly or as an unambiguous prefix;
 * -1 if none or several.
 */
int lookup(const char *arg, const char *const *words)
{
	size_t len = strlen(arg);
	int found = -1, n = 0, i;

	for (i = 0; words[i]; i++) {
		if (!strcmp(arg, words[i]))
			return i;
		if (len && !strncmp(arg, words[i], len)) {
			found = i;
			n++;
		}
	}
	return n == 1 ? found : -1;
}

/* The index in keys of argv[0], a key that takes the value after it; -1
 * once the error is told (usage prints the command's usage).
 */
int arg_key(int argc, char **argv, const char *const *keys,
	    void (*usage)(FILE *))
{
	int k = lookup(argv[0], keys);

	if (k < 0) {
		fprintf(stderr, "uet: unexpected \"%s\"\n", argv[0]);
		usage(stderr);
		return -1;
	}
	if (argc < 2) {
		fprintf(stderr, "uet: %s needs a value\n", keys[k]);
		return -1;
	}
	return k;
}

/* "OBJ [show|set|help] ...": the commands of every object but monitor. */
int show_set_help(struct uet *u, const char *obj, int argc, char **argv,
		  int (*show)(struct uet *, int, char **),
		  int (*set)(struct uet *, int, char **),
		  void (*usage)(FILE *))
{
	static const char *const cmds[] = { "show", "set", "help", NULL };

	if (!argc)
		return show(u, 0, NULL);
	switch (lookup(argv[0], cmds)) {
	case 0:
		return show(u, argc - 1, argv + 1);
	case 1:
		return set(u, argc - 1, argv + 1);
	case 2:
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "uet: unknown %s command \"%s\"\n", obj, argv[0]);
	usage(stderr);
	return 1;
}

/* Decimal only: strtoul alone would take signs, blanks and trailing junk. */
bool parse_uint(const char *s, unsigned long max, unsigned long *val)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*val = strtoul(s, &end, 10);
	return !errno && !*end && *val <= max;
}

int main(int argc, char **argv)
{
	static const char *const options[] = {
		"-json", "-pretty", "-statistics", "-help", "-details", NULL
	};
	static const char *const objects[] = {
		"dev", "qp", "path", "monitor", "tune", "help", NULL
	};
	struct uet u = { 0 };
	bool pretty = false;
	int ret;

	for (argc--, argv++; argc && argv[0][0] == '-'; argc--, argv++) {
		/* iproute2 takes both -json and --json */
		const char *opt = argv[0][1] == '-' ? argv[0] + 1 : argv[0];

		switch (lookup(opt, options)) {
		case 0:
			u.json = true;
			break;
		case 1:
			u.json = true;
			pretty = true;
			break;
		case 2:
			u.stats = true;
			break;
		case 3:
			usage(stdout);
			return 0;
		case 4:
			u.details = true;
			break;
		default:
			fprintf(stderr, "uet: unknown option \"%s\"\n", argv[0]);
			usage(stderr);
			return 1;
		}
	}
	if (!argc) {
		usage(stderr);
		return 1;
	}
	json_init(pretty);
	print_init(u.json);

	switch (lookup(argv[0], objects)) {
	case 0:
		ret = do_dev(&u, argc - 1, argv + 1);
		break;
	case 1:
		ret = do_qp(&u, argc - 1, argv + 1);
		break;
	case 2:
		ret = do_path(&u, argc - 1, argv + 1);
		break;
	case 3:
		ret = do_monitor(&u, argc - 1, argv + 1);
		break;
	case 4:
		ret = do_tune(&u, argc - 1, argv + 1);
		break;
	case 5:
		usage(stdout);
		return 0;
	default:
		fprintf(stderr, "uet: unknown object \"%s\"\n", argv[0]);
		usage(stderr);
		return 1;
	}
	nl_close(&u);

	/* A full disk or a closed pipe must not look like success. */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "uet: cannot write output\n");
		return 1;
	}
	return ret;
}
