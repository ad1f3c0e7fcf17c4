// SPDX-License-Identifier: GPL-2.0
/*
 * Defaults of the device parameters, and where each comes from.
 */

#include "lb.h"
#include "params.h"

void uet_params_init(struct uet_params *p)
{
	u32 i, j;

	/* DSCPs: AF31 for data, AF32 for retransmissions (a class sch_uet
	 * serves first), CS6 for control as NVIDIA's RoCE NICs send their
	 * CNPs (DSCP 48), AF33 for trimmed packets; the same
	 * values are sch_uet's defaults (Documentation/uet/sch_uet.rst).
	 */
	p->dscp_data = 26;
	p->dscp_retx = 28;
	p->dscp_control = 48;
	p->dscp_trimmed = 30;
	/* A few BDP of a 100 Gb/s, 10 us fabric in 4 KiB packets, which is
	 * what NSCC's MaxWnd of 1.5 BDP needs with headroom (UE 1.0 3.6.13).
	 */
	p->mpr = 256;
	/* Coalescing that keeps ACK traffic near 1/16 of data, as a NIC
	 * acknowledging every 64 KiB of 4 KiB packets does.
	 */
	p->ack_every = 16;
	/* No source gives one. The hold adapts to the packets' spacing
	 * (resp.c); this caps it at a fifth of the default rto_min_us, so
	 * that a sender's timer never waits on a held ACK.
	 */
	p->ack_delay_us = 10000;
	/* TCP's duplicate-ACK threshold (RFC 5681) for the SACK loss rule. */
	p->dupthresh = 3;
	p->nack_reorder_pkts = 16;
	p->nack_reorder_us = 4000;
	/* Software endpoints on a shared host: tens of ms of scheduling
	 * noise, so not UET's microseconds; 2 s cap as TCP's RTO backoff.
	 */
	p->rto_min_us = 50000;
	p->rto_max_us = 2000000;
	p->rto_linear = 2;
	p->entropy_count = UET_LB_EV_COUNT_DEFAULT;
	p->reps_ring = UET_LB_REPS_RING_DEFAULT;
	p->reps_freeze_us = UET_LB_REPS_FREEZE_US_DEFAULT;
	/* No source gives one: as long as a REPS freeze, so a path that
	 * comes back is in use again about when REPS explores anew.
	 */
	p->probe_interval_us = 10000;
	/* As many MTU 1500 packets as one skb's fragments hold (train.c):
	 * a sixteenth of the per-packet cost through IP and the netdev.
	 */
	p->train_pkts = 16;
	/* Spraying per packet, as UE's oblivious spraying and REPS pick a
	 * value per packet (UE 1.0 section 3.6.16): a train shares one
	 * value, so a spraying QP sends no trains unless this allows it.
	 * (Flowlets of 16 packets made 4 spines' shares vary by +- 2.2%
	 * instead of +- 0.7%, and overran their buffers in
	 * multipath_spray.)
	 */
	p->flowlet_pkts = 1;
	/* No congestion control but the MPR window, as rxe: NSCC and DCQCN
	 * need their parameters fitted to the fabric (base RTT, line rate).
	 */
	p->cc = &uet_cc_none;
	for (i = 0; i < UET_CC_NUM; i++) {
		const struct uet_cc_ops *ops = uet_cc_get(i);

		for (j = 0; ops && j < ops->nparams; j++)
			p->cc_params[i][j] = ops->params[j].def;
	}
	/* One path per QP, as RoCE: spraying is for fabrics built for it. */
	p->lb = &uet_lb_single;
}
