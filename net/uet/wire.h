/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-wire headers (Documentation/uet/design/wire-format.rst). All fields are
 * big-endian. Pure code: no ib_core, no sockets, so KUnit drives it.
 */
#ifndef _UET_WIRE_H
#define _UET_WIRE_H

#include <linux/sizes.h>
#include <linux/types.h>

/* PDS header types (UE spec 1.0 §3.5, prologue bits 15..11). */
enum uet_pds_type {
	UET_PDS_TSS = 1,
	UET_PDS_RUD_REQ = 2,
	UET_PDS_ROD_REQ = 3,
	UET_PDS_RUDI_REQ = 4,
	UET_PDS_RUDI_RESP = 5,
	UET_PDS_UUD_REQ = 6,
	UET_PDS_ACK = 7,
	UET_PDS_ACK_CC = 8,
	UET_PDS_ACK_CCX = 9,
	UET_PDS_NACK = 10,
	UET_PDS_CONTROL = 11,
	UET_PDS_NACK_CCX = 12,
	UET_PDS_RUD_CC_REQ = 13,
	UET_PDS_ROD_CC_REQ = 14,
	UET_PDS_TYPE_MAX = UET_PDS_ROD_CC_REQ,
};

/* Request flags (prologue bits 6..0). */
#define UET_PDS_REQ_F_RETX	0x10
#define UET_PDS_REQ_F_ACKREQ	0x08
#define UET_PDS_REQ_F_SYN	0x04
/* uet: a UC QP's request, which nothing acknowledges or resends. */
#define UET_PDS_REQ_F_UC	0x01

/* Prologue: type:5 | next_hdr:4 | flags:7 */
#define UET_PDS_TYPE_SHIFT	11
#define UET_PDS_NEXT_SHIFT	7
#define UET_PDS_NEXT_MASK	0xf
#define UET_PDS_FLAGS_MASK	0x7f

/* RUD/ROD request as it travels (12 bytes). */
struct uet_pds_req_hdr {
	__be16 prologue;
	__be16 clear_psn_offset;
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
} __packed;

/* The same, unpacked for the code that acts on it. */
struct uet_pds_req {
	u8 type;
	u8 next_hdr;
	u8 flags;
	s16 clear_psn_offset;
	u32 psn;
	u16 spdcid;
	u16 dpdcid;
};

int uet_pds_req_pack(const struct uet_pds_req *req, void *buf, size_t len);
int uet_pds_req_parse(const void *buf, size_t len, struct uet_pds_req *req);

/* ACK and NACK flags (prologue bits 6..0). */
#define UET_PDS_ACK_F_ECN	0x20	/* the acked packet arrived CE-marked */
#define UET_PDS_ACK_F_RETX	0x10	/* the acked packet was a retransmission */
#define UET_PDS_ACK_F_DUP	0x01	/* uet: a packet arrived twice since the
					 * last ACK (a reserved bit in UE)
					 */

/* ACK_CC (12 + 20 bytes): cumulative and selective acknowledgment. */
struct uet_pds_ack_hdr {
	__be16 prologue;
	__be16 ack_psn_offset;	/* PSN that triggered it = cack_psn + offset */
	__be32 cack_psn;	/* every PSN up to and including it arrived */
	__be16 spdcid;
	__be16 dpdcid;
	u8 cc_type_flags;	/* cc_type:4 | cc_flags:4 */
	u8 mpr;
	__be16 sack_psn_offset;	/* bit 0 of the bitmap = cack_psn + offset */
	__be64 sack_bitmap;
	__be64 cc_state;
} __packed;

/* ACK_CCX: ACK_CC and 8 bytes of extension. uet reflects there the
 * entropy value of the packet that triggered the ACK, which the ACK's own
 * source port (it may take another path) does not tell.
 */
struct uet_pds_ackx_hdr {
	struct uet_pds_ack_hdr ack;
	__be16 entropy;
	u8 ccx_flags;		/* UET_ACKX_F_* */
	u8 rsvd;
	__be32 rsvd2;
} __packed;

#define UET_ACKX_F_ENTROPY	0x01	/* entropy is valid */

/* ACK_CC cc_state for cc_type NSCC (UE 1.0 PDS ACK_CC): service_time:16 |
 * rc:1 | rcv_cwnd_pend:7 | rcvd_bytes:24 | ooo_count:16. uet fills the
 * service time, in microseconds (our unit: the spec text at hand gives
 * none), and leaves the rest 0.
 */
#define UET_ACK_CC_NSCC			0
#define UET_NSCC_STATE_SERVICE_SHIFT	48
#define UET_NSCC_STATE_PEND_SHIFT	40
#define UET_NSCC_STATE_PEND_MASK	0x7f

