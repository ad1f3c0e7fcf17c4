// SPDX-License-Identifier: GPL-2.0
/*
 * UDP encapsulation: the IPv4 and IPv6 sockets a network namespace gets
 * on uet_udp_port while uet devices live there, transmit (route lookup,
 * UDP and IP headers), the receive hook feeding uet_rcv(), and the
 * conversion of an AH attribute into the addresses a QP sends between.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/dsfield.h>
#include <net/dst_cache.h>
#include <net/ip6_fib.h>
#include <net/ip_fib.h>
#include <net/nexthop.h>
#include <net/inet_ecn.h>
#include <net/ip6_checksum.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include <net/route.h>
#include <net/udp_tunnel.h>
#include <rdma/ib_cache.h>

#include "recv.h"
#include "udp.h"
#include "uet_compat.h"
#include "wire.h"

unsigned short uet_udp_port = UET_UDP_PORT;
module_param_named(udp_port, uet_udp_port, ushort, 0444);
MODULE_PARM_DESC(udp_port, "UDP destination port of uet packets (UE spec: 4793)");

/* The sockets of one netns, shared by the uet devices bound to its
 * netdevs. Allocated apart from the pernet storage because a device can
 * outlive its netns: a netdev leaving a dying netns only queues the
 * unregistration of its uet device, which may finish after our pernet
 * exit. The exit then closes the sockets and the last device frees this.
 */
struct uet_udp {
	/* Set and cleared under uet_udp_lock; uet_udp_xmit() reads them under RCU. */
	struct socket __rcu *sk4;
	struct socket __rcu *sk6;	/* NULL when IPv6 is disabled */
	unsigned int users;		/* attached devices, under uet_udp_lock */
	struct net *net;		/* NULL once the netns exit ran, under uet_udp_lock */
};

struct uet_udp_net {
	struct uet_udp *udp;		/* under uet_udp_lock */
};

/* Protects uet_udp_net.udp of every netns and uet_udp's users and net;
 * serialises socket creation and release, so that a netns closes the
 * port before it binds it again.
 */
static DEFINE_MUTEX(uet_udp_lock);
static unsigned int uet_udp_net_id;

/* The uet device of the netdev that owns a local address; NULL if none. */
static struct uet_dev *uet_udp_dev_by_addr(struct net *net, u8 family,
					   const void *daddr)
{
	struct net_device *ndev;
	struct uet_dev *udev = NULL;

	rcu_read_lock();
	switch (family) {
	case AF_INET:
		ndev = __ip_dev_find(net, *(const __be32 *)daddr, false);
		break;
#if IS_ENABLED(CONFIG_IPV6)
	case AF_INET6:
		ndev = ipv6_dev_find(net, daddr, NULL);
		break;
#endif
	default:
		ndev = NULL;
		break;
	}
	if (!IS_ERR_OR_NULL(ndev))
		udev = uet_dev_get_by_netdev(ndev);
	rcu_read_unlock();
	return udev;
}

/* Is addrs' destination a uet device of this host, which the loopback
 * path below delivers to?
 */
bool uet_udp_is_local(struct uet_dev *udev, const struct uet_addrs *addrs)
{
	struct uet_dev *dst;

	dst = uet_udp_dev_by_addr(dev_net(udev->ndev), addrs->family,
				  &addrs->daddr);
	if (!dst)
		return false;
	uet_dev_put(dst);
	return true;
}

/* The device a packet came in for. What a host sends to one of its own
 * addresses through IP arrives on the loopback netdev: the netdev owning
 * the destination address tells the device then.
 */
static struct uet_dev *uet_udp_rcv_dev(struct sk_buff *skb)
{
	struct net_device *ndev = skb->dev;

	if (!(ndev->flags & IFF_LOOPBACK))
		return uet_dev_get_by_netdev(ndev);
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		return uet_udp_dev_by_addr(dev_net(ndev), AF_INET,
					   &ip_hdr(skb)->daddr);
	case htons(ETH_P_IPV6):
		return uet_udp_dev_by_addr(dev_net(ndev), AF_INET6,
					   &ipv6_hdr(skb)->daddr);
	default:
		return NULL;
	}
}

/* One uet packet, or a train of one QP's data packets whole, with the
 * netdev it came in on in skb->dev: fill in uet_skb_cb and hand it to
 * uet_rcv(). mcast: IP delivered it as multicast; now: its arrival.
 * Always consumes the skb.
 */
