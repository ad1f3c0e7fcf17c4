/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flow's receiver: the module's receive window and SACK (struct
 * uet_pdc_rx of net/uet/pdc.c) under its ACK policy (struct uet_ack of
 * net/uet/ack.c), both compiled in: when an ACK goes (at once for a
 * reordering, a duplicate, a mark, ACKREQ; after ack_every packets;
 * else when the hold uet_pdc_ack_hold() sets runs out), what it carries
 * (cumulative PSN, SACK bitmap, the mark, a duplicate seen, the
 * triggering packet's entropy value, the time it was held), two copies
 * after a retransmission, NACKs of holes that outlive the reordering
 * tolerance, the control entropy values. responder.c calls it where
 * net/uet/resp.c and ctl.c do, and sends what it decides, with NACKs of
 * trimmed packets and CNPs.
 */
#ifndef _SIM_RESPONDER_H
#define _SIM_RESPONDER_H

#include <linux/types.h>

#include "ack.h"
#include "ev.h"
#include "pdc.h"
#include "timer.h"

struct flow;
struct pkt;

/* The module's defaults (net/uet/params.c): an ACK per 16 packets (a
 * NIC acknowledging every 64 KiB of 4 KiB packets), held at most
 * 10 ms; a hole NACKed once 16 packets overtook it and it is 4 ms old.
 */
#define RESP_ACK_EVERY		16
#define RESP_ACK_DELAY_US	10000
#define RESP_NACK_REORDER_PKTS	16
#define RESP_NACK_REORDER_US	4000

struct resp {
	struct uet_pdc_rx rx;
	struct uet_ack ack;	/* ACK coalescing, the NACK of a hole */
	struct sim_timer ack_timer;
	/* The receiving host's values towards the sender (its peer's):
	 * control packets spread over them.
	 */
	struct uet_ev_table *evt;
	bool own_evt;		/* no flow goes the other way to share it */
	u32 ctl_seq;
};

void resp_init(struct flow *f);
/* Its values: those of the flow the other way, @back, if any. */
void resp_start(struct flow *f, struct flow *back);
void resp_free(struct flow *f);
/* A data packet arrived, a pass of the receiving QP's engine. */
void resp_rcv(struct flow *f, const struct pkt *pkt);

#endif /* _SIM_RESPONDER_H */
