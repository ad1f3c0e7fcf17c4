// SPDX-License-Identifier: GPL-2.0
/*
 * Packing and parsing of on-wire headers. Parsers trust nothing: every
 * length is checked before a byte is read.
 */
#include <kunit/visibility.h>
#include <linux/build_bug.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/string.h>

#include "uet_compat.h"
#include "wire.h"

static bool uet_pds_type_is_req(u8 type)
{
	return type == UET_PDS_RUD_REQ || type == UET_PDS_ROD_REQ;
}

int uet_pds_req_pack(const struct uet_pds_req *req, void *buf, size_t len)
{
	struct uet_pds_req_hdr *hdr = buf;
	u16 prologue;

	if (len < sizeof(*hdr))
		return -EMSGSIZE;
	if (!uet_pds_type_is_req(req->type) || req->next_hdr > UET_PDS_NEXT_MASK ||
	    req->flags > UET_PDS_FLAGS_MASK)
		return -EINVAL;

	prologue = req->type << UET_PDS_TYPE_SHIFT |
		   req->next_hdr << UET_PDS_NEXT_SHIFT | req->flags;
	put_unaligned_be16(prologue, &hdr->prologue);
	put_unaligned_be16((u16)req->clear_psn_offset, &hdr->clear_psn_offset);
	put_unaligned_be32(req->psn, &hdr->psn);
	put_unaligned_be16(req->spdcid, &hdr->spdcid);
	put_unaligned_be16(req->dpdcid, &hdr->dpdcid);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_req_pack);

int uet_pds_req_parse(const void *buf, size_t len, struct uet_pds_req *req)
{
	const struct uet_pds_req_hdr *hdr = buf;
	u16 prologue;

	if (len < sizeof(*hdr))
		return -EBADMSG;
	prologue = get_unaligned_be16(&hdr->prologue);
	req->type = prologue >> UET_PDS_TYPE_SHIFT;
	if (!uet_pds_type_is_req(req->type))
		return -EPROTO;
	req->next_hdr = (prologue >> UET_PDS_NEXT_SHIFT) & UET_PDS_NEXT_MASK;
	req->flags = prologue & UET_PDS_FLAGS_MASK;
	req->clear_psn_offset = (s16)get_unaligned_be16(&hdr->clear_psn_offset);
	req->psn = get_unaligned_be32(&hdr->psn);
	req->spdcid = get_unaligned_be16(&hdr->spdcid);
	req->dpdcid = get_unaligned_be16(&hdr->dpdcid);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_req_parse);

/* The PDS type of a packet, or -EBADMSG if it has no prologue. */
int uet_pds_type(const void *buf, size_t len)
{
	if (len < sizeof(__be16))
		return -EBADMSG;
	return get_unaligned_be16(buf) >> UET_PDS_TYPE_SHIFT;
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_type);

static u16 uet_prologue(u8 type, u8 next_hdr, u8 flags)
{
	return type << UET_PDS_TYPE_SHIFT | next_hdr << UET_PDS_NEXT_SHIFT | flags;
}

int uet_pds_ack_pack(const struct uet_pds_ack *ack, void *buf, size_t len)
{
	struct uet_pds_ack_hdr *hdr = buf;

	if (len < (ack->ccx ? sizeof(struct uet_pds_ackx_hdr) : sizeof(*hdr)))
		return -EMSGSIZE;
	if (ack->flags > UET_PDS_FLAGS_MASK || ack->cc_type > 0xf ||
	    ack->cc_flags > 0xf)
		return -EINVAL;
	put_unaligned_be16(uet_prologue(ack->ccx ? UET_PDS_ACK_CCX :
					UET_PDS_ACK_CC, 0, ack->flags),
			   &hdr->prologue);
	put_unaligned_be16((u16)ack->ack_psn_offset, &hdr->ack_psn_offset);
	put_unaligned_be32(ack->cack_psn, &hdr->cack_psn);
	put_unaligned_be16(ack->spdcid, &hdr->spdcid);
	put_unaligned_be16(ack->dpdcid, &hdr->dpdcid);
	hdr->cc_type_flags = ack->cc_type << 4 | ack->cc_flags;
	hdr->mpr = ack->mpr;
	put_unaligned_be16((u16)ack->sack_psn_offset, &hdr->sack_psn_offset);
	put_unaligned_be64(ack->sack_bitmap, &hdr->sack_bitmap);
	put_unaligned_be64(ack->cc_state, &hdr->cc_state);
	if (ack->ccx) {
		struct uet_pds_ackx_hdr *x = buf;

		put_unaligned_be16(ack->entropy, &x->entropy);
		x->ccx_flags = ack->ccx_flags;
		x->rsvd = 0;
		put_unaligned_be32(0, &x->rsvd2);
		return sizeof(*x);
	}
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_ack_pack);