static inline u64 uet_nscc_state_pack(u16 service_us)
{
	return (u64)service_us << UET_NSCC_STATE_SERVICE_SHIFT;
}

static inline u16 uet_nscc_state_service_us(u64 state)
{
	return state >> UET_NSCC_STATE_SERVICE_SHIFT;
}

static inline u8 uet_nscc_state_pend(u64 state)
{
	return (state >> UET_NSCC_STATE_PEND_SHIFT) & UET_NSCC_STATE_PEND_MASK;
}

struct uet_pds_ack {
	u8 flags;
	s16 ack_psn_offset;
	u32 cack_psn;
	u16 spdcid;
	u16 dpdcid;
	u8 cc_type;
	u8 cc_flags;
	u8 mpr;
	s16 sack_psn_offset;
	u64 sack_bitmap;
	u64 cc_state;
	bool ccx;		/* ACK_CCX: the fields below travel */
	u8 ccx_flags;
	u16 entropy;
};

/* NACK (16 bytes). */
struct uet_pds_nack_hdr {
	__be16 prologue;
	u8 nack_code;
	u8 vendor_code;
	__be32 nack_psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
} __packed;

/* NACK codes (UE spec 1.0 table 3-62) that uet sends. */
enum uet_nack_code {
	UET_NACK_TRIMMED = 0x01,
	UET_NACK_TRIMMED_LASTHOP = 0x02,
	UET_NACK_NO_SES_MSG_AVAIL = 0x09,	/* receiver not ready (verbs RNR) */
	UET_NACK_PSN_OOR_WINDOW = 0x0b,
	UET_NACK_PKT_NOT_RCVD = 0x12,		/* a hole outlived the reorder tolerance */
	UET_NACK_EXP_ERR = 0xfe,		/* verbs error, vendor_code says which */
};

/* vendor_code of UET_NACK_EXP_ERR: the verbs error the responder hit. */
enum uet_verr {
	UET_VERR_REM_ACCESS = 1,	/* bad rkey, bounds or permission */
	UET_VERR_REM_INV_REQ = 2,	/* malformed or unsupported request */
	UET_VERR_REM_OP = 3,		/* the responder could not complete it */
};

struct uet_pds_nack {
	u8 flags;
	u8 code;
	u8 vendor_code;
	u32 psn;
	u16 spdcid;
	u16 dpdcid;
	u32 payload;
};

/* CONTROL (16 bytes); uet sends only PROBE: "does this path work?". */
struct uet_pds_ctl_hdr {
	__be16 prologue;	/* type CONTROL, next_hdr: ctl_type */
	__be16 probe_opaque;	/* echoed by the answer */
	__be32 psn;
	__be16 spdcid;
	__be16 dpdcid;
	__be32 payload;
} __packed;

#define UET_CTL_PROBE		6
/* uet's own control type (UE leaves 10..15 unassigned): a DCQCN congestion
 * notification from the receiving QP to the sending one.
 */
#define UET_CTL_CNP		15
/* The answer to a probe: a plain ACK (12 bytes) with flag P, echoing
 * probe_opaque in the ack_psn_offset field, and the probe's payload (the
 * prober's nonce) in cack_psn.
 */
#define UET_PDS_ACK_F_PROBE	0x08
#define UET_PDS_PLAIN_ACK_LEN	12

int uet_probe_pack(u16 opaque, u32 nonce, bool answer, void *buf, size_t len);
int uet_cnp_pack(u16 spdcid, u16 dpdcid, u32 psn, void *buf, size_t len);
int uet_ctl_type(const void *buf, size_t len);
int uet_probe_parse(const void *buf, size_t len, u16 *opaque, u32 *nonce,
		    bool *answer);

int uet_pds_ack_pack(const struct uet_pds_ack *ack, void *buf, size_t len);
int uet_pds_ack_parse(const void *buf, size_t len, struct uet_pds_ack *ack);
int uet_pds_nack_pack(const struct uet_pds_nack *nack, void *buf, size_t len);
int uet_pds_nack_parse(const void *buf, size_t len, struct uet_pds_nack *nack);
int uet_pds_type(const void *buf, size_t len);

/* UUD request (16 bytes): one unreliable datagram of a UD or GSI QP, the
 * whole message in one packet, the payload right after the header. The
 * PDC ids are QPNs, as for RC; the GSI QP is 1 on every device.
 */
struct uet_uud_hdr {
	__be16 prologue;	/* type UUD_REQ, next_hdr 0, flags UET_UUD_F_* */
	__be16 pay_len;		/* payload bytes after the header */
	__be32 qkey;
	__be16 spdcid;		/* source QPN */
	__be16 dpdcid;		/* destination QPN */
	__be32 imm;		/* immediate data, with UET_UUD_F_IMM; else 0 */
} __packed;

