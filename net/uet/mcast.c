// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast groups of UD QPs (IBA 10.5, ibv_attach_mcast()). On RoCE v2 a
 * multicast GID is an IP multicast address (IPv4-mapped for IPv4, as
 * rdma_cm's cma_iboe_set_mgid() makes it), and a datagram to a group is
 * an IP multicast datagram (UUD with UET_UUD_F_MCAST): every host whose
 * netdev joined the address gets it, and there every QP attached to the
 * group gets a copy. Attaching the first QP of a device joins the address
 * on the device's netdev (IGMP or MLD reports, the MAC filter), as a
 * socket joining the group would; detaching the last leaves it. The
 * group table is bounded (UET_MAX_MCAST_*): a user cannot grow it at will.
 */
#include <linux/igmp.h>
#include <linux/inetdevice.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <net/ipv6.h>

#include "mcast.h"
#include "qp.h"
#include "ud.h"
#include "udp.h"

struct uet_mcg {
	struct hlist_node node;		/* in udev->mcgs */
	struct in6_addr addr;		/* the MGID */
	/* struct uet_mca; writers under udev->mcg_lock, readers RCU. */
	struct list_head qps;
	unsigned int nr_qps;		/* under udev->mcg_lock */
	struct rcu_head rcu;
};

/* One QP attached to one group. The QP cannot be destroyed while it is
 * attached (ib_core counts attachments in qp->usecnt).
 */
struct uet_mca {
	struct list_head node;		/* in uet_mcg.qps */
	struct uet_qp *qp;
	struct rcu_head rcu;
};

static u32 uet_mcg_hash(const struct in6_addr *addr)
{
	return __ipv6_addr_jhash(addr, 0);
}

/* Under udev->mcg_lock or RCU. */
static struct uet_mcg *uet_mcg_find(struct uet_dev *udev,
				    const struct in6_addr *addr)
{
	struct uet_mcg *mcg;

	hash_for_each_possible_rcu(udev->mcgs, mcg, node, uet_mcg_hash(addr))
		if (ipv6_addr_equal(&mcg->addr, addr))
			return mcg;
	return NULL;
}

static bool uet_mcast_addr(const struct in6_addr *addr)
{
	if (ipv6_addr_v4mapped(addr))
		return ipv4_is_multicast(addr->s6_addr32[3]);
	return ipv6_addr_is_multicast(addr);
}

/* Join or leave the group's address on the device's netdev. These count
 * joins, so rdma_cm's own IGMP join (cma_igmp_send()) of the same
 * address and ours do not undo each other. A netdev already gone has
 * left every group with its inet device: leaving is then nothing to do.
 */
static int uet_mcg_member(struct uet_dev *udev, const struct in6_addr *addr,
			  bool join)
{
	struct net_device *ndev = udev->ndev;
	struct in_device *in_dev;
	int err = 0;

	rtnl_lock();
	if (ipv6_addr_v4mapped(addr)) {
		in_dev = __in_dev_get_rtnl(ndev);
		if (!in_dev)
			err = join ? -ENODEV : 0;
		else if (join)
			ip_mc_inc_group(in_dev, addr->s6_addr32[3]);
		else
			ip_mc_dec_group(in_dev, addr->s6_addr32[3]);
	} else if (IS_ENABLED(CONFIG_IPV6)) {
		if (join)
			err = ipv6_dev_mc_inc(ndev, addr);
		else
			ipv6_dev_mc_dec(ndev, addr);
	} else {
		err = -EAFNOSUPPORT;
	}
	rtnl_unlock();
	return err;
}

int uet_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	const struct in6_addr *addr = (const struct in6_addr *)gid->raw;
	struct uet_qp *qp = to_uqp(ibqp);
	struct uet_dev *udev = qp->udev;
	struct uet_mcg *mcg;
	struct uet_mca *mca;
	int err = 0;

	if (ibqp->qp_type != IB_QPT_UD || !uet_mcast_addr(addr))
		return -EINVAL;

	mutex_lock(&udev->mcg_lock);
	mcg = uet_mcg_find(udev, addr);
	if (mcg) {
		/* Attached already: nothing to do, as for rdma_rxe. */
		list_for_each_entry(mca, &mcg->qps, node)
			if (mca->qp == qp)
				goto out;
		if (mcg->nr_qps >= UET_MAX_MCAST_QP_ATTACH) {
			err = -ENOMEM;
			goto out;
		}
	} else if (udev->mcg_count >= UET_MAX_MCAST_GRP) {
		err = -ENOMEM;
		goto out;
	}
	if (udev->mca_count >= UET_MAX_TOT_MCAST_QP_ATTACH) {
		err = -ENOMEM;
		goto out;
	}
	mca = kzalloc(sizeof(*mca), GFP_KERNEL_ACCOUNT);
	if (!mca) {
		err = -ENOMEM;
		goto out;
	}
	if (!mcg) {
		mcg = kzalloc(sizeof(*mcg), GFP_KERNEL_ACCOUNT);
		if (!mcg) {
			kfree(mca);
			err = -ENOMEM;
			goto out;
		}
		err = uet_mcg_member(udev, addr, true);
		if (err) {
			kfree(mcg);
			kfree(mca);
			goto out;
		}
		mcg->addr = *addr;
		INIT_LIST_HEAD(&mcg->qps);
		hash_add_rcu(udev->mcgs, &mcg->node, uet_mcg_hash(addr));
		udev->mcg_count++;
	}
	mca->qp = qp;
	list_add_tail_rcu(&mca->node, &mcg->qps);
	mcg->nr_qps++;
	udev->mca_count++;
out:
	mutex_unlock(&udev->mcg_lock);
	return err;
}

