/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Allocations of the simulator: a run cannot go on without its memory,
 * so a failure ends it with "uet-sim: WHAT: reason" and exit status 2.
 */
#ifndef _SIM_ALLOC_H
#define _SIM_ALLOC_H

#include <stddef.h>

void *sim_calloc(size_t n, size_t size, const char *what);
void *sim_realloc(void *p, size_t size, const char *what);
/* Ends the run for a failed allocation of @what. */
void __noreturn sim_nomem(const char *what);

#endif /* _SIM_ALLOC_H */
