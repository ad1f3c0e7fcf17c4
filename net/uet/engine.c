// SPDX-License-Identifier: GPL-2.0
/*
 * The execution model of a QP's engine. The rule:
 *
 *   Whoever brings work runs the engine to completion, if nobody else
 *   is running it; one owner at a time, and an owner that finds more
 *   work asked for while it ran makes another pass before it leaves.
 *
 * - A user QP's doorbell (post_send) runs the pass in process context,
 *   pass after pass while there is work, as rxe's requester does.
 * - A received packet is queued to the QP and one pass runs in the
 *   receive softirq: responder, ACK processing, completions, the ACKs
 *   owed. What it leaves, the packets an ACK lets out above all, goes to
 *   the work item: a softirq cannot be preempted, and sending a window's
 *   worth from one keeps the other softirqs of its CPU waiting. (One
 *   multipath_reps run each, emulated: reps 2.34 R this way, 1.74 R
 *   sending from the softirq.)
 * - Unless that softirq interrupted a pass in process context on its
 *   CPU (a doorbell's, a work item's), as a veth's does: a veth delivers
 *   on the sending CPU, in the softirq the sender's own packets raised.
 *   Then the receiving QP's work item runs the pass, on another CPU when
 *   its QP has none or another of its own, so that the sender goes on
 *   sending while the receiver places. (64 KiB and 1 MiB WRITEs over a
 *   veth at MTU 1500, emulated: 126 and 136 MB/s with the receiver's
 *   passes in the sender's softirq, one CPU busy; 229 and 213 MB/s this
 *   way, both.) A light packet (an ACK, a small message) still runs its
 *   pass there: placing it costs less than the work item's wake-up, which
 *   a small message's round trip would otherwise pay on both ends.
 * - A doorbell that finds the engine owned by a softirq's pass (on
 *   another CPU: it cannot interrupt its own task) waits for that pass
 *   to end and runs its own, rather than leave a note the softirq would
 *   hand to the work item: a small message's answer is posted while the
 *   softirq that completed its request is still finishing its pass.
 * - A packet a QP of this host sent to another one here is queued to the
 *   receiver, whose work item runs the pass (udp.c: loopback).
 * - Timers, kernel consumers' posts (which may come with locks held that
 *   a completion handler takes) and a pass that used up its budget hand
 *   off to the QP's work item, which runs one pass at a time, on the CPU
 *   of the QP's last doorbell (unbound before the first): the QP's data
 *   then leave from one CPU, where a veth or a NIC without RPS queues
 *   them in order. (From either CPU, emulated: 16% of a lossless veth
 *   run's packets arrived out of order, each answered by an ACK at once,
 *   and 308 of them were resent in 3 s, overtaken for longer than the
 *   reordering window while the CPU they were queued on ran the
 *   application.)
 * - The owner state alone keeps passes apart: the engine's state needs
 *   no lock of its own. A pass in process context runs with bottom
 *   halves enabled; a softirq that interrupts it with a packet for the
 *   QP queues it and leaves it to the owner's next pass, and the CPU's
 *   other softirqs need not wait for the pass to end.
 * - uet_engine_stop() writes "stopped" first, then waits for the owner
 *   and the work item: from then on no pass runs, nothing is queued to
 *   the QP and a kick is ignored, so whatever the stopped engine owned
 *   (its timers included, which only a pass arms) can be changed or
 *   freed. uet_engine_start() lets it run again.
 *
 * As rxe_task does (drivers/infiniband/sw/rxe/rxe_task.c), and siw's
 * siw_qp_sq_process(), which sends inside post_send.
 */
#include <linux/cpumask.h>
#include <linux/hash.h>
#include <linux/interrupt.h>
#include <linux/wait_bit.h>

#include "engine.h"
#include "uet_compat.h"

/* Passes an inline owner makes before it hands the rest to the work
 * item: a peer that keeps sending must not hold a CPU in softirq, nor
 * with bottom halves off. A task (a doorbell) goes on as rxe's requester
 * does in post_send, with a reschedule point between passes: what it
 * hands off would run on its own CPU anyway (the work follows it), after
 * a context switch. (Emulated, 1 MiB WRITEs in loopback: 0.63 of
 * rdma_rxe's rate with four passes inline and the rest in the work
 * item, 0.97 going on.)
 */
