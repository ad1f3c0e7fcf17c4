/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flow's receiver: the module's receive window and SACK (struct
 * uet_pdc_rx of net/uet/pdc.c, and its uet_pdc_ack_hold(), compiled in)
 * under the ACK policy of net/uet/resp.c and the control packets of
 * net/uet/ctl.c, which are not pure (sk_buffs, hrtimers, the device's
 * parameters) and are mirrored in responder.c call for call: when an
 * ACK goes (at once for a reordering, a duplicate, a mark, ACKREQ;
 * after ack_every packets; else when the hold uet_pdc_ack_hold() sets
 * runs out), what it carries (cumulative PSN, SACK bitmap, the mark, a
 * duplicate seen, the triggering packet's entropy value, the time it
 * was held), two copies after a retransmission, NACKs of trimmed
 * packets and of holes that outlive the reordering tolerance, CNPs, all
 * on the control entropy values of uet_qp_ctl_entropy().
 */
#ifndef _SIM_RESPONDER_H
#define _SIM_RESPONDER_H

#include <linux/types.h>

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
	/* ACK coalescing (struct uet_resp's). */
	u32 ack_pending;	/* packets not yet acknowledged */
	u32 ack_psn;		/* the packet the next ACK answers */
	u16 ack_ev;		/* ... its entropy value */
	u64 ack_rx_ns;		/* ... its arrival */
	bool ack_now, ack_ecn, ack_dup, ack_retx;
	u64 ack_deadline_ns;
	struct uet_pdc_ack_hold hold;
	struct sim_timer ack_timer;
	/* The first hole, for NACK PKT_NOT_RCVD. */
	u32 hole_psn;
	u64 hole_since_ns;
	bool hole_nacked;
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
