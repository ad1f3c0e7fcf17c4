// SPDX-License-Identifier: GPL-2.0
/*
 * The device parameters: one table entry each (name, attribute, range,
 * default and where the default comes from), and the rules between them.
 * Documentation/uet/admin-guide/uet-dev.rst has the same table for users;
 * the YNL spec lists each attribute with the same range
 * (selftests/netlink_spec.sh compares it with the policy netlink.c makes
 * from this table).
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/uet.h>

#include "lb.h"
#include "params.h"
#include "pdc.h"
#include "train.h"

#define UET_PARAM(ATTR, field, lo, hi, dflt, qps) {			\
	.name = #field,							\
	.attr = UET_A_DEV_##ATTR,					\
	.type = sizeof_field(struct uet_params, field) == 1 ?		\
		UET_PARAM_U8 : UET_PARAM_U32,				\
	.new_qps = qps,							\
	.offset = offsetof(struct uet_params, field) +			\
		  BUILD_BUG_ON_ZERO(sizeof_field(struct uet_params, field) != 1 && \
				    sizeof_field(struct uet_params, field) != 4), \
	.min = lo,							\
	.max = hi,							\
	.def = dflt,							\
}

/* Applies to every QP at once, or to the QPs created after the change. */
#define UET_PARAM_NOW(ATTR, field, lo, hi, dflt) \
	UET_PARAM(ATTR, field, lo, hi, dflt, false)
#define UET_PARAM_NEW_QPS(ATTR, field, lo, hi, dflt) \
	UET_PARAM(ATTR, field, lo, hi, dflt, true)

/* In the order "uet dev show" prints them. */
const struct uet_param_desc uet_param_descs[] = {
	/* AF31 for data, AF32 for retransmissions (a class sch_uet serves
	 * first), CS6 for control as NVIDIA's RoCE NICs send their CNPs
	 * (DSCP 48), AF33 for trimmed packets; the same values are
	 * sch_uet's defaults (Documentation/uet/admin-guide/sch_uet.rst).
	 */
	UET_PARAM_NOW(DSCP_DATA, dscp_data, 0, 63, 26),
	UET_PARAM_NOW(DSCP_RETX, dscp_retx, 0, 63, 28),
	UET_PARAM_NOW(DSCP_CONTROL, dscp_control, 0, 63, 48),
	UET_PARAM_NOW(DSCP_TRIMMED, dscp_trimmed, 0, 63, 30),
	/* A few BDP of a 100 Gb/s, 10 us fabric in 4 KiB packets, which is
	 * what NSCC's MaxWnd of 1.5 BDP needs with headroom (UE 1.0
	 * section 3.6.13).
	 */
	UET_PARAM_NEW_QPS(MPR, mpr, 1, UET_PDC_WIN_MAX, 256),
	/* Coalescing that keeps ACK traffic near 1/16 of data, as a NIC
	 * acknowledging every 64 KiB of 4 KiB packets does.
	 */
	UET_PARAM_NOW(ACK_EVERY, ack_every, 1, UET_PDC_WIN_MAX, 16),
	/* No source gives one. The hold adapts to the packets' spacing
	 * (resp.c); this caps it at a fifth of the default rto_min_us, so
	 * that a sender's timer never waits on a held ACK.
	 */
	UET_PARAM_NOW(ACK_DELAY_US, ack_delay_us, 1, 100000, 10000),
	/* TCP's duplicate-ACK threshold (RFC 5681) for the SACK loss rule. */
	UET_PARAM_NOW(DUPTHRESH, dupthresh, 1, 64, 3),
	/* No source gives these: a hole overtaken by as many packets as
	 * one ACK covers (ack_every), and older than 4 ms.
	 */
	UET_PARAM_NOW(NACK_REORDER_PKTS, nack_reorder_pkts, 1,
		      UET_PDC_WIN_MAX, 16),
	UET_PARAM_NOW(NACK_REORDER_US, nack_reorder_us, 1, 10000000, 4000),
	/* Software endpoints on a shared host: tens of ms of scheduling
	 * noise, so not UET's microseconds; 2 s cap as TCP's RTO backoff
	 * (RFC 6298).
	 */
	UET_PARAM_NOW(RTO_MIN_US, rto_min_us, 1000, 60000000, 50000),
	UET_PARAM_NOW(RTO_MAX_US, rto_max_us, 1000, 60000000, 2000000),
	UET_PARAM_NOW(RTO_LINEAR, rto_linear, 0, 16, 2),
	UET_PARAM_NEW_QPS(ENTROPY_COUNT, entropy_count, 1, UET_LB_EV_SPACE,
			  UET_LB_EV_COUNT_DEFAULT),
	UET_PARAM_NOW(REPS_RING, reps_ring, 1, UET_LB_REPS_RING_MAX,
		      UET_LB_REPS_RING_DEFAULT),
	UET_PARAM_NOW(REPS_FREEZE_US, reps_freeze_us, 100, 10000000,
		      UET_LB_REPS_FREEZE_US_DEFAULT),
	/* No source gives one: as long as a REPS freeze, so a path that
	 * comes back is in use again about when REPS explores anew.
	 */
	UET_PARAM_NOW(PROBE_INTERVAL_US, probe_interval_us, 100, 10000000,
		      10000),
	/* As many packets as one UDP GSO skb may carry: 64 KiB holds 45
	 * of MTU 1500 on a netdev taking chained trains (train.h), what
	 * TCP puts in one GSO skb; about 6 elsewhere, one skb's fragments.
	 * (64 KiB WRITEs over veth at MTU 1500, emulated: 196 MB/s with
	 * trains of 16, 203 with 45.)
	 */
	UET_PARAM_NOW(TRAIN_PKTS, train_pkts, 1, UET_TRAIN_MAX_PKTS,
		      UET_TRAIN_MAX_PKTS),
	/* Flowcells (Presto, SIGCOMM 2015): a spraying QP keeps a value
	 * for a train, its length by the window and the fabric's signals
	 * (0, uet_lb_flowlet()), since a software host pays per skb; N
	 * fixes it, 1 picks a value per packet as UE 1.0 section 3.6.16
	 * describes.
	 */
	UET_PARAM_NOW(FLOWLET_PKTS, flowlet_pkts, 0, UET_TRAIN_MAX_PKTS, 0),
	/* No source gives one: eight windows of the default mpr, so that
	 * a peer keeping within its window never finds the queue full. It
	 * bounds the skbs a peer (or anyone forging its address) can make
	 * one QP hold while its engine is busy; drop_backlog counts the rest.
	 */
	UET_PARAM_NOW(RX_BACKLOG, rx_backlog, 16, 65536, 2048),
	/* The port's speed, Mb/s, for a netdev that reports none or one
	 * that is not what its packets get (veth says 10 Gb/s, a VM's NIC
	 * what its host gives it): the line rate of NSCC and DCQCN on auto.
	 * 0: the netdev's (ethtool); up to 1 Tb/s.
	 */
	UET_PARAM_NEW_QPS(LINK_MBPS, link_mbps, 0, 1000000, 0),
};
EXPORT_SYMBOL_IF_KUNIT(uet_param_descs);

