/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Packet delivery context (PDC): the reliable, unordered packet service
 * under each QP. One PSN space per direction: the sender tracks every
 * packet in flight, the receiver a bitmap of what arrived ahead of the
 * first hole. Pure logic: no ib_core, no sockets, no clock of its own
 * (callers pass "now" in ns), so KUnit drives it.
 */
#ifndef _UET_PDC_H
#define _UET_PDC_H

#include <linux/types.h>

/* Largest MPR window (packets in flight per direction), and the most
 * PSNs a receiver accepts ahead of the first it misses.
 */
#define UET_PDC_WIN_MAX		4096
/* PSNs a sender may have outstanding per packet of its MPR window: the
 * window, and what it sends while its oldest loss is found (a 50 ms
 * retransmit timeout, or the SACK rule's one to three RTTs) and its copy
 * makes a round trip. With PSNs bounded by the window alone, holes held
 * multipath_reps.sh's sender below NSCC's window (166 packets of a 20 ms
 * path) in 9% of the samples of the two seconds after a spine failed
 * (Documentation/uet/dev-guide/results.rst).
 */
#define UET_PDC_SPAN_PER_PKT	4
/* Entries of a sender's ring while it has little in flight: it grows to
 * what the window needs with traffic and comes back to this when all is
 * acknowledged, so that an idle QP holds no window's worth of state.
 */
#define UET_PDC_RING_MIN	16
/* Transmissions of a packet after which the SACK rule no longer declares
 * it lost by time alone (uet_pdc_tx_judged()).
 */
#define UET_PDC_BLIND_XMITS	4
#define UET_PDC_SACK_BITS	64
/* Reordering window growth (after RFC 8985, RACK's reo_wnd_mult). */
#define UET_PDC_REO_STEPS_MAX	8
#define UET_PDC_REO_PERSIST	16

/* Per-packet sender state. */
#define UET_PDC_ACKED		0x01	/* cumulatively or selectively acked */
#define UET_PDC_LOST		0x02	/* to be sent again */
#define UET_PDC_TRIMMED		0x04	/* ... because a switch trimmed it */
#define UET_PDC_RTO		0x08	/* ... because the timer expired */
#define UET_PDC_CHARGED		0x10	/* ... and congestion control paid */

struct uet_pdc_pkt {
	void *cookie;		/* the caller's copy of the packet */
	u64 sent_ns;		/* last transmission */
	u32 bytes;		/* as the caller counts them */
	u8 flags;
	u8 nxmit;		/* transmissions so far */
	u16 ev;			/* entropy value of the last transmission */
};

/* Whether a packet declared lost went down a path that has failed: its
 * loss is then the path's, which load balancing answers, not a sign of
 * congestion.
 */
typedef bool (*uet_pdc_path_failed_t)(void *arg, const struct uet_pdc_pkt *pkt);

struct uet_pdc_tx {
	u32 una;		/* oldest PSN not acknowledged */
	u32 nxt;		/* next new PSN */
	u32 win;		/* MPR: at most win packets in flight */
	u32 sacked_hi;		/* one past the highest PSN acknowledged on
				 * its first transmission
				 */
	u32 nlost;		/* packets marked lost, not yet resent */
	u32 nlost_rto;		/* ... of them by a timeout */
	u32 rto_credit;		/* resends of those allowed before more ACKs
				 * come (uet_pdc_tx_timeout())
				 */
	bool rto_late;		/* since the last timeout, an original it
				 * marked was acknowledged
				 */
	/* The latest send time of a first transmission acknowledged: what
	 * the SACK rule needs before it judges a resent hole again
	 * (uet_pdc_tx_judged()).
	 */
	u64 delivered_sent_ns;
	u32 nsacked;		/* packets acknowledged at or past una */
	u32 acked_hi;		/* one past the highest PSN acknowledged */
	u64 inflight_bytes;	/* bytes of the packets not acknowledged */
	u64 lost_bytes;		/* ... of them marked lost, not yet resent */
	u64 srtt_ns;		/* smoothed RTT, 0 until the first sample */
	u64 rttvar_ns;
	u64 min_rtt_ns;
	/* The slowest recent delivery, from every packet that triggered an
	 * ACK, in order or not: rises at once, decays by an eighth of the
	 * gap per sample. On paths of unequal delay (spraying over queues
	 * of different depth) it is the slow path's RTT, which srtt, fed
	 * only by packets that arrived in order, never sees.
	 */
	u64 rtt_hi_ns;
	/* Reordering tolerance learnt from needless retransmissions: the
	 * loss window grows by reo_steps quarters of srtt, and shrinks a
	 * step after UET_PDC_REO_PERSIST rounds of loss (at most one per
	 * RTT) without one.
	 */
	u32 reo_steps;
	u32 reo_persist;
	u64 reo_grown_ns;	/* when reo_steps last grew */
	u64 reo_round_ns;	/* when the last round of loss counted */
	/* ring_mask + 1 entries, by PSN: at most that many in [una, nxt);
	 * a power of two from UET_PDC_RING_MIN to ring_max
	 * (uet_pdc_tx_reserve(), uet_pdc_tx_shrink()).
	 */
	struct uet_pdc_pkt *ring;
	u32 ring_mask;
	u32 ring_max;
	uet_pdc_path_failed_t path_failed;	/* NULL: never */
	void *path_arg;
	u32 path_losses;	/* losses path_failed put on a path */
	/* Packets declared lost by the SACK rule or a timeout, charged to
	 * congestion control, then acknowledged before they were resent:
	 * the originals arrived, late. The caller takes and zeroes it.
	 */
	u32 nlate;
};

/* Called for each packet the peer acknowledged, in any order. */
typedef void (*uet_pdc_release_t)(void *arg, u32 psn, void *cookie);

