// SPDX-License-Identifier: GPL-2.0
/* hrtimer_setup(): a timer initialised with its function. */
#include <linux/hrtimer.h>

static enum hrtimer_restart uet_probe_fn(struct hrtimer *t)
{
	return HRTIMER_NORESTART;
}

void uet_probe(struct hrtimer *t);
void uet_probe(struct hrtimer *t)
{
	hrtimer_setup(t, uet_probe_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
}
