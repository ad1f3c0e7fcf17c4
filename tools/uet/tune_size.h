/* SPDX-License-Identifier: GPL-2.0 */
/*
 * uet tune's sizing of a sch_uet port from its rate and the fabric's base
 * RTT, by the rules of Documentation/uet/admin-guide/sizing.rst: pure
 * arithmetic, compiled by the uet command (tune.c) and by the packet
 * simulator (tools/sim), so that the simulator's ports are the ones
 * uet tune prints.
 */
#ifndef _UET_TUNE_SIZE_H
#define _UET_TUNE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/* A port's settings, as tc is given them. */
struct tune_size {
	uint64_t limit;		/* data band, bytes */
	bool pct;		/* kmin and kmax: percent of limit, else us
				 * at the line rate
				 */
	uint64_t kmin, kmax;	/* the ECN ramp */
	uint32_t pmax;		/* percent, at kmax */
	bool trim;
};

/* Bytes in flight at @rate_bps over @rtt_ns. */
double tune_bdp(uint64_t rate_bps, uint64_t rtt_ns);
/* The port for @rate_bps and a base RTT of @rtt_ns, for DCQCN's hosts if
 * @dcqcn, else NSCC's.
 */
void tune_size(uint64_t rate_bps, uint64_t rtt_ns, bool dcqcn,
	       struct tune_size *sz);

#endif /* _UET_TUNE_SIZE_H */
