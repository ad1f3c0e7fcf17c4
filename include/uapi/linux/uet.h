/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Generic netlink family "uet": configuration and state of uet RDMA devices
 * and their QPs. Documentation/netlink/specs/uet.yaml describes the same
 * family for YNL; Documentation/uet/design/netlink.rst explains each
 * attribute.
 */
#ifndef _UAPI_LINUX_UET_H
#define _UAPI_LINUX_UET_H

#define UET_GENL_NAME		"uet"
#define UET_GENL_VERSION	1
#define UET_GENL_MCGRP_EVENTS	"events"

enum uet_cmd {
	UET_CMD_UNSPEC,
	/* do: the device named by UET_A_DEV_INDEX or UET_A_DEV_NAME;
	 * dump: every uet device of the caller's network namespace.
	 */
	UET_CMD_DEV_GET,
	/* Change the device's runtime parameters (CAP_NET_ADMIN). */
	UET_CMD_DEV_SET,
	/* do: UET_A_QP_DEV_INDEX or UET_A_QP_DEV_NAME, and UET_A_QP_QPN;
	 * dump: every QP, of one device if the request names one.
	 */
	UET_CMD_QP_GET,
	/* Events, multicast to UET_GENL_MCGRP_EVENTS. */
	UET_CMD_DEV_NTF,	/* a device's port went up or down */
	UET_CMD_QP_NTF,		/* a QP entered the error state */
	/* Change one QP (CAP_NET_ADMIN): UET_A_QP_DEV_INDEX or
	 * UET_A_QP_DEV_NAME, UET_A_QP_QPN, and UET_A_QP_LB and/or UET_A_QP_CC.
	 */
	UET_CMD_QP_SET,
	/* dump: the entropy values of every peer of every device (or of the
	 * device the request names), one message per value.
	 */
	UET_CMD_PATH_GET,
	/* Deny or allow an entropy value (CAP_NET_ADMIN): UET_A_PATH_DEV_*,
	 * UET_A_PATH_ENTROPY, UET_A_PATH_DENY, and UET_A_PATH_PEER (without
	 * it: towards every peer of the device).
	 */
	UET_CMD_PATH_SET,

	__UET_CMD_MAX,
	UET_CMD_MAX = __UET_CMD_MAX - 1
};

