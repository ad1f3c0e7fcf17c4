// SPDX-License-Identifier: GPL-2.0
/*
 * Per-device counters as RDMA hw counters: "rdma statistic show link
 * DEV/1". Names are part of the user interface (Documentation/uet/).
 */
#include "uet.h"

static const struct rdma_stat_desc uet_counter_descs[UET_CNT_MAX] = {
	[UET_CNT_TX_PKTS].name = "tx_packets",
	[UET_CNT_TX_BYTES].name = "tx_bytes",
	[UET_CNT_TX_SKBS].name = "tx_skbs",
	[UET_CNT_RX_PKTS].name = "rx_packets",
	[UET_CNT_RX_BYTES].name = "rx_bytes",
	[UET_CNT_RX_SKBS].name = "rx_skbs",
	[UET_CNT_RETX_PKTS].name = "retransmits",
	[UET_CNT_RETX_SACK].name = "retransmits_sack",
	[UET_CNT_RETX_NACK].name = "retransmits_nack",
	[UET_CNT_RETX_RTO].name = "retransmits_rto",
	[UET_CNT_NACK_TX].name = "nacks_sent",
	[UET_CNT_NACK_RX].name = "nacks_received",
	[UET_CNT_TRIMMED_RX].name = "trimmed_received",
	[UET_CNT_DUP_RX].name = "duplicates_received",
	[UET_CNT_OOO_RX].name = "out_of_order_received",
	[UET_CNT_RTO].name = "rto_expired",
	[UET_CNT_ECN_CE_RX].name = "ecn_ce_received",
	[UET_CNT_ACK_TX].name = "acks_sent",
	[UET_CNT_ACK_RX].name = "acks_received",
	[UET_CNT_RNR_NACK_TX].name = "rnr_nacks_sent",
	[UET_CNT_RNR_NACK_RX].name = "rnr_nacks_received",
	[UET_CNT_DROP_MALFORMED].name = "drop_malformed",
	[UET_CNT_DROP_CSUM].name = "drop_checksum",
	[UET_CNT_DROP_NO_QP].name = "drop_no_qp",
	[UET_CNT_DROP_WINDOW].name = "drop_out_of_window",
	[UET_CNT_DROP_ACCESS].name = "drop_access",
	[UET_CNT_DROP_BACKLOG].name = "drop_backlog",
	[UET_CNT_PROBE_TX].name = "probes_sent",
	[UET_CNT_PROBE_ANSWERED].name = "probes_answered",
	[UET_CNT_PROBE_RECOVERED].name = "paths_recovered",
	[UET_CNT_CNP_TX].name = "cnps_sent",
	[UET_CNT_CNP_RX].name = "cnps_received",
	[UET_CNT_TX_NOMEM].name = "tx_nomem",
	[UET_CNT_UC_MSG_DROP].name = "uc_msg_dropped",
};

struct rdma_hw_stats *uet_alloc_hw_port_stats(struct ib_device *ibdev,
					      u32 port)
{
	return rdma_alloc_hw_stats_struct(uet_counter_descs, UET_CNT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

const char *uet_counter_name(enum uet_counter idx)
{
	return uet_counter_descs[idx].name;
}

void uet_counters_sum(struct uet_dev *udev, u64 *val)
{
	int cpu, i;

	for (i = 0; i < UET_CNT_MAX; i++)
		val[i] = 0;
	for_each_possible_cpu(cpu) {
		const struct uet_counters *c = per_cpu_ptr(udev->stats, cpu);

		for (i = 0; i < UET_CNT_MAX; i++)
			val[i] += c->cnt[i];
	}
}

int uet_get_hw_stats(struct ib_device *ibdev, struct rdma_hw_stats *stats,
		     u32 port, int index)
{
	uet_counters_sum(to_udev(ibdev), stats->value);
	return UET_CNT_MAX;
}
