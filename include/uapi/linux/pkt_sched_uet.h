/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_uet: a UET switch port. TCA_OPTIONS of the "uet" qdisc, and its xstats.
 */
#ifndef _UAPI_LINUX_PKT_SCHED_UET_H
#define _UAPI_LINUX_PKT_SCHED_UET_H

#include <linux/types.h>

enum {
	TCA_UET_UNSPEC,
	TCA_UET_RATE,		/* u64: line rate, bytes/s; 0 = unshaped */
	TCA_UET_LIMIT,		/* u32: data band buffer, bytes */
	TCA_UET_KMIN,		/* struct tc_uet_thresh: ECN ramp start */
	TCA_UET_KMAX,		/* struct tc_uet_thresh: ECN ramp end */
	TCA_UET_PMAX,		/* u32: marking probability at kmax, percent */
	TCA_UET_ECN_MODE,	/* u8: enum tc_uet_ecn_mode */
	TCA_UET_TRIM,		/* u8: 1 = trim instead of tail drop */
	TCA_UET_TRIM_SIZE,	/* u32: bytes of IP packet kept by trimming */
	TCA_UET_TRIM_DSCP,	/* u8: DSCP of trimmed packets */
	TCA_UET_PRIO_DSCP,	/* u64: bit n set = DSCP n goes to the priority band */
	__TCA_UET_MAX,
};

#define TCA_UET_MAX (__TCA_UET_MAX - 1)

enum tc_uet_ecn_mode {
	TC_UET_ECN_DEQUEUE,	/* decide on the backlog behind a leaving packet */
	TC_UET_ECN_ENQUEUE,	/* decide on the backlog ahead of an arriving packet */
};

/* A threshold as the operator gave it; the qdisc converts it to bytes. */
enum tc_uet_thresh_unit {
	TC_UET_THRESH_BYTES,	/* value: bytes */
	TC_UET_THRESH_PERCENT,	/* value: percent of limit, 0..100 */
	TC_UET_THRESH_TIME,	/* value: nanoseconds at line rate (needs a rate) */
};

struct tc_uet_thresh {
	__u32 unit;
	__u32 value;
};

struct tc_uet_xstats {
	__u64 enqueued;		/* packets accepted, all bands */
	__u64 dequeued;		/* packets sent, all bands */
	__u64 ecn_marked;	/* data packets marked CE */
	__u64 trimmed;		/* data packets cut and moved to the trim band */
	__u64 drop_limit;	/* data band full, trimming off */
	__u64 drop_notrim;	/* data band full, packet not trimmable (not UDP) */
	__u64 drop_trim;	/* trim band full */
	__u64 drop_prio;	/* priority band full */
	__u64 peak_backlog;	/* bytes, all bands; reset by a change */
	__u64 busy_ns;		/* time with packets queued or on the line (shaped) */
	__u64 line_ns;		/* line time of what was sent (shaped); over busy_ns:
				 * the share of the rate the port sustained
				 */
	__u32 backlog_data;	/* bytes queued now, per band */
	__u32 backlog_prio;
	__u32 backlog_trim;
	__u32 kmin;		/* thresholds in effect, bytes */
	__u32 kmax;
	__u32 peak_data;	/* bytes, data band; reset by a change */
};

#endif /* _UAPI_LINUX_PKT_SCHED_UET_H */
