/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport engine of a QP: requester (req.c), responder (resp.c),
 * and the pass that runs them (qp.c). All state here belongs to the
 * engine's owner (engine.c): one at a time, so it needs no lock of its
 * own.
 */
#ifndef _UET_QP_H
#define _UET_QP_H

#include "uet.h"
#include "ack.h"
#include "op.h"
#include "peer.h"
#include "train.h"
#include "wire.h"

/* Bytes in front of a data packet's payload, as the PDC counts them. */
#define UET_DATA_HDR_LEN	(sizeof(struct uet_pds_req_hdr) + \
				 sizeof(struct uet_verbs_hdr_wire))

/* Engine limits; the transport parameters are in params.h. */
#define UET_WORK_BUDGET		64	/* packets per run before yielding */
#define UET_RMSG_MAX		64	/* receive-consuming messages in flight */
#define UET_REQ_JOBS_MIN	4	/* responses owed, before the table grows */

/* Private copy of a send WQE and what the requester knows about it. */
struct uet_swqe {
	u32 seq;		/* request id on the wire (READ, atomics) */
	u32 first_psn;
	u32 last_psn;
	u32 sent;		/* payload bytes segmented so far */
	u32 length;
	u32 rcvd;		/* READ: response bytes placed */
	u32 msn;		/* receive-consuming ops: message number */
	u8 opcode;		/* IB_WR_* */
	u32 npkts_sent;		/* packets built so far */
	/* Its message number and read/atomic slot are taken: once, even if
	 * building its first packet failed and is tried again.
	 */
	bool started;
	bool segmented;		/* every packet built */
	bool responded;		/* READ/atomic: the whole response arrived */
	/* What the requester does with it (op.c); NULL: it takes no such
	 * opcode, and the WQE completes in error.
	 */
	const struct uet_wr_op *op;
	bool consumes_rmsg;	/* op's UET_WR_RECV */
	bool rd_atomic;		/* op's UET_WR_ANSWERED */
	enum ib_wc_status status;
	struct rxe_send_wqe wqe;	/* followed by sge[] or inline data */
};

/* A READ or atomic the peer asked for, answered from our PSN space. */
struct uet_rjob {
	u32 seq;		/* the requester's id, echoed */
	u8 opcode;		/* UET_OP_READ_RESP or UET_OP_ATOMIC_RESP */
	u64 addr;
	u32 rkey;
	u32 length;
	u32 offset;		/* bytes answered so far */
	u64 orig;		/* atomic: value before the operation */
};

/* A receive-consuming message the peer is sending us. */
struct uet_rmsg {
	bool bound;		/* a receive WQE is attached */
	bool known;		/* a packet of it arrived: msg_len/op valid */
	u8 opcode;		/* UET_OP_* */
	u8 flags;
	u32 msg_len;
	u32 rcvd;
	u32 psn_hi;		/* its newest packet: completes once all up to it came */
	u32 imm;
	enum ib_wc_status status;
	struct rxe_recv_wqe *wqe;	/* copy, with its sge[] */
};

struct uet_req {
	/* Private send queue: copies of the WQEs taken from the ring. */
	u8 *swq;
	u32 swqe_size;
	u32 swq_mask;
	u32 head;		/* oldest WQE not completed */
	u32 cur;		/* WQE being segmented */
	u32 tail;		/* next free slot */
	bool sq_full;		/* the last fetch left WQEs in the ring */
	u32 seq;		/* next request id */
	u32 msn;		/* next receive-consuming message number */
	u32 rd_atomic;		/* READ/atomics outstanding */
	u32 rmsg;		/* receive-consuming messages outstanding */
	u64 rd_since_ns;	/* last one started or response: their wait's start */

	/* Responses we owe the peer: jobs_mask + 1 entries, a power of two
	 * from UET_REQ_JOBS_MIN, grown as the peer's READs and atomics
	 * need (uet_req_job_room()).
	 */
	struct uet_rjob *jobs;
	u32 jobs_head, jobs_tail, jobs_mask;

	/* The ACK being processed, for the paths' feedback. */
	u32 ack_psn;		/* the PSN that triggered it */
	bool ack_ecn;		/* ... arrived CE-marked */
	u64 ack_now;
	/* Entropy values it proved good, with their newest packet's send time. */
	struct {
		u16 ev;
		u64 sent_ns;
	} good[16];
	u32 ngood;

	struct page_frag_cache frag;	/* payload of the packets built */
	/* The creating process's memory cgroup (a user QP's, else NULL):
	 * the copies in frag are charged to it, as its rings are.
	 */
	struct mem_cgroup *memcg;
	struct sk_buff_head spare;	/* kept packets acknowledged, to reuse */
	struct uet_train train;		/* new packets going out as one skb */
	u64 clock_ns;			/* send time of the packets built */

	/* The newest packet of the burst being sent, not yet transmitted. */
	bool held;
	u32 held_psn;
	bool need_ack;		/* the burst ends on a closed window */

	u32 backoff;		/* RTO expiries without progress */
	u32 rnr_count;
	u64 rnr_until_ns;	/* no transmission before (RNR wait) */
	bool rto_fired;
	bool error;		/* a WQE failed: flush everything */
};

struct uet_resp {
	struct uet_rmsg *rmsg;
	u32 rmsg_done;		/* first msn not completed */
	u32 rmsg_bound;		/* first msn without a receive WQE */
	u32 rqe_size;		/* bytes of one receive WQE copy */

