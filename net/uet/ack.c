// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's acknowledgment policy (ack.h). An ACK is coalesced
 * over new packets in order, as TCP delays its ACKs (RFC 1122 section
 * 4.2.3.2): it goes after ack_every of them or when a hold runs out.
 * Anything the sender must hear soon goes at once: a reordering, a
 * mark, a duplicate, or what the sender asked for (ACKREQ).
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/limits.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>

#include "ack.h"
#include "ev.h"

/* The packet the next ACK answers: its PSN, entropy value and arrival. */
static void uet_ack_trigger(struct uet_ack *a, const struct uet_ack_pkt *pkt)
{
	a->psn = pkt->psn;
	a->ev = pkt->ev;
	a->rx_ns = pkt->t;
}

/* Any data packet of the QP, before the PDC judges it: a retransmission
 * is acknowledged in two copies, the sender maybe waiting on an ACK that
 * died on a broken path; a mark is echoed by the next ACK.
 */
void uet_ack_arrived(struct uet_ack *a, bool retx, bool ce)
{
	if (retx)
		a->retx = true;
	if (ce)
		a->ecn = true;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_arrived);

/* A duplicate is acknowledged at once, and flagged so that the sender,
 * which resent it for nothing or lost its ACK, widens its reordering
 * window (uet_pdc_tx_dup_seen()).
 */
void uet_ack_dup(struct uet_ack *a, const struct uet_ack_pkt *pkt)
{
	uet_ack_trigger(a, pkt);
	a->now = true;
	a->dup = true;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_dup);

/* A new packet, committed to the PDC, after uet_ack_hole(). Its ACK is
 * due at once if it came out of order, so the sender learns of a hole
 * (RFC 5681 section 4.2), or if the sender asked for it; else as
 * uet_pdc_ack_hold() says from the first packet not acknowledged, at
 * most delay_us, and a quarter of rto_min_us so that the sender's timer
 * never waits on it. True: send the ACK before the next packet, as a
 * mark arrived since the last one; it names the marked path only while
 * it answers the newest packet.
 */
bool uet_ack_new(struct uet_ack *a, const struct uet_ack_pkt *pkt, u32 every,
		 u32 delay_us, u32 rto_min_us)
{
	u64 cap = min_t(u64, (u64)delay_us * NSEC_PER_USEC,
			(u64)rto_min_us * NSEC_PER_USEC / 4);
	u64 hold = uet_pdc_ack_hold(&a->hold, pkt->t, cap, every);

	if (!pkt->in_order)
		a->now = true;
	if (!a->pending++)
		a->deadline_ns = pkt->t + hold;
	uet_ack_trigger(a, pkt);
	if (pkt->ackreq)
		a->now = true;
	return a->ecn;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_new);

/* After a new packet is committed: the lowest PSN missing, once the
 * PSNs from it to the highest received number reorder_pkts and it has
 * been missing reorder_us, is NACKed (PKT_NOT_RCVD at hole_psn) once,
 * at once, since reordering no longer explains it. True: send that NACK.
 */
bool uet_ack_hole(struct uet_ack *a, const struct uet_pdc_rx *rx, u64 now,
		  u32 reorder_pkts, u32 reorder_us)
{
	if (!uet_pdc_rx_has_hole(rx))
		return false;
	if (rx->next != a->hole_psn || !a->hole_since_ns) {
		a->hole_psn = rx->next;
		a->hole_since_ns = now;
		a->hole_nacked = false;
		return false;
	}
	if (a->hole_nacked || rx->high - rx->next < reorder_pkts ||
	    now - a->hole_since_ns < (u64)reorder_us * NSEC_PER_USEC)
		return false;
	a->hole_nacked = true;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_hole);

/* At the end of a pass: the ACK goes if due at once, after every new
 * packets, or past its deadline. Else its timer, a lazy backstop as the
 * retransmit timer is, is armed only when none is queued and never
 * cancelled by an ACK that left sooner (starting and cancelling a timer
 * costs more than a packet under emulation); its expiry finds what is
 * due then. A deadline found past while the timer is queued is left to
 * it: under a slow host every pass would find one.
 */
enum uet_ack_action uet_ack_due(const struct uet_ack *a, u64 now, u32 every,
				bool timer_queued)
{
	if (!a->now && !a->pending)
		return UET_ACK_NONE;
	if (!a->now && a->pending < every) {
		if (timer_queued)
			return UET_ACK_NONE;
		if (now < a->deadline_ns)
			return UET_ACK_ARM;
	}
	return UET_ACK_SEND;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_due);

/* The ACK due, into *ack, which the caller zeroed and addressed (UE 1.0
 * PDS ACK_CCX, wire.h): the cumulative PSN and the SACK bitmap around
 * the packet it answers, that packet's entropy value, the mark and
 * duplicate seen since the last ACK, and how long that packet waited
 * here in whole microseconds, which the sender takes off its RTT sample
 * so that delay means queues in the network (NSCC's service time).
 * Coalescing starts afresh. Returns the copies to send, two after a
 * retransmission: nothing tells the receiver which of its return paths
 * work. uet_ack_next_copy() after each.
 */
u32 uet_ack_fill(struct uet_ack *a, const struct uet_pdc_rx *rx, u64 now,
		 struct uet_pds_ack *ack)
{
	u64 service_us;
	u32 base, copies;
	s32 off;

	uet_pdc_rx_sack(rx, a->psn, &ack->cack_psn, &base, &ack->sack_bitmap);
	off = a->psn - ack->cack_psn;
	ack->ack_psn_offset = clamp_t(s32, off, S16_MIN, S16_MAX);
	ack->sack_psn_offset = base - ack->cack_psn;
	ack->mpr = min_t(u32, rx->win, U8_MAX);
	if (a->ecn)
		ack->flags |= UET_PDS_ACK_F_ECN;
	if (a->dup)
		ack->flags |= UET_PDS_ACK_F_DUP;
	ack->ccx = true;
	ack->ccx_flags = UET_ACKX_F_ENTROPY;
	ack->entropy = a->ev;
	service_us = now > a->rx_ns ?
		     div_u64(now - a->rx_ns, NSEC_PER_USEC) : 0;
	ack->cc_type = UET_ACK_CC_NSCC;
	ack->cc_state = uet_nscc_state_pack(min_t(u64, service_us, U16_MAX));

	copies = a->retx ? 2 : 1;
	a->pending = 0;
	a->now = false;
	a->ecn = false;
	a->dup = false;
	a->retx = false;
	return copies;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_fill);

/* The entropy value of a control packet (ACK, NACK, CNP) to a peer of
 * values t: the next of the set, by *seq, that looks usable, so control
 * packets spread over every path and a dead one costs only the few that
 * took it, not every ACK.
 */
u16 uet_ack_ctl_entropy(const struct uet_ev_table *t, u32 *seq, u64 now)
{
	int tries;
	u16 ev;

	for (tries = 0; tries < UET_ACK_CTL_TRIES; tries++) {
		ev = t->base + (*seq)++ % t->count;
		if (uet_ev_usable(t, ev, now))
			break;
	}
	return ev;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ack_ctl_entropy);
