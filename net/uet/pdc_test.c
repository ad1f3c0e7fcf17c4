// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the delivery context on its own, with a fake clock. Window
 * limits, SACK generation and application, loss detection and the order
 * of retransmissions, RTO backoff, exactly-once delivery on receive.
 */
#include <kunit/test.h>

#include "pdc.h"

#define MS	1000000ULL

struct uet_pdc_test_rel {
	u32 count;
	u32 last;
};

static void uet_pdc_test_release(void *arg, u32 psn, void *cookie)
{
	struct uet_pdc_test_rel *rel = arg;

	rel->count++;
	rel->last = psn;
}

/* A new packet, the ring grown for it first as the requester does. */
static u32 uet_pdc_test_push(struct kunit *test, struct uet_pdc_tx *tx,
			     void *cookie, u32 bytes, u64 now)
{
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_reserve(tx, GFP_KERNEL), 0);
	return uet_pdc_tx_push(tx, cookie, bytes, now);
}

/* Starts next to the PSN wrap so every case also crosses it. */
#define ISN	0xfffffff8U

static void uet_pdc_window_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i;

	KUNIT_EXPECT_EQ(test, uet_pdc_tx_init(&tx, 0, ISN), -EINVAL);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_init(&tx, UET_PDC_WIN_MAX + 1, ISN),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 12, ISN), 0);
	for (i = 0; i < 12; i++) {
		KUNIT_ASSERT_TRUE(test, uet_pdc_tx_window_open(&tx));
		KUNIT_EXPECT_EQ(test, uet_pdc_test_push(test, &tx, &rel, 100, 0), ISN + i);
	}
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_window_open(&tx));
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_inflight(&tx), 12U);

	/* Cumulative ack of the first 4 opens 4 slots. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 3, ISN + 4, 0,
					     uet_pdc_test_release, &rel), 4);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 4);
	KUNIT_EXPECT_EQ(test, rel.count, 4U);
	KUNIT_EXPECT_TRUE(test, uet_pdc_tx_window_open(&tx));

	/* Stale, repeated and beyond-sent acks change nothing. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 1, ISN, 0x0f,
					     uet_pdc_test_release, &rel), 0);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 3, ISN + 4, 0,
					     uet_pdc_test_release, &rel), 0);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 40, ISN + 40, ~0ULL,
					     uet_pdc_test_release, &rel), 0);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 4);
	KUNIT_EXPECT_EQ(test, rel.count, 4U);

	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 12U);
}

/* A hole at una holds nothing back while the packets after it are
 * acknowledged: the window counts packets in flight, and only the ring
 * (UET_PDC_SPAN_PER_PKT of them per packet of the window) bounds the
 * PSNs outstanding.
 */
static void uet_pdc_window_hole_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i, psn, pipe;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 12, ISN), 0);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, UET_PDC_RING_MIN);
	KUNIT_EXPECT_EQ(test, tx.ring_max, 64U);
	for (i = 0; i < 12; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_window_open(&tx));

	/* Everything after the first packet arrives, 11 at a time. */
	for (psn = ISN + 1; uet_pdc_tx_inflight(&tx) < 64; psn += 11) {
		KUNIT_ASSERT_EQ(test, uet_pdc_tx_ack(&tx, ISN - 1, psn, 0x7ff,
						     uet_pdc_test_release, &rel),
				11);
		KUNIT_EXPECT_EQ(test, uet_pdc_tx_pipe_pkts(&tx), 1U);
		for (i = 0; i < 11 && uet_pdc_tx_window_open(&tx); i++)
			uet_pdc_test_push(test, &tx, &rel, 100, 0);
		KUNIT_EXPECT_EQ(test, tx.una, ISN);
		if (uet_pdc_tx_inflight(&tx) < 64)
			KUNIT_EXPECT_FALSE(test, uet_pdc_tx_window_open(&tx));
	}
	/* The ring is full: the hole holds the sender now... */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_inflight(&tx), 64U);
	pipe = uet_pdc_tx_pipe_pkts(&tx);
	KUNIT_EXPECT_EQ(test, pipe, 9U);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_window_open(&tx));
	/* ... and a packet known lost is not in flight. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 100 * MS, 50 * MS), pipe);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_pipe_pkts(&tx), 0U);
	/* The hole is filled: una moves past everything acknowledged. */
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN);
	uet_pdc_tx_resent(&tx, psn, 101 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN, ISN + 1, 0,
					     uet_pdc_test_release, &rel), 1);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 56);
	KUNIT_EXPECT_TRUE(test, uet_pdc_tx_window_open(&tx));

	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 64U);
}

