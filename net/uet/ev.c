// SPDX-License-Identifier: GPL-2.0
/*
 * Entropy-value states (ev.h). Senders of every QP to a peer report here
 * what became of the packets each EV carried; the load balancers ask
 * which EVs may carry the next one. A loss alone only sets an EV aside
 * for an RTT: reordering and congestion lose packets on good paths too,
 * and there packets sent after the lost one still arrive. Losses with
 * nothing delivered after them mark the path broken until a probe gets
 * through (the fast path-failure avoidance of OCP MRC 1.0).
 */
#include <kunit/visibility.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/overflow.h>
#include <linux/slab.h>

#include "ev.h"

struct uet_ev_table *uet_ev_table_alloc(u16 base, u32 count)
{
	struct uet_ev_table *t;

	t = kvzalloc(struct_size(t, ev, count), GFP_KERNEL_ACCOUNT);
	if (!t)
		return NULL;
	spin_lock_init(&t->lock);
	t->base = base;
	t->count = count;
	return t;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_table_alloc);

void uet_ev_table_free(struct uet_ev_table *t)
{
	kvfree(t);
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_table_free);

bool uet_ev_usable(const struct uet_ev_table *t, u16 ev, u64 now)
{
	const struct uet_ev *e = uet_ev_get((struct uet_ev_table *)t, ev);

	if (!e)
		return false;
	switch (READ_ONCE(e->state)) {
	case UET_PATH_GOOD:
		return true;
	case UET_PATH_SKIP:
		return now >= READ_ONCE(e->until_ns);
	default:
		return false;
	}
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_usable);

/* Not known broken: single-path QPs stay on an EV while this holds. */
bool uet_ev_alive(const struct uet_ev_table *t, u16 ev)
{
	const struct uet_ev *e = uet_ev_get((struct uet_ev_table *)t, ev);

	return e && READ_ONCE(e->state) <= UET_PATH_SKIP;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_alive);

/* Is the loss of a packet sent on ev at sent_ns the path's? It is when ev
 * is assumed bad already, or when this loss makes it so.
 */
bool uet_ev_failed(struct uet_ev_table *t, u16 ev, u64 sent_ns)
{
	struct uet_ev *e = uet_ev_get(t, ev);
	unsigned long flags;
	bool failed;

	if (!e)
		return false;
	spin_lock_irqsave(&t->lock, flags);
	failed = e->state == UET_PATH_ASSUMED_BAD ||
		 (sent_ns > e->good_sent_ns &&
		  e->fails + 1 >= UET_EV_BAD_LOSSES);
	spin_unlock_irqrestore(&t->lock, flags);
	return failed;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_failed);

void uet_ev_sent(struct uet_ev_table *t, u16 ev)
{
	struct uet_ev *e = uet_ev_get(t, ev);

	if (e)
		atomic_inc(&e->pkts);
}

static void uet_ev_set_state(struct uet_ev_table *t, struct uet_ev *e, u8 s)
{
	if (e->state == UET_PATH_ASSUMED_BAD)
		t->nbad--;
	if (s == UET_PATH_ASSUMED_BAD)
		t->nbad++;
	WRITE_ONCE(e->state, s);
}

