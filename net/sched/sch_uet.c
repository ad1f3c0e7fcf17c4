// SPDX-License-Identifier: GPL-2.0
/*
 * sch_uet: an Ultra Ethernet switch egress port as a queue discipline.
 *
 * For now a byte-limited FIFO: packets that would take the backlog past
 * the limit are dropped. Line-rate shaping, ECN marking at dequeue and
 * trimming build on this queue.
 */
#include <linux/module.h>
#include <linux/netdevice.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/pkt_sched_uet.h>

struct uet_sched {
	u32 limit;	/* bytes; written under the qdisc tree lock */
};

static const struct nla_policy uet_policy[TCA_UET_MAX + 1] = {
	[TCA_UET_LIMIT] = NLA_POLICY_MIN(NLA_U32, 1),
};

static int uet_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	struct uet_sched *q = qdisc_priv(sch);

	if (likely(sch->qstats.backlog + qdisc_pkt_len(skb) <= q->limit))
		return qdisc_enqueue_tail(skb, sch);
	return qdisc_drop(skb, sch, to_free);
}

static int uet_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_UET_MAX + 1];
	int err;

	if (!opt)
		return 0;
	err = nla_parse_nested(tb, TCA_UET_MAX, opt, uet_policy, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	if (tb[TCA_UET_LIMIT])
		q->limit = nla_get_u32(tb[TCA_UET_LIMIT]);
	sch_tree_unlock(sch);
	return 0;
}

static int uet_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct uet_sched *q = qdisc_priv(sch);

	/* As bfifo: the device's queue length worth of full-size packets. */
	q->limit = max_t(u32, qdisc_dev(sch)->tx_queue_len, 1) * psched_mtu(qdisc_dev(sch));
	return uet_change(sch, opt, extack);
}

static int uet_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts || nla_put_u32(skb, TCA_UET_LIMIT, q->limit)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static struct Qdisc_ops uet_qdisc_ops __read_mostly = {
	.id = "uet",
	.priv_size = sizeof(struct uet_sched),
	.enqueue = uet_enqueue,
	.dequeue = qdisc_dequeue_head,
	.peek = qdisc_peek_head,
	.init = uet_init,
	.reset = qdisc_reset_queue,
	.change = uet_change,
	.dump = uet_dump,
	.owner = THIS_MODULE,
};

static int __init uet_sched_init(void)
{
	return register_qdisc(&uet_qdisc_ops);
}

static void __exit uet_sched_exit(void)
{
	unregister_qdisc(&uet_qdisc_ops);
}

module_init(uet_sched_init);
module_exit(uet_sched_exit);

MODULE_DESCRIPTION("UET switch port: byte-limited FIFO");
MODULE_LICENSE("GPL");
MODULE_ALIAS("sch_uet");