/* UUD flags (prologue bits 6..0). */
#define UET_UUD_F_SOLICITED	0x01	/* solicited event on the receive CQE */
#define UET_UUD_F_IMM		0x02	/* imm carries immediate data */
/* To a multicast group: the IP destination names it, dpdcid is 0. */
#define UET_UUD_F_MCAST		0x04
#define UET_UUD_F_MASK		(UET_UUD_F_SOLICITED | UET_UUD_F_IMM | \
				 UET_UUD_F_MCAST)

struct uet_uud {
	u8 flags;
	u16 pay_len;
	u32 qkey;
	u16 spdcid;
	u16 dpdcid;
	u32 imm;
};

int uet_uud_pack(const struct uet_uud *uud, void *buf, size_t len);
int uet_uud_parse(const void *buf, size_t len, struct uet_uud *uud);

/* The verbs header follows a RUD request (next_hdr UET_NEXT_VERBS). Every
 * data packet carries where its payload belongs, so the responder places
 * it whatever order packets arrive in.
 */
#define UET_NEXT_VERBS		0xf
#define UET_VERBS_VERSION	0

enum uet_op {
	UET_OP_SEND = 1,
	UET_OP_SEND_IMM = 2,
	UET_OP_SEND_INV = 3,
	UET_OP_WRITE = 4,
	UET_OP_WRITE_IMM = 5,
	UET_OP_READ_REQ = 6,
	UET_OP_READ_RESP = 7,
	UET_OP_CMP_SWAP = 8,
	UET_OP_FETCH_ADD = 9,
	UET_OP_ATOMIC_RESP = 10,
	UET_OP_ATOMIC_WRITE = 11,
	UET_OP_FLUSH = 12,
	UET_OP_MAX = UET_OP_FLUSH,
};

/* A FLUSH's imm is the IBA's FLUSH extended transport header (IBA 1.5,
 * A19.4.1; rdma_rxe's FETH, rxe_hdr.h of Linux 6.2): the placement types
 * in bits 3-0, the selectivity level in bits 5-4, the rest 0.
 */
#define UET_FETH_PLT_MASK	0x0000000f
#define UET_FETH_SEL_SHIFT	4
#define UET_FETH_SEL_MASK	0x00000030

#define UET_FETH_SEL_MAX	(UET_FETH_SEL_MASK >> UET_FETH_SEL_SHIFT)

/* A FETH of a WR's placement types and selectivity level. Values that do
 * not fit their bits give all ones, reserved bits set, which a responder
 * refuses, rather than bits of another field.
 */
static inline u32 uet_feth(u32 plt, u32 sel)
{
	if ((plt & ~UET_FETH_PLT_MASK) || sel > UET_FETH_SEL_MAX)
		return U32_MAX;
	return plt | sel << UET_FETH_SEL_SHIFT;
}

#define UET_VF_SOLICITED	0x01	/* solicited event on the receive CQE */

struct uet_verbs_hdr_wire {
	u8 version;
	u8 opcode;
	u8 flags;
	u8 rsvd;
	__be32 msn;	/* SEND*, WRITE_IMM: message number; READ/atomic: request id */
	__be32 msg_len;	/* bytes in the whole message (READ_REQ: bytes to read) */
	__be32 offset;	/* where this packet's payload starts in the message */
	__be64 addr;	/* remote address of the message start */
	__be32 rkey;
	__be32 imm;	/* immediate data, or the rkey a SEND_INV invalidates */
	__be32 pay_len;	/* payload bytes as sent: more than arrived = trimmed */
} __packed;

struct uet_verbs_hdr {
	u8 opcode;
	u8 flags;
	u32 msn;
	u32 msg_len;
	u32 offset;
	u64 addr;
	u32 rkey;
	u32 imm;
	u32 pay_len;
};

/* Atomic request payload and response payload. */
#define UET_ATOMIC_REQ_LEN	16	/* compare/add, swap */
#define UET_ATOMIC_RESP_LEN	8	/* original value */

int uet_verbs_pack(const struct uet_verbs_hdr *vh, void *buf, size_t len);
int uet_verbs_parse(const void *buf, size_t len, struct uet_verbs_hdr *vh);

/* Worst-case bytes in front of the payload: IPv6 (40) + UDP (8) + PDS
 * request (12) + the verbs header, for which 48 bytes are reserved.
 */
#define UET_VERBS_HDR_MAX	48
#define UET_MAX_HDR_LEN		(40 + 8 + sizeof(struct uet_pds_req_hdr) + \
				 UET_VERBS_HDR_MAX)

#endif /* _UET_WIRE_H */