int uet_pdc_tx_init(struct uet_pdc_tx *tx, u32 win, u32 isn);
void uet_pdc_tx_free(struct uet_pdc_tx *tx, uet_pdc_release_t release,
		     void *arg);

/* Where a PSN space nothing was sent in starts: isn. */
static inline void uet_pdc_tx_start(struct uet_pdc_tx *tx, u32 isn)
{
	tx->una = isn;
	tx->nxt = isn;
	tx->sacked_hi = isn;
	tx->acked_hi = isn;
}

static inline u32 uet_pdc_tx_inflight(const struct uet_pdc_tx *tx)
{
	return tx->nxt - tx->una;
}

/* Packets not acknowledged below the highest one that was: SACK holes. */
static inline u32 uet_pdc_tx_holes(const struct uet_pdc_tx *tx)
{
	return tx->acked_hi - tx->una - tx->nsacked;
}

/* Bytes actually in the network: unacknowledged and not known lost (the
 * "pipe" of RFC 6675), what a congestion window limits.
 */
static inline u64 uet_pdc_tx_pipe(const struct uet_pdc_tx *tx)
{
	return tx->inflight_bytes - tx->lost_bytes;
}

/* Packets sent and neither acknowledged nor known lost. */
static inline u32 uet_pdc_tx_pipe_pkts(const struct uet_pdc_tx *tx)
{
	return uet_pdc_tx_inflight(tx) - tx->nsacked - tx->nlost;
}

/* The MPR window counts what is in flight, as congestion windows do; a
 * hole only holds the sender back once the ring is full.
 */
static inline bool uet_pdc_tx_window_open(const struct uet_pdc_tx *tx)
{
	return uet_pdc_tx_inflight(tx) < tx->ring_max &&
	       uet_pdc_tx_pipe_pkts(tx) < tx->win;
}

static inline struct uet_pdc_pkt *uet_pdc_tx_pkt(const struct uet_pdc_tx *tx,
						 u32 psn)
{
	return &tx->ring[psn & tx->ring_mask];
}

int uet_pdc_tx_reserve(struct uet_pdc_tx *tx, gfp_t gfp);
void uet_pdc_tx_shrink(struct uet_pdc_tx *tx, gfp_t gfp);
u32 uet_pdc_tx_push(struct uet_pdc_tx *tx, void *cookie, u32 bytes, u64 now);
int uet_pdc_tx_ack(struct uet_pdc_tx *tx, u32 cack, u32 sack_base,
		   u64 sack_bitmap, uet_pdc_release_t release, void *arg);
void uet_pdc_tx_rtt_sample(struct uet_pdc_tx *tx, u32 psn, u64 now,
			   bool in_order);
u32 uet_pdc_tx_detect_loss(struct uet_pdc_tx *tx, u64 now, u32 dupthresh);
u64 uet_pdc_tx_loss_deadline(const struct uet_pdc_tx *tx, u32 dupthresh);
void uet_pdc_tx_dup_seen(struct uet_pdc_tx *tx, u64 now);
bool uet_pdc_tx_nack(struct uet_pdc_tx *tx, u32 psn, bool trimmed);
bool uet_pdc_tx_nack_hole(struct uet_pdc_tx *tx, u32 psn, u64 now);
u32 uet_pdc_tx_timeout(struct uet_pdc_tx *tx, u64 now, u64 rto_ns);
u64 uet_pdc_tx_rto_due(const struct uet_pdc_tx *tx, u64 rto_ns);
bool uet_pdc_tx_next_lost(const struct uet_pdc_tx *tx, u32 *psn);
void uet_pdc_tx_resent(struct uet_pdc_tx *tx, u32 psn, u64 now);
void uet_pdc_tx_drop_all(struct uet_pdc_tx *tx, uet_pdc_release_t release,
			 void *arg);
u64 uet_pdc_rto_ns(const struct uet_pdc_tx *tx, u64 rto_min, u64 rto_max,
		   u32 backoff, u32 linear);

/* Receiver. */
struct uet_pdc_rx {
	u32 next;		/* lowest PSN not received: all below were */
	u32 high;		/* one past the highest PSN received */
	u32 win;		/* PSNs accepted: [next, next + win) */
	unsigned long *map;	/* bit psn & mask set when received */
	u32 mask;
};

enum uet_pdc_verdict {
	UET_PDC_NEW,		/* deliver, then uet_pdc_rx_commit() */
	UET_PDC_DUP,		/* already delivered: acknowledge only */
	UET_PDC_OUT_OF_WINDOW,	/* ahead of the window: drop */
};

int uet_pdc_rx_init(struct uet_pdc_rx *rx, u32 win, u32 isn);
void uet_pdc_rx_free(struct uet_pdc_rx *rx);
enum uet_pdc_verdict uet_pdc_rx_check(const struct uet_pdc_rx *rx, u32 psn);
void uet_pdc_rx_commit(struct uet_pdc_rx *rx, u32 psn);
void uet_pdc_rx_sack(const struct uet_pdc_rx *rx, u32 psn, u32 *cack,
		     u32 *sack_base, u64 *bitmap);

static inline bool uet_pdc_rx_has_hole(const struct uet_pdc_rx *rx)
{
	return rx->high != rx->next;
}

/* How long a receiver holds an ACK back (pdc.c: uet_pdc_ack_hold()). */
struct uet_pdc_ack_hold {
	u64 last_ns;		/* arrival of the newest new data packet */
	u64 gap_ns;		/* mean spacing of new data packets (EWMA) */
};

u64 uet_pdc_ack_hold(struct uet_pdc_ack_hold *h, u64 t, u64 cap, u32 every);

#endif /* _UET_PDC_H */
