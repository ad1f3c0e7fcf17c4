// SPDX-License-Identifier: GPL-2.0
/*
 * sch_uet: an Ultra Ethernet switch egress port as a queue discipline.
 *
 * Three bands served in strict priority: trimmed packets, a priority band
 * for control and retransmit DSCPs, and the data band. The port sends at
 * line rate (qdisc watchdog), marks ECN on data packets from a ramp between
 * kmin and kmax, decided at dequeue on the backlog the packet leaves behind
 * (so the mark reflects the queue it actually waited in), and when the data
 * band is full cuts UDP packets to their headers instead of dropping them,
 * so the receiver learns of the loss at once (UE spec 1.0 §3.6.17).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/udp.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_checksum.h>
#include <net/netlink.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>

#include <linux/pkt_sched_uet.h>

#include "sch_uet_law.h"
#include "uet_compat.h"

enum uet_band {
	UET_BAND_TRIM,
	UET_BAND_PRIO,
	UET_BAND_DATA,
	UET_BANDS,
};

/* Defaults: ECN ramp from 20 % to 80 % of the buffer with the buffer at
 * one plane BDP (UE spec 1.0 §3.6.17, UET-CC's switch settings); trim
 * size 128 bytes (SAI packet trimming proposal's default), enough for
 * IPv6 + UDP + PDS + verbs headers; DSCPs those of rdma_uet
 * (Documentation/uet/admin-guide/sch_uet.rst).
 */
#define UET_DEF_KMIN_PCT	20
#define UET_DEF_KMAX_PCT	80
#define UET_DEF_PMAX_PCT	100
#define UET_DEF_TRIM_SIZE	128
#define UET_DEF_TRIM_DSCP	30
#define UET_DEF_PRIO_DSCP	(BIT_ULL(28) | BIT_ULL(48))
/* Smallest useful trim: IPv4 + UDP headers. */
#define UET_MIN_TRIM_SIZE	(sizeof(struct iphdr) + sizeof(struct udphdr))
/* The trim band holds this fraction of the data band's limit. */
#define UET_TRIM_LIMIT_SHIFT	2
/* The shaper may catch up this far behind schedule, absorbing late timers;
 * beyond it the line time is lost. The watchdog's NET_TX softirq can wait
 * behind a NET_RX one for netdev_budget_usecs (2 ms) rounded up to whole
 * jiffies, 4 ms at HZ=250, and a host's receive path runs in that softirq
 * when the port and the hosts share CPUs (net namespaces): 2 ms kept the
 * port in selftests/cc_longhaul.sh at 0.86..0.95 of its rate, emulated.
 */
#define UET_MAX_LAG_NS		(8 * NSEC_PER_MSEC)

struct uet_sched_cfg {
	u64 rate;		/* bytes/s, 0 = unshaped */
	u32 limit;		/* data band, bytes */
	struct tc_uet_thresh kmin_cfg;	/* as given, for dump */
	struct tc_uet_thresh kmax_cfg;
	u32 kmin;		/* bytes, derived from the above */
	u32 kmax;
	u32 pmax;		/* percent */
	u8 ecn_mode;
	u8 trim;
	u8 trim_dscp;
	u32 trim_size;
	u64 prio_dscp;
};

struct uet_sched {
	struct uet_sched_cfg cfg;	/* replaced whole under the tree lock */
	/* Below: qdisc lock. */
	struct qdisc_skb_head band[UET_BANDS];
	u32 backlog[UET_BANDS];		/* bytes per band */
	u64 t_next;			/* earliest send time of the next packet, ns */
	u64 busy_start;			/* start of the current backlogged period, ns */
	u64 busy_end;			/* end of the last one, line time included */
	struct qdisc_watchdog watchdog;
	struct tc_uet_xstats st;
};

struct uet_skb_cb {
	u64 enqueue_ns;
};

