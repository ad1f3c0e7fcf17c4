/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_uet: shared definitions of the device glue and the verbs objects.
 */
#ifndef _UET_H
#define _UET_H

#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <net/dst_cache.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_user_rxe.h>

#include "counters.h"
#include "engine.h"
#include "lb.h"
#include "params.h"
#include "pdc.h"
#include "queue.h"

/* Version of the rdma-core rxe provider ABI we serve (rxe's RXE_UVERBS_ABI_VERSION). */
#define UET_UVERBS_ABI_VERSION	2

#define UET_PORT		1
#define UET_GID_TBL_LEN		128

/* Device limits (query_device), each the one the verbs enforce
 * (Documentation/uet/admin-guide/verbs.rst lists where).
 */
/* rxe's RXE_VENDOR_ID: no IEEE OUI; rdma-core's tests want a nonzero id. */
#define UET_VENDOR_ID		0xffffff
/* A ring of 2^n slots holds 2^n - 1 entries (queue.c, as rxe_queue_init):
 * at 2^n - 1, a queue or CQ asked at the limit comes back at the limit,
 * never above what query_device says.
 */
#define UET_MAX_QP_WR		16383
/* Room for libfabric's ofi_rxm, which asks for 135168 entries. */
#define UET_MAX_CQE		262143
#define UET_MAX_SGE		32
/* Inline data takes the WQE's SGE space, so a QP with UET_MAX_SGE SGEs
 * already has this much: rxe's RXE_MAX_INLINE_DATA.
 */
#define UET_MAX_INLINE		(UET_MAX_SGE * sizeof(struct rxe_sge))
#define UET_MAX_MR_SIZE		BIT_ULL(32)
#define UET_MAX_MSG_SIZE	BIT(31)
#define UET_MAX_RD_ATOMIC	128
/* QPNs double as PDS PDC ids, which are 16 bits on the wire. */
#define UET_MIN_QPN		16
#define UET_MAX_QPN		0xffff
#define UET_MAX_QP		(UET_MAX_QPN - UET_MIN_QPN + 1)
#define UET_MAX_MR		BIT(20)
/* Window keys take the indices above the regions', so a key says which
 * it names (as rxe's RXE_MIN_MW_INDEX).
 */
#define UET_MIN_MW_INDEX	(UET_MAX_MR + 1)
#define UET_MAX_MW		BIT(20)
#define UET_MAX_FAST_REG_PAGES	512
/* Multicast groups and attachments (mcast.c): rdma_rxe's limits
 * (rxe_param.h of Linux 6.1), so a program sized for rxe fits.
 */
#define UET_MAX_MCAST_GRP		8192
#define UET_MAX_MCAST_QP_ATTACH		56
#define UET_MAX_TOT_MCAST_QP_ATTACH	0x70000

struct uet_udp;

struct uet_dev {
	struct ib_device ibdev;
	/* Bound netdev; held from newlink until dealloc_driver. Immutable. */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	/* Last port state reported through ib_dispatch_event(); written only
	 * from the netdev notifier, which runs under RTNL.
	 */
	enum ib_port_state port_state;
	/* The netdev's speed in Mb/s, 0 when it reports none: written under
	 * RTNL (newlink, the netdev notifier), read as QPs start their
	 * congestion control.
	 */
	u32 link_mbps;
	/* UDP sockets of the netns the device was created in (udp.c). */
	struct uet_udp *udp;

	/* QPN -> struct uet_qp; readers use RCU plus uet_qp_get(). */
	struct xarray qps;
	u32 qp_next;		/* cyclic QPN allocation, under qps lock */
	/* Key index (key >> 8) -> struct uet_mr; readers use RCU + refcount. */
	struct xarray mrs;
	u32 mr_next;		/* cyclic key index allocation, under mrs lock */
	/* Key index -> struct uet_mw, as mrs (mw.c). */
	struct xarray mws;
	u32 mw_next;		/* cyclic key index allocation, under mws lock */

