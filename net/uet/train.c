// SPDX-License-Identifier: GPL-2.0
/*
 * Building trains (train.h). A train has no linear data. A packed one
 * holds copies of its packets, one after the other in a page kept for
 * them (a socket's 32 KiB, by skb_page_frag_refill()), a fragment
 * growing while the next copy lands right behind it. Otherwise each
 * packet is a fragment with its headers followed by its payload's
 * fragments (the pages lent from the MR, or the copy), so a packet whose
 * payload lies in one page takes two of the train's MAX_SKB_FRAGS
 * fragments. The GSO fields follow what UDP GSO from a socket sets
 * (udp_send_skb(): gso_size, SKB_GSO_UDP_L4, gso_segs); the checksum is
 * left partial at the UDP header, as segmentation requires, by udp.c.
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/skbuff.h>

#include "train.h"

/* Passes run with bottom halves off (engine.c); the copies are charged
 * to the QP's creator (the caller's active memory cgroup), and a train
 * that cannot grow leaves its packet to be sent on its own.
 */
#define UET_TRAIN_GFP	(GFP_ATOMIC | __GFP_NOWARN | __GFP_ACCOUNT)

/* Room in skb for a packet whose payload takes nr_frags fragments, and
 * one more for its headers.
 */
static bool uet_train_room(const struct sk_buff *skb, u32 nr_frags)
{
	return skb_shinfo(skb)->nr_frags + nr_frags + 1 <= MAX_SKB_FRAGS;
}

bool uet_train_fits(const struct uet_train *t, u32 len, u32 nr_frags,
		    u32 max_pkts)
{
	if (!t->skb || nr_frags + 1 > MAX_SKB_FRAGS)
		return false;
	if (!t->npkts)
		return len <= UET_TRAIN_MAX_BYTES;
	if (t->npkts >= max_pkts || t->last_len != t->pkt_len ||
	    len > t->pkt_len || t->skb->len + len > UET_TRAIN_MAX_BYTES)
		return false;
	/* A copy may need a fragment of its own. */
	if (t->packed)
		return skb_shinfo(t->skb)->nr_frags < MAX_SKB_FRAGS;
	return t->chain || uet_train_room(t->tail, nr_frags);
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_fits);

int uet_train_start(struct uet_train *t, unsigned int headroom, u16 ev,
		    bool chain)
{
	struct sk_buff *skb;

	/* Passes run with bottom halves off (engine.c). */
	skb = alloc_skb(headroom, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, headroom);
	t->skb = skb;
	t->tail = skb;
	t->chain = chain;
	t->packed = false;
	t->npkts = 0;
	t->pkt_len = 0;
	t->last_len = 0;
	t->ev = ev;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_start);

/* A new last skb of t's frag_list, with no data: the packets it takes
 * are its fragments, as in the first skb.
 */
static struct sk_buff *uet_train_grow(struct uet_train *t)
{
	struct sk_buff *m = alloc_skb(0, GFP_ATOMIC);

	if (!m)
		return NULL;
	if (t->tail == t->skb)
		skb_shinfo(t->skb)->frag_list = m;
	else
		t->tail->next = m;
	t->tail = m;
	t->skb->truesize += m->truesize;
	return m;
}

/* The copy of pkt at the end of t's only skb, whose last fragment grows
 * when the copy lands right behind it.
 */
static int uet_train_pack(struct uet_train *t, const struct sk_buff *pkt,
			  u8 flags)
{
	struct skb_shared_info *si = skb_shinfo(t->skb);
	struct page_frag *pf = &t->pack;
	u32 len = pkt->len;
	u8 *buf;
	int err;

	/* The page is carved from its start again once no skb holds it. */
	if (!skb_page_frag_refill(len, pf, UET_TRAIN_GFP))
		return -ENOMEM;
	buf = (u8 *)page_address(pf->page) + pf->offset;
	err = skb_copy_bits(pkt, 0, buf, len);
	if (err)
		return err;
	buf[1] |= flags;
	if (skb_can_coalesce(t->skb, si->nr_frags, pf->page, pf->offset)) {
		skb_frag_size_add(&si->frags[si->nr_frags - 1], len);
	} else {
		get_page(pf->page);
		skb_fill_page_desc(t->skb, si->nr_frags, pf->page, pf->offset,
				   len);
	}
	pf->offset += len;
	return 0;
}

int uet_train_add(struct uet_train *t, const struct sk_buff *pkt, u8 flags,
		  struct page_frag_cache *pfc)
{
	const struct skb_shared_info *si = skb_shinfo(pkt);
	u32 i, hdr_len = skb_headlen(pkt), len = pkt->len;
	struct sk_buff *skb = t->tail;
	struct page *page;
	u8 *hdr;

	if (!t->npkts)
		t->packed = !t->chain && len <= PAGE_SIZE;
	if (t->packed) {
		int err = uet_train_pack(t, pkt, flags);

		if (err)
			return err;
		goto added;
	}
	hdr = page_frag_alloc(pfc, hdr_len, UET_TRAIN_GFP);
	if (!hdr)
		return -ENOMEM;
	/* A member of the frag_list is never left empty: segmentation
	 * expects data in each.
	 */
	if (!uet_train_room(skb, si->nr_frags)) {
		skb = uet_train_grow(t);
		if (!skb) {
			page_frag_free(hdr);
			return -ENOMEM;
		}
	}
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
	if (skb != t->skb) {
		skb->len += len;
		skb->data_len += len;
		skb->truesize += len;
		skb_shinfo(t->skb)->flags |= si->flags & SKBFL_SHARED_FRAG;
	}
added:
	t->skb->len += len;
	t->skb->data_len += len;
	t->skb->truesize += len;
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
	t->tail = NULL;
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
	t->tail = NULL;
	t->npkts = 0;
	if (t->pack.page)
		put_page(t->pack.page);
	t->pack.page = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(uet_train_drop);