static struct uet_skb_cb *uet_skb_cb(struct sk_buff *skb)
{
	qdisc_cb_private_validate(skb, sizeof(struct uet_skb_cb));
	return (struct uet_skb_cb *)qdisc_skb_cb(skb)->data;
}

/* Pure logic below this line up to the glue, and the marking and trimming
 * laws of sch_uet_law.h: KUnit drives them (sch_uet_test.c).
 */

/* Convert a threshold to bytes. Time is line time at @rate bytes/s. */
static int uet_thresh_bytes(const struct tc_uet_thresh *t, u32 limit, u64 rate,
			    u32 *bytes, struct netlink_ext_ack *extack)
{
	u64 b;

	switch (t->unit) {
	case TC_UET_THRESH_BYTES:
		b = t->value;
		break;
	case TC_UET_THRESH_PERCENT:
		if (t->value > 100) {
			NL_SET_ERR_MSG(extack, "threshold share of limit must be 0..100%");
			return -EINVAL;
		}
		b = div_u64((u64)limit * t->value, 100);
		break;
	case TC_UET_THRESH_TIME:
		if (!rate) {
			NL_SET_ERR_MSG(extack, "a threshold in time units needs a rate");
			return -EINVAL;
		}
		b = mul_u64_u32_div(rate, t->value, NSEC_PER_SEC);
		break;
	default:
		NL_SET_ERR_MSG(extack, "unknown threshold unit");
		return -EINVAL;
	}
	*bytes = min_t(u64, b, U32_MAX);
	return 0;
}

/* Glue. */

static u8 uet_skb_dscp(struct sk_buff *skb)
{
	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP):
		if (pskb_network_may_pull(skb, sizeof(struct iphdr)))
			return ipv4_get_dsfield(ip_hdr(skb)) >> 2;
		break;
	case htons(ETH_P_IPV6):
		if (pskb_network_may_pull(skb, sizeof(struct ipv6hdr)))
			return ipv6_get_dsfield(ipv6_hdr(skb)) >> 2;
		break;
	}
	return 0;
}

static enum uet_band uet_classify(struct sk_buff *skb, const struct uet_sched_cfg *cfg)
{
	u8 dscp = uet_skb_dscp(skb);

	/* A packet trimmed upstream keeps its priority through this port. */
	if (dscp == cfg->trim_dscp)
		return UET_BAND_TRIM;
	if (cfg->prio_dscp & BIT_ULL(dscp))
		return UET_BAND_PRIO;
	return UET_BAND_DATA;
}

/* Fix UDP length and checksum after the datagram was cut to @udp_len bytes. */
static void uet_trim_fix_udp(struct sk_buff *skb, struct udphdr *uh, u32 udp_len,
			     bool v6)
{
	bool partial = skb->ip_summed == CHECKSUM_PARTIAL;
	__wsum csum;

	uh->len = htons(udp_len);
	/* Whatever checksum state the packet had no longer matches its bytes. */
	skb->ip_summed = CHECKSUM_NONE;
	/* IPv4 allows no checksum; keep it that way if the sender chose it. */
	if (!v6 && !uh->check && !partial)
		return;
	uh->check = 0;
	csum = skb_checksum(skb, skb_transport_offset(skb), udp_len, 0);
	if (v6)
		uh->check = csum_ipv6_magic(&ipv6_hdr(skb)->saddr, &ipv6_hdr(skb)->daddr,
					    udp_len, IPPROTO_UDP, csum);
	else
		uh->check = csum_tcpudp_magic(ip_hdr(skb)->saddr, ip_hdr(skb)->daddr,
					      udp_len, IPPROTO_UDP, csum);
	if (!uh->check)
		uh->check = CSUM_MANGLED_0;
}

/* Cut a UDP packet to trim_size bytes of IP packet and give it the trimmed
 * DSCP. Returns false, leaving the packet unchanged, if it cannot be
 * trimmed (not UDP directly over IP, a fragment, malformed). GSO skbs
 * never get here: uet_enqueue() cuts them first.
 */