static void uet_udp_rcv_one(struct uet_dev *udev, struct sk_buff *skb,
			    bool mcast, u64 now)
{
	struct uet_skb_cb *cb = UET_SKB_CB(skb);
	u8 dsfield;

	/* From here on cb is ours: UDP's in it is not needed. */
	memset(cb, 0, sizeof(*cb));
	switch (skb->protocol) {
	case htons(ETH_P_IP):
		cb->family = AF_INET;
		cb->saddr.v4 = ip_hdr(skb)->saddr;
		cb->daddr.v4 = ip_hdr(skb)->daddr;
		cb->mcast = ipv4_is_multicast(cb->daddr.v4);
		dsfield = ip_hdr(skb)->tos;
		break;
	case htons(ETH_P_IPV6):
		cb->family = AF_INET6;
		cb->saddr.v6 = ipv6_hdr(skb)->saddr;
		cb->daddr.v6 = ipv6_hdr(skb)->daddr;
		cb->mcast = ipv6_addr_is_multicast(&cb->daddr.v6);
		dsfield = ipv6_get_dsfield(ipv6_hdr(skb));
		break;
	default:
		kfree_skb(skb);
		return;
	}
	if (mcast && !cb->mcast) {
		kfree_skb(skb);
		return;
	}
	cb->dscp = dsfield >> 2;
	cb->ecn = dsfield & INET_ECN_MASK;
	cb->sport = ntohs(udp_hdr(skb)->source);
	/* The packet is ours from here on, never delivered to a socket nor
	 * forwarded: its time of arrival, for RTT samples, is kept where
	 * the stack keeps one, in the monotonic clock our send times use.
	 */
	skb->tstamp = ns_to_ktime(now);
	/* UDP trimmed the skb to its length and pulled its header; the
	 * route it came in by is held without a reference, for this
	 * softirq only, and a QP may keep the packet longer.
	 */
	skb_dst_drop(skb);
	uet_rcv(udev, skb, true);
}

/* May a GSO skb go to uet_rcv() whole? Only a train: data packets of one
 * QP (the same PDC ids), each with its headers, which the responder
 * checks and places one by one (uet_resp_rcv()). A sender's train is
 * one; what GRO joined need not be, as it joins any run of same-size
 * packets of one UDP flow: ACKs, NACKs, CNPs, probes, UD datagrams (the
 * CM's MADs between two hosts), data of several QPs that share an
 * entropy value. Twelve bytes read per packet.
 */
static bool uet_udp_rx_train(const struct sk_buff *skb)
{
	u32 seg = skb_shinfo(skb)->gso_size, off;
	const struct uet_pds_req_hdr *hdr;
	struct uet_pds_req_hdr buf;
	__be16 spdcid = 0, dpdcid = 0;

	if (seg < sizeof(struct uet_pds_req_hdr) +
		  sizeof(struct uet_verbs_hdr_wire))
		return false;
	for (off = 0; off < skb->len; off += seg) {
		hdr = skb_header_pointer(skb, off, sizeof(buf), &buf);
		if (!hdr ||
		    uet_pds_type(hdr, sizeof(*hdr)) != UET_PDS_RUD_REQ)
			return false;
		if (!off) {
			spdcid = hdr->spdcid;
			dpdcid = hdr->dpdcid;
		} else if (hdr->spdcid != spdcid || hdr->dpdcid != dpdcid) {
			return false;
		}
	}
	return true;
}

/* A GSO skb that is not a train, cut into its packets as UDP cuts one
 * for a socket that takes no GSO (udp_queue_rcv_skb()); the list of
 * them, each at its PDS header, or NULL: UDP counted the loss as an
 * input error (a segment could not be allocated). Its checksum was
 * checked (uet_udp_rcv()).
 */
static struct sk_buff *uet_udp_segment(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff *segs, *seg;

	__skb_push(skb, -skb_mac_offset(skb));
	/* UDP cuts before it pulls its header, which made a partial
	 * checksum (GRO's) CHECKSUM_NONE; segmentation on receive wants it
	 * partial at the UDP header, as udp_rcv_segment() makes a looped
	 * one, and warns of any other.
	 */
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_transport_header(skb) - skb->head;
	skb->csum_offset = offsetof(struct udphdr, check);
	segs = udp_rcv_segment(sk, skb, sk->sk_family == AF_INET);
	for (seg = segs; seg; seg = seg->next)
		__skb_pull(seg, skb_transport_offset(seg) +
			   sizeof(struct udphdr));
	return segs;
}

/* A datagram the UDP layer queued to one of our sockets: one uet packet,
 * or several joined into a GSO skb (uet_udp_sock_create()). Softirq,
 * under RCU. Always consumes the skb.
 */
