// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit: the receiver's acknowledgment policy on its own, with a fake
 * clock and a real receive window. An ACK per ack_every packets in
 * order, held as the spacing says up to its cap; at once for a packet
 * out of order, a mark, ACKREQ or a duplicate; two copies after a
 * retransmission, the mark on the first only; what an ACK carries; a
 * hole NACKed once, after the reordering allowance; control packets'
 * entropy values round the set.
 */
#include <kunit/test.h>
#include <linux/time64.h>

#include "ack.h"
#include "ev.h"

/* Starts next to the PSN wrap so every case also crosses it. */
#define ISN		0xfffffff8U
#define T0		NSEC_PER_SEC
#define US		NSEC_PER_USEC
#define EV_BASE		0xd000
/* The module's defaults (params.c). */
#define EVERY		16
#define DELAY_US	10000
#define RTO_MIN_US	50000
#define REORDER_PKTS	16
#define REORDER_US	4000

struct uet_ack_test {
	struct uet_ack a;
	struct uet_pdc_rx rx;
	u32 delay_us, rto_min_us;
	bool nack;		/* the last packet asked for a hole's NACK */
};

static void uet_ack_test_init(struct kunit *test, struct uet_ack_test *k,
			      u32 delay_us, u32 rto_min_us)
{
	uet_ack_reset(&k->a);
	k->delay_us = delay_us;
	k->rto_min_us = rto_min_us;
	k->nack = false;
	KUNIT_ASSERT_EQ(test, uet_pdc_rx_init(&k->rx, UET_PDC_WIN_MAX, ISN), 0);
}

static u16 uet_ack_test_ev(u32 psn)
{
	return EV_BASE + (psn & 0xff);
}

/* A data packet at t with UET_PDS_REQ_F_* flags, through the calls
 * resp.c makes. True: the ACK goes before the next packet.
 */
static bool uet_ack_test_rcv(struct uet_ack_test *k, u32 psn, u64 t, u8 flags,
			     bool ce)
{
	struct uet_ack_pkt ap = {
		.t = t,
		.psn = psn,
		.ev = uet_ack_test_ev(psn),
	};

	k->nack = false;
	uet_ack_arrived(&k->a, flags & UET_PDS_REQ_F_RETX, ce);
	if (uet_pdc_rx_check(&k->rx, psn) != UET_PDC_NEW) {
		uet_ack_dup(&k->a, &ap);
		return false;
	}
	ap.in_order = psn == k->rx.next;
	uet_pdc_rx_commit(&k->rx, psn);
	k->nack = uet_ack_hole(&k->a, &k->rx, t, REORDER_PKTS, REORDER_US);
	ap.ackreq = flags & UET_PDS_REQ_F_ACKREQ;
	return uet_ack_new(&k->a, &ap, EVERY, k->delay_us, k->rto_min_us);
}

/* The ACK due at now, into *ack; returns its copies. */
static u32 uet_ack_test_fill(struct uet_ack_test *k, u64 now,
			     struct uet_pds_ack *ack)
{
	*ack = (struct uet_pds_ack){};
	return uet_ack_fill(&k->a, &k->rx, now, ack);
}

/* n packets in order, gap apart after t, each ACK sent when due, so the
 * hold learns the spacing. Returns the last arrival; no ACK is pending.
 */
static u64 uet_ack_test_warm(struct uet_ack_test *k, u64 t, u64 gap, u32 n)
{
	struct uet_pds_ack ack;

	while (n--) {
		t += gap;
		uet_ack_test_rcv(k, k->rx.next, t, 0, false);
		if (uet_ack_due(&k->a, t, EVERY, false) == UET_ACK_SEND)
			uet_ack_test_fill(k, t, &ack);
	}
	if (k->a.pending)
		uet_ack_test_fill(k, t, &ack);
	return t;
}

/* A receiver at the module's defaults after 64 packets 1 us apart, all
 * acknowledged: returns the last arrival.
 */
static u64 uet_ack_test_warmed(struct kunit *test, struct uet_ack_test *k)
{
	uet_ack_test_init(test, k, DELAY_US, RTO_MIN_US);
	return uet_ack_test_warm(k, T0, US, 64);
}

