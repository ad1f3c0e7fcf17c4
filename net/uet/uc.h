/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The message rule of a UC responder (resp.c uet_resp_uc()), pure so
 * KUnit checks it. UC has no ACK and no resend (IBA vol 1 9.7.x): a
 * message whose packet was lost is dropped whole. The requester numbers
 * its messages (msn, in the verbs header) and sends a QP's packets in
 * order on one path; the responder places a message's packets in any
 * order, and takes a packet of a later message as the sign that the
 * current one is over: complete, or dropped.
 */
#ifndef _UET_UC_H
#define _UET_UC_H

#include "psn.h"

enum uet_uc_pkt {
	UET_UC_PKT_CUR,		/* of the message being received: place it */
	UET_UC_PKT_NEW,		/* begins a later message; an open one is dropped */
	UET_UC_PKT_LATE,	/* of a message ended or dropped: discard it */
};

/**
 * uet_uc_classify() - what a UC packet of message msn is to the responder
 * @seen: a message began since the QP was reset
 * @open: the newest message begun, @cur, is still being received
 * @cur: the newest message begun
 * @msn: the packet's message number
 *
 * Message numbers compare as PSNs do, across the 2^32 wrap.
 */
static inline enum uet_uc_pkt uet_uc_classify(bool seen, bool open, u32 cur,
					      u32 msn)
{
	if (!seen || uet_psn_after(msn, cur))
		return UET_UC_PKT_NEW;
	if (msn == cur && open)
		return UET_UC_PKT_CUR;
	return UET_UC_PKT_LATE;
}

#endif /* _UET_UC_H */
