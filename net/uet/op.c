// SPDX-License-Identifier: GPL-2.0
/*
 * The send opcodes an RC requester takes: those rdma_rxe takes for RC
 * from the same user ABI (rxe_wr_opcode_info[] in rxe_opcode.c).
 */
#include <kunit/visibility.h>
#include <linux/export.h>

#include "op.h"
#include "wire.h"

static const struct uet_wr_op uet_wr_ops[] = {
	[IB_WR_RDMA_WRITE] = {
		.wire = UET_OP_WRITE, .wc = IB_WC_RDMA_WRITE,
		.flags = UET_WR_INLINE,
	},
	[IB_WR_RDMA_WRITE_WITH_IMM] = {
		.wire = UET_OP_WRITE_IMM, .wc = IB_WC_RDMA_WRITE,
		.flags = UET_WR_INLINE | UET_WR_RECV,
	},
	[IB_WR_SEND] = {
		.wire = UET_OP_SEND, .wc = IB_WC_SEND,
		.flags = UET_WR_INLINE | UET_WR_RECV,
	},
	[IB_WR_SEND_WITH_IMM] = {
		.wire = UET_OP_SEND_IMM, .wc = IB_WC_SEND,
		.flags = UET_WR_INLINE | UET_WR_RECV,
	},
	[IB_WR_SEND_WITH_INV] = {
		.wire = UET_OP_SEND_INV, .wc = IB_WC_SEND,
		.flags = UET_WR_INLINE | UET_WR_RECV,
	},
	[IB_WR_RDMA_READ] = {
		.wire = UET_OP_READ_REQ, .wc = IB_WC_RDMA_READ,
		.flags = UET_WR_ANSWERED,
	},
	[IB_WR_ATOMIC_CMP_AND_SWP] = {
		.wire = UET_OP_CMP_SWAP, .wc = IB_WC_COMP_SWAP,
		.flags = UET_WR_ANSWERED | UET_WR_ATOMIC,
	},
	[IB_WR_ATOMIC_FETCH_AND_ADD] = {
		.wire = UET_OP_FETCH_ADD, .wc = IB_WC_FETCH_ADD,
		.flags = UET_WR_ANSWERED | UET_WR_ATOMIC,
	},
	[IB_WR_LOCAL_INV] = {
		.wc = IB_WC_LOCAL_INV,
		.flags = UET_WR_LOCAL,
	},
	[IB_WR_REG_MR] = {
		.wc = IB_WC_REG_MR,
		.flags = UET_WR_KERNEL | UET_WR_LOCAL,
	},
	/* A kernel WR has no bind fields: only users' rings carry it. */
	[IB_WR_BIND_MW] = {
		.wc = IB_WC_BIND_MW,
		.flags = UET_WR_LOCAL,
	},
	/* ib_core has no kernel WR for it: only users' rings carry it. */
	[IB_WR_ATOMIC_WRITE] = {
		.wire = UET_OP_ATOMIC_WRITE, .wc = IB_WC_ATOMIC_WRITE,
		.flags = UET_WR_WQE_DATA | UET_WR_PLACED_AFTER,
	},
#ifdef HAVE_IB_WR_FLUSH
	/* The same, and it must find every earlier WRITE placed (IBA 1.5,
	 * A19.4.1); where the rxe user ABI has no flush WR (Linux 6.1) a
	 * FLUSH WQE completes with IB_WC_LOC_QP_OP_ERR.
	 */
	[IB_WR_FLUSH] = {
		.wire = UET_OP_FLUSH, .wc = IB_WC_FLUSH,
		.flags = UET_WR_RANGE | UET_WR_PLACED_AFTER,
	},
#endif
};

/**
 * uet_wr_op() - the table entry of a send opcode
 * @opcode: IB_WR_*, as a kernel consumer or a user's WQE gave it
 * @user: the WQE came from a user's ring
 *
 * Return: the entry, or NULL if a requester does not take @opcode (from
 * a user, kernel-only opcodes included).
 */
const struct uet_wr_op *uet_wr_op(u32 opcode, bool user)
{
	const struct uet_wr_op *op;

	if (opcode >= ARRAY_SIZE(uet_wr_ops))
		return NULL;
	op = &uet_wr_ops[opcode];
	/* An opcode taken either sends something or is local. */
	if (!op->wire && !(op->flags & UET_WR_LOCAL))
		return NULL;
	if (user && (op->flags & UET_WR_KERNEL))
		return NULL;
	return op;
}
EXPORT_SYMBOL_IF_KUNIT(uet_wr_op);
