/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel API uet is written against is the newest one it builds on;
 * on a kernel that lacks a piece, this header supplies it from what that
 * kernel has. Which pieces a kernel has is probed, never read from its
 * version (distributions backport): compat/probe.sh compiles each of
 * compat/probes/ against the target kernel and writes compat_config.h,
 * HAVE_<PROBE> for each that compiled. Documentation/uet/dev-guide/
 * kernels.rst lists the probes and the kernels that have each.
 */
#ifndef _UET_COMPAT_H
#define _UET_COMPAT_H

#include "compat_config.h"

#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/workqueue.h>
#include <net/flow.h>
#include <net/genetlink.h>
#include <net/udp_tunnel.h>

#ifdef HAVE_LINUX_UNALIGNED_H
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#ifdef HAVE_NET_GSO_H
#include <net/gso.h>
#endif

#ifdef HAVE_LINUX_SKBUFF_REF_H
#include <linux/skbuff_ref.h>
#endif

#ifndef HAVE_VM_FLAGS_SET
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/* Before struct genl_info carried a dump's attributes, genl_dumpit_info()
 * held them under the same member name, attrs.
 */
#ifndef HAVE_GENL_INFO_DUMP
#define genl_info_dump(cb) genl_dumpit_info(cb)
#endif

#ifndef HAVE_HRTIMER_SETUP
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

#ifndef HAVE_NETIF_GET_FLAGS
static inline unsigned int netif_get_flags(const struct net_device *dev)
{
	return dev_get_flags(dev);
}
#endif

#ifndef HAVE_PAGE_FRAG_CACHE_DRAIN
static inline void page_frag_cache_drain(struct page_frag_cache *nc)
{
	if (!nc->va)
		return;
	__page_frag_cache_drain(virt_to_head_page(nc->va), nc->pagecnt_bias);
	nc->va = NULL;
}
#endif

/* The older forms, called as the newer ones are (a function-like macro
 * is not expanded again inside its own expansion).
 */
#ifndef HAVE_UDP_TUNNEL_SOCK_RELEASE_SK
#define udp_tunnel_sock_release(sk) udp_tunnel_sock_release((sk)->sk_socket)
#endif

#ifndef HAVE_UDP_TUNNEL_XMIT_IPCB
#define udp_tunnel_xmit_skb(rt, sk, skb, src, dst, tos, ttl, df, sport,	\
			    dport, xnet, nocheck, ipcb_flags)		\
	udp_tunnel_xmit_skb(rt, sk, skb, src, dst, tos, ttl, df, sport,	\
			    dport, xnet, nocheck)
#define udp_tunnel6_xmit_skb(dst, sk, skb, dev, saddr, daddr, prio, ttl, \
			     label, sport, dport, nocheck, ip6cb_flags)	\
	udp_tunnel6_xmit_skb(dst, sk, skb, dev, saddr, daddr, prio, ttl, \
			     label, sport, dport, nocheck)
#endif

/* Before WQ_PERCPU, a workqueue without WQ_UNBOUND was bound to CPUs. */
#ifndef HAVE_WQ_PERCPU
#define WQ_PERCPU 0
#endif

/* A flow's DS field, in a struct flowi4 initialiser. */
#ifdef HAVE_FLOWI4_DSCP
#include <net/inet_dscp.h>
#define UET_FLOWI4_DSFIELD(tos) .flowi4_dscp = inet_dsfield_to_dscp(tos)
#else
#define UET_FLOWI4_DSFIELD(tos) .flowi4_tos = RT_TOS(tos)
#endif

#endif /* _UET_COMPAT_H */
