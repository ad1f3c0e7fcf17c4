/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A flow's sender: the module's packet delivery context (net/uet/pdc.c,
 * compiled in) driven as net/uet/req.c drives it, which is not pure
 * (sk_buffs, hrtimers, the device's parameters) and is mirrored in
 * requester.c call for call: what it sends and resends, when it asks
 * for an ACK, what it does with an ACK, a NACK, a CNP, its loss and
 * retransmit timers, and in what order it tells congestion control, the
 * load balancer and the peer's path states.
 */
#ifndef _SIM_REQUESTER_H
#define _SIM_REQUESTER_H

#include <linux/types.h>

#include "pdc.h"
#include "timer.h"

struct flow;
struct pkt;

/* The module's defaults (net/uet/params.c): the SACK rule's dupthresh,
 * TCP's duplicate-ACK threshold (RFC 5681); the retransmit timeout's
 * ceiling, 2 s, and its first expiries that grow it linearly.
 */
#define REQ_DUPTHRESH		3
#define REQ_RTO_MAX_US		2000000
#define REQ_RTO_LINEAR		2
/* Entropy values an ACK's deliveries are gathered by before the peer's
 * path states hear of them (struct uet_req's good[]).
 */
#define REQ_GOOD_MAX		16

struct req_good {
	u16 ev;
	u64 sent_ns;		/* the newest delivered packet sent on it */
};

struct req {
	struct uet_pdc_tx tx;
	struct sim_timer rto_timer;
	struct sim_timer reo_timer;	/* the SACK rule's next deadline */
	u32 backoff;		/* retransmit timeouts without progress */
	/* The ACK being applied (uet_req_rcv_ack()). */
	bool ack_ecn;
	u32 ack_psn;
	struct req_good good[REQ_GOOD_MAX];
	u32 ngood;
	u32 cell_left;		/* new packets left on cell_ev */
	u16 cell_ev;
};

void req_init(struct flow *f);
void req_free(struct flow *f);
/* The packet the flow would send now, a lost one first, and the bytes
 * congestion control is asked about; false if the windows hold it.
 */
bool req_next(struct flow *f, u32 *psn, bool *retx, u32 *bytes);
/* Sends what req_next() gave. */
struct pkt *req_send(struct flow *f, u32 psn, bool retx);
void req_rcv_ack(struct flow *f, const struct pkt *pkt);
void req_rcv_nack(struct flow *f, const struct pkt *pkt);
void req_rcv_cnp(struct flow *f);

#endif /* _SIM_REQUESTER_H */
