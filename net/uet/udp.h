/* SPDX-License-Identifier: GPL-2.0 */
/* UDP encapsulation of uet packets: per network namespace sockets on
 * our own port, transmit with route lookup, and the receive hook that
 * hands PDS packets to the transport.
 */
#ifndef _UET_UDP_H
#define _UET_UDP_H

#include <linux/in6.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/udp.h>
#include <net/dst_cache.h>

#include "uet.h"

/* Default UDP destination port of uet packets (the UE spec's port). */
#define UET_UDP_PORT		4793

/* Module parameter "udp_port": the port we listen on and send to. */
extern unsigned short uet_udp_port;

/* Headroom a transmitted skb needs in front of the PDS header: link
 * layer, IPv6 (the larger IP header) and UDP. LL_RESERVED_SPACE() is a
 * multiple of HH_DATA_MOD (16), and so are 40 + 8 bytes, so the IP
 * header stays as aligned as the link layer makes it.
 */
#define UET_SKB_HEADROOM(ndev) \
	(LL_RESERVED_SPACE(ndev) + sizeof(struct ipv6hdr) + sizeof(struct udphdr))

/* skb->cb of a received uet packet, filled by the UDP receive hook
 * before uet_rcv() and owned by the transport from then on (the IP
 * layer's IPCB/IP6CB is gone). Layout (byte offsets):
 *
 *   0  saddr	IP source (v4: saddr.v4 only)
 *  16  daddr	IP destination (v4: daddr.v4 only)
 *  32  sport	UDP source port, host order: the sender's entropy value
 *  34  family	AF_INET or AF_INET6
 *  35  dscp	DSCP of the IP header (traffic class >> 2)
 *  36  ecn	INET_ECN_* bits of the IP header
 *  37  mcast	1 if the IP destination is a multicast group (mcast.c)
 *  38  -	padding, zeroed (the struct is 40 bytes)
 *  40  -	not written here: bytes 40..47 are free for the transport
 */
struct uet_skb_cb {
	union {
		__be32 v4;
		struct in6_addr v6;
	} saddr, daddr;
	u16 sport;
	u8 family;
	u8 dscp;
	u8 ecn;
	u8 mcast;
};

#define UET_SKB_CB(skb)	((struct uet_skb_cb *)(skb)->cb)

/* The addresses back to a packet's sender, as seen from here: its source is
 * our destination.
 */
static inline void uet_skb_cb_addrs(const struct uet_skb_cb *cb,
				    struct uet_addrs *addrs)
{
	BUILD_BUG_ON(sizeof(addrs->saddr) != sizeof(cb->daddr));
	memset(addrs, 0, sizeof(*addrs));
	addrs->family = cb->family;
	memcpy(&addrs->saddr, &cb->daddr, sizeof(addrs->saddr));
	memcpy(&addrs->daddr, &cb->saddr, sizeof(addrs->daddr));
}

/* Module init/exit; uet_udp_exit() after every device is deallocated. */
int uet_udp_init(void);
void uet_udp_exit(void);

/* Attach/detach udev to the sockets of its netdev's netns. Process
 * context, may sleep; uet_udp_get() takes RTNL, so neither may be called
 * with RTNL held. uet_udp_put() of a device never attached is a no-op.
 */
int uet_udp_get(struct uet_dev *udev);
void uet_udp_put(struct uet_dev *udev);

/* Only between uet_udp_get() and uet_udp_put(). Consumes skb always.
 * cache: the sender's route cache (one user at a time, bottom halves
 * off), or NULL to look the route up. direct: a packet to one of this
 * host's addresses goes to uet_rcv() of the device owning it, instead of
 * through IP and lo (RC QPs: their receive path needs no IP header);
 * a GSO train (train.h) takes IP and lo, whose UDP cuts it up.
 * Returns 0 once handed to IP, -EHOSTUNREACH without a route,
 * -ENETUNREACH without a socket for the family (IPv6 disabled, or the
 * netns is gone), -ENOMEM, -EAFNOSUPPORT for a bad addrs->family.
 */
int uet_udp_xmit(struct uet_dev *udev, struct sk_buff *skb,
		 const struct uet_addrs *addrs, u16 sport, u8 tos,
		 struct dst_cache *cache, bool direct);

/* Is addrs' destination a uet device of this host (uet_rc_seg())? */
bool uet_udp_is_local(struct uet_dev *udev, const struct uet_addrs *addrs);

/* What the destination of an address may be: a host (RC, UC, UD to a
 * QPN), a multicast group (UD to IB_MULTICAST_QPN), or either (an AH,
 * which says nothing of the QPN it will be used with).
 */
enum uet_dest {
	UET_DEST_UNICAST,
	UET_DEST_MCAST,
	UET_DEST_ANY,
};

int uet_addrs_from_ah(struct uet_dev *udev, const struct rdma_ah_attr *attr,
		      enum uet_dest dest, struct uet_addrs *addrs);
/* The addresses of a UD WQE's address vector (ud.c), which a user wrote:
 * port 1, IPv4 or IPv6, a source address that is a RoCE v2 GID of the
 * device, a destination of the kind dest says. 0 or -EINVAL.
 */
int uet_addrs_from_av(struct uet_dev *udev, const struct rxe_av *av,
		      enum uet_dest dest, struct uet_addrs *addrs);

#endif /* _UET_UDP_H */
