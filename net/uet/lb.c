// SPDX-License-Identifier: GPL-2.0
/*
 * Load balancing algorithms. "single" keeps one entropy value per QP, so
 * the fabric's ECMP hash pins the QP to one path, as RoCE does. "spray"
 * gives each packet the next value of a pseudo-random permutation of the
 * QP's set, re-drawn every round, so every path carries an equal share
 * (UET oblivious spraying, facts.md section 3.4).
 */
#include <linux/gcd.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "lb.h"

static u16 uet_lb_single_next(struct uet_lb *lb)
{
	return lb->base;
}

const struct uet_lb_ops uet_lb_single = {
	.name = "single",
	.next = uet_lb_single_next,
};

static void uet_lb_spray_round(struct uet_lb *lb)
{
	u32 n = lb->count;

	lb->pos = 0;
	lb->add = n > 1 ? prandom_u32_state(&lb->rnd) % n : 0;
	/* A multiplier coprime to n: the expected number of draws is small
	 * (n / phi(n) is below 4 for any n up to 2^14).
	 */
	do {
		lb->mul = n > 1 ? 1 + prandom_u32_state(&lb->rnd) % (n - 1) : 1;
	} while (gcd(lb->mul, n) != 1);
}

static u16 uet_lb_spray_next(struct uet_lb *lb)
{
	u32 i;

	if (lb->pos == lb->count)
		uet_lb_spray_round(lb);
	i = (u32)(((u64)lb->mul * lb->pos++ + lb->add) % lb->count);
	return lb->base + i;
}

const struct uet_lb_ops uet_lb_spray = {
	.name = "spray",
	.next = uet_lb_spray_next,
};

static const struct uet_lb_ops * const uet_lb_all[] = {
	&uet_lb_single,
	&uet_lb_spray,
};

const struct uet_lb_ops *uet_lb_find(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(uet_lb_all); i++)
		if (!strcmp(uet_lb_all[i]->name, name))
			return uet_lb_all[i];
	return NULL;
}

/* hash spreads QPs over the entropy space; it also seeds the permutation,
 * so a QP's sequence is reproducible from it.
 */
void uet_lb_init(struct uet_lb *lb, const struct uet_lb_ops *ops, u32 hash,
		 u32 count)
{
	if (ops == &uet_lb_single)
		count = 1;
	count = clamp_t(u32, count, 1, UET_LB_EV_SPACE);
	lb->ops = ops;
	lb->count = count;
	lb->base = UET_LB_EV_FIRST + hash % (UET_LB_EV_SPACE - count + 1);
	prandom_seed_state(&lb->rnd, hash);
	lb->pos = count;
}