static void uet_ack_every_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t, deadline = 0;
	u32 psn, i;

	uet_ack_test_init(test, &k, DELAY_US, RTO_MIN_US);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, T0, EVERY, false), UET_ACK_NONE);
	t = uet_ack_test_warm(&k, T0, US, 64);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_NONE);

	/* Packets 1 us apart wait for the timer, armed once, by the first. */
	psn = k.rx.next;
	for (i = 1; i < EVERY; i++) {
		t += US;
		KUNIT_EXPECT_FALSE(test, uet_ack_test_rcv(&k, psn++, t, 0, false));
		if (i == 1)
			deadline = k.a.deadline_ns;
		KUNIT_EXPECT_EQ(test, k.a.deadline_ns, deadline);
		KUNIT_EXPECT_EQ(test, k.a.pending, i);
		KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false),
				UET_ACK_ARM);
		KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true),
				UET_ACK_NONE);
	}
	/* The ack_every-th goes at once, timer or not. */
	t += US;
	KUNIT_EXPECT_FALSE(test, uet_ack_test_rcv(&k, psn, t, 0, false));
	KUNIT_EXPECT_LT(test, t, deadline);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_SEND);
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 1U);
	KUNIT_EXPECT_EQ(test, ack.cack_psn, psn);
	KUNIT_EXPECT_EQ(test, k.a.pending, 0U);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_NONE);
	uet_pdc_rx_free(&k.rx);
}

static void uet_ack_hold_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t = T0, end;

	/* The first packet knows no spacing: its ACK is not held. */
	uet_ack_test_init(test, &k, DELAY_US, RTO_MIN_US);
	uet_ack_test_rcv(&k, ISN, t, 0, false);
	KUNIT_EXPECT_EQ(test, k.a.deadline_ns, t);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_SEND);
	uet_ack_test_fill(&k, t, &ack);

	/* Sparse packets: held ack_delay_us at most. */
	t += NSEC_PER_SEC;
	uet_ack_test_rcv(&k, ISN + 1, t, 0, false);
	end = t + DELAY_US * US;
	KUNIT_EXPECT_EQ(test, k.a.deadline_ns, end);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, end - 1, EVERY, false),
			UET_ACK_ARM);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, end, EVERY, false),
			UET_ACK_SEND);
	/* Past its deadline with the timer queued: left to the timer. */
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, end, EVERY, true),
			UET_ACK_NONE);
	uet_pdc_rx_free(&k.rx);

	/* And a quarter of rto_min_us, which may be the shorter. */
	uet_ack_test_init(test, &k, DELAY_US, 1000);
	t = T0;
	uet_ack_test_rcv(&k, ISN, t, 0, false);
	uet_ack_test_fill(&k, t, &ack);
	t += NSEC_PER_SEC;
	uet_ack_test_rcv(&k, ISN + 1, t, 0, false);
	KUNIT_EXPECT_EQ(test, k.a.deadline_ns, t + 250 * US);
	uet_pdc_rx_free(&k.rx);
}

/* A packet out of order is acknowledged at once; the one that fills the
 * hole is in order and waits as any other.
 */
static void uet_ack_ooo_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t;
	u32 psn;

	t = uet_ack_test_warmed(test, &k);
	psn = k.rx.next;
	t += US;
	uet_ack_test_rcv(&k, psn, t, 0, false);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_ARM);
	t += US;
	uet_ack_test_rcv(&k, psn + 2, t, 0, false);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_SEND);
	uet_ack_test_fill(&k, t, &ack);
	KUNIT_EXPECT_EQ(test, ack.cack_psn, psn);
	KUNIT_EXPECT_EQ(test, ack.ack_psn_offset, 2);
	KUNIT_EXPECT_EQ(test, ack.sack_psn_offset, 1);
	KUNIT_EXPECT_EQ(test, ack.sack_bitmap, 0x2ULL);
	KUNIT_EXPECT_EQ(test, ack.entropy, uet_ack_test_ev(psn + 2));

	t += US;
	uet_ack_test_rcv(&k, psn + 1, t, 0, false);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_NONE);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_ARM);
	uet_pdc_rx_free(&k.rx);
}

/* A mark is acknowledged before the next packet, so that the echo names
 * the marked packet's path, and echoed once.
 */
