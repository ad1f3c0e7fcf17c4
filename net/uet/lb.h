/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Load balancing: which entropy value (the UDP source port, which ECMP
 * switches hash on) each data packet of a QP carries. An algorithm is an
 * ops table chosen by name ("uet dev set DEV lb NAME"). Pure logic, no
 * ib_core and no sockets: KUnit drives it.
 */
#ifndef _UET_LB_H
#define _UET_LB_H

#include <linux/prandom.h>
#include <linux/types.h>

/* Entropy values come from the ephemeral port range. */
#define UET_LB_EV_FIRST		0xc000
#define UET_LB_EV_SPACE		0x4000
/* A spray set of 256 values: UET's oblivious spraying wants >= 256
 * (facts.md section 3.4, spec 3.6.16).
 */
#define UET_LB_EV_COUNT_DEFAULT	256

struct uet_lb;

struct uet_lb_ops {
	const char *name;
	/* The next data packet's entropy value. */
	u16 (*next)(struct uet_lb *lb);
};

/* One QP's load balancer; owned by the QP's work after uet_lb_init(). */
struct uet_lb {
	const struct uet_lb_ops *ops;
	u16 base;		/* the set is [base, base + count) */
	u32 count;
	/* spray: round r visits index (mul * i + add) % count for i in
	 * [0, count): a permutation, since mul and count are coprime.
	 */
	u32 mul, add, pos;
	struct rnd_state rnd;
};

extern const struct uet_lb_ops uet_lb_single;
extern const struct uet_lb_ops uet_lb_spray;

const struct uet_lb_ops *uet_lb_find(const char *name);
void uet_lb_init(struct uet_lb *lb, const struct uet_lb_ops *ops, u32 hash,
		 u32 count);

static inline u16 uet_lb_next(struct uet_lb *lb)
{
	return lb->ops->next(lb);
}

#endif /* _UET_LB_H */
