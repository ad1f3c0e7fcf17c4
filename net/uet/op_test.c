// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the table of send opcodes (op.c) as a whole.
 */
#include <kunit/test.h>

#include "op.h"
#include "wire.h"

/* Every opcode ib_verbs.h defines (IB_WR_REG_MR is 0x20), and beyond. */
#define UET_OP_TEST_MAX		64

static void uet_wr_op_taken_test(struct kunit *test)
{
	static const u32 taken[] = {
		IB_WR_RDMA_WRITE, IB_WR_RDMA_WRITE_WITH_IMM, IB_WR_SEND,
		IB_WR_SEND_WITH_IMM, IB_WR_SEND_WITH_INV, IB_WR_RDMA_READ,
		IB_WR_ATOMIC_CMP_AND_SWP, IB_WR_ATOMIC_FETCH_AND_ADD,
		IB_WR_LOCAL_INV, IB_WR_BIND_MW, IB_WR_ATOMIC_WRITE,
#ifdef HAVE_IB_WR_FLUSH
		IB_WR_FLUSH,
#endif
	};
	u32 i, n = 0;

	for (i = 0; i < ARRAY_SIZE(taken); i++)
		KUNIT_EXPECT_NOT_NULL(test, uet_wr_op(taken[i], true));
	/* Nothing else from a user; and no high bits ignored. */
	for (i = 0; i < UET_OP_TEST_MAX; i++)
		n += !!uet_wr_op(i, true);
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(taken));
	KUNIT_EXPECT_NULL(test, uet_wr_op(0x100 + IB_WR_SEND, true));
	KUNIT_EXPECT_NULL(test, uet_wr_op(U32_MAX, false));
	/* Fast registration: the kernel's; invalidation: everyone's (of
	 * windows too).
	 */
	KUNIT_EXPECT_NULL(test, uet_wr_op(IB_WR_REG_MR, true));
	KUNIT_EXPECT_NOT_NULL(test, uet_wr_op(IB_WR_REG_MR, false));
	KUNIT_EXPECT_NOT_NULL(test, uet_wr_op(IB_WR_LOCAL_INV, false));
	/* Not implemented: refused, not sent as something else. */
	KUNIT_EXPECT_NULL(test, uet_wr_op(IB_WR_LSO, false));
}

/* Each opcode taken: a wire request of its own if it sends, and the
 * rules that follow from its meaning.
 */
static void uet_wr_op_each_test(struct kunit *test)
{
	bool seen[UET_OP_MAX + 1] = {};
	const struct uet_wr_op *op;
	u32 i;

	for (i = 0; i < UET_OP_TEST_MAX; i++) {
		op = uet_wr_op(i, false);
		if (!op)
			continue;
		/* Answered ones carry no data of the sender's to inline. */
		if (op->flags & UET_WR_ANSWERED)
			KUNIT_EXPECT_FALSE(test, op->flags & UET_WR_INLINE);
		/* An atomic is answered, a local operation is not. */
		if (op->flags & UET_WR_ATOMIC)
			KUNIT_EXPECT_TRUE(test, op->flags & UET_WR_ANSWERED);
		if (op->flags & UET_WR_LOCAL) {
			KUNIT_EXPECT_FALSE(test, op->flags &
					   (UET_WR_ANSWERED | UET_WR_RECV));
			KUNIT_EXPECT_EQ(test, op->wire, 0);
			KUNIT_EXPECT_FALSE(test, op->flags & UET_WR_INLINE);
			continue;
		}
		KUNIT_ASSERT_GE(test, op->wire, UET_OP_SEND);
		KUNIT_ASSERT_LE(test, op->wire, UET_OP_MAX);
		KUNIT_EXPECT_FALSE(test, seen[op->wire]);
		seen[op->wire] = true;
		KUNIT_EXPECT_NE(test, op->wire, UET_OP_READ_RESP);
		KUNIT_EXPECT_NE(test, op->wire, UET_OP_ATOMIC_RESP);
	}
}

