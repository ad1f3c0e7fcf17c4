// SPDX-License-Identifier: GPL-2.0
/*
 * Packet delivery context: PSN window, selective acknowledgment,
 * loss detection and retransmit selection, retransmit timeout. The
 * receiver delivers each PSN exactly once, in any order; the sender
 * resends only what the receiver's SACK or NACK says is missing.
 */
#include <kunit/visibility.h>
#include <linux/bitmap.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/slab.h>

#include "pdc.h"
#include "psn.h"

int uet_pdc_tx_init(struct uet_pdc_tx *tx, u32 win, u32 isn)
{
	u32 size;

	if (!win || win > UET_PDC_WIN_MAX)
		return -EINVAL;
	tx->ring_max = min_t(u32, roundup_pow_of_two(win * UET_PDC_SPAN_PER_PKT),
			     UET_PDC_WIN_MAX);
	size = min_t(u32, tx->ring_max, UET_PDC_RING_MIN);
	tx->ring = kcalloc(size, sizeof(*tx->ring), GFP_KERNEL_ACCOUNT);
	if (!tx->ring)
		return -ENOMEM;
	tx->ring_mask = size - 1;
	tx->win = win;
	uet_pdc_tx_start(tx, isn);
	tx->nlost = 0;
	tx->nlost_rto = 0;
	tx->nlate = 0;
	tx->rto_credit = 0;
	tx->rto_late = false;
	tx->delivered_sent_ns = 0;
	tx->nsacked = 0;
	tx->inflight_bytes = 0;
	tx->lost_bytes = 0;
	tx->srtt_ns = 0;
	tx->rttvar_ns = 0;
	tx->min_rtt_ns = 0;
	tx->rtt_hi_ns = 0;
	tx->reo_steps = 0;
	tx->reo_persist = 0;
	tx->reo_grown_ns = 0;
	tx->reo_round_ns = 0;
	tx->path_failed = NULL;
	tx->path_arg = NULL;
	tx->path_losses = 0;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_init);

void uet_pdc_tx_free(struct uet_pdc_tx *tx, uet_pdc_release_t release,
		     void *arg)
{
	if (!tx->ring)
		return;
	uet_pdc_tx_drop_all(tx, release, arg);
	kvfree(tx->ring);
	tx->ring = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_free);

/* Forget every packet in flight (the QP failed): nothing is resent. */
void uet_pdc_tx_drop_all(struct uet_pdc_tx *tx, uet_pdc_release_t release,
			 void *arg)
{
	u32 psn;

	for (psn = tx->una; psn != tx->nxt; psn++) {
		struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

		if (pkt->cookie)
			release(arg, psn, pkt->cookie);
		pkt->cookie = NULL;
		pkt->flags = UET_PDC_ACKED;
	}
	tx->una = tx->nxt;
	tx->sacked_hi = tx->nxt;
	tx->acked_hi = tx->nxt;
	tx->nlost = 0;
	tx->nlost_rto = 0;
	tx->nlate = 0;
	tx->nsacked = 0;
	tx->inflight_bytes = 0;
	tx->lost_bytes = 0;
}

/* Move the packets in flight to a ring of size entries (a power of two
 * no smaller than what is in flight).
 */
static int uet_pdc_tx_resize(struct uet_pdc_tx *tx, u32 size, gfp_t gfp)
{
	struct uet_pdc_pkt *ring = kvcalloc(size, sizeof(*ring), gfp);
	u32 psn;

	if (!ring)
		return -ENOMEM;
	for (psn = tx->una; psn != tx->nxt; psn++)
		ring[psn & (size - 1)] = *uet_pdc_tx_pkt(tx, psn);
	kvfree(tx->ring);
	tx->ring = ring;
	tx->ring_mask = size - 1;
	return 0;
}

/**
 * uet_pdc_tx_reserve() - make room in the ring for one more packet
 * @tx: the sender, whose window is open (uet_pdc_tx_window_open())
 * @gfp: how to allocate a larger ring
 *
 * Return: 0, or -ENOMEM if the ring is full and could not grow.
 */