#define UET_ENGINE_BH_PASSES	4
#define UET_ENGINE_TASK_PASSES	256

/* Work of an engine with a CPU of its own, and of one without (no
 * doorbell rang yet: a responder that only receives, a kernel QP).
 */
static struct workqueue_struct *uet_engine_wq;
static struct workqueue_struct *uet_engine_any_wq;

/* Passes in process context on this CPU (a doorbell's, a work item's):
 * each holds its task here meanwhile.
 */
static DEFINE_PER_CPU(int, uet_engine_tasks);

static bool uet_engine_task_pass(struct uet_engine *eng)
{
	bool more;

	migrate_disable();
	this_cpu_inc(uet_engine_tasks);
	more = eng->pass(eng);
	this_cpu_dec(uet_engine_tasks);
	migrate_enable();
	return more;
}

int uet_engine_wq_init(void)
{
	/* High priority, as rdma_rxe's tasklets run above every task: an
	 * application polling its CQ on the CPU must not take half of it
	 * from the work that makes its completions. (1 MiB WRITEs over a
	 * veth at MTU 1500, emulated, perftest polling: 115 MB/s at normal
	 * priority, 213 at high.)
	 */
	uet_engine_wq = alloc_workqueue("uet", WQ_PERCPU | WQ_HIGHPRI, 0);
	uet_engine_any_wq = alloc_workqueue("uet_any", WQ_UNBOUND | WQ_HIGHPRI,
					    0);
	if (uet_engine_wq && uet_engine_any_wq)
		return 0;
	uet_engine_wq_exit();
	return -ENOMEM;
}

void uet_engine_wq_exit(void)
{
	if (uet_engine_wq)
		destroy_workqueue(uet_engine_wq);
	if (uet_engine_any_wq)
		destroy_workqueue(uet_engine_any_wq);
}

/* Another online CPU than @here, the same one for @eng while the CPUs
 * stay, or WORK_CPU_UNBOUND if there is none.
 */
static int uet_engine_other_cpu(const struct uet_engine *eng, int here)
{
	unsigned int n = num_online_cpus();
	unsigned int cpu;

	if (n < 2)
		return WORK_CPU_UNBOUND;
	cpu = cpumask_nth(hash_ptr(eng, 16) % (n - 1), cpu_online_mask);
	if (cpu == here)
		cpu = cpumask_nth(n - 1, cpu_online_mask);
	return cpu < nr_cpu_ids ? cpu : WORK_CPU_UNBOUND;
}

static void uet_engine_queue_work(struct uet_engine *eng)
{
	int cpu = READ_ONCE(eng->cpu);

	/* An engine without a CPU of its own, handed off by a softirq that
	 * interrupted a task's pass (a veth delivers in the sender's
	 * softirq): on another CPU, as the unbound pool may wake its worker
	 * here, where it would preempt the task that makes the traffic.
	 */
	if (cpu == WORK_CPU_UNBOUND && in_serving_softirq() &&
	    this_cpu_read(uet_engine_tasks))
		cpu = uet_engine_other_cpu(eng, smp_processor_id());
	if (cpu == WORK_CPU_UNBOUND)
		queue_work(uet_engine_any_wq, &eng->any_work);
	else
		queue_work_on(cpu, uet_engine_wq, &eng->work);
}

/* Become the owner, or leave a note for the owner there is; @bh: as a
 * softirq's pass.
 */
static bool uet_engine_enter(struct uet_engine *eng, bool bh)
{
	unsigned long flags;
	bool own = false;

	spin_lock_irqsave(&eng->lock, flags);
	if (!eng->stopped) {
		if (eng->wanted) {
			/* A reader waits: it runs the pass asked for after. */
			eng->deferred = true;
		} else if (eng->state == UET_ENGINE_IDLE) {
			eng->state = UET_ENGINE_BUSY;
			if (bh)
				WRITE_ONCE(eng->bh_seq, eng->bh_seq + 1);
			own = true;
		} else {
			eng->state = UET_ENGINE_AGAIN;
		}
	}
	spin_unlock_irqrestore(&eng->lock, flags);
	return own;
}

/* The owner finished a pass. Returns true if it stays the owner for
 * another pass (asked for while it ran, or left over, and it may go on);
 * otherwise it is no longer the owner, and what remains went to the work.
 */
