/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event queue: a binary min-heap of callbacks ordered by time, then
 * by the order they were scheduled in, so that a run is the same every
 * time whatever the heap's layout.
 */
#ifndef _SIM_EVENT_H
#define _SIM_EVENT_H

#include <linux/types.h>

typedef void (*evq_fn)(void *a, void *b);

struct sim_event {
	u64 t;			/* ns */
	u64 seq;		/* scheduling order, for ties */
	evq_fn fn;
	void *a, *b;
};

struct evq {
	struct sim_event *heap;
	size_t n, cap;
	u64 seq;
	u64 now;		/* time of the event being run */
	bool stop;		/* evq_run() returns after this event */
	/* An observer, or NULL: called before the first event at or after
	 * watch_ns with its time, it returns when it is next called, and
	 * sees what every earlier event left, changing none of it.
	 */
	u64 (*watch)(void *ctx, u64 t);
	void *watch_ctx;
	u64 watch_ns;
};

void evq_init(struct evq *q);
void evq_free(struct evq *q);
/* Calls fn(a, b) at t, which is no earlier than now. */
void evq_at(struct evq *q, u64 t, evq_fn fn, void *a, void *b);
/* Runs events in order until none is left, evq_stop() or time @end. */
void evq_run(struct evq *q, u64 end);

static inline void evq_stop(struct evq *q)
{
	q->stop = true;
}

#endif /* _SIM_EVENT_H */