static bool uet_trim(struct sk_buff *skb, const struct uet_sched_cfg *cfg)
{
	unsigned int nhoff = skb_network_offset(skb);
	u32 ip_len, hdr_len, new_len;
	struct udphdr *uh;
	bool v6;

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP): {
		struct iphdr *iph;

		if (!pskb_network_may_pull(skb, sizeof(*iph)))
			return false;
		iph = ip_hdr(skb);
		if (iph->protocol != IPPROTO_UDP || ip_is_fragment(iph) || iph->ihl < 5)
			return false;
		hdr_len = iph->ihl * 4 + sizeof(*uh);
		ip_len = ntohs(iph->tot_len);
		v6 = false;
		break;
	}
	case htons(ETH_P_IPV6):
		if (!pskb_network_may_pull(skb, sizeof(struct ipv6hdr)))
			return false;
		/* Extension headers are not walked: only plain UDP over IPv6. */
		if (ipv6_hdr(skb)->nexthdr != IPPROTO_UDP)
			return false;
		hdr_len = sizeof(struct ipv6hdr) + sizeof(*uh);
		ip_len = sizeof(struct ipv6hdr) + ntohs(ipv6_hdr(skb)->payload_len);
		v6 = true;
		break;
	default:
		return false;
	}
	if (ip_len < hdr_len || nhoff + ip_len > skb->len)
		return false;
	if (skb_ensure_writable(skb, nhoff + hdr_len))
		return false;

	new_len = uet_trim_len(ip_len, hdr_len, cfg->trim_size);
	if (pskb_trim(skb, nhoff + new_len))
		return false;
	skb_set_transport_header(skb, nhoff + hdr_len - sizeof(*uh));
	uh = udp_hdr(skb);
	if (v6) {
		ipv6_hdr(skb)->payload_len = htons(new_len - sizeof(struct ipv6hdr));
		ipv6_change_dsfield(ipv6_hdr(skb), INET_ECN_MASK, cfg->trim_dscp << 2);
	} else {
		struct iphdr *iph = ip_hdr(skb);

		iph->tot_len = htons(new_len);
		iph->tos = (iph->tos & INET_ECN_MASK) | cfg->trim_dscp << 2;
		ip_send_check(iph);
	}
	uet_trim_fix_udp(skb, uh, new_len - (hdr_len - sizeof(*uh)), v6);
	qdisc_skb_cb(skb)->pkt_len = skb->len;
	return true;
}

static u32 uet_band_limit(const struct uet_sched_cfg *cfg, enum uet_band band)
{
	return band == UET_BAND_TRIM ? cfg->limit >> UET_TRIM_LIMIT_SHIFT : cfg->limit;
}

static void uet_mark(struct uet_sched *q, struct sk_buff *skb, u32 backlog)
{
	const struct uet_sched_cfg *cfg = &q->cfg;

	if (uet_ecn_decide(backlog, cfg->kmin, cfg->kmax, cfg->pmax, get_random_u32()) &&
	    INET_ECN_set_ce(skb))
		q->st.ecn_marked++;
}

static int uet_enqueue_one(struct sk_buff *skb, struct Qdisc *sch,
			   struct sk_buff **to_free)
{
	struct uet_sched *q = qdisc_priv(sch);
	const struct uet_sched_cfg *cfg = &q->cfg;
	enum uet_band band = uet_classify(skb, cfg);
	u32 len = qdisc_pkt_len(skb), cut = 0;