int uet_pds_ack_parse(const void *buf, size_t len, struct uet_pds_ack *ack)
{
	const struct uet_pds_ack_hdr *hdr = buf;
	u16 prologue;

	if (len < sizeof(*hdr))
		return -EBADMSG;
	prologue = get_unaligned_be16(&hdr->prologue);
	switch (prologue >> UET_PDS_TYPE_SHIFT) {
	case UET_PDS_ACK_CC:
		ack->ccx = false;
		ack->ccx_flags = 0;
		ack->entropy = 0;
		break;
	case UET_PDS_ACK_CCX: {
		const struct uet_pds_ackx_hdr *x = buf;

		if (len < sizeof(*x))
			return -EBADMSG;
		ack->ccx = true;
		ack->ccx_flags = x->ccx_flags;
		ack->entropy = get_unaligned_be16(&x->entropy);
		break;
	}
	default:
		return -EPROTO;
	}
	ack->flags = prologue & UET_PDS_FLAGS_MASK;
	ack->ack_psn_offset = (s16)get_unaligned_be16(&hdr->ack_psn_offset);
	ack->cack_psn = get_unaligned_be32(&hdr->cack_psn);
	ack->spdcid = get_unaligned_be16(&hdr->spdcid);
	ack->dpdcid = get_unaligned_be16(&hdr->dpdcid);
	ack->cc_type = hdr->cc_type_flags >> 4;
	ack->cc_flags = hdr->cc_type_flags & 0xf;
	ack->mpr = hdr->mpr;
	ack->sack_psn_offset = (s16)get_unaligned_be16(&hdr->sack_psn_offset);
	ack->sack_bitmap = get_unaligned_be64(&hdr->sack_bitmap);
	ack->cc_state = get_unaligned_be64(&hdr->cc_state);
	return ack->ccx ? sizeof(struct uet_pds_ackx_hdr) : sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_ack_parse);

/* A probe (CONTROL PROBE, 16 bytes) or its answer (ACK with P, 12 bytes);
 * PDC ids 0: the devices answer, not a QP.
 */
