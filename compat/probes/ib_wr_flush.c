// SPDX-License-Identifier: GPL-2.0
/*
 * ib_core's RDMA FLUSH and ATOMIC WRITE: the send and completion opcodes,
 * the flush rights and capabilities, and the flush WR of the rxe user ABI
 * that librxe fills (Linux 6.2).
 */
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

u64 uet_probe(const struct rxe_send_wr *wr);
u64 uet_probe(const struct rxe_send_wr *wr)
{
	return IB_WR_FLUSH + IB_WR_ATOMIC_WRITE + IB_WC_FLUSH +
	       IB_WC_ATOMIC_WRITE + IB_ACCESS_FLUSH_GLOBAL +
	       IB_ACCESS_FLUSH_PERSISTENT + IB_FLUSH_PERSISTENT + IB_FLUSH_MR +
	       IB_DEVICE_FLUSH_GLOBAL + IB_DEVICE_ATOMIC_WRITE +
	       wr->wr.flush.rkey + wr->wr.flush.type + wr->wr.flush.level;
}