enum uet_dev_attr {
	UET_A_DEV_UNSPEC,
	UET_A_DEV_PAD,
	UET_A_DEV_INDEX,		/* u32: RDMA device index */
	UET_A_DEV_NAME,			/* string: RDMA device name */
	UET_A_DEV_NETDEV_IFINDEX,	/* u32: bound net device */
	UET_A_DEV_NETDEV_NAME,		/* string */
	UET_A_DEV_NETNS_COOKIE,		/* u64: network namespace cookie */
	UET_A_DEV_PORT_UP,		/* u8: 1 when the port is active */
	UET_A_DEV_UDP_PORT,		/* u16: UDP destination port (load time) */
	/* Settable with UET_CMD_DEV_SET. */
	UET_A_DEV_DSCP_DATA,		/* u8: 0..63 */
	UET_A_DEV_DSCP_RETX,		/* u8: 0..63 */
	UET_A_DEV_DSCP_CONTROL,		/* u8: 0..63 */
	UET_A_DEV_DSCP_TRIMMED,		/* u8: 0..63, the one trimmed packets carry */
	UET_A_DEV_MPR,			/* u32: packets in flight per QP direction */
	UET_A_DEV_ACK_EVERY,		/* u32: packets per coalesced ACK */
	UET_A_DEV_ACK_DELAY_US,		/* u32: longest an ACK waits */
	UET_A_DEV_DUPTHRESH,		/* u32: later packets acked before a hole is lost */
	UET_A_DEV_NACK_REORDER_PKTS,	/* u32: receiver NACKs a hole this long... */
	UET_A_DEV_NACK_REORDER_US,	/* u32: ...and this old */
	UET_A_DEV_RTO_MIN_US,		/* u32 */
	UET_A_DEV_RTO_MAX_US,		/* u32 */
	UET_A_DEV_RTO_LINEAR,		/* u32: expiries before backoff doubles */
	UET_A_DEV_ENTROPY_COUNT,	/* u32: entropy values a new QP sprays over */
	UET_A_DEV_CC,			/* string: congestion control algorithm */
	UET_A_DEV_LB,			/* string: load balancing of new QPs */
	/* Read only again. */
	UET_A_DEV_STAT,			/* nest, repeated: enum uet_stat_attr */
	/* Settable. */
	UET_A_DEV_REPS_RING,		/* u32: REPS recycled values, 1..32 */
	UET_A_DEV_REPS_FREEZE_US,	/* u32: REPS freeze after a loss */
	UET_A_DEV_PROBE_INTERVAL_US,	/* u32: between probes of a bad value */
	UET_A_DEV_CC_PARAM,		/* nest, repeated: enum uet_cc_param_attr;
					 * get: every algorithm's; set: by name
					 */
	UET_A_DEV_TRAIN_PKTS,		/* u32: new packets sent as one skb, 1..64 */
	UET_A_DEV_FLOWLET_PKTS,		/* u32: ... on one value when spraying, 1..64 */
	UET_A_DEV_PARAM,		/* nest, repeated: enum uet_param_attr;
					 * get: every numeric parameter above
					 * with its range; set: by name
					 */
	UET_A_DEV_RX_BACKLOG,		/* u32: received skbs a QP queues at most */
	UET_A_DEV_LINK_MBPS,		/* u32: the port's speed, 0: the netdev's */

	__UET_A_DEV_MAX,
	UET_A_DEV_MAX = __UET_A_DEV_MAX - 1
};

/* One device counter, as "rdma statistic" names it. */
enum uet_stat_attr {
	UET_A_STAT_UNSPEC,
	UET_A_STAT_PAD,
	UET_A_STAT_NAME,		/* string */
	UET_A_STAT_VALUE,		/* u64 */

	__UET_A_STAT_MAX,
	UET_A_STAT_MAX = __UET_A_STAT_MAX - 1
};

/* One congestion control parameter. */
enum uet_cc_param_attr {
	UET_A_CC_PARAM_UNSPEC,
	UET_A_CC_PARAM_ALGO,		/* string: the algorithm (get; set: optional) */
	UET_A_CC_PARAM_NAME,		/* string */
	UET_A_CC_PARAM_VALUE,		/* u32 */

	__UET_A_CC_PARAM_MAX,
	UET_A_CC_PARAM_MAX = __UET_A_CC_PARAM_MAX - 1
};

/* One numeric device parameter, by the name
 * Documentation/uet/admin-guide/uet-dev.rst gives it: the one its own
 * UET_A_DEV_* attribute carries (dscp_data for UET_A_DEV_DSCP_DATA, ...).
 * dev-get describes each; dev-set takes a name and a value, as it takes
 * the attribute.
 */
enum uet_param_attr {
	UET_A_PARAM_UNSPEC,
	UET_A_PARAM_NAME,		/* string */
	UET_A_PARAM_VALUE,		/* u32 */
	UET_A_PARAM_RANGE_MIN,		/* u32 (get): lowest valid value */
	UET_A_PARAM_RANGE_MAX,		/* u32 (get): highest valid value */
	UET_A_PARAM_DEFAULT,		/* u32 (get): a new device's value */
	UET_A_PARAM_NEW_QPS,		/* flag (get): read when a QP is
					 * created; without it, every QP
					 * follows a change at once
					 */

	__UET_A_PARAM_MAX,
	UET_A_PARAM_MAX = __UET_A_PARAM_MAX - 1
};

/* A QP; a snapshot taken without stopping it. PSNs are those of the
 * packet delivery context under the QP, one space per direction.
 */
