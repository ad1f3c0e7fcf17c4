/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-wire headers (Documentation/uet/wire-format.rst). All fields are
 * big-endian. Pure code: no ib_core, no sockets, so KUnit drives it.
 */
#ifndef _UET_WIRE_H
#define _UET_WIRE_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

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

/* Worst-case bytes in front of the payload: IPv6 (40) + UDP (8) + PDS
 * request (12) + the verbs header, for which 48 bytes are reserved.
 */
#define UET_VERBS_HDR_MAX	48
#define UET_MAX_HDR_LEN		(40 + 8 + sizeof(struct uet_pds_req_hdr) + \
				 UET_VERBS_HDR_MAX)

enum ib_mtu uet_ib_mtu(unsigned int netdev_mtu);

#endif /* _UET_WIRE_H */