	/* Multicast groups of UD QPs (mcast.c), MGID -> struct uet_mcg;
	 * the receive path reads them under RCU.
	 */
	struct mutex mcg_lock;	/* protects mcgs (writers), mcg_count, mca_count */
	DECLARE_HASHTABLE(mcgs, 6);
	unsigned int mcg_count;	/* groups */
	unsigned int mca_count;	/* QP attachments, all groups */

	/* mmap offsets handed to userspace, not yet mapped (mmap.c). */
	spinlock_t mmap_lock;	/* protects pending_mmaps and mmap_offset */
	struct list_head pending_mmaps;
	u64 mmap_offset;

	struct uet_counters __percpu *stats;

	/* Peers of RC QPs (peer.c); readers from softirq use RCU. */
	struct mutex peers_lock;	/* protects peers (writers) */
	struct list_head peers;
	/* Probe answers sent (peer.c); its own lock. */
	struct ratelimit_state probe_answers;

	/* Set by netlink.c under uet_devs_lock, read with uet_param(). */
	struct uet_params params;
	struct list_head list;	/* in uet_devs, under uet_devs_lock */
};

struct uet_ucontext {
	struct ib_ucontext ibuc;
};

struct uet_pd {
	struct ib_pd ibpd;
};

struct uet_ah {
	struct ib_ah ibah;
	struct rdma_ah_attr attr;
};

struct uet_cq {
	struct ib_cq ibcq;
	struct uet_queue queue;
	/* Serialises producers (completing QPs), resize and kernel polling. */
	spinlock_t lock;
	u8 notify;		/* IB_CQ_SOLICITED / IB_CQ_NEXT_COMP armed, under lock */
	bool is_user;
	bool dying;		/* destroy started: no more completions */
	bool overflow;		/* overrun: in error for good, under lock */
};

/* Memory region types. */
enum uet_mr_type {
	UET_MR_USER,	/* pinned user pages (ib_umem) */
	UET_MR_DMA,	/* all of kernel memory: iova is a kernel address */
	UET_MR_FAST,	/* kernel fast-registration MR (alloc_mr + IB_WR_REG_MR) */
};

struct uet_mr {
	struct ib_mr ibmr;
	struct uet_dev *udev;
	refcount_t ref;		/* lookups in flight + 1 while registered */
	struct completion free;	/* signalled when ref drops to 0 */
	struct rcu_head rcu;	/* RCU lookups may still touch a dead MR */
	enum uet_mr_type type;
	/* The registration in force below is immutable for user and DMA MRs.
	 * For fast-reg MRs, lock protects key..npages and fast_addrs: REG_MR and
	 * invalidation change them, and every data-path access reads them,
	 * under it; uet_mr_get() alone reads key and access without it.
	 */
	spinlock_t lock;
	u32 key;		/* the lkey == rkey that lookups accept */
	int access;		/* IB_ACCESS_*, optional hints stripped */
	bool valid;		/* fast-reg: registered by a REG_MR WR */
	/* Windows bound to this region, and deregistration begun: under
	 * lock, for every type. A region with windows is not deregistered
	 * (IBA 10.6.7.2.6).
	 */
	u32 num_mw;
	bool dying;
	u64 iova;
	u64 length;
	/* Byte iova lies at offset in page 0 of pages of 1 << page_shift bytes. */
	u32 offset;
	u32 page_shift;
	u32 npages;
	struct ib_umem *umem;
	struct page **pages;	/* user MR: the pinned pages */
	u64 *fast_addrs;	/* fast-reg: page DMA (kernel virtual) addresses */
	/* Fast-reg page list built by map_mr_sg(), copied into fast_addrs by
	 * REG_MR: only the work request changes the registration in force.
	 * No lock: the ULP maps before it posts the REG_MR, never during.
	 */
	u64 *map_addrs;
	u32 map_npages;
	u32 map_offset;
	u32 map_shift;
	u32 max_pages;		/* entries in fast_addrs and in map_addrs */
};

/* A memory window (mw.c). The binding is under lock; lookups in flight
 * hold ref, as for regions.
 */
