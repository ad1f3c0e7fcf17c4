/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The execution model of a QP's engine: run to completion, one owner at
 * a time. engine.c says how; qp.c and ud.c give each QP its pass.
 */
#ifndef _UET_ENGINE_H
#define _UET_ENGINE_H

#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

struct uet_engine;

/* One bounded pass over everything the QP has to do; true if work is
 * left that the budget did not cover.
 */
typedef bool (*uet_engine_pass_t)(struct uet_engine *eng);

/* Whether a packet may join the engine's queue: 0, or a negative errno
 * saying why not. Cheap checks, made under the engine's lock with the
 * engine running, so that they see the attributes that change only
 * while it is stopped as they are.
 */
typedef int (*uet_engine_admit_t)(struct uet_engine *eng,
				  const struct sk_buff *skb);

enum uet_engine_state {
	UET_ENGINE_IDLE,	/* no owner */
	UET_ENGINE_BUSY,	/* an owner runs (or a reader holds it) */
	UET_ENGINE_AGAIN,	/* ... and must make one more pass */
};

struct uet_engine {
	/* Protects state and stopped; irq-safe: timers kick from hard
	 * interrupt context.
	 */
	spinlock_t lock;
	enum uet_engine_state state;
	bool stopped;		/* no pass may start, nothing is queued */
	bool wanted;		/* uet_engine_lock() waits: owners hand over */
	bool deferred;		/* a pass was asked for while it waited */
	/* Odd while the owner is a softirq's pass; written under the lock,
	 * read without it by a doorbell that waits for that pass to end.
	 */
	unsigned int bh_seq;
	uet_engine_pass_t pass;
	uet_engine_admit_t admit;	/* NULL: admit everything */
	struct work_struct work;	/* timers, budget overflow, kernel posts */
	/* The same on the unbound workqueue: a work item is kept from
	 * running twice at once only within one workqueue.
	 */
	struct work_struct any_work;
	/* Where the work runs: the CPU of the last doorbell, or
	 * WORK_CPU_UNBOUND (a hint, read and written without the lock).
	 */
	int cpu;
};

int uet_engine_wq_init(void);
void uet_engine_wq_exit(void);

void uet_engine_init(struct uet_engine *eng, uet_engine_pass_t pass,
		     uet_engine_admit_t admit);
void uet_engine_run(struct uet_engine *eng, bool light);
void uet_engine_run_task(struct uet_engine *eng);
void uet_engine_kick(struct uet_engine *eng);
int uet_engine_queue(struct uet_engine *eng, struct sk_buff_head *q,
		     struct sk_buff *skb, u32 limit);
void uet_engine_stop(struct uet_engine *eng);
void uet_engine_start(struct uet_engine *eng);
bool uet_engine_lock(struct uet_engine *eng);
void uet_engine_unlock(struct uet_engine *eng);

#endif /* _UET_ENGINE_H */
