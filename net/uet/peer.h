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

#endif /* _UET_PEER_H */
