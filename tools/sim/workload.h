/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traffic of each scenario: which hosts send how much to which, and
 * the ports the scenario is judged on (sim->focus).
 */
#ifndef _SIM_WORKLOAD_H
#define _SIM_WORKLOAD_H

#include "sim.h"

/* Hosts of leaf 0 each to the same host of leaf 1: as many flows as a
 * leaf has uplinks when hosts equals spines. Focus: leaf 0's uplinks.
 */
void wl_uplinks(struct sim *s);
/* p->senders hosts outside leaf 0 to host 0. Focus: host 0's port. */
void wl_incast(struct sim *s);
/* Every host to another, a random cyclic permutation. Focus: every
 * leaf's uplinks.
 */
void wl_perm(struct sim *s);

#endif /* _SIM_WORKLOAD_H */