struct uet_mw {
	struct ib_mw ibmw;
	struct uet_dev *udev;
	refcount_t ref;
	struct completion free;
	spinlock_t lock;	/* protects rkey..owner */
	u32 rkey;		/* the key lookups accept; ibmw.rkey is the user's */
	int access;		/* UET_MW_ACCESS rights of the binding */
	u64 addr;
	u64 length;
	struct uet_mr *mr;	/* the bound region (a reference), or NULL */
	u64 owner;		/* type 2: uet_qp.mw_owner of the binding QP */
};

struct uet_srq {
	struct ib_srq ibsrq;
	struct uet_queue rq;
	/* Serialises post_srq_recv, uet_srq_take, resize and limit. */
	spinlock_t lock;
	u32 max_sge;
	u32 limit;		/* srq_limit armed, 0 if not; under lock */
	bool is_user;
};

#define UET_AV_V4	4
#define UET_AV_V6	6

/* Where a QP sends: addresses and ports from the AH of modify_qp(RTR).
 * ("Path" names an entropy value's way through the fabric, lb.h.)
 */
struct uet_addrs {
	u8 family;		/* AF_INET or AF_INET6 */
	union {
		__be32 v4;
		struct in6_addr v6;
	} saddr, daddr;
	u8 hop_limit;
};

/* What the QP table (uet_dev.qps) holds for a QP: its count of lookup
 * references, freed a grace period after the QP, so that a lookup racing
 * a destroy reads a count of 0, not freed memory, and the destroy need
 * not wait for that grace period (ib_core frees the QP on its return).
 */
struct uet_qp_ref {
	refcount_t count;	/* lookups in flight + 1 while in the table */
	struct uet_qp *qp;
	struct rcu_head rcu;
};

struct uet_qp {
	struct ib_qp ibqp;
	struct uet_dev *udev;
	/* Lookup references from the receive path; destroy waits for 0. */
	struct uet_qp_ref *ref;
	struct completion free;

	/* Serialises modify_qp with itself and with netlink's readers. */
	struct mutex ctl_lock;
	/* Protects state and the attributes below against modify_qp. */
	spinlock_t state_lock;
	enum ib_qp_state state;
	bool is_user;
	bool sq_draining;	/* SQD requested */
	u32 dest_qpn;
	u32 rq_psn;		/* as set by modify_qp, reported by query_qp */
	u32 sq_psn;		/* the same (RC reports its PDC's) */
	u32 mtu;		/* path MTU in payload bytes */
	u32 seg;		/* payload bytes of an RC data packet (uet_rc_seg()) */
	struct uet_addrs addrs;
	/* The route to path (udp.c); the engine's, reset with path. */
	struct dst_cache dst_cache;
	u16 entropy;		/* UDP source port of control packets */
	u8 retry_cnt, rnr_retry, min_rnr_timer, timeout;
	u32 qkey;
	int access;		/* qp_access_flags */
	u32 max_rd_atomic, max_dest_rd_atomic;
	struct ib_qp_cap cap;
	u8 sq_sig_all;

	struct uet_cq *scq, *rcq;
	struct uet_srq *srq;
	struct uet_queue sq;
	struct uet_queue rq;
	spinlock_t sq_lock;	/* kernel ib_post_send producers */
	spinlock_t rq_lock;	/* kernel ib_post_recv producers */

	/* Everything below is owned by the engine's owner (engine.c: one at
	 * a time); modify_qp touches it only with the engine stopped.
	 */
	struct uet_engine eng;
	struct sk_buff_head rxq;	/* received packets waiting for a pass */
	struct hrtimer rto_timer;
	struct hrtimer ack_timer;
	struct hrtimer rnr_timer;
	struct hrtimer reo_timer;	/* a hole becomes a loss */
	atomic_t rto_pending;	/* set by the RTO timer, taken by a pass */

