// SPDX-License-Identifier: GPL-2.0
/*
 * Building trains (train.h). A train has no linear data: each packet is
 * a fragment with its headers followed by its payload's fragments (the
 * pages lent from the MR, or the copy), so a packet whose payload lies
 * in one page takes two of the train's MAX_SKB_FRAGS fragments. The GSO
 * fields follow what UDP GSO from a socket sets
 * (udp_send_skb(): gso_size, SKB_GSO_UDP_L4, gso_segs); the checksum is
 * left partial at the UDP header, as segmentation requires, by udp.c.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "train.h"

bool uet_train_fits(const struct uet_train *t, u32 len, u32 nr_frags,
		    u32 max_pkts)
{
	/* One more fragment: the packet's headers. */
	if (!t->skb || !t->npkts)
		return t->skb && len <= UET_TRAIN_MAX_BYTES &&
		       nr_frags + 1 <= MAX_SKB_FRAGS;
	return t->npkts < max_pkts && t->last_len == t->pkt_len &&
	       len <= t->pkt_len && t->skb->len + len <= UET_TRAIN_MAX_BYTES &&
	       skb_shinfo(t->skb)->nr_frags + nr_frags + 1 <= MAX_SKB_FRAGS;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_fits);

int uet_train_start(struct uet_train *t, unsigned int headroom, u16 ev)
{
	struct sk_buff *skb;

	/* Passes run with bottom halves off (engine.c). */
	skb = alloc_skb(headroom, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, headroom);
	t->skb = skb;
	t->npkts = 0;
	t->pkt_len = 0;
	t->last_len = 0;
	t->ev = ev;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_start);

int uet_train_add(struct uet_train *t, const struct sk_buff *pkt, u8 flags,
		  struct page_frag_cache *pfc)
{
	const struct skb_shared_info *si = skb_shinfo(pkt);
	u32 i, hdr_len = skb_headlen(pkt), len = pkt->len;
	struct sk_buff *skb = t->skb;
	struct page *page;
	u8 *hdr;

	hdr = page_frag_alloc(pfc, hdr_len, GFP_ATOMIC);
	if (!hdr)
		return -ENOMEM;
	memcpy(hdr, pkt->data, hdr_len);
	hdr[1] |= flags;
	page = virt_to_head_page(hdr);
	skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags, page,
			   hdr - (u8 *)page_address(page), hdr_len);
	for (i = 0; i < si->nr_frags; i++) {
		const skb_frag_t *f = &si->frags[i];

		get_page(skb_frag_page(f));
		skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags,
				   skb_frag_page(f), skb_frag_off(f),
				   skb_frag_size(f));
	}
	skb_shinfo(skb)->flags |= si->flags & SKBFL_SHARED_FRAG;
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	if (!t->npkts++)
		t->pkt_len = len;
	t->last_len = len;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_add);

struct sk_buff *uet_train_finish(struct uet_train *t)
{
	struct sk_buff *skb = t->skb;

	if (!skb)
		return NULL;
	t->skb = NULL;
	if (!t->npkts) {
		kfree_skb(skb);
		return NULL;
	}
	if (t->npkts > 1) {
		skb_shinfo(skb)->gso_size = t->pkt_len;
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		skb_shinfo(skb)->gso_segs = t->npkts;
	}
	t->npkts = 0;
	return skb;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_finish);

void uet_train_drop(struct uet_train *t)
{
	kfree_skb(t->skb);
	t->skb = NULL;
	t->npkts = 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_drop);
