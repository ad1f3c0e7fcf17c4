// SPDX-License-Identifier: GPL-2.0
/*
 * "uet path": the entropy values of each peer, their states and counters
 * (dump), and the operator's deny/allow.
 */
#include <linux/uet.h>

#include "netlink.h"
#include "peer.h"
#include "uet_compat.h"

const struct nla_policy uet_nl_path_get_policy[UET_NL_PATH_GET_MAXATTR + 1] = {
	[UET_A_PATH_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_PATH_DEV_NAME] = { .type = NLA_NUL_STRING,
				  .len = IB_DEVICE_NAME_MAX - 1 },
};

const struct nla_policy uet_nl_path_set_policy[UET_NL_PATH_SET_MAXATTR + 1] = {
	[UET_A_PATH_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_PATH_DEV_NAME] = { .type = NLA_NUL_STRING,
				  .len = IB_DEVICE_NAME_MAX - 1 },
	[UET_A_PATH_PEER] = NLA_POLICY_EXACT_LEN(sizeof(struct in6_addr)),
	[UET_A_PATH_ENTROPY] = { .type = NLA_U16 },
	[UET_A_PATH_DENY] = NLA_POLICY_MAX(NLA_U8, 1),
};

static void uet_nl_peer_gid(const struct uet_peer *peer, struct in6_addr *gid)
{
	if (peer->addrs.family == AF_INET)
		ipv6_addr_set_v4mapped(peer->addrs.daddr.v4, gid);
	else
		*gid = peer->addrs.daddr.v6;
}

static int uet_nl_fill_path(struct sk_buff *skb, struct uet_dev *udev,
			    struct uet_peer *peer, u32 i, u32 portid, u32 seq)
{
	struct uet_ev_table *t = peer->evt;
	struct uet_ev *e = &t->ev[i];
	u32 ecn, nacks, losses, timeouts;
	unsigned long flags;
	struct in6_addr gid;
	void *hdr;
	u8 state;

	spin_lock_irqsave(&t->lock, flags);
	state = e->state;
	ecn = e->ecn;
	nacks = e->nacks;
	losses = e->losses;
	timeouts = e->timeouts;
	spin_unlock_irqrestore(&t->lock, flags);
	uet_nl_peer_gid(peer, &gid);

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, NLM_F_MULTI,
			  UET_CMD_PATH_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, UET_A_PATH_DEV_INDEX, udev->ibdev.index) ||
	    nla_put_string(skb, UET_A_PATH_DEV_NAME, dev_name(&udev->ibdev.dev)) ||
	    nla_put_in6_addr(skb, UET_A_PATH_PEER, &gid) ||
	    nla_put_u16(skb, UET_A_PATH_ENTROPY, t->base + i) ||
	    nla_put_u8(skb, UET_A_PATH_STATE, state) ||
	    nla_put_u64_64bit(skb, UET_A_PATH_PKTS, atomic_read(&e->pkts),
			      UET_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, UET_A_PATH_ECN, ecn, UET_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, UET_A_PATH_NACKS, nacks, UET_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, UET_A_PATH_LOSSES, losses, UET_A_PATH_PAD) ||
	    nla_put_u64_64bit(skb, UET_A_PATH_TIMEOUTS, timeouts,
			      UET_A_PATH_PAD)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* cb->args[1]: peers of udev done; cb->args[2]: values of the next one. */
static int uet_nl_path_dump_one(struct sk_buff *skb,
				struct netlink_callback *cb,
				struct uet_dev *udev)
{
	struct uet_peer *peer;
	long pidx = 0;
	int err = 0;
	u32 i;

	mutex_lock(&udev->peers_lock);
	list_for_each_entry(peer, &udev->peers, node) {
		if (pidx++ < cb->args[1])
			continue;
		for (i = cb->args[2]; i < peer->evt->count; i++) {
			err = uet_nl_fill_path(skb, udev, peer, i,
					       NETLINK_CB(cb->skb).portid,
					       cb->nlh->nlmsg_seq);
			if (err)
				goto out;
			cb->args[2] = i + 1;
		}
		cb->args[1] = pidx;
		cb->args[2] = 0;
	}
out:
	mutex_unlock(&udev->peers_lock);
	return err;
}

int uet_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_info_dump(cb)->attrs;

	return uet_nl_dump_devs(skb, cb, attrs[UET_A_PATH_DEV_INDEX],
				attrs[UET_A_PATH_DEV_NAME],
				uet_nl_path_dump_one);
}

int uet_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	struct in6_addr want, gid;
	struct uet_peer *peer;
	struct uet_dev *udev;
	bool deny, found = false;
	u16 ev;
	int err = 0;

	if (GENL_REQ_ATTR_CHECK(info, UET_A_PATH_ENTROPY) ||
	    GENL_REQ_ATTR_CHECK(info, UET_A_PATH_DENY))
		return -EINVAL;
	ev = nla_get_u16(a[UET_A_PATH_ENTROPY]);
	deny = nla_get_u8(a[UET_A_PATH_DENY]);
	if (a[UET_A_PATH_PEER])
		want = nla_get_in6_addr(a[UET_A_PATH_PEER]);

	mutex_lock(&uet_devs_lock);
	udev = uet_nl_find_dev(genl_info_net(info), a[UET_A_PATH_DEV_INDEX],
			       a[UET_A_PATH_DEV_NAME], extack);
	if (IS_ERR(udev)) {
		err = PTR_ERR(udev);
		goto out;
	}
	mutex_lock(&udev->peers_lock);
	list_for_each_entry(peer, &udev->peers, node) {
		uet_nl_peer_gid(peer, &gid);
		if (a[UET_A_PATH_PEER] && !ipv6_addr_equal(&gid, &want))
			continue;
		if (uet_ev_deny(peer->evt, ev, deny)) {
			NL_SET_ERR_MSG_ATTR(extack, a[UET_A_PATH_ENTROPY],
					    "entropy value outside the peer's set");
			err = -ERANGE;
			break;
		}
		found = true;
	}
	mutex_unlock(&udev->peers_lock);
	if (!err && !found) {
		NL_SET_ERR_MSG_ATTR(extack, a[UET_A_PATH_PEER],
				    "no such peer (no RC QP talks to it)");
		err = -ENOENT;
	}
out:
	mutex_unlock(&uet_devs_lock);
	return err;
}