	struct uet_pdc_tx tx;
	struct uet_pdc_rx rx;
	/* Each direction starts where its sender says, with SYN on its first
	 * packets (UE PDS): at its sq_psn, or, for a responder that answers
	 * READs before RTS gave it one, at its rq_psn (the peer's sq_psn).
	 */
	bool tx_used;		/* a packet went out: sq_psn can no longer apply */
	bool tx_synced;		/* the peer acknowledged: stop sending SYN */
	bool rx_synced;		/* a SYN told us where the peer's PSNs start */
	struct uet_lb lb;	/* entropy of each data packet (RC) */
	/* The peer's shared path states (RC); set by modify_qp with the
	 * engine stopped, as lb is.
	 */
	struct uet_peer *peer;
	u32 rtt_probe_seen;	/* the peer's last probe RTT taken (engine) */
	/* Load balancing asked for by "uet qp set", taken by a pass. */
	const struct uet_lb_ops *lb_set;
	/* Congestion control (owned by the engine), and what "uet qp set"
	 * asked for.
	 */
	struct uet_cc cc;
	const struct uet_cc_ops *cc_set;
	u64 cc_traced;		/* the value last reported by trace_uet_cc */
	struct hrtimer pace_timer;	/* the algorithm's next send time */
	u32 ctl_seq;		/* spreads control packets over the set */
	struct uet_req *req;	/* requester state (req.c) */
	struct uet_resp *resp;	/* responder state (resp.c) */
	/* Per-QP counts for netlink, which reads them without owning the engine. */
	u64 nretx;		/* packets sent again */
	u64 nrto;		/* retransmit timer expiries */
	/* Names this QP in the type 2 windows it binds (mw.c): unlike the
	 * QP's address or QPN, never reused. 0 until its first bind; the
	 * engine's.
	 */
	u64 mw_owner;
	/* UD and GSI (ud.c): the engine's copies of the send and receive
	 * WQE it works on, one ring slot each: a user may rewrite the ring
	 * while the engine reads it.
	 */
	struct rxe_send_wqe *ud_swqe;
	struct rxe_recv_wqe *ud_rwqe;
};

static inline struct uet_dev *to_udev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct uet_dev, ibdev);
}

static inline struct uet_pd *to_upd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct uet_pd, ibpd);
}

static inline struct uet_cq *to_ucq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct uet_cq, ibcq);
}

static inline struct uet_mr *to_umr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct uet_mr, ibmr);
}

static inline struct uet_mw *to_umw(struct ib_mw *ibmw)
{
	return container_of(ibmw, struct uet_mw, ibmw);
}

static inline struct uet_srq *to_usrq(struct ib_srq *ibsrq)
{
	return container_of(ibsrq, struct uet_srq, ibsrq);
}

static inline struct uet_qp *to_uqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct uet_qp, ibqp);
}

static inline struct uet_ah *to_uah(struct ib_ah *ibah)
{
	return container_of(ibah, struct uet_ah, ibah);
}

/* device.c */
extern struct list_head uet_devs;
extern struct mutex uet_devs_lock;
int uet_dev_add(const char *ibdev_name, struct net_device *ndev);
struct uet_dev *uet_dev_get_by_netdev(struct net_device *ndev);
void uet_dev_put(struct uet_dev *udev);
void uet_dev_netdev_event(struct uet_dev *udev, unsigned long event);

/* pd.c */
int uet_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int uet_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);

/* ah.c */
int uet_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init_attr,
		  struct ib_udata *udata);
int uet_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr);
int uet_destroy_ah(struct ib_ah *ibah, u32 flags);

/* mmap.c */
struct uet_mmap_info;
struct uet_mmap_info *uet_mmap_info_create(struct uet_dev *udev, u32 size,
					   struct ib_udata *udata, void *obj);
int uet_mmap_info_export(struct uet_mmap_info *ip, struct mminfo __user *out);
void uet_mmap_info_put(struct uet_mmap_info *ip);
int uet_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma);

/* cq.c */
int uet_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		  struct ib_udata *udata);
int uet_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata);
int uet_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata);
int uet_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc);
int uet_peek_cq(struct ib_cq *ibcq, int wc_cnt);
int uet_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags);
int uet_cq_post(struct uet_cq *cq, const struct ib_wc *wc, bool solicited);