static void uet_ack_ce_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t;
	u32 psn;

	t = uet_ack_test_warmed(test, &k);
	psn = k.rx.next;
	t += US;
	KUNIT_EXPECT_TRUE(test, uet_ack_test_rcv(&k, psn, t, 0, true));
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 1U);
	KUNIT_EXPECT_TRUE(test, ack.flags & UET_PDS_ACK_F_ECN);
	KUNIT_EXPECT_EQ(test, ack.entropy, uet_ack_test_ev(psn));
	t += US;
	KUNIT_EXPECT_FALSE(test, uet_ack_test_rcv(&k, psn + 1, t, 0, false));
	uet_ack_test_fill(&k, t, &ack);
	KUNIT_EXPECT_FALSE(test, ack.flags & UET_PDS_ACK_F_ECN);

	/* A mark on a packet the PDC did not take (trimmed, out of the
	 * window) rides on the ACK of the next one.
	 */
	uet_ack_arrived(&k.a, false, true);
	t += US;
	KUNIT_EXPECT_TRUE(test, uet_ack_test_rcv(&k, psn + 2, t, 0, false));
	uet_ack_test_fill(&k, t, &ack);
	KUNIT_EXPECT_TRUE(test, ack.flags & UET_PDS_ACK_F_ECN);
	uet_pdc_rx_free(&k.rx);
}

static void uet_ack_ackreq_test(struct kunit *test)
{
	struct uet_ack_test k;
	u64 t;

	t = uet_ack_test_warmed(test, &k) + US;
	KUNIT_EXPECT_FALSE(test, uet_ack_test_rcv(&k, k.rx.next, t,
						  UET_PDS_REQ_F_ACKREQ, false));
	KUNIT_EXPECT_EQ(test, k.a.pending, 1U);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_SEND);
	uet_pdc_rx_free(&k.rx);
}

/* A duplicate is acknowledged at once, flagged, and counts as no new
 * packet.
 */
static void uet_ack_dup_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t;
	u32 old;

	t = uet_ack_test_warmed(test, &k) + US;
	old = k.rx.next - 5;
	uet_ack_test_rcv(&k, old, t, 0, false);
	KUNIT_EXPECT_EQ(test, k.a.pending, 0U);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_SEND);
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 1U);
	KUNIT_EXPECT_EQ(test, ack.flags, UET_PDS_ACK_F_DUP);
	KUNIT_EXPECT_EQ(test, ack.cack_psn, k.rx.next - 1);
	KUNIT_EXPECT_EQ(test, ack.ack_psn_offset, -4);
	KUNIT_EXPECT_EQ(test, ack.entropy, uet_ack_test_ev(old));
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_NONE);
	uet_pdc_rx_free(&k.rx);
}

/* A retransmission is acknowledged in two copies. It is acknowledged at
 * once only as the sender asks: req.c sets ACKREQ on every one.
 */
static void uet_ack_retx_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t;
	u32 psn;

	t = uet_ack_test_warmed(test, &k) + US;
	psn = k.rx.next;
	uet_ack_test_rcv(&k, psn, t, UET_PDS_REQ_F_RETX, false);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, false), UET_ACK_ARM);
	t += US;
	uet_ack_test_rcv(&k, psn + 1, t,
			 UET_PDS_REQ_F_RETX | UET_PDS_REQ_F_ACKREQ, false);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, t, EVERY, true), UET_ACK_SEND);
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 2U);
	t += US;
	uet_ack_test_rcv(&k, psn + 2, t, UET_PDS_REQ_F_ACKREQ, false);
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 1U);
	uet_pdc_rx_free(&k.rx);
}

/* Of the two copies only the first echoes the mark: one mark, one
 * congestion signal. Other flags ride on both.
 */
static void uet_ack_ecn_copy_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t;
	u32 psn;

	t = uet_ack_test_warmed(test, &k) + US;
	psn = k.rx.next;
	uet_ack_test_rcv(&k, psn - 1, t, 0, false);
	KUNIT_EXPECT_TRUE(test, uet_ack_test_rcv(&k, psn, t,
						 UET_PDS_REQ_F_RETX |
						 UET_PDS_REQ_F_ACKREQ, true));
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t, &ack), 2U);
	KUNIT_EXPECT_EQ(test, ack.flags,
			UET_PDS_ACK_F_ECN | UET_PDS_ACK_F_DUP);
	uet_ack_next_copy(&ack);
	KUNIT_EXPECT_EQ(test, ack.flags, UET_PDS_ACK_F_DUP);
	uet_pdc_rx_free(&k.rx);
}