enum uet_qp_attr {
	UET_A_QP_UNSPEC,
	UET_A_QP_PAD,
	UET_A_QP_DEV_INDEX,		/* u32 */
	UET_A_QP_DEV_NAME,		/* string */
	UET_A_QP_QPN,			/* u32 */
	UET_A_QP_TYPE,			/* u8: enum ib_qp_type (2 RC, 4 UD, 1 GSI) */
	UET_A_QP_STATE,			/* u8: enum ib_qp_state (3 RTS, 6 ERR, ...) */
	UET_A_QP_PEER_QPN,		/* u32 (RC) */
	UET_A_QP_PEER_GID,		/* binary, 16 bytes (RC) */
	UET_A_QP_SND_UNA,		/* u32: oldest PSN not acknowledged */
	UET_A_QP_SND_NXT,		/* u32: next new PSN */
	UET_A_QP_RCV_NXT,		/* u32: every PSN below it arrived */
	UET_A_QP_INFLIGHT_PKTS,		/* u32: sent, not acknowledged */
	UET_A_QP_INFLIGHT_BYTES,	/* u64 */
	UET_A_QP_SACK_HOLES,		/* u32: unacknowledged PSNs below the
					 * highest selectively acknowledged one
					 */
	UET_A_QP_RETRANSMITS,		/* u64: packets this QP sent again */
	UET_A_QP_RTO_EXPIRED,		/* u64: retransmit timer expiries */
	UET_A_QP_SRTT_US,		/* u32: smoothed RTT */
	UET_A_QP_MIN_RTT_US,		/* u32: lowest RTT seen (base RTT) */
	UET_A_QP_ENTROPY,		/* u16, repeated: entropy values in use;
					 * with a spray set, its first value
					 */
	UET_A_QP_LB,			/* string: load balancing (RC) */
	UET_A_QP_ENTROPY_COUNT,		/* u32: values in the set from ENTROPY (RC) */
	UET_A_QP_CC,			/* string: congestion control (RC); settable */
	UET_A_QP_CC_STAT,		/* nest, repeated: enum uet_stat_attr, the
					 * algorithm's state (cwnd, rate, ...)
					 */

	__UET_A_QP_MAX,
	UET_A_QP_MAX = __UET_A_QP_MAX - 1
};

/* States of an entropy value towards a peer. */
enum uet_path_state {
	UET_PATH_GOOD,		/* carries data */
	UET_PATH_SKIP,		/* set aside for an RTT after a loss or trim */
	UET_PATH_ASSUMED_BAD,	/* lost packets: only probes until answered */
	UET_PATH_DENIED,	/* by the operator */
};

/* One entropy value towards one peer. */
enum uet_path_attr {
	UET_A_PATH_UNSPEC,
	UET_A_PATH_PAD,
	UET_A_PATH_DEV_INDEX,		/* u32 */
	UET_A_PATH_DEV_NAME,		/* string */
	UET_A_PATH_PEER,		/* binary, 16 bytes: the peer's address
					 * as a GID (IPv4 v4-mapped)
					 */
	UET_A_PATH_ENTROPY,		/* u16: the UDP source port */
	UET_A_PATH_STATE,		/* u8: enum uet_path_state */
	UET_A_PATH_PKTS,		/* u64: data packets sent on it */
	UET_A_PATH_ECN,			/* u64: acknowledged CE-marked */
	UET_A_PATH_NACKS,		/* u64: came back trimmed */
	UET_A_PATH_LOSSES,		/* u64: lost (SACK or NACK) */
	UET_A_PATH_TIMEOUTS,		/* u64: lost by retransmit timeout */
	UET_A_PATH_DENY,		/* u8 (PATH_SET): 1 deny, 0 allow */

	__UET_A_PATH_MAX,
	UET_A_PATH_MAX = __UET_A_PATH_MAX - 1
};

#endif /* _UAPI_LINUX_UET_H */
