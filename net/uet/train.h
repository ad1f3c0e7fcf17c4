/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trains: consecutive first transmissions of a QP, each a whole uet
 * packet (PDS and verbs headers, payload), carried through IP as one UDP
 * GSO skb (SKB_GSO_UDP_L4) whose gso_size is one packet. The stack, the
 * NIC or the receiving UDP layer cuts it back into the same packets, each
 * with its own headers: on the wire nothing changes. What a train saves
 * is the per-skb cost of IP, the qdisc and the netdev on both ends.
 *
 * Where the netdev takes skbs with a frag_list whole (NETIF_F_FRAGLIST:
 * veth for one), a train lends the payload's pages: a packet takes a
 * fragment for its headers and one or two for its payload, and the
 * train goes on in skbs chained to the first one's frag_list, each
 * holding whole packets, up to 64 KiB. Elsewhere (a NIC, virtio-net)
 * the train must be one skb, whose MAX_SKB_FRAGS fragments would hold
 * some 6 packets of MTU 1500 so: its packets are copied whole, side by
 * side, into a page of 32 KiB kept for them, where the fragments of
 * neighbours join, and a train of 64 KiB takes a few fragments. A NIC
 * segmenting UDP GSO then gets 64 KiB at a time, as it gets TCP's.
 * Packets longer than a page are lent, as on a chain, in one skb.
 */
#ifndef _UET_TRAIN_H
#define _UET_TRAIN_H

#include <linux/skbuff.h>
#include <linux/types.h>

/* A train is one IP packet to the stack until segmented: its UDP payload
 * stays below 64 KiB (GSO_LEGACY_MAX_SIZE less IPv6 and UDP headers).
 */
#define UET_TRAIN_MAX_BYTES	(65536 - 40 - 8)
/* Most packets a train may be set to carry: UDP GSO's own bound on the
 * segments of one send (UDP_MAX_SEGMENTS).
 */
#define UET_TRAIN_MAX_PKTS	64

struct uet_train {
	struct sk_buff *skb;	/* NULL: none being built */
	struct sk_buff *tail;	/* the skb taking the next packet: skb, or
				 * the last one of its frag_list
				 */
	bool chain;		/* may grow a frag_list */
	bool packed;		/* its packets are copies, side by side */
	struct page_frag pack;	/* the page they are carved from, kept */
	u32 npkts;
	u32 pkt_len;		/* wire length of every packet but the last */
	u32 last_len;		/* wire length of the last one */
	u16 ev;			/* the entropy value all of them carry */
};

/* May a packet of len bytes, its payload in nr_frags fragments, join t,
 * which may carry at most max_pkts? Segmentation cuts a train into
 * gso_size pieces: every packet but the last must be as long as the
 * first, and none longer.
 */
bool uet_train_fits(const struct uet_train *t, u32 len, u32 nr_frags,
		    u32 max_pkts);

/* Start t as an empty train behind headroom bytes, for entropy value
 * ev; chain: it may go on in a frag_list. -ENOMEM.
 */
int uet_train_start(struct uet_train *t, unsigned int headroom, u16 ev,
		    bool chain);

/* Append a kept packet, with flags ORed into its headers' second byte;
 * the packet stays as it is. A train that may not chain copies packets
 * of a page at most whole into its kept page (the first packet
 * decides). Otherwise its headers (its linear part) are copied into a
 * fragment from pfc, then its payload's fragments follow by page
 * reference, in a new skb of the frag_list if the last one has no room.
 * The pages are charged to the active memory cgroup. The caller checked
 * uet_train_fits(). -ENOMEM, the train unchanged.
 */
int uet_train_add(struct uet_train *t, const struct sk_buff *pkt, u8 flags,
		  struct page_frag_cache *pfc);

/* The train built, ready for IP (GSO fields set when it carries more
 * than one packet); t is empty again. NULL if none was started or it has
 * no packet.
 */
struct sk_buff *uet_train_finish(struct uet_train *t);

/* A received skb as uet packets: a train that UDP queued whole (udp.c)
 * holds one every gso_size bytes, the last one as long or shorter;
 * anything else is one. The length of every packet but the last; the
 * receive path made sure it is nonzero.
 */
static inline u32 uet_train_rx_seg(const struct sk_buff *skb)
{
	return skb_is_gso(skb) ? skb_shinfo(skb)->gso_size : skb->len;
}

/* Drop a train not sent, and the page its copies were carved from. */
void uet_train_drop(struct uet_train *t);

#endif /* _UET_TRAIN_H */