	/* ACK coalescing and the NACK of a hole (ack.h), the engine's
	 * owner's as all here.
	 */
	struct uet_ack ack;

	/* UC: the newest message begun (uet_resp_uc()). */
	bool uc_seen;		/* one began since RESET */
	bool uc_open;		/* it is being received */
	u8 uc_opcode;
	u32 uc_msn;
	u32 uc_len;		/* its msg_len */
	u32 uc_rcvd;		/* its bytes placed */
};

/* An unreliable connected QP: the RC engine without ACKs, resends or
 * congestion control (req.c uet_req_push(), resp.c uet_resp_uc()).
 */
static inline bool uet_qp_is_uc(const struct uet_qp *qp)
{
	return qp->ibqp.qp_type == IB_QPT_UC;
}

static inline struct uet_swqe *uet_swqe(const struct uet_req *req, u32 i)
{
	return (struct uet_swqe *)(req->swq + (i & req->swq_mask) * req->swqe_size);
}

/* Start t to fire in ns from now unless it is queued already. Not
 * hrtimer_active(): that is also true while the callback runs, and the
 * callback's kick may be what started this very pass, which would then
 * leave the new deadline to a timer that is about to end.
 */
static inline void uet_qp_timer_once(struct hrtimer *t, u64 ns)
{
	if (!hrtimer_is_queued(t))
		hrtimer_start(t, ns_to_ktime(ns), HRTIMER_MODE_REL);
}

/* One side of a copy to or from an SGE list: flat memory buf, copied in
 * direction dir; or, with skb set, the packet's data from byte skb_off
 * on, copied into the list; or, with lend set, the list's pages appended
 * to that packet's fragments (uet_mr_lend(), copies from pfc).
 */
struct uet_sge_io {
	void *buf;
	enum uet_copy_dir dir;
	const struct sk_buff *skb;
	int skb_off;
	struct sk_buff *lend;
	struct page_frag_cache *pfc;
};

/* sge.c */
int uet_sge_copy(struct uet_qp *qp, const struct rxe_sge *sge, u32 num_sge,
		 u32 offset, u32 len, int access, const struct uet_sge_io *io);
u64 uet_sge_total(const struct rxe_sge *sge, u32 num_sge);
int uet_sge_from_wr(struct rxe_dma_info *dma, const struct ib_sge *sg,
		    int num_sge, bool copy, u32 max_inline);

/* qp.c */
int uet_qp_check_cap(struct ib_qp_init_attr *init);
u64 uet_qp_rnr_ns(u8 timer);
enum ib_qp_state uet_qp_state(struct uet_qp *qp);
bool uet_qp_pass_open(struct uet_qp *qp, enum ib_qp_state state);
struct uet_qp *uet_qp_get(struct uet_dev *udev, u32 qpn);
void uet_qp_put(struct uet_qp *qp);
int uet_qp_ref_alloc(struct uet_qp *qp);
void uet_qp_unpublish(struct uet_qp *qp);
void uet_qp_error(struct uet_qp *qp);
u8 uet_qp_tos(u8 dscp, bool ect);
int uet_qp_xmit(struct uet_qp *qp, struct sk_buff *skb, u8 tos, u16 entropy);
/* A train of npkts packets (train.h), all on entropy. */
int uet_qp_xmit_train(struct uet_qp *qp, struct sk_buff *skb, u32 npkts,
		      u8 tos, u16 entropy);
struct sk_buff *uet_qp_alloc_skb(struct uet_qp *qp, unsigned int hdr_len);
void uet_qp_path_signal(struct uet_qp *qp, u16 ev, enum uet_ev_sig sig,
			u64 sent_ns, u64 now);

/* ctl.c */
int uet_qp_send_ack(struct uet_qp *qp, u64 now);
void uet_qp_send_cnp(struct uet_qp *qp, u32 psn, u64 now);
int uet_qp_send_nack(struct uet_qp *qp, u32 psn, u8 code, u8 vendor,
		     u32 payload);

/* req.c */
int uet_req_init(struct uet_qp *qp);
void uet_req_free(struct uet_qp *qp);
void uet_req_reset(struct uet_qp *qp);
void uet_req_release_pkt(void *arg, u32 psn, void *cookie);
bool uet_req_run(struct uet_qp *qp, bool sq_active, bool may_send, u64 now);
void uet_req_rcv_ack(struct uet_qp *qp, struct sk_buff *skb);
void uet_req_rcv_nack(struct uet_qp *qp, struct sk_buff *skb);
void uet_req_rto(struct uet_qp *qp);
void uet_req_rcv_ctl(struct uet_qp *qp, struct sk_buff *skb);
bool uet_req_flush(struct uet_qp *qp);
int uet_req_rcv_resp(struct uet_qp *qp, const struct uet_verbs_hdr *vh,
		     struct sk_buff *skb, int off, u32 len);
int uet_req_job_room(struct uet_qp *qp);
void uet_req_queue_job(struct uet_qp *qp, const struct uet_rjob *job);

/* resp.c */
int uet_resp_init(struct uet_qp *qp);
void uet_resp_free(struct uet_qp *qp);
void uet_resp_reset(struct uet_qp *qp);
void uet_resp_rcv(struct uet_qp *qp, struct sk_buff *skb);
bool uet_resp_flush(struct uet_qp *qp);
void uet_resp_ack(struct uet_qp *qp, u64 now);

#endif /* _UET_QP_H */