static void uet_pdc_sack_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i, psn;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	for (i = 0; i < 10; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);

	/* ISN+0,1 arrived; ISN+2 and ISN+5 missing; 3,4,6..9 arrived. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 1, ISN + 2,
					     0xff & ~BIT(0) & ~BIT(3),
					     uet_pdc_test_release, &rel), 8);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 2);
	KUNIT_EXPECT_EQ(test, tx.sacked_hi, ISN + 10);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_inflight(&tx), 8U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_holes(&tx), 2U);
	KUNIT_EXPECT_EQ(test, tx.inflight_bytes, 200ULL);

	/* Both holes are lost once 3 later packets are acked and time passed. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 1 * MS, 3), 2U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 1 * MS, 3), 0U);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 2);
	uet_pdc_tx_resent(&tx, psn, 2 * MS);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 5);
	uet_pdc_tx_resent(&tx, psn, 2 * MS);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_pkt(&tx, ISN + 5)->nxmit, 2);

	/* The resent ISN+2 arrives: cumulative jumps to the next hole. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 4, ISN + 5, 0,
					     uet_pdc_test_release, &rel), 1);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 5);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_holes(&tx), 1U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 9, ISN + 10, 0,
					     uet_pdc_test_release, &rel), 1);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 10);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_holes(&tx), 0U);
	KUNIT_EXPECT_EQ(test, tx.inflight_bytes, 0ULL);
	KUNIT_EXPECT_EQ(test, rel.count, 10U);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
}

/* The test's failed path is the one ISN + 8 took. */
static bool uet_pdc_test_path_failed(void *arg, const struct uet_pdc_pkt *pkt)
{
	return pkt == uet_pdc_tx_pkt(arg, ISN + 8);
}

static void uet_pdc_loss_rules_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i, psn;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	for (i = 0; i < 8; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, i * MS);
	/* An RTT sample of 10 ms from ISN+0, then it is acked. */
	uet_pdc_tx_rtt_sample(&tx, ISN, 10 * MS, true);
	KUNIT_EXPECT_EQ(test, tx.srtt_ns, 10 * MS);
	uet_pdc_tx_ack(&tx, ISN, ISN + 1, 0, uet_pdc_test_release, &rel);

	/* ISN+1 missing, only two later packets acked: reordering, not loss. */
	uet_pdc_tx_ack(&tx, ISN, ISN + 2, 0x3, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 100 * MS, 3), 0U);
	/* Enough later packets, but ISN+1 was sent only 11 ms ago. */
	uet_pdc_tx_ack(&tx, ISN, ISN + 2, 0x3f, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 12 * MS, 3), 0U);
	/* srtt + 2 rttvar (10 + 2 x 5 ms) after it was sent it is lost. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 20 * MS, 3), 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 21 * MS, 3), 1U);

	/* A NACK marks exactly the PSN named, once, and only if in flight. */
	KUNIT_EXPECT_EQ(test, tx.sacked_hi, ISN + 8);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack(&tx, ISN + 1, false));
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack(&tx, ISN + 3, false));
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack(&tx, ISN + 8, false));
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack(&tx, ISN - 1, false));
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 1);
	uet_pdc_tx_resent(&tx, psn, 20 * MS);

	/* A timeout resends what is unacked and older than the RTO, never what
	 * the SACK covered; of its losses, those on a failed path are counted
	 * apart.
	 */
	tx.path_failed = uet_pdc_test_path_failed;
	tx.path_arg = &tx;
	uet_pdc_test_push(test, &tx, &rel, 100, 20 * MS);
	/* ISN + 1 was resent at 20 ms too: nothing is due before 30 ms. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_rto_due(&tx, 10 * MS), 30 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 25 * MS, 10 * MS), 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 30 * MS, 10 * MS), 2U);
	KUNIT_EXPECT_EQ(test, tx.path_losses, 1U);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 1);
	uet_pdc_tx_resent(&tx, psn, 30 * MS);
	/* One resend, then what an ACK lets out. */
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));
	uet_pdc_tx_ack(&tx, ISN + 1, ISN + 2, 0, uet_pdc_test_release, &rel);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 8);
	uet_pdc_tx_resent(&tx, psn, 30 * MS);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
}

