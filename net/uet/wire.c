// SPDX-License-Identifier: GPL-2.0
/*
 * Packing and parsing of on-wire headers. Parsers trust nothing: every
 * length is checked before a byte is read.
 */
#include <linux/errno.h>
#include <asm/unaligned.h>

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

/* Largest IB MTU whose payload plus our worst-case headers fits the netdev MTU. */
enum ib_mtu uet_ib_mtu(unsigned int netdev_mtu)
{
	enum ib_mtu mtu;

	for (mtu = IB_MTU_4096; mtu > IB_MTU_256; mtu--)
		if (ib_mtu_enum_to_int(mtu) + UET_MAX_HDR_LEN <= netdev_mtu)
			break;
	return mtu;
}