/* What an ACK carries beyond its flags. */
static void uet_ack_fill_test(struct kunit *test)
{
	struct uet_ack_test k;
	struct uet_pds_ack ack;
	u64 t = T0;

	uet_ack_test_init(test, &k, DELAY_US, RTO_MIN_US);
	uet_ack_test_rcv(&k, ISN, t, 0, false);
	uet_ack_test_rcv(&k, ISN + 1, t, 0, false);
	uet_ack_test_rcv(&k, ISN + 2, t, 0, false);
	uet_ack_test_rcv(&k, ISN + 5, t, 0, false);
	KUNIT_EXPECT_EQ(test, uet_ack_test_fill(&k, t + 10 * US + 900, &ack),
			1U);
	KUNIT_EXPECT_EQ(test, ack.cack_psn, ISN + 2);
	KUNIT_EXPECT_EQ(test, ack.ack_psn_offset, 3);
	KUNIT_EXPECT_EQ(test, ack.sack_psn_offset, 1);
	KUNIT_EXPECT_EQ(test, ack.sack_bitmap, 0x4ULL);
	KUNIT_EXPECT_EQ(test, ack.mpr, U8_MAX);
	KUNIT_EXPECT_EQ(test, ack.flags, 0);
	KUNIT_EXPECT_TRUE(test, ack.ccx);
	KUNIT_EXPECT_EQ(test, ack.ccx_flags, UET_ACKX_F_ENTROPY);
	KUNIT_EXPECT_EQ(test, ack.entropy, uet_ack_test_ev(ISN + 5));
	KUNIT_EXPECT_EQ(test, ack.cc_type, UET_ACK_CC_NSCC);
	/* The service time, in whole microseconds, saturated, never less
	 * than none.
	 */
	KUNIT_EXPECT_EQ(test, uet_nscc_state_service_us(ack.cc_state), 10);
	uet_ack_test_fill(&k, t + 100 * NSEC_PER_SEC, &ack);
	KUNIT_EXPECT_EQ(test, uet_nscc_state_service_us(ack.cc_state), U16_MAX);
	uet_ack_test_fill(&k, t - 1, &ack);
	KUNIT_EXPECT_EQ(test, uet_nscc_state_service_us(ack.cc_state), 0);
	uet_pdc_rx_free(&k.rx);
}

/* A hole is NACKed once nack_reorder_pkts PSNs from it on have arrived
 * and it is nack_reorder_us old, once; a later hole again.
 */
static void uet_ack_hole_test(struct kunit *test)
{
	struct uet_ack_test k;
	u64 t = T0, t2;
	u32 i;

	uet_ack_test_init(test, &k, DELAY_US, RTO_MIN_US);
	uet_ack_test_rcv(&k, ISN, t, 0, false);
	KUNIT_EXPECT_FALSE(test, k.nack);
	/* ISN + 1 is missing: the PSN allowance is met at once ... */
	for (i = 2; i <= 16; i++) {
		uet_ack_test_rcv(&k, ISN + i, t, 0, false);
		KUNIT_EXPECT_FALSE(test, k.nack);
	}
	KUNIT_EXPECT_EQ(test, k.rx.high - k.rx.next, REORDER_PKTS);
	/* ... the time allowance later. */
	uet_ack_test_rcv(&k, ISN + 17, t + REORDER_US * US - 1, 0, false);
	KUNIT_EXPECT_FALSE(test, k.nack);
	uet_ack_test_rcv(&k, ISN + 18, t + REORDER_US * US, 0, false);
	KUNIT_EXPECT_TRUE(test, k.nack);
	KUNIT_EXPECT_EQ(test, k.a.hole_psn, ISN + 1);
	uet_ack_test_rcv(&k, ISN + 19, t + 2 * REORDER_US * US, 0, false);
	KUNIT_EXPECT_FALSE(test, k.nack);

	/* Filled; then ISN + 20 goes missing: old enough before the PSN
	 * allowance is met, NACKed when it is.
	 */
	t2 = t + 3 * REORDER_US * US;
	uet_ack_test_rcv(&k, ISN + 1, t2, 0, false);
	KUNIT_EXPECT_FALSE(test, uet_pdc_rx_has_hole(&k.rx));
	uet_ack_test_rcv(&k, ISN + 21, t2, 0, false);
	for (i = 22; i < 35; i++) {
		uet_ack_test_rcv(&k, ISN + i, t2 + 2 * REORDER_US * US, 0, false);
		KUNIT_EXPECT_FALSE(test, k.nack);
	}
	uet_ack_test_rcv(&k, ISN + 35, t2 + 2 * REORDER_US * US, 0, false);
	KUNIT_EXPECT_TRUE(test, k.nack);
	KUNIT_EXPECT_EQ(test, k.a.hole_psn, ISN + 20);
	uet_pdc_rx_free(&k.rx);
}

