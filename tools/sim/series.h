/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's time series (--series FILE), for plotting: a row per bin of
 * time with the bin's start in us, the largest data backlog of any focus
 * port in it (bytes), the focus ports' ECN marks and drops in it, and the
 * rate at which each flow's receiver got first copies in it (Gb/s). It
 * reads the run before each event (the event queue's watch) and changes
 * nothing, so a run prints the same figures with it or without.
 */
#ifndef _SIM_SERIES_H
#define _SIM_SERIES_H

#include "sim.h"

struct series;

/* Writes @s's series into @path in bins of @bin_ns, one bin ending at
 * @at_ns (a fault's time, as the delivery meter's), from now on.
 */
struct series *series_open(struct sim *s, const char *path, u64 bin_ns,
			   u64 at_ns);
/* Writes the bins up to @end_ns, the last maybe a part of one, and
 * closes the file.
 */
void series_close(struct series *sr, u64 end_ns);

#endif /* _SIM_SERIES_H */
