/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One-shot timers on the event queue, as the module uses its hrtimers:
 * started (or moved, earlier or later) to an absolute time, queued until
 * they fire or are cancelled. A timer keeps one pending event: a move
 * later is chased when that event fires, a move earlier adds one, and an
 * event overtaken by a move is ignored.
 */
#ifndef _SIM_TIMER_H
#define _SIM_TIMER_H

#include <linux/types.h>

#include "event.h"

struct sim_timer {
	struct evq *evq;
	void (*fn)(void *arg);
	void *arg;
	u64 at;			/* when it fires, while queued */
	u64 ev_at;		/* its pending event's time, if ev_pending */
	bool queued;
	bool ev_pending;
};

void timer_init(struct sim_timer *t, struct evq *evq, void (*fn)(void *arg),
		void *arg);
/* hrtimer_start(): fires at @at (no earlier than now), queued or not. */
void timer_start(struct sim_timer *t, u64 at);

static inline bool timer_queued(const struct sim_timer *t)
{
	return t->queued;
}

static inline void timer_cancel(struct sim_timer *t)
{
	t->queued = false;
}

#endif /* _SIM_TIMER_H */
