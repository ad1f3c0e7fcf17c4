/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime parameters of a uet device: what "uet dev set" (netlink.c)
 * changes. The transport reads each field with READ_ONCE() where it uses
 * it, so a change applies to every QP at once; mpr, entropy_count, lb,
 * cc and cc_params are read when a QP is created (or set by "uet qp
 * set").
 */
#ifndef _UET_PARAMS_H
#define _UET_PARAMS_H

#include <linux/types.h>

#include "cc.h"

struct uet_lb_ops;

#define UET_PARAM_NAME_LEN	16

struct uet_params {
	u8 dscp_data;
	u8 dscp_retx;
	u8 dscp_control;
	u8 dscp_trimmed;	/* what a switch marks a trimmed packet with */
	u32 mpr;		/* packets in flight per QP direction */
	u32 ack_every;		/* packets per coalesced ACK */
	u32 ack_delay_us;	/* longest an ACK is held */
	u32 dupthresh;		/* later packets acked before a hole is lost */
	u32 nack_reorder_pkts;	/* a receiver NACKs a hole this far behind */
	u32 nack_reorder_us;	/* ... that stayed open this long */
	u32 rto_min_us;
	u32 rto_max_us;
	u32 rto_linear;		/* expiries with linear backoff */
	u32 entropy_count;	/* entropy values a QP sprays over */
	u32 reps_ring;		/* REPS: recycled values kept */
	u32 reps_freeze_us;	/* REPS: freeze after a loss */
	u32 probe_interval_us;	/* between probes of a value assumed bad */
	u32 train_pkts;		/* new packets sent as one skb at most */
	u32 flowlet_pkts;	/* ... on one entropy value, when spraying */
	const struct uet_cc_ops *cc;	/* congestion control of new QPs */
	/* Every algorithm's parameters, by uet_cc_index() and ops order. */
	u32 cc_params[UET_CC_NUM][UET_CC_PARAMS_MAX];
	const struct uet_lb_ops *lb;	/* load balancing of new QPs */
};

void uet_params_init(struct uet_params *p);

#define uet_param(udev, field)	READ_ONCE((udev)->params.field)

#endif /* _UET_PARAMS_H */
