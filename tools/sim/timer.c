// SPDX-License-Identifier: GPL-2.0
/*
 * One-shot timers (timer.h).
 */
#include "timer.h"

static void timer_fire(void *a, void *b)
{
	struct sim_timer *t = a;
	u64 now = t->evq->now;

	/* Overtaken: a move earlier scheduled another event. */
	if (!t->ev_pending || now != t->ev_at)
		return;
	t->ev_pending = false;
	if (!t->queued)
		return;
	if (now < t->at) {
		t->ev_pending = true;
		t->ev_at = t->at;
		evq_at(t->evq, t->at, timer_fire, t, NULL);
		return;
	}
	t->queued = false;
	t->fn(t->arg);
}

void timer_init(struct sim_timer *t, struct evq *evq, void (*fn)(void *arg),
		void *arg)
{
	*t = (struct sim_timer){ .evq = evq, .fn = fn, .arg = arg };
}

void timer_start(struct sim_timer *t, u64 at)
{
	t->at = at;
	t->queued = true;
	if (t->ev_pending && t->ev_at <= at)
		return;
	t->ev_pending = true;
	t->ev_at = at;
	evq_at(t->evq, at, timer_fire, t, NULL);
}