int uet_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	const struct in6_addr *addr = (const struct in6_addr *)gid->raw;
	struct uet_qp *qp = to_uqp(ibqp);
	struct uet_dev *udev = qp->udev;
	struct uet_mcg *mcg;
	struct uet_mca *mca;
	int err = -EINVAL;

	mutex_lock(&udev->mcg_lock);
	mcg = uet_mcg_find(udev, addr);
	if (!mcg)
		goto out;
	list_for_each_entry(mca, &mcg->qps, node) {
		if (mca->qp != qp)
			continue;
		list_del_rcu(&mca->node);
		kfree_rcu(mca, rcu);
		udev->mca_count--;
		err = 0;
		if (--mcg->nr_qps)
			break;
		hash_del_rcu(&mcg->node);
		udev->mcg_count--;
		uet_mcg_member(udev, addr, false);
		kfree_rcu(mcg, rcu);
		break;
	}
out:
	mutex_unlock(&udev->mcg_lock);
	return err;
}

void uet_mcast_rcv(struct uet_dev *udev, struct sk_buff *skb, u32 qkey)
{
	const struct uet_skb_cb *cb = UET_SKB_CB(skb);
	struct uet_qp *prev = NULL;
	struct in6_addr addr;
	struct uet_mcg *mcg;
	struct uet_mca *mca;
	struct sk_buff *copy;

	if (cb->family == AF_INET)
		ipv6_addr_set_v4mapped(cb->daddr.v4, &addr);
	else
		addr = cb->daddr.v6;

	rcu_read_lock();
	mcg = uet_mcg_find(udev, &addr);
	if (mcg) {
		/* Each member but the last gets a clone (it shares the
		 * payload and copies cb), the last the datagram itself.
		 */
		list_for_each_entry_rcu(mca, &mcg->qps, node) {
			if (prev) {
				copy = skb_clone(skb, GFP_ATOMIC);
				if (copy)
					uet_ud_deliver(udev, prev, copy, qkey);
				else
					uet_inc(udev, UET_CNT_DROP_BACKLOG);
			}
			prev = mca->qp;
		}
	}
	if (prev)
		uet_ud_deliver(udev, prev, skb, qkey);
	rcu_read_unlock();
	if (!prev) {
		uet_inc(udev, UET_CNT_DROP_NO_QP);
		kfree_skb(skb);
	}
}

void uet_mcast_init(struct uet_dev *udev)
{
	mutex_init(&udev->mcg_lock);
	hash_init(udev->mcgs);
}

void uet_mcast_release(struct uet_dev *udev)
{
	/* Every QP is gone, and with it every attachment. */
	WARN_ON(!hash_empty(udev->mcgs));
	mutex_destroy(&udev->mcg_lock);
}
