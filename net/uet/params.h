/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runtime parameters of a uet device: what "uet dev set" (netlink.c)
 * changes. The transport reads each field with READ_ONCE() where it uses
 * it, so a change applies to every QP at once, but for those read when a
 * QP is created (uet_param_desc.new_qps; lb, cc and cc_params too, which
 * "uet qp set" changes for one QP).
 *
 * Every numeric parameter is one entry of uet_param_descs[] (params.c):
 * its name, attribute, range and default. The netlink policy, get, set
 * and the description the tool shows are made from that table.
 */
#ifndef _UET_PARAMS_H
#define _UET_PARAMS_H

#include <linux/types.h>

#include "cc.h"

struct uet_lb_ops;

/* Names of congestion control and load balancing algorithms. */
#define UET_ALGO_NAME_LEN	16
/* Names of device parameters, with the NUL. */
#define UET_PARAM_NAME_LEN	32

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
	u32 rx_backlog;		/* received skbs a QP queues at most */
	u32 link_mbps;		/* the port's speed; 0: the netdev's */
	const struct uet_cc_ops *cc;	/* congestion control of new QPs */
	/* Every algorithm's parameters, by uet_cc_index() and ops order. */
	u32 cc_params[UET_CC_NUM][UET_CC_PARAMS_MAX];
	const struct uet_lb_ops *lb;	/* load balancing of new QPs */
};

enum uet_param_type {
	UET_PARAM_U8,
	UET_PARAM_U32,
};

/**
 * struct uet_param_desc - a numeric device parameter
 * @name: its name in "uet dev", the documentation and UET_A_PARAM_NAME
 * @attr: its own attribute, a UET_A_DEV_* of the same width as @type
 * @type: width of the field and of @attr
 * @new_qps: read when a QP is created, not at each use
 * @offset: of the field in struct uet_params
 * @min: lowest valid value
 * @max: highest valid value
 * @def: the value a new device starts with
 */
struct uet_param_desc {
	const char *name;
	u16 attr;
	u8 type;
	bool new_qps;
	u16 offset;
	u32 min;
	u32 max;
	u32 def;
};

/* Entries uet_param_descs[] may have, for bitmaps of them. */
#define UET_PARAMS_MAX		64

extern const struct uet_param_desc uet_param_descs[];
extern const unsigned int uet_param_count;

/* The entry of a parameter name, or NULL. */
const struct uet_param_desc *uet_param_find(const char *name);

/* The field @d describes in @p; the write is a WRITE_ONCE(), for
 * readers on the data path, and takes a value already in @d's range.
 */
u32 uet_param_read(const struct uet_params *p, const struct uet_param_desc *d);
void uet_param_write(struct uet_params *p, const struct uet_param_desc *d,
		     u32 val);

/* The rules between parameters that the ranges cannot say: NULL if the
 * values (by table index) keep them, else the message and in *@d the
 * parameter that breaks one.
 */
const char *uet_params_check(const u32 *val, const struct uet_param_desc **d);

void uet_params_init(struct uet_params *p);

#define uet_param(udev, field)	READ_ONCE((udev)->params.field)

#endif /* _UET_PARAMS_H */