/* What the IBA says of particular opcodes. */
static void uet_wr_op_named_test(struct kunit *test)
{
	const struct uet_wr_op *op;

	/* A receive WQE for exactly the SENDs and the WRITE's immediate. */
	KUNIT_EXPECT_TRUE(test, uet_wr_op(IB_WR_SEND, true)->flags & UET_WR_RECV);
	KUNIT_EXPECT_TRUE(test, uet_wr_op(IB_WR_SEND_WITH_INV, true)->flags & UET_WR_RECV);
	KUNIT_EXPECT_TRUE(test, uet_wr_op(IB_WR_RDMA_WRITE_WITH_IMM, true)->flags &
			  UET_WR_RECV);
	KUNIT_EXPECT_FALSE(test, uet_wr_op(IB_WR_RDMA_WRITE, true)->flags & UET_WR_RECV);
	KUNIT_EXPECT_FALSE(test, uet_wr_op(IB_WR_RDMA_READ, true)->flags & UET_WR_RECV);
	/* Completions as the IBA names them (a WRITE with immediate is a
	 * WRITE at the requester).
	 */
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_RDMA_WRITE_WITH_IMM, true)->wc,
			IB_WC_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_SEND_WITH_INV, true)->wc, IB_WC_SEND);
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_ATOMIC_FETCH_AND_ADD, true)->wc,
			IB_WC_FETCH_ADD);
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_REG_MR, false)->wc, IB_WC_REG_MR);
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_BIND_MW, true)->wc, IB_WC_BIND_MW);
	KUNIT_EXPECT_EQ(test, uet_wr_op(IB_WR_LOCAL_INV, true)->wc,
			IB_WC_LOCAL_INV);
	/* ATOMIC WRITE: 8 bytes of the WQE's, a flag that lands only after
	 * what was sent before it, answered by an ACK as a WRITE is.
	 */
	op = uet_wr_op(IB_WR_ATOMIC_WRITE, true);
	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_EQ(test, op->wc, IB_WC_ATOMIC_WRITE);
	KUNIT_EXPECT_EQ(test, op->wire, UET_OP_ATOMIC_WRITE);
	KUNIT_EXPECT_EQ(test, op->flags, UET_WR_WQE_DATA | UET_WR_PLACED_AFTER);
#ifdef HAVE_IB_WR_FLUSH
	/* FLUSH: a remote range and no data, sent once every packet before
	 * it is placed, answered by an ACK.
	 */
	op = uet_wr_op(IB_WR_FLUSH, true);
	KUNIT_ASSERT_NOT_NULL(test, op);
	KUNIT_EXPECT_EQ(test, op->wc, IB_WC_FLUSH);
	KUNIT_EXPECT_EQ(test, op->wire, UET_OP_FLUSH);
	KUNIT_EXPECT_EQ(test, op->flags, UET_WR_RANGE | UET_WR_PLACED_AFTER);
#else
	/* Without the rxe ABI's flush WR a FLUSH WQE is refused. */
	KUNIT_EXPECT_NULL(test, uet_wr_op(14, true));
#endif
}

/* UC takes what needs no answer and no ACK (op.h uet_wr_op_uc()). */
static void uet_wr_op_uc_test(struct kunit *test)
{
	static const u32 uc[] = {
		IB_WR_SEND, IB_WR_SEND_WITH_IMM, IB_WR_SEND_WITH_INV,
		IB_WR_RDMA_WRITE, IB_WR_RDMA_WRITE_WITH_IMM, IB_WR_LOCAL_INV,
		IB_WR_BIND_MW,
	};
	static const u32 not_uc[] = {
		IB_WR_RDMA_READ, IB_WR_ATOMIC_CMP_AND_SWP,
		IB_WR_ATOMIC_FETCH_AND_ADD, IB_WR_ATOMIC_WRITE,
#ifdef HAVE_IB_WR_FLUSH
		IB_WR_FLUSH,
#endif
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(uc); i++)
		KUNIT_EXPECT_TRUE(test, uet_wr_op_uc(uet_wr_op(uc[i], true)));
	for (i = 0; i < ARRAY_SIZE(not_uc); i++)
		KUNIT_EXPECT_FALSE(test, uet_wr_op_uc(uet_wr_op(not_uc[i], true)));
}

static struct kunit_case uet_op_cases[] = {
	KUNIT_CASE(uet_wr_op_taken_test),
	KUNIT_CASE(uet_wr_op_each_test),
	KUNIT_CASE(uet_wr_op_named_test),
	KUNIT_CASE(uet_wr_op_uc_test),
	{}
};

static struct kunit_suite uet_op_suite = {
	.name = "uet_op",
	.test_cases = uet_op_cases,
};

kunit_test_suite(uet_op_suite);
