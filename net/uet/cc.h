/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Congestion control: an ops table per algorithm, in the spirit of
 * tcp_congestion_ops. The transport (req.c, resp.c) feeds it what ACKs,
 * NACKs, CNPs and timeouts say and asks it when the next packet may
 * leave. Pure logic: no ib_core, no sockets, no clock of its own (every
 * call passes "now" in ns), no timers (an algorithm catches up on its
 * periodic updates lazily from "now"), so KUnit drives it on a fake
 * clock.
 */
#ifndef _UET_CC_H
#define _UET_CC_H

#include <linux/types.h>

#include "cc_meas.h"

/* Parameters an algorithm may declare, and statistics it may report. */
#define UET_CC_PARAMS_MAX	24
#define UET_CC_STATS_MAX	20
/* Private state, in u64 words (like ICSK_CA_PRIV_SIZE). */
#define UET_CC_PRIV_U64		32

/* One tunable: "uet dev set DEV cc-param NAME VALUE". */
struct uet_cc_param {
	const char *name;
	u32 def;		/* default, its source named where declared */
	u32 min, max;
};

/* One reported value: "uet qp show" prints it as NAME VALUE. */
struct uet_cc_stat {
	const char *name;
	u64 value;
};

/* What one ACK told the sender. */
struct uet_cc_ack {
	u64 now;
	u64 acked_bytes;	/* newly acknowledged, cumulative + selective */
	u64 inflight_bytes;	/* bytes still unacknowledged after it */
	u64 rtt_ns;		/* RTT sample net of the receiver's service
				 * time; 0 when the ACK gives none
				 */
	u64 srtt_ns;		/* the QP's smoothed RTT, send to ACK, the
				 * hosts' time included: how long a window
				 * takes to come back (0: none yet)
				 */
	bool ecn;		/* a CE-marked packet is among those acked */
	u8 rcv_cwnd_pend;	/* receiver backpressure, 0..127 */
	u16 entropy;		/* entropy value of the packet that
				 * triggered the ACK (0: unknown)
				 */
	u64 probe_rtt_ns;	/* the peer's base-RTT probe answered since
				 * the last ACK, its RTT; 0: none
				 */
	bool meas_changed;	/* set by uet_cc_ack(): cc->meas moved */
};

struct uet_cc;

/**
 * struct uet_cc_ops - a congestion control algorithm
 * @name: what "uet dev set DEV cc NAME" chooses it by
 * @params: its tunables, @nparams of them
 * @nparams: entries of @params
 * @init: start; cc->mtu, cc->link_mbps and cc->params are set, the
 *	private area zeroed, cc->meas zeroed or seeded with the peer's
 * @on_ack: what one ACK told the sender, cc->meas already updated by it
 * @on_nack: a NACK for a packet of @bytes, @trimmed when a switch cut it
 *	(else the receiver saw a hole)
 * @on_loss: packets of @bytes declared lost, by the SACK rule or by
 *	@timeout
 * @on_late: packets of @bytes that @on_loss was told of arrived after all,
 *	before they were resent: the loss response to them was wrong and
 *	may be undone (RFC 5682's spurious timeouts, RFC 3708's undo)
 * @on_cnp: a congestion notification packet (DCQCN) arrived
 * @on_ce: at the receiver, a CE-marked data packet arrived: true to
 *	answer it with a CNP (DCQCN's notification point); NULL when the
 *	algorithm reads ECN from the ACKs' echo only
 * @on_send: a packet of @bytes left, @retx if a retransmission
 * @send_at: when a packet of @bytes may leave with @inflight_bytes out: a
 *	time <= @now at once, a later time (pacing) ask again then, U64_MAX
 *	when the window is full (wait for an ACK)
 * @get_info: fills up to UET_CC_STATS_MAX values, returns how many
 * @wnd: the bytes the window lets be in flight; NULL when the algorithm
 *	has no window (a pacer, or none)
 *
 * @init, @send_at and @get_info are required; the other hooks may be
 * NULL. Every hook is called by the QP's engine, one at a time.
 */
struct uet_cc_ops {
	const char *name;
	const struct uet_cc_param *params;
	u32 nparams;

	void (*init)(struct uet_cc *cc, u64 now);
	void (*on_ack)(struct uet_cc *cc, const struct uet_cc_ack *ack);
	void (*on_nack)(struct uet_cc *cc, u64 now, u32 bytes, bool trimmed,
			u64 inflight_bytes);
	void (*on_loss)(struct uet_cc *cc, u64 now, u32 bytes, bool timeout);
	void (*on_late)(struct uet_cc *cc, u64 now, u32 bytes);
	void (*on_cnp)(struct uet_cc *cc, u64 now);
	bool (*on_ce)(struct uet_cc *cc, u64 now);
	void (*on_send)(struct uet_cc *cc, u64 now, u32 bytes, bool retx);
	u64 (*send_at)(struct uet_cc *cc, u64 now, u64 inflight_bytes,
		       u32 bytes);
	int (*get_info)(const struct uet_cc *cc, struct uet_cc_stat *st);
	u64 (*wnd)(const struct uet_cc *cc);
};

/* One QP's congestion controller; owned by the QP's work. */
struct uet_cc {
	const struct uet_cc_ops *ops;
	u32 mtu;		/* payload bytes of a full packet */
	u32 link_mbps;		/* the port's speed; 0: unknown */
	u32 params[UET_CC_PARAMS_MAX];	/* ops->params order */
	struct uet_cc_meas meas;	/* what the ACKs measured */
	u64 priv[UET_CC_PRIV_U64];
};

static inline void *uet_cc_priv(struct uet_cc *cc)
{
	return cc->priv;
}

static inline const void *uet_cc_priv_const(const struct uet_cc *cc)
{
	return cc->priv;
}

extern const struct uet_cc_ops uet_cc_none;
extern const struct uet_cc_ops uet_cc_nscc;
extern const struct uet_cc_ops uet_cc_dcqcn;

const struct uet_cc_ops *uet_cc_find(const char *name);
/* Index of ops in the registry (for per-device parameter tables). */
int uet_cc_index(const struct uet_cc_ops *ops);
const struct uet_cc_ops *uet_cc_get(int i);
int uet_cc_param_index(const struct uet_cc_ops *ops, const char *name);
#define UET_CC_NUM		3

void uet_cc_init(struct uet_cc *cc, const struct uet_cc_ops *ops, u32 mtu,
		 const u32 *params, u32 link_mbps,
		 const struct uet_cc_meas *meas, u64 now);
/* An ACK: the measurements first, then the algorithm's on_ack. */
void uet_cc_ack(struct uet_cc *cc, struct uet_cc_ack *ack);
/* The measured inputs as stats ("uet qp show"), 3 of them, 5 with what a
 * new QP to the same peer would start with (@peer, uet_meas_seed()).
 */
#define UET_CC_MEAS_STATS	5
int uet_cc_meas_info(const struct uet_cc *cc, const struct uet_cc_meas *peer,
		     struct uet_cc_stat *st);

#endif /* _UET_CC_H */