	if (band == UET_BAND_DATA && q->backlog[band] + len > cfg->limit) {
		if (!cfg->trim) {
			q->st.drop_limit++;
			return qdisc_drop(skb, sch, to_free);
		}
		if (!uet_trim(skb, cfg)) {
			q->st.drop_notrim++;
			return qdisc_drop(skb, sch, to_free);
		}
		q->st.trimmed++;
		band = UET_BAND_TRIM;
		cut = len - qdisc_pkt_len(skb);
		len -= cut;
	}
	/* The data band was checked above; the other two have their own limits. */
	if (band != UET_BAND_DATA && q->backlog[band] + len > uet_band_limit(cfg, band)) {
		if (band == UET_BAND_TRIM)
			q->st.drop_trim++;
		else
			q->st.drop_prio++;
		return qdisc_drop(skb, sch, to_free);
	}
	if (band == UET_BAND_DATA && cfg->ecn_mode == TC_UET_ECN_ENQUEUE)
		uet_mark(q, skb, q->backlog[band]);

	uet_skb_cb(skb)->enqueue_ns = ktime_get_ns();
	if (!sch->q.qlen)
		q->busy_start = max(uet_skb_cb(skb)->enqueue_ns, q->busy_end);
	__qdisc_enqueue_tail(skb, &q->band[band]);
	q->backlog[band] += len;
	if (band == UET_BAND_DATA)
		q->st.peak_data = max(q->st.peak_data, q->backlog[band]);
	sch->q.qlen++;
	qdisc_qstats_backlog_inc(sch, skb);
	q->st.enqueued++;
	q->st.peak_backlog = max_t(u64, q->st.peak_backlog, sch->qstats.backlog);
	/* The parents count the length the packet came with, and take off
	 * what it leaves with. Here, where our queue is not empty, the call
	 * cannot tell a parent its class emptied.
	 */
	if (cut)
		qdisc_tree_reduce_backlog(sch, 0, cut);
	return NET_XMIT_SUCCESS;
}

/* A GSO skb (a uet train, a TCP or UDP GSO send) is as many packets to a
 * switch: each segment is marked, trimmed or dropped on its own, as
 * sch_tbf cuts what it cannot send whole (tbf_segment()).
 */
static int uet_enqueue_segs(struct sk_buff *skb, struct Qdisc *sch,
			    struct sk_buff **to_free)
{
	netdev_features_t features = netif_skb_features(skb);
	unsigned int len = 0, prev_len = qdisc_pkt_len(skb), seg_len;
	struct sk_buff *segs, *nskb;
	int nb = 0;

	segs = skb_gso_segment(skb, features & ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs))
		return qdisc_drop(skb, sch, to_free);
	skb_list_walk_safe(segs, segs, nskb) {
		skb_mark_not_on_list(segs);
		seg_len = segs->len;
		qdisc_skb_cb(segs)->pkt_len = seg_len;
		/* A segment not taken was dropped and counted already. */
		if (uet_enqueue_one(segs, sch, to_free) == NET_XMIT_SUCCESS) {
			nb++;
			len += seg_len;
		}
	}
	if (!nb) {
		kfree_skb(skb);
		return NET_XMIT_DROP;
	}
	/* The parents counted one packet of prev_len bytes. */
	qdisc_tree_reduce_backlog(sch, 1 - nb, prev_len - len);
	consume_skb(skb);
	return NET_XMIT_SUCCESS;
}

static int uet_enqueue(struct sk_buff *skb, struct Qdisc *sch,
		       struct sk_buff **to_free)
{
	if (skb_is_gso(skb))
		return uet_enqueue_segs(skb, sch, to_free);
	return uet_enqueue_one(skb, sch, to_free);
}

/* Account @skb sent at @now and move the line-rate schedule on. */
static void uet_advance(struct uet_sched *q, struct sk_buff *skb, u64 now,
			bool emptied)
{
	u64 ready = max(q->t_next, uet_skb_cb(skb)->enqueue_ns);

	u64 tx_ns = div64_u64((u64)qdisc_pkt_len(skb) * NSEC_PER_SEC, q->cfg.rate);

	if (now > ready + UET_MAX_LAG_NS)
		ready = now - UET_MAX_LAG_NS;
	q->t_next = ready + tx_ns;
	q->st.line_ns += tx_ns;
	/* Emptied: the port stays busy until the last packet's line time is over. */
	if (emptied) {
		q->busy_end = max(now, q->t_next);
		q->st.busy_ns += q->busy_end - q->busy_start;
	}
}