/* After a timeout one packet is resent. ACKs of originals it marked say
 * the window was late: what is left goes two per packet acknowledged.
 * ACKs of resent packets alone say it was lost: the rest goes at once. A
 * NACKed packet never waits. Marked originals acknowledged before their
 * resend are counted late (nlate), for congestion control to undo.
 */
static void uet_pdc_rto_recovery_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i, psn, n;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	for (i = 0; i < 16; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 10 * MS, 10 * MS), 16U);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN);
	uet_pdc_tx_resent(&tx, psn, 10 * MS);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));
	/* Late: two originals arrived, then the rest of them. The resent
	 * one may have arrived as the copy: only the other is known late.
	 */
	uet_pdc_tx_ack(&tx, ISN + 1, ISN + 2, 0, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, tx.nlate, 1U);
	for (n = 0; uet_pdc_tx_next_lost(&tx, &psn); n++) {
		KUNIT_EXPECT_EQ(test, psn, ISN + 2 + n);
		uet_pdc_tx_resent(&tx, psn, 11 * MS);
	}
	KUNIT_EXPECT_EQ(test, n, 4U);
	uet_pdc_tx_ack(&tx, ISN + 15, ISN + 16, 0, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, tx.nlate, 11U);
	tx.nlate = 0;
	KUNIT_EXPECT_EQ(test, tx.nlost, 0U);
	KUNIT_EXPECT_EQ(test, tx.nlost_rto, 0U);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));

	/* Lost: the resent packet is acknowledged alone; a NACKed one goes
	 * out while the timeout's marks wait.
	 */
	for (i = 0; i < 16; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 20 * MS);
	uet_pdc_test_push(test, &tx, &rel, 100, 25 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 30 * MS, 10 * MS), 16U);
	KUNIT_EXPECT_TRUE(test, uet_pdc_tx_nack(&tx, ISN + 32, false));
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 16);
	uet_pdc_tx_resent(&tx, psn, 30 * MS);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 32);
	uet_pdc_tx_resent(&tx, psn, 30 * MS);
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_next_lost(&tx, &psn));
	uet_pdc_tx_ack(&tx, ISN + 16, ISN + 17, BIT_ULL(15),
		       uet_pdc_test_release, &rel);
	/* Resent, or NACKed (which the SACK rule did not charge): none is
	 * known late.
	 */
	KUNIT_EXPECT_EQ(test, tx.nlate, 0U);
	for (n = 0; uet_pdc_tx_next_lost(&tx, &psn); n++) {
		KUNIT_EXPECT_EQ(test, psn, ISN + 17 + n);
		uet_pdc_tx_resent(&tx, psn, 31 * MS);
	}
	KUNIT_EXPECT_EQ(test, n, 15U);
	KUNIT_EXPECT_EQ(test, tx.nlost_rto, 0U);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 33U);
}

static void uet_pdc_overtake_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i;

	/* 0..9 sent; 9 trimmed, NACKed and resent; the copy of 9 arrives
	 * first, through the switch's priority band: 0..8 are merely queued.
	 */
	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	for (i = 0; i < 10; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	KUNIT_EXPECT_TRUE(test, uet_pdc_tx_nack(&tx, ISN + 9, false));
	uet_pdc_tx_resent(&tx, ISN + 9, MS);
	uet_pdc_tx_ack(&tx, ISN - 1, ISN + 9, 1, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, tx.sacked_hi, ISN);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 100 * MS, 3), 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 0ULL);
	/* First transmissions overtaking holes are evidence: 4..7 arrive. */
	uet_pdc_tx_ack(&tx, ISN - 1, ISN + 4, 0xf, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 100 * MS, 3), 4U);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 10U);
}