int uet_pdc_tx_reserve(struct uet_pdc_tx *tx, gfp_t gfp)
{
	if (uet_pdc_tx_inflight(tx) <= tx->ring_mask)
		return 0;
	return uet_pdc_tx_resize(tx, min(2 * (tx->ring_mask + 1), tx->ring_max),
				 gfp);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_reserve);

/* Everything was acknowledged: back to the smallest ring, if one can be
 * had (else the ring stays as it is).
 */
void uet_pdc_tx_shrink(struct uet_pdc_tx *tx, gfp_t gfp)
{
	if (!uet_pdc_tx_inflight(tx) && tx->ring_mask + 1 > UET_PDC_RING_MIN)
		uet_pdc_tx_resize(tx, UET_PDC_RING_MIN, gfp);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_shrink);

/* Record a new packet; the caller checked uet_pdc_tx_window_open() and
 * made room (uet_pdc_tx_reserve()).
 */
u32 uet_pdc_tx_push(struct uet_pdc_tx *tx, void *cookie, u32 bytes, u64 now)
{
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, tx->nxt);

	pkt->cookie = cookie;
	pkt->sent_ns = now;
	pkt->bytes = bytes;
	tx->inflight_bytes += bytes;
	pkt->flags = 0;
	pkt->nxmit = 1;
	return tx->nxt++;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_push);

static bool uet_pdc_tx_in_flight(const struct uet_pdc_tx *tx, u32 psn)
{
	return uet_psn_in_window(psn, tx->una, uet_pdc_tx_inflight(tx));
}

static int uet_pdc_tx_mark_acked(struct uet_pdc_tx *tx, u32 psn,
				 uet_pdc_release_t release, void *arg)
{
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

	if (pkt->flags & UET_PDC_ACKED)
		return 0;
	if (pkt->flags & UET_PDC_LOST) {
		tx->nlost--;
		tx->lost_bytes -= pkt->bytes;
		if (pkt->flags & UET_PDC_CHARGED)
			tx->nlate++;
		if (pkt->flags & UET_PDC_RTO) {
			tx->nlost_rto--;
			tx->rto_late = true;
		}
	}
	pkt->flags = UET_PDC_ACKED;
	tx->nsacked++;
	tx->inflight_bytes -= pkt->bytes;
	if (uet_psn_after_eq(psn, tx->acked_hi))
		tx->acked_hi = psn + 1;
	if (pkt->cookie) {
		release(arg, psn, pkt->cookie);
		pkt->cookie = NULL;
	}
	/* Only first transmissions are evidence against older holes: a
	 * retransmission travels in a higher class and may overtake data
	 * sent long before it without anything being lost.
	 */
	if (pkt->nxmit == 1 && uet_psn_after_eq(psn, tx->sacked_hi))
		tx->sacked_hi = psn + 1;
	if (pkt->nxmit == 1 && pkt->sent_ns > tx->delivered_sent_ns)
		tx->delivered_sent_ns = pkt->sent_ns;
	return 1;
}

/* Apply an acknowledgment: every PSN up to and including cack arrived,
 * and so did sack_base + i for each bit i set in the bitmap. Anything that
 * does not describe packets in flight is ignored, so a stale, duplicated
 * or forged ACK can neither move the window backwards nor past what was
 * sent. Returns the number of packets newly acknowledged.
 */
int uet_pdc_tx_ack(struct uet_pdc_tx *tx, u32 cack, u32 sack_base,
		   u64 sack_bitmap, uet_pdc_release_t release, void *arg)
{
	u32 end = cack + 1, psn;
	int i, newly = 0;

	if (uet_psn_after(end, tx->una) && !uet_psn_after(end, tx->nxt)) {
		for (psn = tx->una; psn != end; psn++)
			newly += uet_pdc_tx_mark_acked(tx, psn, release, arg);
	}
	for (i = 0; sack_bitmap && i < UET_PDC_SACK_BITS; i++) {
		if (!(sack_bitmap & BIT_ULL(i)))
			continue;
		psn = sack_base + i;
		if (uet_pdc_tx_in_flight(tx, psn))
			newly += uet_pdc_tx_mark_acked(tx, psn, release, arg);
	}
	while (tx->una != tx->nxt &&
	       (uet_pdc_tx_pkt(tx, tx->una)->flags & UET_PDC_ACKED)) {
		tx->una++;
		tx->nsacked--;
	}
	if (uet_psn_before(tx->sacked_hi, tx->una))
		tx->sacked_hi = tx->una;
	/* What a timeout marked and did not resend yet: if an original it
	 * marked got there, the window was late, not lost, and its ACKs are
	 * on their way; two go out per packet acknowledged meanwhile, in
	 * case some were lost after all. If only what was resent is
	 * acknowledged, the rest is lost as well and goes at once.
	 */
	if (tx->nlost_rto && newly)
		tx->rto_credit = tx->rto_late ?
				 min(tx->rto_credit + 2 * newly, tx->win) : tx->win;
	return newly;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_ack);