static void uet_udp_rcv(struct sock *sk, struct sk_buff *skb)
{
	struct sk_buff *segs, *next;
	struct net_device *ndev;
	struct uet_dev *udev;
	bool mcast;
	u64 now;

	/* A queued skb's dev field holds UDP's accounting (dev_scratch):
	 * the netdev it came in on is found again by its index. Only UD
	 * datagrams to a group take multicast delivery (mcast.c), the
	 * sender's own copy (IP_MULTICAST_LOOP) among them; no broadcast.
	 */
	ndev = dev_get_by_index_rcu(sock_net(sk), skb->skb_iif);
	skb->dev = ndev;
	mcast = skb->pkt_type == PACKET_MULTICAST ||
		skb->pkt_type == PACKET_LOOPBACK;
	if (!ndev || (skb->pkt_type != PACKET_HOST && !mcast))
		goto drop;
	udev = uet_udp_rcv_dev(skb);
	if (!udev)
		goto drop;
	/* UDP checks the checksum itself only for encapsulation sockets
	 * and sockets with a filter; a reader checks it (as udp_read_skb()
	 * does). A zero one, where allowed, is valid.
	 */
	if (udp_lib_checksum_complete(skb)) {
		uet_inc(udev, UET_CNT_DROP_CSUM);
		kfree_skb(skb);
		goto put;
	}

	/* The packets of an skb share one clock read. A train goes on
	 * whole, in one pass through uet_rcv() and the QP's engine; any
	 * other GSO skb as its packets, each on its own, as if GRO had
	 * left them apart (before uet_rcv() writes cb, which the GSO cb
	 * overlaps).
	 */
	now = ktime_get_ns();
	if (!skb_is_gso(skb) || uet_udp_rx_train(skb)) {
		uet_udp_rcv_one(udev, skb, mcast, now);
		goto put;
	}
	segs = uet_udp_segment(sk, skb);
	skb_list_walk_safe(segs, skb, next) {
		skb_mark_not_on_list(skb);
		uet_udp_rcv_one(udev, skb, mcast, now);
	}
put:
	uet_dev_put(udev);
	return;

drop:
	kfree_skb(skb);
}

/* sk_data_ready of both sockets: the UDP layer calls it in softirq after
 * it queued a datagram. Whoever queued takes everything queued, so the
 * queue stays near empty and a packet is handled in the softirq that
 * brought it.
 */
static void uet_udp_data_ready(struct sock *sk)
{
	struct sk_buff *skb;
	int err;

	while ((skb = skb_recv_udp(sk, MSG_DONTWAIT, &err)))
		uet_udp_rcv(sk, skb);
}

static struct socket *uet_udp_sock_create(struct net *net, u8 family)
{
	/* UE allows UDP checksum zero, and uet before trains sent it. IPv6
	 * receivers reject that unless the socket allows it (RFC 6935
	 * permits it for tunnels), hence use_udp6_rx_checksums = false; the
	 * tx flags only matter for the socket's own sends, uet_udp_xmit()
	 * asks for checksums itself.
	 */
	struct udp_port_cfg port_cfg = {
		.family = family,
		.local_udp_port = htons(uet_udp_port),
		.ipv6_v6only = family == AF_INET6,
		.use_udp_checksums = false,
		.use_udp6_tx_checksums = false,
		.use_udp6_rx_checksums = false,
	};
	struct socket *sock;
	int err;

	err = udp_sock_create(net, &port_cfg, &sock);
	if (err) {
		if (err == -EADDRINUSE)
			pr_err_ratelimited("UDP port %u (IPv%c) is already in use\n",
					   uet_udp_port, family == AF_INET ? '4' : '6');
		else
			pr_err_ratelimited("cannot open UDP port %u (IPv%c): %d\n",
					   uet_udp_port, family == AF_INET ? '4' : '6',
					   err);
		return ERR_PTR(err);
	}
	/* Not an encapsulation socket: UDP cuts a GSO skb into its
	 * segments before an encap_rcv hook (udp_unexpected_gso()), but
	 * queues it whole to a socket that accepts SKB_GSO_UDP_L4. A train
	 * from a peer on this host (veth, lo) then costs one pass through
	 * UDP, our receive and the QP's engine, not one per packet.
	 */
	udp_set_bit(ACCEPT_L4, sock->sk);
	/* And GRO may join a run of packets of one flow and size, as a
	 * NIC's receive path brings them (a train the sender's stack or
	 * NIC cut, or packets sent one by one), into such an skb: what
	 * the UDP_GRO socket option sets. The encap switch makes GRO look
	 * sockets up.
	 */
	udp_tunnel_encap_enable(sock->sk);
	udp_set_bit(GRO_ENABLED, sock->sk);
	write_lock_bh(&sock->sk->sk_callback_lock);
	sock->sk->sk_data_ready = uet_udp_data_ready;
	write_unlock_bh(&sock->sk->sk_callback_lock);
	return sock;
}