/* compat_verbs.c */
extern const struct ib_device_ops uet_compat_dev_ops;

/* mr.c */
struct ib_mr *uet_get_dma_mr(struct ib_pd *ibpd, int access);
struct ib_mr *uet_reg_user_mr(struct ib_pd *ibpd, u64 start, u64 length,
			      u64 iova, int access, struct ib_udata *udata);
struct ib_mr *uet_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			   u32 max_num_sg);
int uet_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		  unsigned int *sg_offset);
int uet_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
struct uet_mr *uet_mr_get(struct uet_dev *udev, u32 key, bool remote);
void uet_mr_put(struct uet_mr *mr);
int uet_mr_check(struct uet_mr *mr, struct ib_pd *pd, int access, u64 iova,
		 u64 length);
int uet_mr_check_whole(struct uet_mr *mr, struct ib_pd *pd, int access);
enum uet_copy_dir {
	UET_COPY_TO_MR,
	UET_COPY_FROM_MR,
};

int uet_mr_copy(struct uet_mr *mr, u64 iova, void *buf, u32 length,
		enum uet_copy_dir dir);
int uet_mr_copy_skb(struct uet_mr *mr, u64 iova, const struct sk_buff *skb,
		    int offset, u32 length);
/* Append [iova, iova + length) of mr to skb's fragments by page reference
 * (kernel memory that may not be lent is copied into fragments from pfc).
 * -EMSGSIZE when the fragments run out, -EFAULT out of bounds, -ENOMEM.
 */
int uet_mr_lend(struct uet_mr *mr, u64 iova, u32 length, struct sk_buff *skb,
		struct page_frag_cache *pfc);
enum uet_atomic_op {
	UET_ATOMIC_CMP_SWAP,
	UET_ATOMIC_FETCH_ADD,
	UET_ATOMIC_WRITE,	/* one 8-byte store: no reader sees half */
};

int uet_mr_atomic(struct uet_mr *mr, u64 iova, enum uet_atomic_op op,
		  u64 value, u64 swap, u64 *orig);
int uet_mr_fast_reg(struct uet_dev *udev, struct ib_pd *pd,
		    const struct ib_reg_wr *wr);
int uet_mr_invalidate(struct uet_dev *udev, struct ib_pd *pd, u32 key);
int uet_mr_mw_get(struct uet_mr *mr);
void uet_mr_mw_put(struct uet_mr *mr);

/* mw.c */
static inline bool uet_key_is_mw(u32 key)
{
	return key >> 8 >= UET_MIN_MW_INDEX;
}

int uet_alloc_mw(struct ib_mw *ibmw, struct ib_udata *udata);
int uet_dealloc_mw(struct ib_mw *ibmw);
int uet_mw_bind(struct uet_qp *qp, const struct rxe_send_wqe *wqe);
int uet_mw_invalidate(struct uet_qp *qp, u32 rkey, bool remote);
struct uet_mr *uet_rkey_get(struct uet_qp *qp, u32 rkey, int access, u64 va,
			    u64 len, u64 *iova);

/* srq.c */
int uet_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		   struct ib_udata *udata);
int uet_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		   enum ib_srq_attr_mask mask, struct ib_udata *udata);
int uet_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr);
int uet_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata);
int uet_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
		      const struct ib_recv_wr **bad_wr);
int uet_srq_take(struct uet_srq *srq, struct rxe_recv_wqe *dst,
		 size_t dst_size);

/* qp.c */
int uet_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		  struct ib_udata *udata);
int uet_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		  struct ib_udata *udata);
int uet_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int uet_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata);
int uet_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		  const struct ib_send_wr **bad_wr);
int uet_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		  const struct ib_recv_wr **bad_wr);

/* netlink.c */
int uet_nl_init(void);
void uet_nl_exit(void);
void uet_nl_port_event(struct uet_dev *udev);
void uet_nl_qp_error(struct uet_qp *qp);

/* rxe_guard.c */
int uet_rxe_guard_init(void);
void uet_rxe_guard_exit(void);

#endif /* _UET_H */