/* RFC 6298 smoothing, from the packet whose arrival triggered an ACK;
 * call it before uet_pdc_tx_ack() applies that ACK. Only packets sent
 * once give samples: the ACK of a retransmission cannot say which copy
 * it answers. Only those that arrived in order (in_order) feed srtt: one
 * that overtook others would pull it below what the held-back ones take.
 */
void uet_pdc_tx_rtt_sample(struct uet_pdc_tx *tx, u32 psn, u64 now,
			   bool in_order)
{
	const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);
	u64 rtt, err;

	if (!uet_pdc_tx_in_flight(tx, psn) || (pkt->flags & UET_PDC_ACKED))
		return;
	if (pkt->nxmit != 1 || now < pkt->sent_ns)
		return;
	rtt = now - pkt->sent_ns;
	if (rtt >= tx->rtt_hi_ns)
		tx->rtt_hi_ns = rtt;
	else
		tx->rtt_hi_ns -= (tx->rtt_hi_ns - rtt) / 8;
	if (!in_order)
		return;
	if (!tx->min_rtt_ns || rtt < tx->min_rtt_ns)
		tx->min_rtt_ns = rtt;
	if (!tx->srtt_ns) {
		tx->srtt_ns = rtt;
		tx->rttvar_ns = rtt / 2;
		return;
	}
	err = rtt > tx->srtt_ns ? rtt - tx->srtt_ns : tx->srtt_ns - rtt;
	tx->rttvar_ns = tx->rttvar_ns - tx->rttvar_ns / 4 + err / 4;
	tx->srtt_ns = tx->srtt_ns - tx->srtt_ns / 8 + rtt / 8;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_rtt_sample);

static bool uet_pdc_tx_mark_lost(struct uet_pdc_tx *tx, u32 psn, u8 why)
{
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

	if (pkt->flags & (UET_PDC_ACKED | UET_PDC_LOST))
		return false;
	pkt->flags |= UET_PDC_LOST | why;
	tx->nlost++;
	tx->lost_bytes += pkt->bytes;
	if (why & UET_PDC_RTO)
		tx->nlost_rto++;
	if (tx->path_failed && tx->path_failed(tx->path_arg, pkt)) {
		tx->path_losses++;
		pkt->flags &= ~UET_PDC_CHARGED;
	}
	return true;
}

/* How long a hole may stay open before it is a loss: the smoothed RTT
 * plus twice its variation, at least a quarter of it on top. Jitter
 * widens it: when reordering comes from some packets being delayed,
 * early packets pull the average down and the variation up. Packets
 * that arrived twice widen it further (uet_pdc_tx_dup_seen()).
 */
static u64 uet_pdc_reo_ns(const struct uet_pdc_tx *tx)
{
	return max(tx->srtt_ns, tx->rtt_hi_ns) +
	       max(2 * tx->rttvar_ns, tx->srtt_ns / 4) +
	       tx->reo_steps * (tx->srtt_ns / 4);
}

/* The peer received a packet twice: a hole declared lost was only late
 * (or the path duplicates, which costs nothing but a slower reaction).
 * Grow the reordering window by a quarter RTT, at most once per RTT so
 * that one burst of late packets counts once.
 */
void uet_pdc_tx_dup_seen(struct uet_pdc_tx *tx, u64 now)
{
	tx->reo_persist = UET_PDC_REO_PERSIST;
	if (tx->reo_grown_ns && now - tx->reo_grown_ns < tx->srtt_ns)
		return;
	tx->reo_grown_ns = now;
	if (tx->reo_steps < UET_PDC_REO_STEPS_MAX)
		tx->reo_steps++;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_dup_seen);