void uet_ev_signal(struct uet_ev_table *t, u16 ev, enum uet_ev_sig sig,
		   u64 now, u64 sent_ns, u64 hold_ns)
{
	struct uet_ev *e = uet_ev_get(t, ev);
	unsigned long flags;

	if (!e)
		return;
	spin_lock_irqsave(&t->lock, flags);
	switch (sig) {
	case UET_EV_SIG_ECN:
		e->ecn++;
		fallthrough;
	case UET_EV_SIG_GOOD:
		/* Delivered: the path worked when the packet left. Only a
		 * packet sent after it was judged broken revives it.
		 */
		if (sent_ns <= e->good_sent_ns)
			break;
		WRITE_ONCE(e->good_sent_ns, sent_ns);
		e->fails = 0;
		if ((e->state == UET_PATH_ASSUMED_BAD && sent_ns >= e->bad_ns) ||
		    (e->state == UET_PATH_SKIP && now >= e->until_ns))
			uet_ev_set_state(t, e, UET_PATH_GOOD);
		break;
	case UET_EV_SIG_TRIM:
		e->nacks++;
		if (e->state == UET_PATH_GOOD) {
			uet_ev_set_state(t, e, UET_PATH_SKIP);
			WRITE_ONCE(e->until_ns, now + hold_ns);
		}
		break;
	case UET_EV_SIG_LOSS:
	case UET_EV_SIG_TIMEOUT:
		if (sig == UET_EV_SIG_LOSS)
			e->losses++;
		else
			e->timeouts++;
		if (sent_ns > e->good_sent_ns && e->fails < U8_MAX)
			e->fails++;
		if (e->state == UET_PATH_DENIED || e->state == UET_PATH_ASSUMED_BAD)
			break;
		if (e->fails >= UET_EV_BAD_LOSSES) {
			uet_ev_set_state(t, e, UET_PATH_ASSUMED_BAD);
			e->bad_ns = now;
			/* Probe at the next round of the prober. */
			WRITE_ONCE(e->until_ns, now);
		} else {
			uet_ev_set_state(t, e, UET_PATH_SKIP);
			WRITE_ONCE(e->until_ns, now + hold_ns);
		}
		break;
	}
	spin_unlock_irqrestore(&t->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_signal);

/* The operator denies an EV, or allows it again (back to GOOD). */
int uet_ev_deny(struct uet_ev_table *t, u16 ev, bool deny)
{
	struct uet_ev *e = uet_ev_get(t, ev);
	unsigned long flags;

	if (!e)
		return -ERANGE;
	spin_lock_irqsave(&t->lock, flags);
	if (deny) {
		uet_ev_set_state(t, e, UET_PATH_DENIED);
	} else if (e->state == UET_PATH_DENIED) {
		uet_ev_set_state(t, e, UET_PATH_GOOD);
		e->fails = 0;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_deny);

/* Up to max ASSUMED_BAD EVs whose probe is due, each not again before
 * interval_ns: the caller probes them.
 */
u32 uet_ev_probe_due(struct uet_ev_table *t, u64 now, u64 interval_ns,
		     u16 *evs, u32 max)
{
	unsigned long flags;
	u32 i, n = 0;

	spin_lock_irqsave(&t->lock, flags);
	for (i = 0; i < t->count && n < max && t->nbad; i++) {
		struct uet_ev *e = &t->ev[i];

		if (e->state != UET_PATH_ASSUMED_BAD || now < e->until_ns)
			continue;
		WRITE_ONCE(e->until_ns, now + interval_ns);
		evs[n++] = t->base + i;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_probe_due);

/* A probe on ev was answered: the path works again. */
bool uet_ev_probe_ok(struct uet_ev_table *t, u16 ev)
{
	struct uet_ev *e = uet_ev_get(t, ev);
	unsigned long flags;
	bool promoted = false;

	if (!e)
		return false;
	spin_lock_irqsave(&t->lock, flags);
	if (e->state == UET_PATH_ASSUMED_BAD) {
		uet_ev_set_state(t, e, UET_PATH_GOOD);
		e->fails = 0;
		promoted = true;
	}
	spin_unlock_irqrestore(&t->lock, flags);
	return promoted;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ev_probe_ok);

const char *uet_ev_state_name(u8 state)
{
	static const char * const names[] = {
		[UET_PATH_GOOD] = "good",
		[UET_PATH_SKIP] = "skip",
		[UET_PATH_ASSUMED_BAD] = "assumed_bad",
		[UET_PATH_DENIED] = "denied",
	};

	return state < ARRAY_SIZE(names) ? names[state] : "unknown";
}
