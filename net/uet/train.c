// SPDX-License-Identifier: GPL-2.0
/*
 * Building trains (train.h). Each packet's headers and the start of its
 * payload share one fragment, so a packet of up to a page is a single
 * fragment and a train of MTU 1500 packets is up to MAX_SKB_FRAGS of
 * them. The GSO fields follow what UDP GSO from a socket sets
 * (udp_send_skb(): gso_size, SKB_GSO_UDP_L4, gso_segs); the checksum is
 * left partial at the UDP header, as segmentation requires, by udp.c.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "train.h"

bool uet_train_fits(const struct uet_train *t, u32 len, u32 nr_frags,
		    u32 max_pkts)
{
	if (!t->skb || !t->npkts)
		return t->skb && len <= UET_TRAIN_MAX_BYTES &&
		       nr_frags <= MAX_SKB_FRAGS;
	return t->npkts < max_pkts && t->last_len == t->pkt_len &&
	       len <= t->pkt_len && t->skb->len + len <= UET_TRAIN_MAX_BYTES &&
	       skb_shinfo(t->skb)->nr_frags + nr_frags <= MAX_SKB_FRAGS;
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

void uet_train_add(struct uet_train *t, const struct sk_buff *pkt,
		   u32 hdr_len, u8 flags)
{
	const struct skb_shared_info *si = skb_shinfo(pkt);
	struct sk_buff *skb = t->skb;
	u32 i, len = pkt->len;

	for (i = 0; i < si->nr_frags; i++) {
		const skb_frag_t *f = &si->frags[i];
		u32 off = skb_frag_off(f), size = skb_frag_size(f);

		if (!i) {
			u8 *hdr = skb_frag_address(f) - hdr_len;

			memcpy(hdr, pkt->data, hdr_len);
			hdr[1] |= flags;
			off -= hdr_len;
			size += hdr_len;
		}
		get_page(skb_frag_page(f));
		skb_fill_page_desc(skb, skb_shinfo(skb)->nr_frags,
				   skb_frag_page(f), off, size);
	}
	skb->len += len;
	skb->data_len += len;
	skb->truesize += len;
	if (!t->npkts++)
		t->pkt_len = len;
	t->last_len = len;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_add);

struct sk_buff *uet_train_finish(struct uet_train *t)
{
	struct sk_buff *skb = t->skb;

	if (!skb)
		return NULL;
	if (t->npkts > 1) {
		skb_shinfo(skb)->gso_size = t->pkt_len;
		skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4;
		skb_shinfo(skb)->gso_segs = t->npkts;
	}
	t->skb = NULL;
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
