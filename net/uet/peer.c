// SPDX-License-Identifier: GPL-2.0
/*
 * Peers (peer.h): lookup and lifetime, and the probes of entropy values
 * assumed bad. A probe is a CONTROL PROBE packet sent on the suspect value
 * to the peer's device, which answers it without any state (a plain ACK
 * with flag P echoing the value); an answer puts the value back in use.
 * The same probe on a value in use, once per min_rtt window, measures the
 * base RTT past the data queues (uet_peer_rtt_probe()).
 */
#include <linux/jhash.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#include "lb.h"
#include "peer.h"
#include "qp.h"
#include "udp.h"
#include "wire.h"

/* Probes sent per round, so a dead spine costs a bounded burst. */
#define UET_PEER_PROBES_MAX	32

bool uet_peer_match(const struct uet_peer *peer, const struct uet_addrs *addrs)
{
	if (peer->addrs.family != addrs->family)
		return false;
	if (addrs->family == AF_INET)
		return peer->addrs.daddr.v4 == addrs->daddr.v4 &&
		       peer->addrs.saddr.v4 == addrs->saddr.v4;
	return ipv6_addr_equal(&peer->addrs.daddr.v6, &addrs->daddr.v6) &&
	       ipv6_addr_equal(&peer->addrs.saddr.v6, &addrs->saddr.v6);
}

static void uet_peer_probe(struct uet_dev *udev, u16 ev, u32 nonce,
			   bool answer, const struct uet_addrs *addrs)
{
	struct sk_buff *skb;
	unsigned int n = sizeof(struct uet_pds_ctl_hdr);

	skb = alloc_skb(UET_SKB_HEADROOM(udev->ndev) + n, GFP_ATOMIC);
	if (!skb)
		return;
	skb_reserve(skb, UET_SKB_HEADROOM(udev->ndev));
	n = uet_probe_pack(ev, nonce, answer, skb_put(skb, n), n);
	skb_trim(skb, n);
	if (uet_udp_xmit(udev, skb, addrs, ev,
			 uet_qp_tos(uet_param(udev, dscp_control), false),
			 NULL, false))
		return;
	uet_inc(udev, answer ? UET_CNT_PROBE_ANSWERED : UET_CNT_PROBE_TX);
}

static void uet_peer_probe_work(struct work_struct *work)
{
	struct uet_peer *peer = container_of(to_delayed_work(work),
					     struct uet_peer, probe_work);
	u64 interval = (u64)uet_param(peer->udev, probe_interval_us) *
		       NSEC_PER_USEC;
	u16 evs[UET_PEER_PROBES_MAX];
	u32 i, n;

	n = uet_ev_probe_due(peer->evt, ktime_get_ns(), interval, evs,
			     ARRAY_SIZE(evs));
	for (i = 0; i < n; i++)
		uet_peer_probe(peer->udev, evs[i], peer->probe_nonce, false,
			       &peer->addrs);
	if (READ_ONCE(peer->evt->nbad))
		schedule_delayed_work(&peer->probe_work,
				      usecs_to_jiffies(interval / NSEC_PER_USEC));
}

struct uet_peer *uet_peer_get(struct uet_dev *udev,
			      const struct uet_addrs *addrs)
{
	u32 count = uet_param(udev, entropy_count);
	struct uet_peer *peer, *new;
	u32 hash;

	mutex_lock(&udev->peers_lock);
	list_for_each_entry(peer, &udev->peers, node) {
		if (uet_peer_match(peer, addrs)) {
			refcount_inc(&peer->ref);
			mutex_unlock(&udev->peers_lock);
			return peer;
		}
	}
	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new)
		goto out;
	/* The set depends on both addresses only, so every QP between two
	 * hosts shares it, and distinct host pairs spread over the space.
	 */
	hash = jhash(&addrs->daddr, sizeof(addrs->daddr),
		     jhash(&addrs->saddr, sizeof(addrs->saddr), 0));
	new->evt = uet_ev_table_alloc(uet_lb_set_base(hash, count), count);
	if (!new->evt) {
		kfree(new);
		new = NULL;
		goto out;
	}
	refcount_set(&new->ref, 1);
	new->udev = udev;
	new->addrs = *addrs;
	new->probe_nonce = get_random_u32();
	spin_lock_init(&new->meas_lock);
	INIT_DELAYED_WORK(&new->probe_work, uet_peer_probe_work);
	list_add_tail_rcu(&new->node, &udev->peers);