/* A resent hole is judged again by time alone for its first resends,
 * then only once a packet sent after the last resend arrived: to a peer
 * that stopped answering, the timeout takes it (and counts the retry),
 * not the SACK rule every reordering window.
 */
static void uet_pdc_lone_hole_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i, psn;
	u64 t;

	/* srtt 4 ms, rttvar 0: a hole is lost after 4 + 1 ms. */
	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	tx.srtt_ns = 4 * MS;
	for (i = 0; i < 10; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	/* All but ISN + 2 arrive. */
	uet_pdc_tx_ack(&tx, ISN + 1, ISN + 3, 0x7f, uet_pdc_test_release, &rel);
	for (t = 5 * MS, i = 1; i < UET_PDC_BLIND_XMITS; i++, t += 6 * MS) {
		KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), t);
		KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, t, 3), 1U);
		KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
		KUNIT_EXPECT_EQ(test, psn, ISN + 2);
		uet_pdc_tx_resent(&tx, psn, t + MS);
	}
	/* t - 5 ms: the last resend. Nothing sent since arrives: no
	 * verdict, however long.
	 */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 0ULL);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, t + 100 * MS, 3), 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_rto_due(&tx, 50 * MS), t + 45 * MS);
	/* A packet sent before the resend says nothing either. */
	uet_pdc_test_push(test, &tx, &rel, 100, t - 5 * MS - 1);
	uet_pdc_tx_ack(&tx, ISN + 1, ISN + 10, 1, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, t + 100 * MS, 3), 0U);
	/* One sent after it does: the copy is lost as well. */
	uet_pdc_test_push(test, &tx, &rel, 100, t - 4 * MS);
	uet_pdc_tx_ack(&tx, ISN + 1, ISN + 11, 1, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), t);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, t, 3), 1U);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 12U);
}

static void uet_pdc_reo_learn_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i;

	/* srtt 4 ms, rttvar 0: a hole is lost after 4 + 1 ms. */
	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	tx.srtt_ns = 4 * MS;
	for (i = 0; i < 10; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	uet_pdc_tx_ack(&tx, ISN - 1, ISN + 4, 0x3f, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 5 * MS);

	/* A receiver NACK for a packet younger than that is not trusted. */
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack_hole(&tx, ISN, 4 * MS));
	KUNIT_EXPECT_TRUE(test, uet_pdc_tx_nack_hole(&tx, ISN, 5 * MS));
	KUNIT_EXPECT_FALSE(test, uet_pdc_tx_nack_hole(&tx, ISN + 40, 9 * MS));

	/* Duplicates grow the window a quarter RTT, once per RTT. */
	uet_pdc_tx_dup_seen(&tx, 10 * MS);
	uet_pdc_tx_dup_seen(&tx, 12 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 6 * MS);
	uet_pdc_tx_dup_seen(&tx, 14 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 7 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 6 * MS, 3), 0U);
	for (i = 0; i < 2 * UET_PDC_REO_STEPS_MAX; i++)
		uet_pdc_tx_dup_seen(&tx, (20 + 4 * i) * MS);
	KUNIT_EXPECT_EQ(test, tx.reo_steps, UET_PDC_REO_STEPS_MAX);

	/* Loss rounds without a duplicate shrink it again, step by step. */
	tx.reo_steps = 1;
	tx.reo_persist = 2;
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 100 * MS, 3), 3U);
	KUNIT_EXPECT_EQ(test, tx.reo_steps, 1U);
	uet_pdc_test_push(test, &tx, &rel, 100, 100 * MS);
	uet_pdc_test_push(test, &tx, &rel, 100, 100 * MS);
	for (i = 0; i < 4; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 100 * MS);
	uet_pdc_tx_ack(&tx, ISN - 1, ISN + 12, 0xf, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 200 * MS, 3), 2U);
	KUNIT_EXPECT_EQ(test, tx.reo_steps, 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 0ULL);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 16U);
}

/* Two paths, 4 and 12 ms: packets of the fast one arrive in order and
 * set srtt, those of the slow one arrive behind them. Their RTT widens
 * the loss window, so a slow packet is not lost for being slow, and the
 * widening fades once no slow packet comes.
 */
