/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-device transport counters, shown by "rdma statistic" (hw counters).
 * Per-CPU so the data path never shares a cache line to count.
 */
#ifndef _UET_COUNTERS_H
#define _UET_COUNTERS_H

#include <linux/percpu.h>
#include <linux/types.h>

enum uet_counter {
	UET_CNT_TX_PKTS,
	UET_CNT_TX_BYTES,
	UET_CNT_TX_SKBS,	/* what IP got: a train is one (train.h) */
	UET_CNT_RX_PKTS,
	UET_CNT_RX_BYTES,
	UET_CNT_RX_SKBS,	/* what UDP handed up: a train whole is one */
	UET_CNT_RETX_PKTS,	/* packets sent again, any reason */
	UET_CNT_RETX_SACK,	/* ... because the SACK showed a hole */
	UET_CNT_RETX_NACK,	/* ... because the receiver NACKed it */
	UET_CNT_RETX_RTO,	/* ... because the retransmit timer fired */
	UET_CNT_NACK_TX,
	UET_CNT_NACK_RX,
	UET_CNT_TRIMMED_RX,
	UET_CNT_DUP_RX,		/* duplicate data packets (acked, not applied) */
	UET_CNT_OOO_RX,		/* data packets that arrived ahead of a hole */
	UET_CNT_RTO,		/* retransmit timer expiries */
	UET_CNT_ECN_CE_RX,
	UET_CNT_ACK_TX,
	UET_CNT_ACK_RX,
	UET_CNT_RNR_NACK_TX,
	UET_CNT_RNR_NACK_RX,
	UET_CNT_DROP_MALFORMED,	/* truncated or invalid headers */
	UET_CNT_DROP_CSUM,	/* UDP checksum wrong */
	UET_CNT_DROP_NO_QP,	/* unknown or wrong-state destination QP */
	UET_CNT_DROP_WINDOW,	/* PSN outside the receive window */
	UET_CNT_DROP_ACCESS,	/* bad rkey, bounds or permissions */
	UET_CNT_DROP_BACKLOG,	/* the QP's receive queue was full */
	UET_CNT_PROBE_TX,	/* probes of entropy values assumed bad */
	UET_CNT_PROBE_ANSWERED,	/* probes from peers answered */
	UET_CNT_PROBE_RECOVERED,	/* values a probe answer made good */
	UET_CNT_CNP_TX,		/* DCQCN congestion notifications sent */
	UET_CNT_CNP_RX,
	UET_CNT_TX_NOMEM,	/* packets put off: an atomic allocation failed */
	UET_CNT_UC_MSG_DROP,	/* UC messages a lost packet or an error dropped */
	UET_CNT_MAX,
};

struct uet_counters {
	u64 cnt[UET_CNT_MAX];
};

struct ib_device;
struct rdma_hw_stats;
struct uet_dev;

const char *uet_counter_name(enum uet_counter idx);
/* val: UET_CNT_MAX entries, the sums over all CPUs. */
void uet_counters_sum(struct uet_dev *udev, u64 *val);

struct rdma_hw_stats *uet_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port);
int uet_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index);

#define uet_count(udev, idx, n) this_cpu_add((udev)->stats->cnt[idx], (n))
#define uet_inc(udev, idx) uet_count(udev, idx, 1)

#endif /* _UET_COUNTERS_H */