/* In error nothing is due; a reset forgets everything. */
static void uet_ack_cancel_test(struct kunit *test)
{
	struct uet_ack_test k;

	uet_ack_test_init(test, &k, DELAY_US, RTO_MIN_US);
	uet_ack_test_rcv(&k, ISN + 1, T0, 0, true);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, T0, EVERY, false), UET_ACK_SEND);
	uet_ack_cancel(&k.a);
	KUNIT_EXPECT_EQ(test, uet_ack_due(&k.a, T0, EVERY, false), UET_ACK_NONE);
	uet_ack_reset(&k.a);
	KUNIT_EXPECT_FALSE(test, k.a.ecn);
	KUNIT_EXPECT_EQ(test, k.a.hole_since_ns, 0ULL);
	uet_pdc_rx_free(&k.rx);
}

/* Control packets go round the peer's values, passing over those not
 * usable, at most UET_ACK_CTL_TRIES of them.
 */
static void uet_ack_ctl_entropy_test(struct kunit *test)
{
	struct uet_ev_table *t = uet_ev_table_alloc(EV_BASE, 4);
	u32 seq = 0;
	u16 ev;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (ev = 0; ev < 8; ev++)
		KUNIT_EXPECT_EQ(test, uet_ack_ctl_entropy(t, &seq, T0),
				EV_BASE + ev % 4);
	KUNIT_EXPECT_EQ(test, uet_ev_deny(t, EV_BASE + 1, true), 0);
	KUNIT_EXPECT_EQ(test, uet_ack_ctl_entropy(t, &seq, T0), EV_BASE);
	KUNIT_EXPECT_EQ(test, uet_ack_ctl_entropy(t, &seq, T0), EV_BASE + 2);
	KUNIT_EXPECT_EQ(test, seq, 11U);
	/* None usable: the last tried. */
	for (ev = 0; ev < 4; ev++)
		uet_ev_deny(t, EV_BASE + ev, true);
	KUNIT_EXPECT_EQ(test, uet_ack_ctl_entropy(t, &seq, T0),
			EV_BASE + (11 + UET_ACK_CTL_TRIES - 1) % 4);
	KUNIT_EXPECT_EQ(test, seq, 11U + UET_ACK_CTL_TRIES);
	uet_ev_table_free(t);
}

static struct kunit_case uet_ack_cases[] = {
	KUNIT_CASE(uet_ack_every_test),
	KUNIT_CASE(uet_ack_hold_test),
	KUNIT_CASE(uet_ack_ooo_test),
	KUNIT_CASE(uet_ack_ce_test),
	KUNIT_CASE(uet_ack_ackreq_test),
	KUNIT_CASE(uet_ack_dup_test),
	KUNIT_CASE(uet_ack_retx_test),
	KUNIT_CASE(uet_ack_ecn_copy_test),
	KUNIT_CASE(uet_ack_fill_test),
	KUNIT_CASE(uet_ack_hole_test),
	KUNIT_CASE(uet_ack_cancel_test),
	KUNIT_CASE(uet_ack_ctl_entropy_test),
	{}
};

static struct kunit_suite uet_ack_suite = {
	.name = "uet_ack",
	.test_cases = uet_ack_cases,
};

kunit_test_suite(uet_ack_suite);