static void uet_pdc_slow_path_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 64, ISN), 0);
	for (i = 0; i < 10; i++)
		uet_pdc_test_push(test, &tx, &rel, 100, 0);
	uet_pdc_tx_rtt_sample(&tx, ISN, 4 * MS, true);
	KUNIT_EXPECT_EQ(test, tx.srtt_ns, 4 * MS);
	uet_pdc_tx_ack(&tx, ISN, ISN + 1, 0, uet_pdc_test_release, &rel);
	/* ISN + 1 took the slow path, ISN + 2.. the fast one. */
	uet_pdc_tx_ack(&tx, ISN, ISN + 2, 0xf, uet_pdc_test_release, &rel);
	/* srtt 4 ms and twice its variation (2 ms) after it was sent. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 8 * MS);

	/* A slow packet's sample, out of order: srtt stays, the window is
	 * the slow path's RTT and the margin.
	 */
	uet_pdc_tx_rtt_sample(&tx, ISN + 6, 12 * MS, false);
	KUNIT_EXPECT_EQ(test, tx.srtt_ns, 4 * MS);
	KUNIT_EXPECT_EQ(test, tx.rtt_hi_ns, 12 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_loss_deadline(&tx, 3), 16 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 15 * MS, 3), 0U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_detect_loss(&tx, 16 * MS, 3), 1U);

	/* Fast samples alone bring it back by an eighth of the gap each. */
	uet_pdc_tx_rtt_sample(&tx, ISN + 7, 4 * MS, true);
	KUNIT_EXPECT_EQ(test, tx.rtt_hi_ns, 11 * MS);
	for (i = 8; i < 10; i++)
		uet_pdc_tx_rtt_sample(&tx, ISN + i, 4 * MS, true);
	KUNIT_EXPECT_LT(test, tx.rtt_hi_ns, 10 * MS);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 10U);
}

static void uet_pdc_rto_test(struct kunit *test)
{
	struct uet_pdc_tx tx = { .srtt_ns = 1 * MS, .rttvar_ns = MS / 4 };

	/* srtt + 4 rttvar = 2 ms; linear for 2 expiries, then doubling. */
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 0, 2), 2 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 1, 2), 4 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 2, 2), 6 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 3, 2), 12 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 4, 2), 24 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 6, 2), 96 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 7, 2), 100 * MS);
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, MS, 100 * MS, 200, 2), 100 * MS);
	/* The floor applies before any sample. */
	tx.srtt_ns = 0;
	tx.rttvar_ns = 0;
	KUNIT_EXPECT_EQ(test, uet_pdc_rto_ns(&tx, 5 * MS, 100 * MS, 0, 2), 5 * MS);
}

static void uet_pdc_rx_test(struct kunit *test)
{
	struct uet_pdc_rx rx;
	u32 cack, base;
	u64 map;

	KUNIT_ASSERT_EQ(test, uet_pdc_rx_init(&rx, 128, ISN), 0);
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN), UET_PDC_NEW);
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN - 1), UET_PDC_DUP);
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN + 127), UET_PDC_NEW);
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN + 128),
			UET_PDC_OUT_OF_WINDOW);

	/* ISN+1 and ISN+3 arrive first. */
	uet_pdc_rx_commit(&rx, ISN + 1);
	uet_pdc_rx_commit(&rx, ISN + 3);
	KUNIT_EXPECT_TRUE(test, uet_pdc_rx_has_hole(&rx));
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN + 3), UET_PDC_DUP);
	uet_pdc_rx_sack(&rx, ISN + 3, &cack, &base, &map);
	KUNIT_EXPECT_EQ(test, cack, ISN - 1);
	KUNIT_EXPECT_EQ(test, base, ISN);
	KUNIT_EXPECT_EQ(test, map, 0xaULL);

	uet_pdc_rx_commit(&rx, ISN);
	KUNIT_EXPECT_EQ(test, rx.next, ISN + 2);
	uet_pdc_rx_commit(&rx, ISN + 2);
	KUNIT_EXPECT_EQ(test, rx.next, ISN + 4);
	KUNIT_EXPECT_FALSE(test, uet_pdc_rx_has_hole(&rx));
	uet_pdc_rx_sack(&rx, ISN + 2, &cack, &base, &map);
	KUNIT_EXPECT_EQ(test, cack, ISN + 3);
	KUNIT_EXPECT_EQ(test, map, 0ULL);

	/* Far past the hole the window ends at the PSN that arrived. */
	uet_pdc_rx_commit(&rx, ISN + 100);
	uet_pdc_rx_sack(&rx, ISN + 100, &cack, &base, &map);
	KUNIT_EXPECT_EQ(test, base, ISN + 37);
	KUNIT_EXPECT_EQ(test, map, BIT_ULL(63));
	/* Slots freed by the cumulative advance are clean for reuse. */
	KUNIT_EXPECT_EQ(test, uet_pdc_rx_check(&rx, ISN + 129), UET_PDC_NEW);
	uet_pdc_rx_free(&rx);
}

