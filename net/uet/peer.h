/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Peers of a device: one per remote address its RC QPs talk to, holding
 * the entropy-value states (ev.h) those QPs share, the prober that
 * brings broken paths back, and the path's measurements (cc_meas.h) a
 * new QP to the peer starts from.
 */
#ifndef _UET_PEER_H
#define _UET_PEER_H

#include <linux/refcount.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "cc_meas.h"
#include "ev.h"
#include "uet.h"

struct uet_peer {
	struct list_head node;	/* in udev->peers, under udev->peers_lock;
				 * readers walk it under RCU
				 */
	refcount_t ref;		/* one per QP bound to it */
	struct uet_dev *udev;
	struct uet_addrs addrs;	/* immutable: where probes go */
	struct delayed_work probe_work;
	/* Carried by our probes; an answer must echo it, so that whoever
	 * cannot see the probes cannot bring a dead path back. Immutable.
	 */
	u32 probe_nonce;
	struct uet_ev_table *evt;
	/* Protects meas, which the QPs' engines write after their ACKs
	 * (softirq too) and read as congestion control starts, under a
	 * QP's irq-safe state_lock in uet_modify_qp(): irq-safe too.
	 */
	spinlock_t meas_lock;
	struct uet_meas_shared meas;
	/* The base-RTT probes (UE 1.0 section 3.6.13: after its first ACK a
	 * sender probes on the control class, whose queue a switch serves
	 * first, for an RTT sample free of the data queue an incast
	 * builds), rounds of UET_PEER_RTT_PROBES. Under meas_lock, the first
	 * three also read without it to see whether one is due: when the
	 * round began (0: none yet), probes sent in it, when the one still
	 * unanswered left (0: none), and the nonce its answer must echo.
	 */
	u64 rtt_probe_at;
	u32 rtt_probe_n;
	u64 rtt_probe_out;
	u32 rtt_probe_nonce;
	/* The least RTT the round's answers took, ns (0: none yet), written
	 * before rtt_probe_seq is released: each QP takes it at its next
	 * ACK (uet_peer_rtt_probe()).
	 */
	u64 rtt_probe_ns;
	u32 rtt_probe_seq;
};

/* Probes a device answers per 100 ms: a peer sends at most 32 a round
 * (peer.c), a round every probe_interval_us (10 ms by default): one peer
 * probing all it may is answered in full, more share the rest. The
 * values not answered stay bad until a later round.
 */
#define UET_PEER_ANSWERS_MAX	512
#define UET_PEER_ANSWERS_PERIOD	(HZ / 10)

struct uet_peer *uet_peer_get(struct uet_dev *udev,
			      const struct uet_addrs *addrs);
void uet_peer_put(struct uet_peer *peer);
void uet_peer_signal(struct uet_peer *peer, u16 ev, enum uet_ev_sig sig,
		     u64 now, u64 sent_ns, u64 hold_ns);
void uet_peer_rcv_probe(struct uet_dev *udev, struct sk_buff *skb);
bool uet_peer_match(const struct uet_peer *peer, const struct uet_addrs *addrs);
void uet_peer_meas_publish(struct uet_peer *peer, const struct uet_cc_meas *m);
void uet_peer_meas_seed(struct uet_peer *peer, struct uet_cc_meas *m, u64 now);
u64 uet_peer_rtt_probe(struct uet_peer *peer, u32 *seen, u64 now, u16 ev);

#endif /* _UET_PEER_H */