static bool uet_engine_leave(struct uet_engine *eng, bool more, bool go_on)
{
	unsigned long flags;
	bool stopped;

	spin_lock_irqsave(&eng->lock, flags);
	stopped = eng->stopped;
	if (!stopped && (more || eng->state == UET_ENGINE_AGAIN)) {
		if (go_on && !eng->wanted) {
			eng->state = UET_ENGINE_BUSY;
			spin_unlock_irqrestore(&eng->lock, flags);
			return true;
		}
		if (eng->wanted)
			eng->deferred = true;
		else	/* Queued under the lock: uet_engine_stop() cancels it. */
			uet_engine_queue_work(eng);
	}
	eng->state = UET_ENGINE_IDLE;
	if (eng->bh_seq & 1)
		WRITE_ONCE(eng->bh_seq, eng->bh_seq + 1);
	spin_unlock_irqrestore(&eng->lock, flags);
	if (stopped) {
		/* Pairs with the barrier in wait_var_event(). */
		smp_mb();
		wake_up_var(&eng->state);
	}
	return false;
}

static void uet_engine_do_work(struct uet_engine *eng)
{
	bool more;

	if (uet_engine_enter(eng, false)) {
		more = uet_engine_task_pass(eng);
		uet_engine_leave(eng, more, false);
	}
}

static void uet_engine_work(struct work_struct *work)
{
	uet_engine_do_work(container_of(work, struct uet_engine, work));
}

static void uet_engine_any_work(struct work_struct *work)
{
	uet_engine_do_work(container_of(work, struct uet_engine, any_work));
}

/**
 * uet_engine_init() - set up a QP's engine, stopped
 * @eng: the engine
 * @pass: the QP's pass, run by whoever owns the engine
 * @admit: the receive path's check before a packet is queued, or NULL
 *
 * A new engine is stopped: uet_engine_start() when the QP may run.
 */
void uet_engine_init(struct uet_engine *eng, uet_engine_pass_t pass,
		     uet_engine_admit_t admit)
{
	spin_lock_init(&eng->lock);
	eng->state = UET_ENGINE_IDLE;
	eng->bh_seq = 0;
	eng->stopped = true;
	eng->pass = pass;
	eng->admit = admit;
	eng->cpu = WORK_CPU_UNBOUND;
	INIT_WORK(&eng->work, uet_engine_work);
	INIT_WORK(&eng->any_work, uet_engine_any_work);
}

/**
 * uet_engine_run() - run the engine here and now, or have its owner run
 * it again
 * @eng: the engine
 * @light: what made it runnable is little work (a small packet)
 *
 * From the receive softirq one pass at most, none if it interrupted a
 * pass in process context and the work is not @light; the rest goes to
 * the work.
 */
void uet_engine_run(struct uet_engine *eng, bool light)
{
	int passes = 0, max_passes = UET_ENGINE_BH_PASSES;
	bool bh = false, more;

	if (in_hardirq() || irqs_disabled()) {
		uet_engine_kick(eng);
		return;
	}
	if (in_serving_softirq()) {
		if (!light && this_cpu_read(uet_engine_tasks) &&
		    READ_ONCE(eng->cpu) != smp_processor_id()) {
			uet_engine_kick(eng);
			return;
		}
		max_passes = 1;
		bh = !IS_ENABLED(CONFIG_PREEMPT_RT);
	}
	if (uet_engine_enter(eng, bh)) {
		do {
			more = eng->pass(eng);
		} while (uet_engine_leave(eng, more, ++passes < max_passes));
	}
}

/* A softirq's pass on another CPU ends soon, without sleeping: a doorbell
 * waits for it rather than leave it the new work, which it would hand to
 * the work item, a wake-up and two context switches on this CPU in each
 * small message's round trip. Only for the pass that runs now: the next
 * owner may be another softirq's.
 */
static void uet_engine_wait_bh(struct uet_engine *eng)
{
	unsigned int seq = READ_ONCE(eng->bh_seq);

	while ((seq & 1) && READ_ONCE(eng->bh_seq) == seq)
		cpu_relax();
}

/**
 * uet_engine_run_task() - uet_engine_run() from a task that may sleep
 * @eng: the engine
 *
 * A user QP's doorbell: pass after pass while there is work, and the
 * work item runs on this CPU from now on.
 */