static void uet_pdc_ack_hold_test(struct kunit *test)
{
	struct uet_pdc_ack_hold h = {};
	u64 cap = 10 * NSEC_PER_MSEC, t = NSEC_PER_SEC;
	int i;

	/* The first packet knows no spacing: its ACK is not held. */
	KUNIT_EXPECT_EQ(test, uet_pdc_ack_hold(&h, t, cap, 16), 0);
	/* Packets 100 us apart: the hold grows towards 16 x 100 us. */
	for (i = 0; i < 100; i++) {
		t += 100 * NSEC_PER_USEC;
		uet_pdc_ack_hold(&h, t, cap, 16);
	}
	t += 100 * NSEC_PER_USEC;
	KUNIT_EXPECT_GE(test, uet_pdc_ack_hold(&h, t, cap, 16),
			15 * 100 * NSEC_PER_USEC);
	KUNIT_EXPECT_LE(test, uet_pdc_ack_hold(&h, t, cap, 16),
			16 * 100 * NSEC_PER_USEC);
	/* Never beyond the cap, however sparse the packets. */
	for (i = 0; i < 100; i++) {
		t += NSEC_PER_SEC;
		KUNIT_EXPECT_LE(test, uet_pdc_ack_hold(&h, t, cap, 16), cap);
	}
	/* A pause counts as the cap at most: the average comes back down. */
	for (i = 0; i < 100; i++) {
		t += 10 * NSEC_PER_USEC;
		uet_pdc_ack_hold(&h, t, cap, 16);
	}
	KUNIT_EXPECT_LE(test, uet_pdc_ack_hold(&h, t + 10 * NSEC_PER_USEC,
					       cap, 16),
			16 * 20 * NSEC_PER_USEC);
	/* A clock that did not move leaves the average as it was. */
	KUNIT_EXPECT_EQ(test, uet_pdc_ack_hold(&h, t + 10 * NSEC_PER_USEC, cap, 1),
			h.gap_ns);
}

static void uet_pdc_end_to_end_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	struct uet_pdc_rx rx;
	u32 cack, base, psn, i, resent = 0;
	u64 map;

	/* 32 packets, every 5th lost once: only those are resent. */
	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 32, ISN), 0);
	KUNIT_ASSERT_EQ(test, uet_pdc_rx_init(&rx, 32, ISN), 0);
	for (i = 0; i < 32; i++) {
		psn = uet_pdc_test_push(test, &tx, &rel, 100, 0);
		if (i % 5 == 4)
			continue;
		KUNIT_ASSERT_EQ(test, uet_pdc_rx_check(&rx, psn), UET_PDC_NEW);
		uet_pdc_rx_commit(&rx, psn);
		uet_pdc_rx_sack(&rx, psn, &cack, &base, &map);
		uet_pdc_tx_ack(&tx, cack, base, map, uet_pdc_test_release, &rel);
	}
	uet_pdc_tx_detect_loss(&tx, MS, 3);
	while (uet_pdc_tx_next_lost(&tx, &psn)) {
		uet_pdc_tx_resent(&tx, psn, MS);
		resent++;
		KUNIT_ASSERT_EQ(test, uet_pdc_rx_check(&rx, psn), UET_PDC_NEW);
		uet_pdc_rx_commit(&rx, psn);
		uet_pdc_rx_sack(&rx, psn, &cack, &base, &map);
		uet_pdc_tx_ack(&tx, cack, base, map, uet_pdc_test_release, &rel);
	}
	/* 4, 9, 14, 19, 24 are older than 3 acked packets; 29 is not. */
	KUNIT_EXPECT_EQ(test, resent, 5U);
	KUNIT_EXPECT_EQ(test, tx.una, ISN + 29);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_timeout(&tx, 2 * MS, MS), 1U);
	KUNIT_ASSERT_TRUE(test, uet_pdc_tx_next_lost(&tx, &psn));
	KUNIT_EXPECT_EQ(test, psn, ISN + 29);
	uet_pdc_rx_free(&rx);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 32U);
}