const unsigned int uet_param_count = ARRAY_SIZE(uet_param_descs);
EXPORT_SYMBOL_IF_KUNIT(uet_param_count);
static_assert(ARRAY_SIZE(uet_param_descs) <= UET_PARAMS_MAX);

const struct uet_param_desc *uet_param_find(const char *name)
{
	unsigned int i;

	for (i = 0; i < uet_param_count; i++)
		if (!strcmp(uet_param_descs[i].name, name))
			return &uet_param_descs[i];
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_param_find);

u32 uet_param_read(const struct uet_params *p, const struct uet_param_desc *d)
{
	const void *field = (const u8 *)p + d->offset;

	if (d->type == UET_PARAM_U8)
		return READ_ONCE(*(const u8 *)field);
	return READ_ONCE(*(const u32 *)field);
}
EXPORT_SYMBOL_IF_KUNIT(uet_param_read);

void uet_param_write(struct uet_params *p, const struct uet_param_desc *d,
		     u32 val)
{
	void *field = (u8 *)p + d->offset;

	if (d->type == UET_PARAM_U8)
		WRITE_ONCE(*(u8 *)field, val);
	else
		WRITE_ONCE(*(u32 *)field, val);
}
EXPORT_SYMBOL_IF_KUNIT(uet_param_write);

const char *uet_params_check(const u32 *val, const struct uet_param_desc **d)
{
	const struct uet_param_desc *lo = uet_param_find("rto_min_us");
	const struct uet_param_desc *hi = uet_param_find("rto_max_us");

	if (val[lo - uet_param_descs] > val[hi - uet_param_descs]) {
		*d = lo;
		return "rto_min_us must not exceed rto_max_us";
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_params_check);

void uet_params_init(struct uet_params *p)
{
	unsigned int i, j;

	for (i = 0; i < uet_param_count; i++)
		uet_param_write(p, &uet_param_descs[i], uet_param_descs[i].def);
	/* As a UET NIC starts: NSCC (UE 1.0 section 3.6.17), its base RTT
	 * and line rate found on the fabric, and REPS (section 3.6.16).
	 * "cc none" and "lb single" remain settings: rxe's and RoCE's
	 * behaviour.
	 */
	p->cc = &uet_cc_nscc;
	for (i = 0; i < UET_CC_NUM; i++) {
		const struct uet_cc_ops *ops = uet_cc_get(i);

		for (j = 0; ops && j < ops->nparams; j++)
			p->cc_params[i][j] = ops->params[j].def;
	}
	p->lb = &uet_lb_reps;
}
EXPORT_SYMBOL_IF_KUNIT(uet_params_init);