void uet_engine_run_task(struct uet_engine *eng)
{
	int passes = 0;
	bool more;

	might_sleep();
	WRITE_ONCE(eng->cpu, raw_smp_processor_id());
	uet_engine_wait_bh(eng);
	if (uet_engine_enter(eng, false)) {
		do {
			if (passes)
				cond_resched();
			more = uet_engine_task_pass(eng);
		} while (uet_engine_leave(eng, more,
					 ++passes < UET_ENGINE_TASK_PASSES));
	}
}

/**
 * uet_engine_kick() - have the engine run soon
 * @eng: the engine
 *
 * Any context (timers call it from hard interrupts): the owner makes
 * another pass, or the work item does one.
 */
void uet_engine_kick(struct uet_engine *eng)
{
	unsigned long flags;

	spin_lock_irqsave(&eng->lock, flags);
	if (!eng->stopped) {
		if (eng->state == UET_ENGINE_IDLE)
			uet_engine_queue_work(eng);
		else
			eng->state = UET_ENGINE_AGAIN;
	}
	spin_unlock_irqrestore(&eng->lock, flags);
}

/**
 * uet_engine_queue() - queue a packet for the engine's next pass
 * @eng: the engine
 * @q: the QP's backlog
 * @skb: the packet
 * @limit: at most this many packets in @q
 *
 * Return: 0, -ESHUTDOWN if the engine is stopped, the admit check's
 * errno if it refuses @skb, -ENOBUFS if @q is full; on error the caller
 * still owns @skb.
 */
int uet_engine_queue(struct uet_engine *eng, struct sk_buff_head *q,
		     struct sk_buff *skb, u32 limit)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&eng->lock, flags);
	if (eng->stopped)
		err = -ESHUTDOWN;
	else if (eng->admit)
		err = eng->admit(eng, skb);
	if (!err && skb_queue_len(q) >= limit)
		err = -ENOBUFS;
	if (!err)
		skb_queue_tail(q, skb);
	spin_unlock_irqrestore(&eng->lock, flags);
	return err;
}

/**
 * uet_engine_stop() - stop the engine and wait for its owner
 * @eng: the engine
 *
 * Process context. On return no pass runs or will run until
 * uet_engine_start(), and nothing more is queued.
 */
void uet_engine_stop(struct uet_engine *eng)
{
	might_sleep();
	spin_lock_irq(&eng->lock);
	eng->stopped = true;
	spin_unlock_irq(&eng->lock);
	wait_var_event(&eng->state, READ_ONCE(eng->state) == UET_ENGINE_IDLE);
	cancel_work_sync(&eng->work);
	cancel_work_sync(&eng->any_work);
}

/**
 * uet_engine_start() - let passes run again
 * @eng: the engine
 */
void uet_engine_start(struct uet_engine *eng)
{
	spin_lock_irq(&eng->lock);
	eng->stopped = false;
	spin_unlock_irq(&eng->lock);
}

/**
 * uet_engine_lock() - own the engine without running a pass
 * @eng: the engine
 *
 * Process context, to read the QP's state whole (netlink).
 *
 * Return: false if the engine is stopped: then no pass runs and the
 * caller's own serialisation with modify_qp decides.
 */
bool uet_engine_lock(struct uet_engine *eng)
{
	for (;;) {
		spin_lock_irq(&eng->lock);
		if (eng->stopped) {
			eng->wanted = false;
			spin_unlock_irq(&eng->lock);
			return false;
		}
		if (eng->state == UET_ENGINE_IDLE) {
			eng->state = UET_ENGINE_BUSY;
			eng->wanted = false;
			spin_unlock_irq(&eng->lock);
			return true;
		}
		/* The owner hands over at the end of its pass, rather than
		 * making another one, so a busy engine cannot starve us.
		 */
		eng->wanted = true;
		spin_unlock_irq(&eng->lock);
		cond_resched();
	}
}

/**
 * uet_engine_unlock() - give back what uet_engine_lock() took
 * @eng: the engine
 *
 * What was asked of the engine meanwhile goes to the work item.
 */
void uet_engine_unlock(struct uet_engine *eng)
{
	bool more;

	spin_lock_irq(&eng->lock);
	more = eng->deferred;
	eng->deferred = false;
	spin_unlock_irq(&eng->lock);
	uet_engine_leave(eng, more, false);
}