/* The ring starts small, grows with what is in flight, keeps each
 * packet at its PSN while it grows, and is small again once everything
 * is acknowledged (uet_pdc_window_hole_test() grows it to ring_max).
 */
static void uet_pdc_ring_test(struct kunit *test)
{
	struct uet_pdc_test_rel rel = {};
	struct uet_pdc_tx tx;
	u32 i;

	KUNIT_ASSERT_EQ(test, uet_pdc_tx_init(&tx, 16, ISN), 0);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, UET_PDC_RING_MIN);
	KUNIT_EXPECT_EQ(test, tx.ring_max, 64U);
	for (i = 0; i < 16; i++)
		uet_pdc_test_push(test, &tx, &rel, 100 + i, 0);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, 16U);
	/* Half acknowledged out of order: the rest stays in flight. */
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN - 1, ISN + 8, 0xff,
					     uet_pdc_test_release, &rel), 8);
	for (i = 16; i < 24; i++)
		uet_pdc_test_push(test, &tx, &rel, 100 + i, 0);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, 32U);
	for (i = 0; i < 24; i++)
		KUNIT_EXPECT_EQ(test, uet_pdc_tx_pkt(&tx, ISN + i)->bytes,
				100 + i);
	KUNIT_EXPECT_EQ(test, !!(uet_pdc_tx_pkt(&tx, ISN + 8)->flags &
				 UET_PDC_ACKED), 1);
	KUNIT_EXPECT_EQ(test, !!(uet_pdc_tx_pkt(&tx, ISN)->flags &
				 UET_PDC_ACKED), 0);
	/* Nothing shrinks while a packet is in flight. */
	uet_pdc_tx_shrink(&tx, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, 32U);
	KUNIT_EXPECT_EQ(test, uet_pdc_tx_ack(&tx, ISN + 23, ISN + 24, 0,
					     uet_pdc_test_release, &rel), 16);
	KUNIT_EXPECT_EQ(test, rel.count, 24U);
	uet_pdc_tx_shrink(&tx, GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, tx.ring_mask + 1, UET_PDC_RING_MIN);
	KUNIT_EXPECT_EQ(test, uet_pdc_test_push(test, &tx, &rel, 100, 0),
			ISN + 24);
	uet_pdc_tx_free(&tx, uet_pdc_test_release, &rel);
	KUNIT_EXPECT_EQ(test, rel.count, 25U);
}

static struct kunit_case uet_pdc_cases[] = {
	KUNIT_CASE(uet_pdc_window_test),
	KUNIT_CASE(uet_pdc_ring_test),
	KUNIT_CASE(uet_pdc_window_hole_test),
	KUNIT_CASE(uet_pdc_sack_test),
	KUNIT_CASE(uet_pdc_loss_rules_test),
	KUNIT_CASE(uet_pdc_overtake_test),
	KUNIT_CASE(uet_pdc_reo_learn_test),
	KUNIT_CASE(uet_pdc_lone_hole_test),
	KUNIT_CASE(uet_pdc_slow_path_test),
	KUNIT_CASE(uet_pdc_rto_test),
	KUNIT_CASE(uet_pdc_rto_recovery_test),
	KUNIT_CASE(uet_pdc_rx_test),
	KUNIT_CASE(uet_pdc_ack_hold_test),
	KUNIT_CASE(uet_pdc_end_to_end_test),
	{}
};

static struct kunit_suite uet_pdc_suite = {
	.name = "uet_pdc",
	.test_cases = uet_pdc_cases,
};

kunit_test_suite(uet_pdc_suite);