/* Caller holds uet_udp_lock. */
static void uet_udp_release(struct uet_udp *udp)
{
	struct socket *sk4, *sk6;

	sk4 = rcu_dereference_protected(udp->sk4, lockdep_is_held(&uet_udp_lock));
	sk6 = rcu_dereference_protected(udp->sk6, lockdep_is_held(&uet_udp_lock));
	RCU_INIT_POINTER(udp->sk4, NULL);
	RCU_INIT_POINTER(udp->sk6, NULL);
	/* udp_tunnel_sock_release() waits for a grace period before it
	 * closes: a uet_udp_xmit() that still saw the socket is done by then.
	 */
	if (sk4)
		udp_tunnel_sock_release(sk4->sk);
	if (sk6)
		udp_tunnel_sock_release(sk6->sk);
}

/* Caller holds uet_udp_lock and a reference on net. */
static struct uet_udp *uet_udp_create(struct net *net)
{
	struct socket *sock;
	struct uet_udp *udp;

	udp = kzalloc(sizeof(*udp), GFP_KERNEL);
	if (!udp)
		return ERR_PTR(-ENOMEM);

	sock = uet_udp_sock_create(net, AF_INET);
	if (IS_ERR(sock))
		goto err;
	rcu_assign_pointer(udp->sk4, sock);

	/* With IPv6 disabled (ipv6.disable=1) devices carry IPv4 only. */
	if (ipv6_mod_enabled()) {
		sock = uet_udp_sock_create(net, AF_INET6);
		if (IS_ERR(sock))
			goto err;
		rcu_assign_pointer(udp->sk6, sock);
	}
	udp->net = net;
	return udp;

err:
	uet_udp_release(udp);
	kfree(udp);
	return ERR_CAST(sock);
}

int uet_udp_get(struct uet_dev *udev)
{
	struct uet_udp_net *un;
	struct uet_udp *udp;
	struct net *net;
	int err = 0;

	/* RTNL keeps dev_net() still; our reference keeps the netns alive. */
	rtnl_lock();
	net = maybe_get_net(dev_net(udev->ndev));
	rtnl_unlock();
	if (!net)
		return -ENODEV;

	mutex_lock(&uet_udp_lock);
	un = net_generic(net, uet_udp_net_id);
	udp = un->udp;
	if (!udp) {
		udp = uet_udp_create(net);
		if (IS_ERR(udp)) {
			err = PTR_ERR(udp);
			goto out;
		}
		un->udp = udp;
	}
	udp->users++;
	udev->udp = udp;
out:
	mutex_unlock(&uet_udp_lock);
	put_net(net);
	return err;
}

void uet_udp_put(struct uet_dev *udev)
{
	struct uet_udp *udp = udev->udp;
	struct uet_udp_net *un;

	if (!udp)
		return;
	udev->udp = NULL;

	mutex_lock(&uet_udp_lock);
	if (!--udp->users) {
		if (udp->net) {
			un = net_generic(udp->net, uet_udp_net_id);
			un->udp = NULL;
		}
		uet_udp_release(udp);
		kfree(udp);
	}
	mutex_unlock(&uet_udp_lock);
}

/* A QP's route is cached (as vxlan and geneve cache theirs) only where
 * it cannot depend on the UDP source port, the packet's entropy value:
 * no policy rules, and a route of one path. A route change makes the
 * cached entry stale (dst_check()), and the next lookup decides again.
 */
static bool uet_udp_cacheable4(struct net *net, const struct flowi4 *fl4)
{
	struct flowi4 fl = *fl4;
	struct fib_result res;
	bool one;

	if (fib4_has_custom_rules(net))
		return false;
	rcu_read_lock();
	one = !fib_lookup(net, &fl, &res, 0) && res.fi &&
	      fib_info_num_path(res.fi) == 1;
	rcu_read_unlock();
	return one;
}

/* Every packet carries a UDP checksum, left to the netdev (veth, lo and
 * NICs with offload compute it for free, or never, as veth): it covers
 * the payload, which UE's checksum zero leaves unprotected. The tunnel
 * helpers make a packet's checksum partial themselves (udp_set_csum());
 * for a train (train.h) they only write the pseudo-header sum, and
 * segmentation wants it partial at the UDP header about to be pushed.
 */
static void uet_udp_gso_csum(struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return;
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb->csum_start = skb_headroom(skb) - sizeof(struct udphdr);
	skb->csum_offset = offsetof(struct udphdr, check);
}

