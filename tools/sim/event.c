// SPDX-License-Identifier: GPL-2.0
/*
 * The event queue (event.h). Ties in time go to the event scheduled
 * first: the heap alone would order them by where they sit in it.
 */
#include <stdlib.h>

#include "alloc.h"
#include "event.h"

void evq_init(struct evq *q)
{
	*q = (struct evq){ 0 };
}

void evq_free(struct evq *q)
{
	free(q->heap);
	*q = (struct evq){ 0 };
}

static bool evq_before(const struct sim_event *x, const struct sim_event *y)
{
	return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

void evq_at(struct evq *q, u64 t, evq_fn fn, void *a, void *b)
{
	struct sim_event e = { t, q->seq++, fn, a, b };
	size_t i;

	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 1024;
		q->heap = sim_realloc(q->heap, q->cap * sizeof(*q->heap),
				      "event queue");
	}
	for (i = q->n++; i; i = (i - 1) / 2) {
		if (!evq_before(&e, &q->heap[(i - 1) / 2]))
			break;
		q->heap[i] = q->heap[(i - 1) / 2];
	}
	q->heap[i] = e;
}

static struct sim_event evq_pop(struct evq *q)
{
	struct sim_event top = q->heap[0], last = q->heap[--q->n];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < q->n) {
		if (c + 1 < q->n && evq_before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!evq_before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	q->heap[i] = last;
	return top;
}

void evq_run(struct evq *q, u64 end)
{
	q->stop = false;
	while (q->n && !q->stop && q->heap[0].t <= end) {
		struct sim_event e = evq_pop(q);

		if (q->watch && e.t >= q->watch_ns)
			q->watch_ns = q->watch(q->watch_ctx, e.t);
		q->now = e.t;
		e.fn(e.a, e.b);
	}
}