static struct sk_buff *uet_dequeue(struct Qdisc *sch)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct sk_buff *skb;
	enum uet_band band;
	u64 now = 0;

	for (band = 0; band < UET_BANDS; band++)
		if (q->band[band].qlen)
			break;
	if (band == UET_BANDS)
		return NULL;
	if (q->cfg.rate) {
		now = ktime_get_ns();
		if (now < q->t_next) {
			qdisc_watchdog_schedule_range_ns(&q->watchdog, q->t_next, 0);
			return NULL;
		}
	}
	skb = __qdisc_dequeue_head(&q->band[band]);

	q->backlog[band] -= qdisc_pkt_len(skb);
	sch->q.qlen--;
	qdisc_qstats_backlog_dec(sch, skb);
	if (band == UET_BAND_DATA && q->cfg.ecn_mode == TC_UET_ECN_DEQUEUE)
		uet_mark(q, skb, q->backlog[band]);
	if (q->cfg.rate)
		uet_advance(q, skb, now, !sch->q.qlen);
	q->st.dequeued++;
	qdisc_bstats_update(sch, skb);
	return skb;
}

static void uet_reset(struct Qdisc *sch)
{
	struct uet_sched *q = qdisc_priv(sch);
	int band;

	for (band = 0; band < UET_BANDS; band++) {
		rtnl_kfree_skbs(q->band[band].head, q->band[band].tail);
		q->band[band] = (struct qdisc_skb_head){};
		q->backlog[band] = 0;
	}
	sch->q.qlen = 0;
	sch->qstats.backlog = 0;
	q->t_next = 0;
	qdisc_watchdog_cancel(&q->watchdog);
}

static struct netlink_range_validation uet_trim_size_range = {
	.min = UET_MIN_TRIM_SIZE,
	.max = U16_MAX,
};

static const struct nla_policy uet_policy[TCA_UET_MAX + 1] = {
	[TCA_UET_RATE]		= { .type = NLA_U64 },
	[TCA_UET_LIMIT]		= NLA_POLICY_MIN(NLA_U32, 1),
	[TCA_UET_KMIN]		= NLA_POLICY_EXACT_LEN(sizeof(struct tc_uet_thresh)),
	[TCA_UET_KMAX]		= NLA_POLICY_EXACT_LEN(sizeof(struct tc_uet_thresh)),
	[TCA_UET_PMAX]		= NLA_POLICY_MAX(NLA_U32, 100),
	[TCA_UET_ECN_MODE]	= NLA_POLICY_MAX(NLA_U8, TC_UET_ECN_ENQUEUE),
	[TCA_UET_TRIM]		= NLA_POLICY_MAX(NLA_U8, 1),
	[TCA_UET_TRIM_SIZE]	= NLA_POLICY_FULL_RANGE(NLA_U32, &uet_trim_size_range),
	[TCA_UET_TRIM_DSCP]	= NLA_POLICY_MAX(NLA_U8, 63),
	[TCA_UET_PRIO_DSCP]	= { .type = NLA_U64 },
};

/* Build the whole new configuration from @old and @tb; nothing is applied on error. */
static int uet_parse(struct uet_sched_cfg *cfg, const struct uet_sched_cfg *old,
		     struct nlattr **tb, struct netlink_ext_ack *extack)
{
	int err;

