// SPDX-License-Identifier: GPL-2.0
/*
 * The congestion control registry, the way of an ACK into an algorithm
 * (the measurements of cc_meas.c first), and "none": no window but the MPR
 * (which pdc.c enforces), no pacing. The RoCE-without-DCQCN baseline.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "cc.h"

static void uet_cc_none_init(struct uet_cc *cc, u64 now)
{
}

static u64 uet_cc_none_send_at(struct uet_cc *cc, u64 now, u64 inflight,
			       u32 bytes)
{
	return now;
}

static int uet_cc_none_get_info(const struct uet_cc *cc,
				struct uet_cc_stat *st)
{
	return 0;
}

const struct uet_cc_ops uet_cc_none = {
	.name = "none",
	.init = uet_cc_none_init,
	.send_at = uet_cc_none_send_at,
	.get_info = uet_cc_none_get_info,
};

static const struct uet_cc_ops * const uet_cc_all[UET_CC_NUM] = {
	&uet_cc_none,
	&uet_cc_nscc,
	&uet_cc_dcqcn,
};

const struct uet_cc_ops *uet_cc_find(const char *name)
{
	int i;

	for (i = 0; i < UET_CC_NUM; i++)
		if (uet_cc_all[i] && !strcmp(uet_cc_all[i]->name, name))
			return uet_cc_all[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_cc_find);

const struct uet_cc_ops *uet_cc_get(int i)
{
	return i >= 0 && i < UET_CC_NUM ? uet_cc_all[i] : NULL;
}

/* Index of the parameter called name in ops, or -ENOENT. */
int uet_cc_param_index(const struct uet_cc_ops *ops, const char *name)
{
	u32 i;

	for (i = 0; i < ops->nparams; i++)
		if (!strcmp(ops->params[i].name, name))
			return i;
	return -ENOENT;
}

int uet_cc_index(const struct uet_cc_ops *ops)
{
	int i;

	for (i = 0; i < UET_CC_NUM; i++)
		if (uet_cc_all[i] == ops)
			return i;
	return -ENOENT;
}
EXPORT_SYMBOL_IF_KUNIT(uet_cc_index);

/**
 * uet_cc_init() - start a QP's congestion controller
 * @cc: the controller
 * @ops: the algorithm
 * @mtu: payload bytes of a full packet
 * @params: values of @ops' parameters in their order, NULL for the
 *	defaults
 * @link_mbps: the port's speed: the device's link_mbps, else its
 *	netdev's; 0 when unknown
 * @meas: what the QP starts from, its peer's measurements as of @now
 *	(uet_meas_seed()); NULL for none
 * @now: the time, ns
 */
void uet_cc_init(struct uet_cc *cc, const struct uet_cc_ops *ops, u32 mtu,
		 const u32 *params, u32 link_mbps,
		 const struct uet_cc_meas *meas, u64 now)
{
	u32 i;

	memset(cc, 0, sizeof(*cc));
	cc->ops = ops;
	cc->mtu = mtu;
	cc->link_mbps = link_mbps;
	for (i = 0; i < ops->nparams && i < UET_CC_PARAMS_MAX; i++)
		cc->params[i] = params ? params[i] : ops->params[i].def;
	if (meas)
		cc->meas = *meas;
	ops->init(cc, now);
}
EXPORT_SYMBOL_IF_KUNIT(uet_cc_init);

/* A probe's RTT as a data packet's: the probe, a few bytes, leaves out
 * the time a full packet takes to cross a port at the line rate, which
 * every data sample holds (4 KiB at 40 Mb/s: 0.8 ms of a 2 ms path).
 */
static u64 uet_cc_probe_rtt(const struct uet_cc *cc, u64 rtt)
{
	if (!cc->link_mbps)
		return rtt;
	return rtt + div_u64((u64)cc->mtu * 8 * NSEC_PER_USEC, cc->link_mbps);
}

void uet_cc_ack(struct uet_cc *cc, struct uet_cc_ack *ack)
{
	ack->meas_changed = uet_meas_ack(&cc->meas, ack->now, ack->acked_bytes,
					 ack->rtt_ns);
	if (ack->probe_rtt_ns) {
		u64 rtt = uet_cc_probe_rtt(cc, ack->probe_rtt_ns);

		ack->meas_changed |= uet_meas_ack(&cc->meas, ack->now, 0, rtt);
	}
	if (cc->ops->on_ack)
		cc->ops->on_ack(cc, ack);
}
EXPORT_SYMBOL_IF_KUNIT(uet_cc_ack);

int uet_cc_meas_info(const struct uet_cc *cc, const struct uet_cc_meas *peer,
		     struct uet_cc_stat *st)
{
	st[0] = (struct uet_cc_stat){ "meas_rtt_ns",
				      uet_meas_min_rtt(&cc->meas) };
	st[1] = (struct uet_cc_stat){ "meas_rate_mbps",
		div_u64(uet_meas_max_rate(&cc->meas), 125000) };
	st[2] = (struct uet_cc_stat){ "link_mbps", cc->link_mbps };
	if (!peer)
		return 3;
	st[3] = (struct uet_cc_stat){ "peer_rtt_ns", uet_meas_min_rtt(peer) };
	st[4] = (struct uet_cc_stat){ "peer_rate_mbps",
		div_u64(uet_meas_max_rate(peer), 125000) };
	return 5;
}