/* May the SACK rule judge the hole pkt? A first transmission, when the
 * dupthresh later ones acknowledged say it was overtaken. A resent one,
 * when a first transmission sent after the resend was acknowledged
 * (RACK's rule, RFC 8985 section 6.2), or by time alone for its first
 * few resends: a resend lost in a full queue while the window is
 * blocked by it is resent again at once, where the timeout would first
 * mark everything still queued (spraying over 4 spines with no
 * congestion control: 3507 packets resent instead of 0). Judged by time
 * alone for ever, a lone hole to a peer that stopped answering went
 * again every reordering window, always before the timeout whose
 * expiries count the retries: the QP never failed.
 */
static bool uet_pdc_tx_judged(const struct uet_pdc_tx *tx,
			      const struct uet_pdc_pkt *pkt)
{
	return pkt->nxmit < UET_PDC_BLIND_XMITS ||
	       tx->delivered_sent_ns > pkt->sent_ns;
}

/* A hole is lost when at least dupthresh later first transmissions were
 * acknowledged (it is not just overtaken by one or two) and it has been
 * out longer than the reordering window since its last transmission (it
 * is not merely on a slower path or held back by a delay). Returns the
 * number of packets newly marked.
 */
u32 uet_pdc_tx_detect_loss(struct uet_pdc_tx *tx, u64 now, u32 dupthresh)
{
	u64 reo = uet_pdc_reo_ns(tx);
	u32 psn, marked = 0;

	if (uet_psn_diff(tx->sacked_hi, tx->una) <= (s32)dupthresh)
		return 0;
	for (psn = tx->una; uet_psn_before(psn, tx->sacked_hi - dupthresh); psn++) {
		const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

		if ((pkt->flags & (UET_PDC_ACKED | UET_PDC_LOST)) ||
		    !uet_pdc_tx_judged(tx, pkt))
			continue;
		if (now - pkt->sent_ns < reo)
			continue;
		marked += uet_pdc_tx_mark_lost(tx, psn, UET_PDC_CHARGED);
	}
	/* Rounds of loss with no duplicate since: the path reorders less. */
	if (marked && tx->reo_steps && now - tx->reo_round_ns >= tx->srtt_ns) {
		tx->reo_round_ns = now;
		if (!--tx->reo_persist) {
			tx->reo_steps--;
			tx->reo_persist = UET_PDC_REO_PERSIST;
		}
	}
	return marked;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_detect_loss);

/* When the next hole overtaken by dupthresh acknowledged packets becomes
 * old enough to be declared lost; 0 if there is none. The caller runs
 * uet_pdc_tx_detect_loss() again then, ACKs or not: at the tail of a
 * burst no further ACK may come.
 */