	*cfg = *old;
	if (tb[TCA_UET_RATE])
		cfg->rate = nla_get_u64(tb[TCA_UET_RATE]);
	if (tb[TCA_UET_LIMIT])
		cfg->limit = nla_get_u32(tb[TCA_UET_LIMIT]);
	if (tb[TCA_UET_KMIN])
		memcpy(&cfg->kmin_cfg, nla_data(tb[TCA_UET_KMIN]), sizeof(cfg->kmin_cfg));
	if (tb[TCA_UET_KMAX])
		memcpy(&cfg->kmax_cfg, nla_data(tb[TCA_UET_KMAX]), sizeof(cfg->kmax_cfg));
	if (tb[TCA_UET_PMAX])
		cfg->pmax = nla_get_u32(tb[TCA_UET_PMAX]);
	if (tb[TCA_UET_ECN_MODE])
		cfg->ecn_mode = nla_get_u8(tb[TCA_UET_ECN_MODE]);
	if (tb[TCA_UET_TRIM])
		cfg->trim = nla_get_u8(tb[TCA_UET_TRIM]);
	if (tb[TCA_UET_TRIM_SIZE])
		cfg->trim_size = nla_get_u32(tb[TCA_UET_TRIM_SIZE]);
	if (tb[TCA_UET_TRIM_DSCP])
		cfg->trim_dscp = nla_get_u8(tb[TCA_UET_TRIM_DSCP]);
	if (tb[TCA_UET_PRIO_DSCP])
		cfg->prio_dscp = nla_get_u64(tb[TCA_UET_PRIO_DSCP]);

	err = uet_thresh_bytes(&cfg->kmin_cfg, cfg->limit, cfg->rate, &cfg->kmin, extack);
	if (err)
		return err;
	err = uet_thresh_bytes(&cfg->kmax_cfg, cfg->limit, cfg->rate, &cfg->kmax, extack);
	if (err)
		return err;
	if (cfg->kmin > cfg->kmax) {
		NL_SET_ERR_MSG(extack, "kmin is above kmax");
		return -EINVAL;
	}
	if (cfg->kmax > cfg->limit) {
		NL_SET_ERR_MSG(extack, "kmax is above limit");
		return -EINVAL;
	}
	if (cfg->trim_size > cfg->limit >> UET_TRIM_LIMIT_SHIFT) {
		NL_SET_ERR_MSG(extack, "trim_size does not fit the trim band (a quarter of limit)");
		return -EINVAL;
	}
	if (cfg->prio_dscp & BIT_ULL(cfg->trim_dscp)) {
		NL_SET_ERR_MSG(extack, "trim_dscp is also a priority DSCP");
		return -EINVAL;
	}
	return 0;
}

static int uet_change(struct Qdisc *sch, struct nlattr *opt,
		      struct netlink_ext_ack *extack)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct nlattr *tb[TCA_UET_MAX + 1] = {};
	struct uet_sched_cfg cfg;
	int err;

	if (opt) {
		/* tc does not set NLA_F_NESTED on TCA_OPTIONS. */
		err = nla_parse_nested_deprecated(tb, TCA_UET_MAX, opt, uet_policy, extack);
		if (err)
			return err;
	}
	err = uet_parse(&cfg, &q->cfg, tb, extack);
	if (err)
		return err;

	sch_tree_lock(sch);
	/* A new line rate applies from now: forget the old schedule, and
	 * measure the share of it sustained afresh.
	 */
	if (cfg.rate != q->cfg.rate) {
		u64 now = ktime_get_ns();

		q->t_next = 0;
		q->busy_start = now;
		q->busy_end = now;
		q->st.busy_ns = 0;
		q->st.line_ns = 0;
		if (sch->q.qlen)
			qdisc_watchdog_schedule_range_ns(&q->watchdog, now, 0);
	}
	q->cfg = cfg;
	q->st.peak_backlog = sch->qstats.backlog;
	q->st.peak_data = q->backlog[UET_BAND_DATA];
	sch_tree_unlock(sch);
	return 0;
}