out:
	mutex_unlock(&udev->peers_lock);
	return new;
}

void uet_peer_put(struct uet_peer *peer)
{
	struct uet_dev *udev = peer->udev;

	mutex_lock(&udev->peers_lock);
	if (!refcount_dec_and_test(&peer->ref)) {
		mutex_unlock(&udev->peers_lock);
		return;
	}
	list_del_rcu(&peer->node);
	mutex_unlock(&udev->peers_lock);
	synchronize_rcu();
	cancel_delayed_work_sync(&peer->probe_work);
	uet_ev_table_free(peer->evt);
	kfree(peer);
}

/* What became of a packet on ev; starts the prober when ev looks dead. */
void uet_peer_signal(struct uet_peer *peer, u16 ev, enum uet_ev_sig sig,
		     u64 now, u64 sent_ns, u64 hold_ns)
{
	uet_ev_signal(peer->evt, ev, sig, now, sent_ns, hold_ns);
	if (READ_ONCE(peer->evt->nbad) && !delayed_work_pending(&peer->probe_work))
		schedule_delayed_work(&peer->probe_work, 0);
}

/* A QP's measurements moved: the peer's take them in. */
void uet_peer_meas_publish(struct uet_peer *peer, const struct uet_cc_meas *m)
{
	unsigned long flags;

	spin_lock_irqsave(&peer->meas_lock, flags);
	uet_meas_publish(&peer->meas, m);
	spin_unlock_irqrestore(&peer->meas_lock, flags);
}

/* Starts a zeroed m with the peer's measurements as of now. */
void uet_peer_meas_seed(struct uet_peer *peer, struct uet_cc_meas *m, u64 now)
{
	unsigned long flags;

	spin_lock_irqsave(&peer->meas_lock, flags);
	uet_meas_seed(m, &peer->meas, now);
	spin_unlock_irqrestore(&peer->meas_lock, flags);
}

/* A round of base-RTT probes per min_rtt window (cc_meas.h), so that a
 * clean sample stays in the filters while the flows keep a queue
 * standing at the port. A round sends UET_PEER_RTT_PROBES, one at a time
 * as each is answered, and keeps the least RTT: an emulated host that
 * stalls delays a lone probe by milliseconds (8 flows, one probe each:
 * two of eight took 1.4 and 3 ms more than the path). A QP calls this on
 * each ACK it acts on (@now, on @ev); it returns the round's least RTT
 * if an answer came since the QP last took one (@seen: the QP's), else 0.
 */
#define UET_PEER_RTT_PROBES	4

/* A round that began at @at (0: none yet) is over at @now; another QP's
 * @now, taken a little before the round began, is not after it.
 */
static bool uet_peer_rtt_round_over(u64 at, u64 now)
{
	return !at || (s64)(now - at) >= (s64)UET_MEAS_RTT_WIN_NS;
}

static bool uet_peer_rtt_probe_due(struct uet_peer *peer, u64 now)
{
	if (uet_peer_rtt_round_over(READ_ONCE(peer->rtt_probe_at), now))
		return true;
	return READ_ONCE(peer->rtt_probe_n) < UET_PEER_RTT_PROBES &&
	       !READ_ONCE(peer->rtt_probe_out);
}

