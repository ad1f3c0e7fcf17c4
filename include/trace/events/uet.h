/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoints of the uet transport (TRACE_SYSTEM uet): packets in and
 * out, retransmissions, NACKs, retransmit timeouts and QP state changes.
 * Off, each costs a patched-out branch.
 * Documentation/uet/admin-guide/tracing.rst.
 * Here rather than next to the code, as net/mptcp's, so that
 * <trace/define_trace.h> finds it by TRACE_SYSTEM.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM uet

#if !defined(_UET_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UET_TRACE_H

#include <linux/skbuff.h>
#include <linux/tracepoint.h>
#include "uet_compat.h"


/* A PDS packet: every header type has a PSN (or cumulative PSN) at
 * bytes 4..7, and its type in the top 5 bits of the prologue.
 */
DECLARE_EVENT_CLASS(uet_pkt,
	TP_PROTO(u32 dev, u32 qpn, const struct sk_buff *skb, u8 tos),
	TP_ARGS(dev, qpn, skb, tos),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__field(u32, psn)
		__field(u32, len)
		__field(u8, type)
		__field(u8, flags)
		__field(u8, tos)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		__entry->len = skb->len;
		__entry->type = 0;
		__entry->flags = 0;
		__entry->psn = 0;
		{
			/* A train's headers sit in its first fragment. */
			u8 buf[8];
			const u8 *h = skb_header_pointer(skb, 0, sizeof(buf),
							 buf);

			if (h) {
				__entry->type = h[0] >> 3;
				__entry->flags = h[1] & 0x7f;
				__entry->psn = get_unaligned_be32(h + 4);
			}
		}
		__entry->tos = tos;
	),
	TP_printk("dev %u qpn %u type %u flags 0x%02x psn %u len %u dscp %u ecn %u",
		  __entry->dev, __entry->qpn, __entry->type, __entry->flags,
		  __entry->psn, __entry->len, __entry->tos >> 2,
		  __entry->tos & 3)
);

/* Handed to IP; qpn is the sending QP. */
DEFINE_EVENT(uet_pkt, uet_tx,
	TP_PROTO(u32 dev, u32 qpn, const struct sk_buff *skb, u8 tos),
	TP_ARGS(dev, qpn, skb, tos)
);

/* From the UDP socket; qpn is the destination QP the packet names. */
DEFINE_EVENT(uet_pkt, uet_rx,
	TP_PROTO(u32 dev, u32 qpn, const struct sk_buff *skb, u8 tos),
	TP_ARGS(dev, qpn, skb, tos)
);

TRACE_EVENT(uet_retransmit,
	TP_PROTO(u32 dev, u32 qpn, u32 psn, u8 nxmit),
	TP_ARGS(dev, qpn, psn, nxmit),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__field(u32, psn)
		__field(u8, nxmit)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		__entry->psn = psn;
		__entry->nxmit = nxmit;
	),
	TP_printk("dev %u qpn %u psn %u transmission %u",
		  __entry->dev, __entry->qpn, __entry->psn, __entry->nxmit)
);

TRACE_EVENT(uet_nack,
	TP_PROTO(u32 dev, u32 qpn, u32 psn, u8 code, bool sent),
	TP_ARGS(dev, qpn, psn, code, sent),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__field(u32, psn)
		__field(u8, code)
		__field(bool, sent)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		__entry->psn = psn;
		__entry->code = code;
		__entry->sent = sent;
	),
	TP_printk("dev %u qpn %u %s psn %u code 0x%02x",
		  __entry->dev, __entry->qpn,
		  __entry->sent ? "sent" : "received", __entry->psn,
		  __entry->code)
);

TRACE_EVENT(uet_rto,
	TP_PROTO(u32 dev, u32 qpn, u32 backoff, u32 inflight, u32 marked),
	TP_ARGS(dev, qpn, backoff, inflight, marked),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__field(u32, backoff)
		__field(u32, inflight)
		__field(u32, marked)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		__entry->backoff = backoff;
		__entry->inflight = inflight;
		__entry->marked = marked;
	),
	TP_printk("dev %u qpn %u backoff %u inflight %u marked_lost %u",
		  __entry->dev, __entry->qpn, __entry->backoff,
		  __entry->inflight, __entry->marked)
);

/* The congestion window or rate changed: the algorithm's first value. */
TRACE_EVENT(uet_cc,
	TP_PROTO(u32 dev, u32 qpn, const char *name, u64 value),
	TP_ARGS(dev, qpn, name, value),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__array(char, name, 16)
		__field(u64, value)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		strscpy(__entry->name, name, sizeof(__entry->name));
		__entry->value = value;
	),
	TP_printk("dev %u qpn %u %s %llu", __entry->dev, __entry->qpn,
		  __entry->name, __entry->value)
);

TRACE_EVENT(uet_qp_state,
	TP_PROTO(u32 dev, u32 qpn, int from, int to),
	TP_ARGS(dev, qpn, from, to),
	TP_STRUCT__entry(
		__field(u32, dev)
		__field(u32, qpn)
		__field(int, from)
		__field(int, to)
	),
	TP_fast_assign(
		__entry->dev = dev;
		__entry->qpn = qpn;
		__entry->from = from;
		__entry->to = to;
	),
	/* enum ib_qp_state, spelled out so trace tools print the names. */
	TP_printk("dev %u qpn %u %s -> %s", __entry->dev, __entry->qpn,
		  __print_symbolic(__entry->from, { 0, "RESET" }, { 1, "INIT" },
				   { 2, "RTR" }, { 3, "RTS" }, { 4, "SQD" },
				   { 5, "SQE" }, { 6, "ERR" }),
		  __print_symbolic(__entry->to, { 0, "RESET" }, { 1, "INIT" },
				   { 2, "RTR" }, { 3, "RTS" }, { 4, "SQD" },
				   { 5, "SQE" }, { 6, "ERR" }))
);

#endif /* _UET_TRACE_H */

#include <trace/define_trace.h>
