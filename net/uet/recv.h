/* SPDX-License-Identifier: GPL-2.0 */
/* The receive demultiplexer (recv.c), which udp.c feeds. */
#ifndef _UET_RECV_H
#define _UET_RECV_H

#include <linux/skbuff.h>

struct uet_dev;

/* A packet of at most this many bytes (PDS header on, not a train) is
 * light work for the engine (engine.c): an ACK, a message of a few
 * hundred bytes.
 */
#define UET_RCV_LIGHT_LEN	512

/* Takes a PDS packet (skb->data at the PDS header, its uet_skb_cb
 * filled in); consumes it. run: the QP's engine runs here (the receive
 * softirq), else its work item does (loopback: udp.c) unless the packet
 * is light (UET_RCV_LIGHT_LEN).
 */
void uet_rcv(struct uet_dev *udev, struct sk_buff *skb, bool run);

#endif /* _UET_RECV_H */