u64 uet_peer_rtt_probe(struct uet_peer *peer, u32 *seen, u64 now, u16 ev)
{
	unsigned long flags;
	bool send = false;
	u32 seq, nonce;

	if (uet_peer_rtt_probe_due(peer, now)) {
		spin_lock_irqsave(&peer->meas_lock, flags);
		if (uet_peer_rtt_round_over(peer->rtt_probe_at, now)) {
			WRITE_ONCE(peer->rtt_probe_at, now);
			WRITE_ONCE(peer->rtt_probe_n, 0);
			WRITE_ONCE(peer->rtt_probe_out, 0);
			WRITE_ONCE(peer->rtt_probe_ns, 0);
		}
		if (!peer->rtt_probe_out &&
		    peer->rtt_probe_n < UET_PEER_RTT_PROBES) {
			send = true;
			nonce = get_random_u32();
			peer->rtt_probe_nonce = nonce;
			WRITE_ONCE(peer->rtt_probe_n, peer->rtt_probe_n + 1);
			WRITE_ONCE(peer->rtt_probe_out, ktime_get_ns());
		}
		spin_unlock_irqrestore(&peer->meas_lock, flags);
		if (send)
			uet_peer_probe(peer->udev, ev, nonce, false,
				       &peer->addrs);
	}
	/* Pairs with the release in uet_peer_rtt_answer(): the RTT read
	 * below is the one that seq came with, or a later one.
	 */
	seq = smp_load_acquire(&peer->rtt_probe_seq);
	if (seq == *seen)
		return 0;
	*seen = seq;
	return READ_ONCE(peer->rtt_probe_ns);
}

/* Whether an answer echoing @nonce is the base-RTT probe's; if so its RTT
 * is published. Softirq.
 */
static bool uet_peer_rtt_answer(struct uet_peer *peer, u32 nonce)
{
	unsigned long flags;
	bool ours;
	u64 rtt;

	spin_lock_irqsave(&peer->meas_lock, flags);
	ours = peer->rtt_probe_out && nonce == peer->rtt_probe_nonce;
	if (ours) {
		rtt = ktime_get_ns() - peer->rtt_probe_out;
		if (peer->rtt_probe_ns)
			rtt = min(rtt, peer->rtt_probe_ns);
		WRITE_ONCE(peer->rtt_probe_ns, rtt);
		WRITE_ONCE(peer->rtt_probe_out, 0);
		/* The RTT above is written before the count that the QPs'
		 * acquire in uet_peer_rtt_probe() says there is one.
		 */
		smp_store_release(&peer->rtt_probe_seq,
				  peer->rtt_probe_seq + 1);
	}
	spin_unlock_irqrestore(&peer->meas_lock, flags);
	return ours;
}

/* A probe or its answer arrived (skb->data at the PDS header); consumes
 * skb. Softirq. Probes are answered for peers only, the hosts some QP of
 * the device talks to, and at most UET_PEER_ANSWERS_MAX per 100 ms: an
 * answer goes to whatever address a probe claims to come from, and must
 * not make the device a reflector towards anyone else.
 */
void uet_peer_rcv_probe(struct uet_dev *udev, struct sk_buff *skb)
{
	u32 len = min_t(u32, skb->len, sizeof(struct uet_pds_ctl_hdr));
	struct uet_peer *peer, *found = NULL;
	u8 buf[sizeof(struct uet_pds_ctl_hdr)];
	struct uet_addrs from;
	const void *hdr;
	bool answer;
	u32 nonce;
	u16 ev;

	/* uet_rcv() pulled only the type of an answer: its 12 bytes, and a
	 * probe's 16, are read from wherever they lie (a NIC may leave the
	 * UDP payload in page fragments).
	 */
	hdr = skb_header_pointer(skb, 0, len, buf);
	if (!hdr || uet_probe_parse(hdr, len, &ev, &nonce, &answer) < 0) {
		uet_inc(udev, UET_CNT_DROP_MALFORMED);
		goto out;
	}
	uet_skb_cb_addrs(UET_SKB_CB(skb), &from);
	rcu_read_lock();
	list_for_each_entry_rcu(peer, &udev->peers, node) {
		if (uet_peer_match(peer, &from)) {
			found = peer;
			break;
		}
	}
	/* An answer echoes the nonce of the value probes or the base-RTT
	 * probe's.
	 */
	if (!found ||
	    (answer && nonce != found->probe_nonce &&
	     !uet_peer_rtt_answer(found, nonce)) ||
	    (!answer && !__ratelimit(&udev->probe_answers))) {
		uet_inc(udev, UET_CNT_DROP_NO_QP);
	} else if (!answer) {
		uet_peer_probe(udev, ev, nonce, true, &from);
	} else if (nonce == found->probe_nonce &&
		   uet_ev_probe_ok(found->evt, ev)) {
		uet_inc(udev, UET_CNT_PROBE_RECOVERED);
	}
	rcu_read_unlock();
out:
	consume_skb(skb);
}
