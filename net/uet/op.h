/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The send opcodes (IB_WR_*) a QP's requester takes, one table entry
 * each: what goes on the wire for it, what its completion says, and the
 * rules it is checked by. The requester asks this table rather than
 * switching on the opcode in each place. Pure code on the verbs enums,
 * so KUnit checks the table as a whole.
 */
#ifndef _UET_OP_H
#define _UET_OP_H

#include <rdma/ib_verbs.h>

#include "uet_compat_verbs.h"

/* Taken from kernel consumers only: fast registration is the kernel's. */
#define UET_WR_KERNEL		BIT(0)
/* Runs at the front of the send queue and sends nothing. */
#define UET_WR_LOCAL		BIT(1)
/* Carries the sender's data, so IB_SEND_INLINE applies. */
#define UET_WR_INLINE		BIT(2)
/* Takes a receive WQE at the responder (a SEND, or the immediate). */
#define UET_WR_RECV		BIT(3)
/* Done only when the responder's answer arrives (READ, atomics). */
#define UET_WR_ANSWERED		BIT(4)
/* An 8-byte atomic: one SGE of 8 bytes for the original value. */
#define UET_WR_ATOMIC		BIT(5)
/* Its 8 bytes of data travel in the WQE itself (dma.atomic_wr). */
#define UET_WR_WQE_DATA		BIT(6)
/* Starts only once every packet sent before it is acknowledged, that is
 * placed: uet places packets as they arrive, an ATOMIC WRITE is the flag
 * that tells a reader the data before it has landed, and a FLUSH makes
 * what was placed before it visible.
 */
#define UET_WR_PLACED_AFTER	BIT(7)

/* Names a remote range and carries no data: one packet, whose length is
 * the range's, the WQE's dma.length (FLUSH; librxe puts it there).
 */
#define UET_WR_RANGE		BIT(8)

/**
 * struct uet_wr_op - what the requester does with one send opcode
 * @wire: the verbs header's opcode (UET_OP_*); 0 for a local operation
 * @wc: the opcode its work completion reports
 * @flags: UET_WR_*
 */
struct uet_wr_op {
	u8 wire;
	u8 wc;
	u16 flags;
};

const struct uet_wr_op *uet_wr_op(u32 opcode, bool user);

/* May a UC QP post it? UC has SEND, SEND with immediate or invalidate,
 * RDMA WRITE and WRITE with immediate, and local operations: nothing a
 * responder answers (READ, atomics; IBA vol 1 9.7.x, rdma_rxe's
 * rxe_wr_opcode_info), nor ATOMIC WRITE and FLUSH, which wait for ACKs
 * UC never gets.
 */
static inline bool uet_wr_op_uc(const struct uet_wr_op *op)
{
	return !(op->flags & (UET_WR_ANSWERED | UET_WR_PLACED_AFTER));
}

#endif /* _UET_OP_H */
