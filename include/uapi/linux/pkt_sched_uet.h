/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * sch_uet: tc options (TCA_OPTIONS nest of the "uet" qdisc).
 */
#ifndef _UAPI_LINUX_PKT_SCHED_UET_H
#define _UAPI_LINUX_PKT_SCHED_UET_H

enum {
	TCA_UET_UNSPEC,
	TCA_UET_LIMIT,		/* u32: data band buffer, bytes */
	__TCA_UET_MAX,
};

#define TCA_UET_MAX (__TCA_UET_MAX - 1)

#endif /* _UAPI_LINUX_PKT_SCHED_UET_H */