static int uet_init(struct Qdisc *sch, struct nlattr *opt,
		    struct netlink_ext_ack *extack)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct net_device *dev = qdisc_dev(sch);

	qdisc_watchdog_init(&q->watchdog, sch);
	q->cfg = (struct uet_sched_cfg) {
		/* As bfifo: the device's queue length worth of full-size packets. */
		.limit = max_t(u32, dev->tx_queue_len, 1) * psched_mtu(dev),
		.kmin_cfg = { TC_UET_THRESH_PERCENT, UET_DEF_KMIN_PCT },
		.kmax_cfg = { TC_UET_THRESH_PERCENT, UET_DEF_KMAX_PCT },
		.pmax = UET_DEF_PMAX_PCT,
		.ecn_mode = TC_UET_ECN_DEQUEUE,
		.trim_size = UET_DEF_TRIM_SIZE,
		.trim_dscp = UET_DEF_TRIM_DSCP,
		.prio_dscp = UET_DEF_PRIO_DSCP,
	};
	return uet_change(sch, opt, extack);
}

static void uet_destroy(struct Qdisc *sch)
{
	struct uet_sched *q = qdisc_priv(sch);

	qdisc_watchdog_cancel(&q->watchdog);
}

static int uet_dump(struct Qdisc *sch, struct sk_buff *skb)
{
	const struct uet_sched_cfg *cfg = &((struct uet_sched *)qdisc_priv(sch))->cfg;
	struct nlattr *opts;

	opts = nla_nest_start_noflag(skb, TCA_OPTIONS);
	if (!opts)
		return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, TCA_UET_RATE, cfg->rate, TCA_UET_UNSPEC) ||
	    nla_put_u32(skb, TCA_UET_LIMIT, cfg->limit) ||
	    nla_put(skb, TCA_UET_KMIN, sizeof(cfg->kmin_cfg), &cfg->kmin_cfg) ||
	    nla_put(skb, TCA_UET_KMAX, sizeof(cfg->kmax_cfg), &cfg->kmax_cfg) ||
	    nla_put_u32(skb, TCA_UET_PMAX, cfg->pmax) ||
	    nla_put_u8(skb, TCA_UET_ECN_MODE, cfg->ecn_mode) ||
	    nla_put_u8(skb, TCA_UET_TRIM, cfg->trim) ||
	    nla_put_u32(skb, TCA_UET_TRIM_SIZE, cfg->trim_size) ||
	    nla_put_u8(skb, TCA_UET_TRIM_DSCP, cfg->trim_dscp) ||
	    nla_put_u64_64bit(skb, TCA_UET_PRIO_DSCP, cfg->prio_dscp, TCA_UET_UNSPEC)) {
		nla_nest_cancel(skb, opts);
		return -EMSGSIZE;
	}
	return nla_nest_end(skb, opts);
}

static int uet_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct uet_sched *q = qdisc_priv(sch);
	struct tc_uet_xstats st = q->st;

	st.backlog_data = q->backlog[UET_BAND_DATA];
	st.backlog_prio = q->backlog[UET_BAND_PRIO];
	st.backlog_trim = q->backlog[UET_BAND_TRIM];
	st.kmin = q->cfg.kmin;
	st.kmax = q->cfg.kmax;
	if (sch->q.qlen && q->cfg.rate)
		st.busy_ns += max_t(s64, ktime_get_ns() - q->busy_start, 0);
	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops uet_qdisc_ops __read_mostly = {
	.id = "uet",
	.priv_size = sizeof(struct uet_sched),
	.enqueue = uet_enqueue,
	.dequeue = uet_dequeue,
	.peek = qdisc_peek_dequeued,
	.init = uet_init,
	.reset = uet_reset,
	.destroy = uet_destroy,
	.change = uet_change,
	.dump = uet_dump,
	.dump_stats = uet_dump_stats,
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

#if IS_ENABLED(CONFIG_KUNIT)
#include "sch_uet_test.c"
#endif

MODULE_DESCRIPTION("UET switch port: line rate, ECN at dequeue, trimming");
MODULE_LICENSE("GPL");
MODULE_ALIAS("sch_uet");
/* tc autoloads by "sch_" KIND up to Linux 6.8, by "net-sch-" KIND from 6.9
 * (MODULE_ALIAS_NET_SCH, which 6.1 lacks).
 */
MODULE_ALIAS("net-sch-uet");