int uet_probe_pack(u16 opaque, u32 nonce, bool answer, void *buf, size_t len)
{
	struct uet_pds_ctl_hdr *hdr = buf;
	size_t n = answer ? UET_PDS_PLAIN_ACK_LEN : sizeof(*hdr);

	if (len < n)
		return -EMSGSIZE;
	memset(buf, 0, n);
	if (answer) {
		put_unaligned_be16(uet_prologue(UET_PDS_ACK, 0,
						UET_PDS_ACK_F_PROBE),
				   &hdr->prologue);
		put_unaligned_be32(nonce, &hdr->psn);
	} else {
		put_unaligned_be16(uet_prologue(UET_PDS_CONTROL, UET_CTL_PROBE,
						0), &hdr->prologue);
		put_unaligned_be32(nonce, &hdr->payload);
	}
	put_unaligned_be16(opaque, &hdr->probe_opaque);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(uet_probe_pack);

int uet_cnp_pack(u16 spdcid, u16 dpdcid, u32 psn, void *buf, size_t len)
{
	struct uet_pds_ctl_hdr *hdr = buf;

	if (len < sizeof(*hdr))
		return -EMSGSIZE;
	memset(buf, 0, sizeof(*hdr));
	put_unaligned_be16(uet_prologue(UET_PDS_CONTROL, UET_CTL_CNP, 0),
			   &hdr->prologue);
	put_unaligned_be32(psn, &hdr->psn);
	put_unaligned_be16(spdcid, &hdr->spdcid);
	put_unaligned_be16(dpdcid, &hdr->dpdcid);
	return sizeof(*hdr);
}

/* The ctl_type of a CONTROL packet, or a negative errno. */
int uet_ctl_type(const void *buf, size_t len)
{
	u16 prologue;

	if (len < sizeof(struct uet_pds_ctl_hdr))
		return -EBADMSG;
	prologue = get_unaligned_be16(buf);
	if (prologue >> UET_PDS_TYPE_SHIFT != UET_PDS_CONTROL)
		return -EPROTO;
	return prologue >> UET_PDS_NEXT_SHIFT & UET_PDS_NEXT_MASK;
}

int uet_probe_parse(const void *buf, size_t len, u16 *opaque, u32 *nonce,
		    bool *answer)
{
	const struct uet_pds_ctl_hdr *hdr = buf;
	u16 prologue;

	if (len < UET_PDS_PLAIN_ACK_LEN)
		return -EBADMSG;
	prologue = get_unaligned_be16(&hdr->prologue);
	switch (prologue >> UET_PDS_TYPE_SHIFT) {
	case UET_PDS_ACK:
		if (!(prologue & UET_PDS_ACK_F_PROBE))
			return -EPROTO;
		*answer = true;
		break;
	case UET_PDS_CONTROL:
		if (len < sizeof(*hdr) ||
		    (prologue >> UET_PDS_NEXT_SHIFT & UET_PDS_NEXT_MASK) !=
		    UET_CTL_PROBE)
			return -EPROTO;
		*answer = false;
		break;
	default:
		return -EPROTO;
	}
	*opaque = get_unaligned_be16(&hdr->probe_opaque);
	*nonce = get_unaligned_be32(*answer ? &hdr->psn : &hdr->payload);
	return *answer ? UET_PDS_PLAIN_ACK_LEN : sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_probe_parse);

int uet_pds_nack_pack(const struct uet_pds_nack *nack, void *buf, size_t len)
{
	struct uet_pds_nack_hdr *hdr = buf;

	if (len < sizeof(*hdr))
		return -EMSGSIZE;
	if (nack->flags > UET_PDS_FLAGS_MASK)
		return -EINVAL;
	put_unaligned_be16(uet_prologue(UET_PDS_NACK, 0, nack->flags),
			   &hdr->prologue);
	hdr->nack_code = nack->code;
	hdr->vendor_code = nack->vendor_code;
	put_unaligned_be32(nack->psn, &hdr->nack_psn);
	put_unaligned_be16(nack->spdcid, &hdr->spdcid);
	put_unaligned_be16(nack->dpdcid, &hdr->dpdcid);
	put_unaligned_be32(nack->payload, &hdr->payload);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_nack_pack);

int uet_pds_nack_parse(const void *buf, size_t len, struct uet_pds_nack *nack)
{
	const struct uet_pds_nack_hdr *hdr = buf;
	u16 prologue;

	if (len < sizeof(*hdr))
		return -EBADMSG;
	prologue = get_unaligned_be16(&hdr->prologue);
	if (prologue >> UET_PDS_TYPE_SHIFT != UET_PDS_NACK)
		return -EPROTO;
	nack->flags = prologue & UET_PDS_FLAGS_MASK;
	nack->code = hdr->nack_code;
	nack->vendor_code = hdr->vendor_code;
	nack->psn = get_unaligned_be32(&hdr->nack_psn);
	nack->spdcid = get_unaligned_be16(&hdr->spdcid);
	nack->dpdcid = get_unaligned_be16(&hdr->dpdcid);
	nack->payload = get_unaligned_be32(&hdr->payload);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_pds_nack_parse);

int uet_uud_pack(const struct uet_uud *uud, void *buf, size_t len)
{
	struct uet_uud_hdr *hdr = buf;

	if (len < sizeof(*hdr))
		return -EMSGSIZE;
	if (uud->flags & ~UET_UUD_F_MASK)
		return -EINVAL;
	put_unaligned_be16(uet_prologue(UET_PDS_UUD_REQ, 0, uud->flags),
			   &hdr->prologue);
	put_unaligned_be16(uud->pay_len, &hdr->pay_len);
	put_unaligned_be32(uud->qkey, &hdr->qkey);
	put_unaligned_be16(uud->spdcid, &hdr->spdcid);
	put_unaligned_be16(uud->dpdcid, &hdr->dpdcid);
	put_unaligned_be32(uud->imm, &hdr->imm);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_uud_pack);

/* Besides the length, refuse what no sender of this version produces: a
 * next header or a flag we do not define. pay_len is checked by the
 * caller, which knows how many bytes follow.
 */
int uet_uud_parse(const void *buf, size_t len, struct uet_uud *uud)
{
	const struct uet_uud_hdr *hdr = buf;
	u16 prologue;

	if (len < sizeof(*hdr))
		return -EBADMSG;
	prologue = get_unaligned_be16(&hdr->prologue);
	if (prologue >> UET_PDS_TYPE_SHIFT != UET_PDS_UUD_REQ ||
	    (prologue >> UET_PDS_NEXT_SHIFT) & UET_PDS_NEXT_MASK ||
	    prologue & UET_PDS_FLAGS_MASK & ~UET_UUD_F_MASK)
		return -EPROTO;
	uud->flags = prologue & UET_UUD_F_MASK;
	uud->pay_len = get_unaligned_be16(&hdr->pay_len);
	uud->qkey = get_unaligned_be32(&hdr->qkey);
	uud->spdcid = get_unaligned_be16(&hdr->spdcid);
	uud->dpdcid = get_unaligned_be16(&hdr->dpdcid);
	uud->imm = get_unaligned_be32(&hdr->imm);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_uud_parse);

int uet_verbs_pack(const struct uet_verbs_hdr *vh, void *buf, size_t len)
{
	struct uet_verbs_hdr_wire *hdr = buf;

	BUILD_BUG_ON(sizeof(*hdr) > UET_VERBS_HDR_MAX);
	if (len < sizeof(*hdr))
		return -EMSGSIZE;
	if (!vh->opcode || vh->opcode > UET_OP_MAX)
		return -EINVAL;
	hdr->version = UET_VERBS_VERSION;
	hdr->opcode = vh->opcode;
	hdr->flags = vh->flags;
	hdr->rsvd = 0;
	put_unaligned_be32(vh->msn, &hdr->msn);
	put_unaligned_be32(vh->msg_len, &hdr->msg_len);
	put_unaligned_be32(vh->offset, &hdr->offset);
	put_unaligned_be64(vh->addr, &hdr->addr);
	put_unaligned_be32(vh->rkey, &hdr->rkey);
	put_unaligned_be32(vh->imm, &hdr->imm);
	put_unaligned_be32(vh->pay_len, &hdr->pay_len);
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_verbs_pack);

/* Besides lengths, refuse what no sender of this version produces: an
 * unknown version or opcode, or a payload offset past the message end.
 * pay_len is checked by the caller, which knows the opcode's rules.
 */
int uet_verbs_parse(const void *buf, size_t len, struct uet_verbs_hdr *vh)
{
	const struct uet_verbs_hdr_wire *hdr = buf;

	if (len < sizeof(*hdr))
		return -EBADMSG;
	if (hdr->version != UET_VERBS_VERSION || !hdr->opcode ||
	    hdr->opcode > UET_OP_MAX)
		return -EPROTO;
	vh->opcode = hdr->opcode;
	vh->flags = hdr->flags;
	vh->msn = get_unaligned_be32(&hdr->msn);
	vh->msg_len = get_unaligned_be32(&hdr->msg_len);
	vh->offset = get_unaligned_be32(&hdr->offset);
	vh->addr = get_unaligned_be64(&hdr->addr);
	vh->rkey = get_unaligned_be32(&hdr->rkey);
	vh->imm = get_unaligned_be32(&hdr->imm);
	vh->pay_len = get_unaligned_be32(&hdr->pay_len);
	if (vh->offset > vh->msg_len)
		return -EPROTO;
	return sizeof(*hdr);
}
EXPORT_SYMBOL_IF_KUNIT(uet_verbs_parse);