u64 uet_pdc_tx_loss_deadline(const struct uet_pdc_tx *tx, u32 dupthresh)
{
	u64 reo = uet_pdc_reo_ns(tx);
	u32 psn;

	if (uet_psn_diff(tx->sacked_hi, tx->una) <= (s32)dupthresh)
		return 0;
	for (psn = tx->una; uet_psn_before(psn, tx->sacked_hi - dupthresh); psn++) {
		const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

		if (!(pkt->flags & (UET_PDC_ACKED | UET_PDC_LOST)) &&
		    uet_pdc_tx_judged(tx, pkt))
			return pkt->sent_ns + reo;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_loss_deadline);

/* The receiver says psn did not arrive whole (trimmed, or a late hole). */
bool uet_pdc_tx_nack(struct uet_pdc_tx *tx, u32 psn, bool trimmed)
{
	if (!uet_pdc_tx_in_flight(tx, psn))
		return false;
	return uet_pdc_tx_mark_lost(tx, psn, trimmed ? UET_PDC_TRIMMED : 0);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_nack);

/* The receiver has waited long for psn. Its clock started when it noticed
 * the hole, ours when we sent the packet: a copy younger than the
 * reordering window may still be on its way, and the SACK rule will judge
 * it when it is due.
 */
bool uet_pdc_tx_nack_hole(struct uet_pdc_tx *tx, u32 psn, u64 now)
{
	if (!uet_pdc_tx_in_flight(tx, psn) ||
	    now - uet_pdc_tx_pkt(tx, psn)->sent_ns < uet_pdc_reo_ns(tx))
		return false;
	return uet_pdc_tx_mark_lost(tx, psn, 0);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_nack_hole);

/* The retransmit timer fired: nothing was acknowledged for an RTO. Every
 * packet unacknowledged for at least rto_ns since its last transmission
 * is presumed lost; younger ones get their own chance, so a stall of the
 * peer does not turn the whole window into retransmissions. Packets the
 * SACK covered are never resent.
 */
u32 uet_pdc_tx_timeout(struct uet_pdc_tx *tx, u64 now, u64 rto_ns)
{
	u32 psn, marked = 0;

	for (psn = tx->una; psn != tx->nxt; psn++)
		if (now - uet_pdc_tx_pkt(tx, psn)->sent_ns >= rto_ns)
			marked += uet_pdc_tx_mark_lost(tx, psn, UET_PDC_RTO |
							  UET_PDC_CHARGED);
	/* One packet of what it marked goes out, and the ACKs that follow
	 * say whether the rest was lost or only late (F-RTO, RFC 5682, with
	 * the SACK to tell them apart; uet_pdc_tx_ack()): a timeout that a
	 * slow receiver or a long queue caused costs a packet, not the
	 * window.
	 */
	if (marked) {
		tx->rto_credit = 1;
		tx->rto_late = false;
	}
	return marked;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_timeout);

/* When the first packet still out (neither acknowledged nor known lost)
 * will have been out rto_ns since its last transmission; 0 if none is.
 */
u64 uet_pdc_tx_rto_due(const struct uet_pdc_tx *tx, u64 rto_ns)
{
	u64 due = 0;
	u32 psn;

	for (psn = tx->una; psn != tx->nxt; psn++) {
		const struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

		if (pkt->flags & (UET_PDC_ACKED | UET_PDC_LOST))
			continue;
		if (!due || pkt->sent_ns + rto_ns < due)
			due = pkt->sent_ns + rto_ns;
	}
	return due;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_rto_due);

/* Earliest packet marked lost that may be resent now (what a timeout
 * marked waits for rto_credit): the hole that blocks the window most.
 */
bool uet_pdc_tx_next_lost(const struct uet_pdc_tx *tx, u32 *psn)
{
	u32 ready = tx->rto_credit ? tx->nlost : tx->nlost - tx->nlost_rto;
	u32 p;
	u8 f;

	if (!ready)
		return false;
	for (p = tx->una; p != tx->nxt; p++) {
		f = uet_pdc_tx_pkt(tx, p)->flags;
		if ((f & UET_PDC_LOST) && (tx->rto_credit || !(f & UET_PDC_RTO))) {
			*psn = p;
			return true;
		}
	}
	return false;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_next_lost);

void uet_pdc_tx_resent(struct uet_pdc_tx *tx, u32 psn, u64 now)
{
	struct uet_pdc_pkt *pkt = uet_pdc_tx_pkt(tx, psn);

	if (pkt->flags & UET_PDC_LOST) {
		if (pkt->flags & UET_PDC_RTO) {
			tx->nlost_rto--;
			if (tx->rto_credit)
				tx->rto_credit--;
		}
		pkt->flags &= ~(UET_PDC_LOST | UET_PDC_TRIMMED | UET_PDC_RTO |
				UET_PDC_CHARGED);
		tx->nlost--;
		tx->lost_bytes -= pkt->bytes;
	}
	pkt->sent_ns = now;
	if (pkt->nxmit < U8_MAX)
		pkt->nxmit++;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_tx_resent);

/* The timeout after `backoff` consecutive expiries without progress:
 * max(rto_min, srtt + 4 rttvar), then growing linearly for the first
 * `linear` expiries (a lost burst on a sprayed fabric recovers fast),
 * then doubling, never above rto_max.
 */
u64 uet_pdc_rto_ns(const struct uet_pdc_tx *tx, u64 rto_min, u64 rto_max,
		   u32 backoff, u32 linear)
{
	u64 rto = max(rto_min, tx->srtt_ns + 4 * tx->rttvar_ns);
	u32 shift;

	if (backoff <= linear) {
		rto *= backoff + 1;
	} else {
		rto *= linear + 1;
		shift = min(backoff - linear, 32U);
		rto = rto > (rto_max >> shift) ? rto_max : rto << shift;
	}
	return min(rto, rto_max);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rto_ns);

int uet_pdc_rx_init(struct uet_pdc_rx *rx, u32 win, u32 isn)
{
	u32 size;

	if (!win || win > UET_PDC_WIN_MAX)
		return -EINVAL;
	size = roundup_pow_of_two(win);
	rx->map = bitmap_zalloc(size, GFP_KERNEL_ACCOUNT);
	if (!rx->map)
		return -ENOMEM;
	rx->mask = size - 1;
	rx->win = win;
	rx->next = isn;
	rx->high = isn;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rx_init);

void uet_pdc_rx_free(struct uet_pdc_rx *rx)
{
	bitmap_free(rx->map);
	rx->map = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rx_free);

static bool uet_pdc_rx_got(const struct uet_pdc_rx *rx, u32 psn)
{
	if (uet_psn_before(psn, rx->next))
		return true;
	if (uet_psn_diff(psn, rx->next) >= (s32)rx->win)
		return false;
	return test_bit(psn & rx->mask, rx->map);
}

enum uet_pdc_verdict uet_pdc_rx_check(const struct uet_pdc_rx *rx, u32 psn)
{
	if (uet_psn_before(psn, rx->next))
		return UET_PDC_DUP;
	if (uet_psn_diff(psn, rx->next) >= (s32)rx->win)
		return UET_PDC_OUT_OF_WINDOW;
	return test_bit(psn & rx->mask, rx->map) ? UET_PDC_DUP : UET_PDC_NEW;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rx_check);

/* psn was delivered: the caller got UET_PDC_NEW for it. */
void uet_pdc_rx_commit(struct uet_pdc_rx *rx, u32 psn)
{
	set_bit(psn & rx->mask, rx->map);
	if (uet_psn_after_eq(psn, rx->high))
		rx->high = psn + 1;
	while (test_bit(rx->next & rx->mask, rx->map)) {
		clear_bit(rx->next & rx->mask, rx->map);
		rx->next++;
	}
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rx_commit);

/* What to put in an ACK for psn: the cumulative PSN and a 64-bit window
 * of the bitmap. The window starts at the first hole unless psn lies past
 * it; then it ends at psn, so that over successive ACKs the sender learns
 * about every packet, not only those near the hole.
 */
void uet_pdc_rx_sack(const struct uet_pdc_rx *rx, u32 psn, u32 *cack,
		     u32 *sack_base, u64 *bitmap)
{
	u32 base = rx->next;
	u64 map = 0;
	int i;

	if (uet_psn_diff(psn, rx->next) >= UET_PDC_SACK_BITS)
		base = psn - (UET_PDC_SACK_BITS - 1);
	for (i = 0; i < UET_PDC_SACK_BITS; i++)
		if (uet_pdc_rx_got(rx, base + i))
			map |= BIT_ULL(i);
	*cack = rx->next - 1;
	*sack_base = base;
	*bitmap = map;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_rx_sack);

/* A new data packet arrived at t: how long may its ACK wait, if nothing
 * asks for one sooner? About as long as @every packets take to come at
 * their mean spacing (a moving average, 1/8 gain, as TCP's SRTT): a
 * sender that keeps sending gets one ACK per @every packets, one that
 * stopped without asking (ACKREQ) gets its ACK soon after. At most @cap,
 * which also bounds what a pause between bursts adds to the average.
 */
u64 uet_pdc_ack_hold(struct uet_pdc_ack_hold *h, u64 t, u64 cap, u32 every)
{
	u64 gap;

	if (h->last_ns && t > h->last_ns) {
		gap = min(t - h->last_ns, cap);
		h->gap_ns = h->gap_ns - (h->gap_ns >> 3) + (gap >> 3);
	}
	h->last_ns = t;
	return min(cap, h->gap_ns * every);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pdc_ack_hold);
