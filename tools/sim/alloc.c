// SPDX-License-Identifier: GPL-2.0
/* Allocations that end the run when they fail (alloc.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

void sim_nomem(const char *what)
{
	int err = errno;

	fprintf(stderr, "uet-sim: %s: %s\n", what, strerror(err));
	exit(2);
}

void *sim_calloc(size_t n, size_t size, const char *what)
{
	void *p = calloc(n, size);

	if (!p)
		sim_nomem(what);
	return p;
}

void *sim_realloc(void *p, size_t size, const char *what)
{
	p = realloc(p, size);
	if (!p)
		sim_nomem(what);
	return p;
}