/* uet_udp_xmit4/6() found the destination is this host's own. */
#define UET_UDP_LOCAL	1

/* The UDP header of a datagram to uet's port, in front of skb's data. */
static void uet_udp_push_hdr(struct sk_buff *skb, __be16 sport)
{
	struct udphdr *uh;

	__skb_push(skb, sizeof(*uh));
	skb_reset_transport_header(skb);
	uh = udp_hdr(skb);
	uh->source = sport;
	uh->dest = htons(uet_udp_port);
	uh->len = htons(skb->len);
}

/* A datagram to a group goes to IP output as a UDP socket's send does,
 * with the headers udp_tunnel_xmit_skb() builds, not through the tunnel
 * helpers: newer ones (Debian 13's 6.12, 7.x) raise the transmit
 * recursion level around IP output, at which sk_mc_loop() denies this
 * host the copy IP_MULTICAST_LOOP gives it, and its members got nothing.
 */
static void uet_udp_mcast_xmit4(struct rtable *rt, struct sock *sk,
				struct sk_buff *skb, __be32 saddr,
				__be32 daddr, u8 tos, u8 ttl, __be16 sport)
{
	struct net *net = sock_net(sk);
	struct iphdr *iph;

	uet_udp_push_hdr(skb, sport);
	udp_set_csum(false, skb, saddr, daddr, skb->len);

	skb_scrub_packet(skb, false);
	skb_dst_set(skb, &rt->dst);
	memset(IPCB(skb), 0, sizeof(*IPCB(skb)));
	__skb_push(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph = ip_hdr(skb);
	iph->version = 4;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = tos;
	iph->frag_off = ip_mtu_locked(&rt->dst) ? 0 : htons(IP_DF);
	iph->ttl = ttl;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = saddr;
	iph->daddr = daddr;
	__ip_select_ident(net, iph, 1);
	/* ip_local_out() sets the total length and the checksum. */
	ip_local_out(net, sk, skb);
}

/* Under rcu_read_lock. Consumes skb only when it returns 0. */
static int uet_udp_xmit4(struct uet_udp *udp, struct net_device *ndev,
			 struct sk_buff *skb, const struct uet_addrs *addrs,
			 u16 sport, u8 tos, struct dst_cache *cache,
			 bool direct)
{
	struct socket *sock = rcu_dereference(udp->sk4);
	struct flowi4 fl4 = {
		.flowi4_oif = ndev->ifindex,
		UET_FLOWI4_DSFIELD(tos),
		.flowi4_proto = IPPROTO_UDP,
		.daddr = addrs->daddr.v4,
		.saddr = addrs->saddr.v4,
		.fl4_sport = htons(sport),
		.fl4_dport = htons(uet_udp_port),
	};
	struct rtable *rt = NULL;
	u8 ttl;

	if (!sock)
		return -ENETUNREACH;
	if (cache)
		rt = dst_cache_get_ip4(cache, &fl4.saddr);
	if (!rt) {
		/* The route may leave through another netdev than ndev
		 * (multi-homed hosts, or lo for our own addresses): that is
		 * fine, send anyway.
		 */
		rt = ip_route_output_key(sock_net(sock->sk), &fl4);
		if (IS_ERR(rt))
			return -EHOSTUNREACH;
		/* A subnet's broadcast address reaches every host of the
		 * link: no user may, as a UDP socket without SO_BROADCAST.
		 */
		if (rt->rt_flags & RTCF_BROADCAST) {
			ip_rt_put(rt);
			return -EACCES;
		}
		if (cache && uet_udp_cacheable4(sock_net(sock->sk), &fl4))
			dst_cache_set_ip4(cache, &rt->dst, fl4.saddr);
	}
	if (direct && !skb_is_gso(skb) && (rt->rt_flags & RTCF_LOCAL)) {
		ip_rt_put(rt);
		return UET_UDP_LOCAL;
	}
	/* Also unshares the header of a clone kept for retransmission. */
	if (skb_cow_head(skb, LL_RESERVED_SPACE(rt->dst.dev) +
			 sizeof(struct iphdr) + sizeof(struct udphdr))) {
		ip_rt_put(rt);
		return -ENOMEM;
	}
	ttl = addrs->hop_limit ?: ip4_dst_hoplimit(&rt->dst);
	if (ipv4_is_multicast(fl4.daddr)) {
		uet_udp_mcast_xmit4(rt, sock->sk, skb, fl4.saddr, fl4.daddr,
				    tos, ttl, htons(sport));
		return 0;
	}
	uet_udp_gso_csum(skb);
	udp_tunnel_xmit_skb(rt, sock->sk, skb, fl4.saddr, fl4.daddr, tos, ttl,
			    htons(IP_DF), htons(sport), htons(uet_udp_port),
			    false, false, 0);
	return 0;
}

#if IS_ENABLED(CONFIG_IPV6)
/* As uet_udp_cacheable4(); under rcu_read_lock. */
static bool uet_udp_cacheable6(struct net *net, struct dst_entry *dst)
{
	struct fib6_info *from = rcu_dereference(((struct rt6_info *)dst)->from);

	if (fib6_has_custom_rules(net) || !from)
		return false;
	if (from->nh)
		return !nexthop_is_multipath(from->nh);
	return !from->fib6_nsiblings;
}

/* As uet_udp_mcast_xmit4(), with udp_tunnel6_xmit_skb()'s headers. */
static void uet_udp_mcast_xmit6(struct dst_entry *dst, struct sock *sk,
				struct sk_buff *skb,
				const struct in6_addr *saddr,
				const struct in6_addr *daddr, u8 tos,
				u8 hop_limit, __be16 sport)
{
	struct ipv6hdr *ip6h;

	uet_udp_push_hdr(skb, sport);
	skb_dst_set(skb, dst);
	udp6_set_csum(false, skb, saddr, daddr, skb->len);

	memset(IP6CB(skb), 0, sizeof(*IP6CB(skb)));
	__skb_push(skb, sizeof(*ip6h));
	skb_reset_network_header(skb);
	ip6h = ipv6_hdr(skb);
	ip6_flow_hdr(ip6h, tos, 0);
	ip6h->nexthdr = IPPROTO_UDP;
	ip6h->hop_limit = hop_limit;
	ip6h->saddr = *saddr;
	ip6h->daddr = *daddr;
	/* ip6_local_out() sets the payload length. */
	ip6_local_out(sock_net(sk), sk, skb);
}

/* Under rcu_read_lock. Consumes skb only when it returns 0. */
static int uet_udp_xmit6(struct uet_udp *udp, struct net_device *ndev,
			 struct sk_buff *skb, const struct uet_addrs *addrs,
			 u16 sport, u8 tos, struct dst_cache *cache,
			 bool direct)
{
	struct socket *sock = rcu_dereference(udp->sk6);
	struct flowi6 fl6 = {
		.flowi6_oif = ndev->ifindex,
		.flowi6_proto = IPPROTO_UDP,
		.flowlabel = ip6_make_flowinfo(tos, 0),
		.daddr = addrs->daddr.v6,
		.saddr = addrs->saddr.v6,
		.fl6_sport = htons(sport),
		.fl6_dport = htons(uet_udp_port),
	};
	struct dst_entry *dst = NULL;
	u8 hop_limit;

	if (!sock)
		return -ENETUNREACH;
	if (cache)
		dst = dst_cache_get_ip6(cache, &fl6.saddr);
	if (!dst) {
		dst = ip6_dst_lookup_flow(sock_net(sock->sk), sock->sk, &fl6,
					  NULL);
		if (IS_ERR(dst))
			return -EHOSTUNREACH;
		if (cache && uet_udp_cacheable6(sock_net(sock->sk), dst))
			dst_cache_set_ip6(cache, dst, &fl6.saddr);
	}
	if (direct && !skb_is_gso(skb) &&
	    (((struct rt6_info *)dst)->rt6i_flags & RTF_LOCAL)) {
		dst_release(dst);
		return UET_UDP_LOCAL;
	}
	if (skb_cow_head(skb, LL_RESERVED_SPACE(dst->dev) +
			 sizeof(struct ipv6hdr) + sizeof(struct udphdr))) {
		dst_release(dst);
		return -ENOMEM;
	}
	hop_limit = addrs->hop_limit ?: ip6_dst_hoplimit(dst);
	/* iptunnel_xmit() does this for IPv4. It drops any stale dst, which
	 * skb_dst_set() would leak, and clears ignore_df: IPv6 then refuses
	 * to fragment an oversized packet, as DF does for IPv4.
	 */
	skb_scrub_packet(skb, false);
	if (ipv6_addr_is_multicast(&fl6.daddr)) {
		uet_udp_mcast_xmit6(dst, sock->sk, skb, &fl6.saddr, &fl6.daddr,
				    tos, hop_limit, htons(sport));
		return 0;
	}
	uet_udp_gso_csum(skb);
	udp_tunnel6_xmit_skb(dst, sock->sk, skb, NULL, &fl6.saddr, &fl6.daddr,
			     tos, hop_limit, 0, htons(sport),
			     htons(uet_udp_port), false, 0);
	return 0;
}
#else
static int uet_udp_xmit6(struct uet_udp *udp, struct net_device *ndev,
			 struct sk_buff *skb, const struct uet_addrs *addrs,
			 u16 sport, u8 tos, struct dst_cache *cache,
			 bool direct)
{
	return -EAFNOSUPPORT;
}
#endif

/* A packet for one of this host's own addresses goes straight to the
 * device that owns it, as rxe_loopback() does: through IP and lo it
 * would only come back here, after a softirq round and the whole IP and
 * UDP receive path. It arrives as from the wire: the receive hook's
 * view of the packet (uet_skb_cb) and its time of arrival. The
 * receiving QP's work item runs its pass, not the sender: the two ends
 * then share the CPUs as two hosts' would. (Emulated, 64 KiB WRITEs
 * with the receiver's pass inline: both ends on one CPU, 0.89 of
 * rdma_rxe's loopback rate.) A light packet's pass runs here (recv.c).
 */
static void uet_udp_loopback(struct uet_dev *udev, struct sk_buff *skb,
			     const struct uet_addrs *addrs, u16 sport, u8 tos)
{
	struct uet_skb_cb *cb = UET_SKB_CB(skb);
	struct uet_dev *dst;

	memset(cb, 0, sizeof(*cb));
	cb->family = addrs->family;
	if (addrs->family == AF_INET) {
		cb->saddr.v4 = addrs->saddr.v4;
		cb->daddr.v4 = addrs->daddr.v4;
	} else {
		cb->saddr.v6 = addrs->saddr.v6;
		cb->daddr.v6 = addrs->daddr.v6;
	}
	cb->dscp = tos >> 2;
	cb->ecn = tos & INET_ECN_MASK;
	cb->sport = sport;
	dst = uet_udp_dev_by_addr(dev_net(udev->ndev), cb->family, &cb->daddr);
	if (!dst) {
		kfree_skb(skb);
		return;
	}
	skb->pkt_type = PACKET_HOST;
	skb->tstamp = ns_to_ktime(ktime_get_ns());
	uet_rcv(dst, skb, false);
	uet_dev_put(dst);
}

int uet_udp_xmit(struct uet_dev *udev, struct sk_buff *skb,
		 const struct uet_addrs *addrs, u16 sport, u8 tos,
		 struct dst_cache *cache, bool direct)
{
	int err;

	/* The tunnel xmit helpers count into skb->dev as a tunnel netdev
	 * (dev->tstats), which a plain Ethernet netdev does not have.
	 */
	skb->dev = NULL;

	/* BHs off: the route cache is per CPU (dst_cache.h). */
	local_bh_disable();
	rcu_read_lock();
	switch (addrs->family) {
	case AF_INET:
		err = uet_udp_xmit4(udev->udp, udev->ndev, skb, addrs, sport,
				    tos, cache, direct);
		break;
	case AF_INET6:
		err = uet_udp_xmit6(udev->udp, udev->ndev, skb, addrs, sport,
				    tos, cache, direct);
		break;
	default:
		err = -EAFNOSUPPORT;
		break;
	}
	rcu_read_unlock();
	local_bh_enable();

	if (err == UET_UDP_LOCAL) {
		uet_udp_loopback(udev, skb, addrs, sport, tos);
		return 0;
	}
	if (err)
		kfree_skb(skb);
	return err;
}

/* RC and UC QPs talk to one peer; a UD datagram goes to one QP or to a
 * multicast group (mcast.c). A zero destination would route back to us,
 * a broadcast one to every host of the link.
 */
static bool uet_udp_dest_ok(const struct in6_addr *addr, bool v4,
			    enum uet_dest dest)
{
	__be32 a4 = addr->s6_addr32[3];
	bool mcast;

	if (v4) {
		if (ipv4_is_zeronet(a4) || ipv4_is_lbcast(a4))
			return false;
		mcast = ipv4_is_multicast(a4);
	} else {
		if (ipv6_addr_any(addr))
			return false;
		mcast = ipv6_addr_is_multicast(addr);
	}
	return dest == UET_DEST_ANY || mcast == (dest == UET_DEST_MCAST);
}

/* An address pair from two GIDs (IPv4-mapped when v4), checked already. */
static void uet_addrs_set(struct uet_addrs *addrs, bool v4,
			  const struct in6_addr *saddr,
			  const struct in6_addr *daddr, u8 hop_limit)
{
	memset(addrs, 0, sizeof(*addrs));
	if (v4) {
		addrs->family = AF_INET;
		addrs->saddr.v4 = saddr->s6_addr32[3];
		addrs->daddr.v4 = daddr->s6_addr32[3];
	} else {
		addrs->family = AF_INET6;
		addrs->saddr.v6 = *saddr;
		addrs->daddr.v6 = *daddr;
	}
	addrs->hop_limit = hop_limit;
}

int uet_addrs_from_ah(struct uet_dev *udev, const struct rdma_ah_attr *attr,
		      enum uet_dest dest, struct uet_addrs *addrs)
{
	const struct ib_global_route *grh;
	const struct ib_gid_attr *sgid_attr;
	struct in6_addr saddr, daddr;
	bool v4;

	if (!(rdma_ah_get_ah_flags(attr) & IB_AH_GRH))
		return -EINVAL;
	grh = rdma_ah_read_grh(attr);
	sgid_attr = grh->sgid_attr;
	if (!sgid_attr || sgid_attr->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EINVAL;

	memcpy(&saddr, sgid_attr->gid.raw, sizeof(saddr));
	memcpy(&daddr, grh->dgid.raw, sizeof(daddr));
	v4 = ipv6_addr_v4mapped(&daddr);
	if (ipv6_addr_v4mapped(&saddr) != v4) {
		ibdev_dbg(&udev->ibdev, "GIDs %pI6 and %pI6 of different families\n",
			  &saddr, &daddr);
		return -EINVAL;
	}

	if (!uet_udp_dest_ok(&daddr, v4, dest))
		return -EINVAL;

	uet_addrs_set(addrs, v4, &saddr, &daddr, grh->hop_limit);
	return 0;
}

int uet_addrs_from_av(struct uet_dev *udev, const struct rxe_av *av,
		      enum uet_dest dest, struct uet_addrs *addrs)
{
	bool v4 = av->network_type == RXE_NETWORK_TYPE_IPV4;
	const struct ib_gid_attr *sgid_attr;
	struct in6_addr saddr, daddr;

	if (av->port_num != UET_PORT)
		return -EINVAL;
	/* librxe's rdma_gid2ip() leaves an IPv4 address's sin_family 0:
	 * network_type alone says which member holds the address.
	 */
	switch (av->network_type) {
	case RXE_NETWORK_TYPE_IPV4:
		ipv6_addr_set_v4mapped(av->sgid_addr._sockaddr_in.sin_addr.s_addr,
				       &saddr);
		ipv6_addr_set_v4mapped(av->dgid_addr._sockaddr_in.sin_addr.s_addr,
				       &daddr);
		break;
	case RXE_NETWORK_TYPE_IPV6:
		saddr = av->sgid_addr._sockaddr_in6.sin6_addr;
		daddr = av->dgid_addr._sockaddr_in6.sin6_addr;
		/* librxe gives IPv4 GIDs the IPv4 type. */
		if (ipv6_addr_v4mapped(&saddr) || ipv6_addr_v4mapped(&daddr))
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (!uet_udp_dest_ok(&daddr, v4, dest))
		return -EINVAL;
	/* The source must be one of ours, as a kernel AH's sgid_attr is:
	 * a user may not send as another host.
	 */
	sgid_attr = rdma_find_gid_by_port(&udev->ibdev, (union ib_gid *)&saddr,
					  IB_GID_TYPE_ROCE_UDP_ENCAP, UET_PORT,
					  NULL);
	if (IS_ERR(sgid_attr))
		return -EINVAL;
	rdma_put_gid_attr(sgid_attr);

	uet_addrs_set(addrs, v4, &saddr, &daddr, av->grh.hop_limit);
	return 0;
}

/* A dying netns: devices whose unregistration is still queued keep
 * their uet_udp, without sockets (uet_udp_xmit() fails), and the last
 * of them frees it.
 */
static void __net_exit uet_udp_net_exit(struct net *net)
{
	struct uet_udp_net *un = net_generic(net, uet_udp_net_id);
	struct uet_udp *udp;

	mutex_lock(&uet_udp_lock);
	udp = un->udp;
	if (udp) {
		un->udp = NULL;
		udp->net = NULL;
		uet_udp_release(udp);
	}
	mutex_unlock(&uet_udp_lock);
}

static struct pernet_operations uet_udp_net_ops = {
	.exit = uet_udp_net_exit,
	.id = &uet_udp_net_id,
	.size = sizeof(struct uet_udp_net),
};

int uet_udp_init(void)
{
	BUILD_BUG_ON(sizeof(struct uet_skb_cb) > sizeof_field(struct sk_buff, cb));

	if (!uet_udp_port) {
		pr_err("udp_port must not be 0\n");
		return -EINVAL;
	}
	return register_pernet_subsys(&uet_udp_net_ops);
}

void uet_udp_exit(void)
{
	unregister_pernet_subsys(&uet_udp_net_ops);
}
