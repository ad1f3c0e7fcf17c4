// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "uet" (include/uapi/linux/uet.h): device
 * parameters and state, QP state, events. A device belongs to the network
 * namespace of its netdev and is visible and settable only from there.
 * Documentation/netlink/specs/uet.yaml describes the family for YNL.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/net_namespace.h>
#include <linux/uet.h>

#include "lb.h"
#include "netlink.h"
#include "qp.h"
#include "udp.h"
#include "uet.h"
#include "uet_compat.h"

enum uet_nl_mcgrp {
	UET_NL_MCGRP_EVENTS,
};

static const struct genl_multicast_group uet_nl_mcgrps[] = {
	[UET_NL_MCGRP_EVENTS] = { .name = UET_GENL_MCGRP_EVENTS },
};

#define UET_NL_NAME_MAX		(IB_DEVICE_NAME_MAX - 1)

static const struct nla_policy uet_nl_dev_get_policy[UET_A_DEV_NAME + 1] = {
	[UET_A_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NL_NAME_MAX },
};

static const struct nla_policy uet_nl_cc_param_policy[UET_A_CC_PARAM_MAX + 1] = {
	[UET_A_CC_PARAM_ALGO] = { .type = NLA_NUL_STRING,
				  .len = UET_ALGO_NAME_LEN - 1 },
	[UET_A_CC_PARAM_NAME] = { .type = NLA_NUL_STRING, .len = 63 },
	[UET_A_CC_PARAM_VALUE] = { .type = NLA_U32 },
};

static const struct nla_policy uet_nl_param_policy[UET_A_PARAM_VALUE + 1] = {
	[UET_A_PARAM_NAME] = { .type = NLA_NUL_STRING,
			       .len = UET_PARAM_NAME_LEN - 1 },
	[UET_A_PARAM_VALUE] = { .type = NLA_U32 },
};

/* The numeric parameters' entries come from uet_param_descs[], filled in
 * by uet_nl_init() before the family is registered.
 */
static struct nla_policy uet_nl_dev_set_policy[UET_A_DEV_MAX + 1] __ro_after_init = {
	[UET_A_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NL_NAME_MAX },
	[UET_A_DEV_CC] = { .type = NLA_NUL_STRING,
			   .len = UET_ALGO_NAME_LEN - 1 },
	[UET_A_DEV_LB] = { .type = NLA_NUL_STRING,
			   .len = UET_ALGO_NAME_LEN - 1 },
	[UET_A_DEV_CC_PARAM] = NLA_POLICY_NESTED(uet_nl_cc_param_policy),
	[UET_A_DEV_PARAM] = NLA_POLICY_NESTED(uet_nl_param_policy),
};

/* The ranges uet_nl_dev_set_policy points at, by uet_param_descs[] index. */
static struct netlink_range_validation uet_nl_param_ranges[UET_PARAMS_MAX] __ro_after_init;

static void __init uet_nl_param_policy_init(void)
{
	const struct uet_param_desc *d;
	struct nla_policy *pol;
	unsigned int i;

	for (i = 0; i < uet_param_count; i++) {
		d = &uet_param_descs[i];
		pol = &uet_nl_dev_set_policy[d->attr];
		pol->type = d->type == UET_PARAM_U8 ? NLA_U8 : NLA_U32;
		pol->validation_type = NLA_VALIDATE_RANGE_PTR;
		uet_nl_param_ranges[i].min = d->min;
		uet_nl_param_ranges[i].max = d->max;
		pol->range = &uet_nl_param_ranges[i];
	}
}

static const struct nla_policy uet_nl_qp_get_policy[UET_A_QP_QPN + 1] = {
	[UET_A_QP_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_QP_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NL_NAME_MAX },
	[UET_A_QP_QPN] = { .type = NLA_U32 },
};

static const struct nla_policy uet_nl_qp_set_policy[UET_A_QP_CC + 1] = {
	[UET_A_QP_DEV_INDEX] = { .type = NLA_U32 },
	[UET_A_QP_DEV_NAME] = { .type = NLA_NUL_STRING, .len = UET_NL_NAME_MAX },
	[UET_A_QP_QPN] = { .type = NLA_U32 },
	[UET_A_QP_LB] = { .type = NLA_NUL_STRING,
			  .len = UET_ALGO_NAME_LEN - 1 },
	[UET_A_QP_CC] = { .type = NLA_NUL_STRING,
			  .len = UET_ALGO_NAME_LEN - 1 },
};

static struct net *uet_dev_net(const struct uet_dev *udev)
{
	return dev_net(udev->ndev);
}

/* The device of net named by an index or a name attribute; caller holds
 * uet_devs_lock, which keeps it registered-or-unregistering but allocated.
 */
struct uet_dev *uet_nl_find_dev(struct net *net, struct nlattr *index,
				struct nlattr *name,
				struct netlink_ext_ack *extack)
{
	struct uet_dev *udev;

	lockdep_assert_held(&uet_devs_lock);
	if (!index && !name) {
		NL_SET_ERR_MSG(extack, "the device is missing (index or name)");
		return ERR_PTR(-EINVAL);
	}
	list_for_each_entry(udev, &uet_devs, list) {
		if (!net_eq(uet_dev_net(udev), net))
			continue;
		if (index && udev->ibdev.index != nla_get_u32(index))
			continue;
		if (name && nla_strcmp(name, dev_name(&udev->ibdev.dev)))
			continue;
		return udev;
	}
	NL_SET_ERR_MSG_ATTR(extack, index ?: name, "no such uet device");
	return ERR_PTR(-ENODEV);
}

static int uet_nl_put_dev_id(struct sk_buff *skb, const struct uet_dev *udev)
{
	if (nla_put_u32(skb, UET_A_DEV_INDEX, udev->ibdev.index) ||
	    nla_put_string(skb, UET_A_DEV_NAME, dev_name(&udev->ibdev.dev)) ||
	    nla_put_u32(skb, UET_A_DEV_NETDEV_IFINDEX, udev->ndev->ifindex) ||
	    nla_put_string(skb, UET_A_DEV_NETDEV_NAME, udev->ndev->name) ||
	    nla_put_u8(skb, UET_A_DEV_PORT_UP,
		       READ_ONCE(udev->port_state) == IB_PORT_ACTIVE))
		return -EMSGSIZE;
	return 0;
}

static int uet_nl_put_cc_params(struct sk_buff *skb,
				const struct uet_params *p)
{
	const struct uet_cc_ops *ops;
	struct nlattr *nest;
	int i;
	u32 j;

	for (i = 0; (ops = uet_cc_get(i)); i++) {
		for (j = 0; j < ops->nparams; j++) {
			nest = nla_nest_start(skb, UET_A_DEV_CC_PARAM);
			if (!nest ||
			    nla_put_string(skb, UET_A_CC_PARAM_ALGO, ops->name) ||
			    nla_put_string(skb, UET_A_CC_PARAM_NAME,
					   ops->params[j].name) ||
			    nla_put_u32(skb, UET_A_CC_PARAM_VALUE,
					p->cc_params[i][j]))
				return -EMSGSIZE;
			nla_nest_end(skb, nest);
		}
	}
	return 0;
}

/* A parameter's own attribute, and its description by name. */
static int uet_nl_put_param(struct sk_buff *skb, const struct uet_params *p,
			    const struct uet_param_desc *d)
{
	u32 val = uet_param_read(p, d);
	struct nlattr *nest;

	if (d->type == UET_PARAM_U8 ? nla_put_u8(skb, d->attr, val) :
				      nla_put_u32(skb, d->attr, val))
		return -EMSGSIZE;
	nest = nla_nest_start(skb, UET_A_DEV_PARAM);
	if (!nest ||
	    nla_put_string(skb, UET_A_PARAM_NAME, d->name) ||
	    nla_put_u32(skb, UET_A_PARAM_VALUE, val) ||
	    nla_put_u32(skb, UET_A_PARAM_RANGE_MIN, d->min) ||
	    nla_put_u32(skb, UET_A_PARAM_RANGE_MAX, d->max) ||
	    nla_put_u32(skb, UET_A_PARAM_DEFAULT, d->def) ||
	    (d->new_qps && nla_put_flag(skb, UET_A_PARAM_NEW_QPS)))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int uet_nl_put_params(struct sk_buff *skb, const struct uet_params *p)
{
	unsigned int i;

	for (i = 0; i < uet_param_count; i++)
		if (uet_nl_put_param(skb, p, &uet_param_descs[i]))
			return -EMSGSIZE;
	if (nla_put_string(skb, UET_A_DEV_CC, p->cc->name) ||
	    nla_put_string(skb, UET_A_DEV_LB, p->lb->name))
		return -EMSGSIZE;
	return uet_nl_put_cc_params(skb, p);
}

static int uet_nl_put_stats(struct sk_buff *skb, struct uet_dev *udev)
{
	u64 val[UET_CNT_MAX];
	struct nlattr *nest;
	int i;

	uet_counters_sum(udev, val);
	for (i = 0; i < UET_CNT_MAX; i++) {
		nest = nla_nest_start(skb, UET_A_DEV_STAT);
		if (!nest ||
		    nla_put_string(skb, UET_A_STAT_NAME, uet_counter_name(i)) ||
		    nla_put_u64_64bit(skb, UET_A_STAT_VALUE, val[i],
				      UET_A_STAT_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* The size of uet_nl_fill_dev()'s message: more than one page holds, with
 * every parameter described and the counters.
 */
static size_t uet_nl_dev_size(void)
{
	const struct uet_cc_ops *ops;
	size_t n;
	u32 i, j;

	n = nla_total_size(sizeof(u32)) +			/* INDEX */
	    nla_total_size(IB_DEVICE_NAME_MAX) +		/* NAME */
	    nla_total_size(sizeof(u32)) +			/* NETDEV_IFINDEX */
	    nla_total_size(IFNAMSIZ) +				/* NETDEV_NAME */
	    nla_total_size(sizeof(u8)) +			/* PORT_UP */
	    nla_total_size_64bit(sizeof(u64)) +		/* NETNS_COOKIE */
	    nla_total_size(sizeof(u16)) +			/* UDP_PORT */
	    2 * nla_total_size(UET_ALGO_NAME_LEN);		/* CC, LB */
	for (i = 0; i < uet_param_count; i++)
		n += nla_total_size(sizeof(u32)) +		/* its attribute */
		     nla_total_size(0) +			/* PARAM */
		     nla_total_size(strlen(uet_param_descs[i].name) + 1) +
		     4 * nla_total_size(sizeof(u32)) +
		     nla_total_size(0);				/* NEW_QPS */
	for (i = 0; (ops = uet_cc_get(i)); i++)
		for (j = 0; j < ops->nparams; j++)
			n += nla_total_size(0) +		/* CC_PARAM */
			     nla_total_size(strlen(ops->name) + 1) +
			     nla_total_size(strlen(ops->params[j].name) + 1) +
			     nla_total_size(sizeof(u32));
	for (i = 0; i < UET_CNT_MAX; i++)
		n += nla_total_size(0) +			/* STAT */
		     nla_total_size(strlen(uet_counter_name(i)) + 1) +
		     nla_total_size_64bit(sizeof(u64));
	return genlmsg_msg_size(n);
}

/* Caller holds uet_devs_lock: the parameters do not change under us. */
static int uet_nl_fill_dev(struct sk_buff *skb, struct uet_dev *udev,
			   u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags,
			  UET_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (uet_nl_put_dev_id(skb, udev) ||
	    nla_put_u64_64bit(skb, UET_A_DEV_NETNS_COOKIE,
			      uet_dev_net(udev)->net_cookie, UET_A_DEV_PAD) ||
	    nla_put_u16(skb, UET_A_DEV_UDP_PORT, uet_udp_port) ||
	    uet_nl_put_params(skb, &udev->params) ||
	    uet_nl_put_stats(skb, udev)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int uet_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct uet_dev *udev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(uet_nl_dev_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&uet_devs_lock);
	udev = uet_nl_find_dev(genl_info_net(info), info->attrs[UET_A_DEV_INDEX],
			       info->attrs[UET_A_DEV_NAME], info->extack);
	err = IS_ERR(udev) ? PTR_ERR(udev) :
	      uet_nl_fill_dev(msg, udev, info->snd_portid, info->snd_seq, 0);
	mutex_unlock(&uet_devs_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* A dump's skb must hold one device at least. */
static int uet_nl_dev_get_start(struct netlink_callback *cb)
{
	cb->min_dump_alloc = nlmsg_total_size(uet_nl_dev_size());
	return 0;
}

/* Dumps: fill() for each device of the caller's namespace, or for the
 * one the request names, from where the last part of the dump stopped:
 * cb->args[0] counts the devices done, cb->args[1] and on are fill()'s,
 * zeroed for each new device. Returns what a dumpit returns.
 */
int uet_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     struct nlattr *index, struct nlattr *name,
		     uet_nl_dump_fill_t fill)
{
	struct net *net = sock_net(skb->sk);
	struct uet_dev *udev, *only = NULL;
	long idx = 0;
	int err = 0;

	mutex_lock(&uet_devs_lock);
	if (index || name) {
		only = uet_nl_find_dev(net, index, name, cb->extack);
		if (IS_ERR(only)) {
			err = PTR_ERR(only);
			goto out;
		}
	}
	list_for_each_entry(udev, &uet_devs, list) {
		if (!net_eq(uet_dev_net(udev), net) || (only && udev != only))
			continue;
		if (idx++ < cb->args[0])
			continue;
		err = fill(skb, cb, udev);
		if (err)
			break;
		cb->args[0] = idx;
		memset(&cb->args[1], 0, sizeof(cb->args) - sizeof(cb->args[0]));
	}
out:
	mutex_unlock(&uet_devs_lock);
	if (err == -EMSGSIZE && skb->len)
		return skb->len;
	return err ?: skb->len;
}

static int uet_nl_dev_dump_one(struct sk_buff *skb,
			       struct netlink_callback *cb,
			       struct uet_dev *udev)
{
	return uet_nl_fill_dev(skb, udev, NETLINK_CB(cb->skb).portid,
			       cb->nlh->nlmsg_seq, NLM_F_MULTI);
}

static int uet_nl_dev_get_dumpit(struct sk_buff *skb,
				 struct netlink_callback *cb)
{
	return uet_nl_dump_devs(skb, cb, NULL, NULL, uet_nl_dev_dump_one);
}

/* One "cc-param NAME VALUE" of a dev-set, checked, to apply later. */
struct uet_nl_cc_set {
	int algo;
	int param;
	u32 value;
};

#define UET_NL_CC_SET_MAX	(UET_CC_NUM * UET_CC_PARAMS_MAX)

/* The algorithm and index of a parameter name: in algo if it has it (the
 * device's algorithm, or the one the request names), else in the only
 * other algorithm that has it.
 */
static int uet_nl_cc_param_find(const struct uet_cc_ops *algo,
				const char *name, int *ai, int *pi)
{
	const struct uet_cc_ops *ops;
	int i, j, found = 0;

	j = uet_cc_param_index(algo, name);
	if (j >= 0) {
		*ai = uet_cc_index(algo);
		*pi = j;
		return 0;
	}
	for (i = 0; (ops = uet_cc_get(i)); i++) {
		j = uet_cc_param_index(ops, name);
		if (j >= 0) {
			*ai = i;
			*pi = j;
			found++;
		}
	}
	return found == 1 ? 0 : found ? -EEXIST : -ENOENT;
}

static int uet_nl_cc_params(const struct uet_params *p,
			    struct genl_info *info,
			    const struct uet_cc_ops *algo,
			    struct uet_nl_cc_set *set, int *nset)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[UET_A_CC_PARAM_MAX + 1];
	const struct uet_cc_param *cp;
	char name[64];
	struct nlattr *nest;
	int rem, err;

	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		const struct uet_cc_ops *ops = algo;

		if (nla_type(nest) != UET_A_DEV_CC_PARAM)
			continue;
		err = nla_parse_nested(tb, UET_A_CC_PARAM_MAX, nest,
				       uet_nl_cc_param_policy, extack);
		if (err)
			return err;
		if (!tb[UET_A_CC_PARAM_NAME] || !tb[UET_A_CC_PARAM_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "cc-param needs a name and a value");
			return -EINVAL;
		}
		if (tb[UET_A_CC_PARAM_ALGO]) {
			nla_strscpy(name, tb[UET_A_CC_PARAM_ALGO], sizeof(name));
			ops = uet_cc_find(name);
			if (!ops) {
				NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_CC_PARAM_ALGO],
						    "unknown congestion control algorithm");
				return -EINVAL;
			}
		}
		if (*nset == UET_NL_CC_SET_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, nest, "too many cc-params");
			return -E2BIG;
		}
		nla_strscpy(name, tb[UET_A_CC_PARAM_NAME], sizeof(name));
		err = uet_nl_cc_param_find(ops, name, &set[*nset].algo,
					   &set[*nset].param);
		if (err == -EEXIST) {
			NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_CC_PARAM_NAME],
					    "cc-param of several algorithms: name the algorithm");
			return -EINVAL;
		}
		if (err) {
			NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_CC_PARAM_NAME],
					    "unknown cc-param");
			return -EINVAL;
		}
		cp = &uet_cc_get(set[*nset].algo)->params[set[*nset].param];
		set[*nset].value = nla_get_u32(tb[UET_A_CC_PARAM_VALUE]);
		if (set[*nset].value < cp->min || set[*nset].value > cp->max) {
			NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_CC_PARAM_VALUE],
					    "cc-param value out of range");
			return -ERANGE;
		}
		(*nset)++;
	}
	return 0;
}

/* The numeric parameters of a dev-set, by their own attributes (the
 * policy checked their range) or by name in UET_A_DEV_PARAM nests: into
 * @val, which holds the device's values, with @set marking the new ones.
 */
static int uet_nl_params(struct genl_info *info, u32 *val, unsigned long *set)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr *tb[UET_A_PARAM_VALUE + 1];
	const struct uet_param_desc *d;
	char name[UET_PARAM_NAME_LEN];
	struct nlattr *nest, *attr;
	unsigned int i;
	int rem, err;

	for (i = 0; i < uet_param_count; i++) {
		d = &uet_param_descs[i];
		attr = info->attrs[d->attr];
		if (!attr)
			continue;
		val[i] = d->type == UET_PARAM_U8 ? nla_get_u8(attr) :
						   nla_get_u32(attr);
		__set_bit(i, set);
	}
	nlmsg_for_each_attr(nest, info->nlhdr, GENL_HDRLEN, rem) {
		if (nla_type(nest) != UET_A_DEV_PARAM)
			continue;
		err = nla_parse_nested(tb, UET_A_PARAM_VALUE, nest,
				       uet_nl_param_policy, extack);
		if (err)
			return err;
		if (!tb[UET_A_PARAM_NAME] || !tb[UET_A_PARAM_VALUE]) {
			NL_SET_ERR_MSG_ATTR(extack, nest,
					    "param needs a name and a value");
			return -EINVAL;
		}
		nla_strscpy(name, tb[UET_A_PARAM_NAME], sizeof(name));
		d = uet_param_find(name);
		if (!d) {
			NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_PARAM_NAME],
					    "unknown parameter");
			return -EINVAL;
		}
		i = d - uet_param_descs;
		if (__test_and_set_bit(i, set)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[UET_A_PARAM_NAME],
					    "parameter given twice");
			return -EINVAL;
		}
		val[i] = nla_get_u32(tb[UET_A_PARAM_VALUE]);
		if (val[i] < d->min || val[i] > d->max) {
			/* The policy says the range to whoever reads it. */
			NL_SET_ERR_MSG_ATTR_POL(extack, tb[UET_A_PARAM_VALUE],
						&uet_nl_dev_set_policy[d->attr],
						"parameter value out of range");
			return -ERANGE;
		}
	}
	return 0;
}

static int uet_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	struct uet_nl_cc_set cc_set[UET_NL_CC_SET_MAX];
	const struct uet_lb_ops *lb = NULL;
	const struct uet_cc_ops *cc = NULL;
	int err = 0, i, ncc_set = 0;
	char name[UET_ALGO_NAME_LEN];
	struct uet_params *p;
	struct uet_dev *udev;
	DECLARE_BITMAP(set, UET_PARAMS_MAX) = { 0 };
	const struct uet_param_desc *d;
	u32 val[UET_PARAMS_MAX];
	unsigned int pi;
	const char *why;

	mutex_lock(&uet_devs_lock);
	udev = uet_nl_find_dev(genl_info_net(info), a[UET_A_DEV_INDEX],
			       a[UET_A_DEV_NAME], extack);
	if (IS_ERR(udev)) {
		err = PTR_ERR(udev);
		goto out;
	}
	p = &udev->params;

	/* Check everything before changing anything. */
	for (pi = 0; pi < uet_param_count; pi++)
		val[pi] = uet_param_read(p, &uet_param_descs[pi]);
	err = uet_nl_params(info, val, set);
	if (err)
		goto out;
	why = uet_params_check(val, &d);
	if (why) {
		/* NL_SET_ERR_MSG_ATTR() takes literals; why is a static
		 * string of params.c's.
		 */
		if (extack) {
			extack->_msg = why;
			extack->bad_attr = a[d->attr];
		}
		err = -EINVAL;
		goto out;
	}
	if (a[UET_A_DEV_CC]) {
		nla_strscpy(name, a[UET_A_DEV_CC], sizeof(name));
		cc = uet_cc_find(name);
		if (!cc) {
			NL_SET_ERR_MSG_ATTR(extack, a[UET_A_DEV_CC],
					    "unknown congestion control algorithm");
			err = -EINVAL;
			goto out;
		}
	}
	err = uet_nl_cc_params(p, info, cc ?: p->cc, cc_set, &ncc_set);
	if (err)
		goto out;
	if (a[UET_A_DEV_LB]) {
		nla_strscpy(name, a[UET_A_DEV_LB], sizeof(name));
		lb = uet_lb_find(name);
		if (!lb) {
			NL_SET_ERR_MSG_ATTR(extack, a[UET_A_DEV_LB],
					    "unknown load balancing algorithm");
			err = -EINVAL;
			goto out;
		}
	}

	for (pi = 0; pi < uet_param_count; pi++)
		if (test_bit(pi, set))
			uet_param_write(p, &uet_param_descs[pi], val[pi]);
	for (i = 0; i < ncc_set; i++)
		WRITE_ONCE(p->cc_params[cc_set[i].algo][cc_set[i].param],
			   cc_set[i].value);
	if (cc)
		WRITE_ONCE(p->cc, cc);
	if (lb)
		WRITE_ONCE(p->lb, lb);
out:
	mutex_unlock(&uet_devs_lock);
	return err;
}

/* The algorithm's own report; its fields may be mid-update (a snapshot).
 * With it, what a new QP to the same peer would start from.
 */
static int uet_nl_put_cc(struct sk_buff *skb, struct uet_qp *qp)
{
	struct uet_cc_stat st[UET_CC_MEAS_STATS + UET_CC_STATS_MAX];
	const struct uet_cc_ops *ops = READ_ONCE(qp->cc.ops);
	struct uet_cc_meas peer = {};
	struct nlattr *nest;
	int i, n;

	if (nla_put_string(skb, UET_A_QP_CC, ops->name))
		return -EMSGSIZE;
	if (qp->peer)
		uet_peer_meas_seed(qp->peer, &peer, ktime_get_ns());
	n = uet_cc_meas_info(&qp->cc, qp->peer ? &peer : NULL, st);
	n += min(ops->get_info(&qp->cc, st + n), UET_CC_STATS_MAX);
	for (i = 0; i < n; i++) {
		nest = nla_nest_start(skb, UET_A_QP_CC_STAT);
		if (!nest || nla_put_string(skb, UET_A_STAT_NAME, st[i].name) ||
		    nla_put_u64_64bit(skb, UET_A_STAT_VALUE, st[i].value,
				      UET_A_STAT_PAD))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

/* PSNs go only to CAP_NET_ADMIN over the device's netns (as QP-SET asks):
 * with a QP's PSNs, an off-path sender can forge packets in its window.
 * req: the request (doit) or the dump's first message.
 */
static bool uet_nl_psns_visible(const struct sk_buff *req, struct uet_qp *qp)
{
	return netlink_ns_capable(req, uet_dev_net(qp->udev)->user_ns,
				  CAP_NET_ADMIN);
}

/* A snapshot of a QP: with the engine held for QP-GET; for an error
 * notification, from the engine's own pass (state and peer only).
 */
static int uet_nl_fill_qp(struct sk_buff *skb, struct uet_qp *qp,
			  u32 portid, u32 seq, int flags, u8 cmd, bool psns)
{
	struct uet_dev *udev = qp->udev;
	const struct uet_pdc_tx *tx = &qp->tx;
	struct uet_addrs addrs;
	unsigned long irqf;
	struct in6_addr gid;
	enum ib_qp_state state;
	u32 dest_qpn, una, nxt;
	void *hdr;

	spin_lock_irqsave(&qp->state_lock, irqf);
	state = qp->state;
	dest_qpn = qp->dest_qpn;
	addrs = qp->addrs;
	spin_unlock_irqrestore(&qp->state_lock, irqf);
	una = READ_ONCE(tx->una);
	nxt = READ_ONCE(tx->nxt);

	hdr = genlmsg_put(skb, portid, seq, &uet_nl_family, flags, cmd);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(skb, UET_A_QP_DEV_INDEX, udev->ibdev.index) ||
	    nla_put_string(skb, UET_A_QP_DEV_NAME, dev_name(&udev->ibdev.dev)) ||
	    nla_put_u32(skb, UET_A_QP_QPN, qp->ibqp.qp_num) ||
	    nla_put_u8(skb, UET_A_QP_STATE, state))
		goto cancel;
	if (cmd == UET_CMD_QP_NTF) {
		if (qp->ibqp.qp_type == IB_QPT_RC &&
		    nla_put_u32(skb, UET_A_QP_PEER_QPN, dest_qpn))
			goto cancel;
		goto end;
	}
	if (nla_put_u8(skb, UET_A_QP_TYPE, qp->ibqp.qp_type))
		goto cancel;
	if (qp->ibqp.qp_type == IB_QPT_RC) {
		if (addrs.family == AF_INET)
			ipv6_addr_set_v4mapped(addrs.daddr.v4, &gid);
		else
			gid = addrs.daddr.v6;
		if (nla_put_u32(skb, UET_A_QP_PEER_QPN, dest_qpn) ||
		    nla_put_in6_addr(skb, UET_A_QP_PEER_GID, &gid))
			goto cancel;
		if (psns &&
		    (nla_put_u32(skb, UET_A_QP_SND_UNA, una) ||
		     nla_put_u32(skb, UET_A_QP_SND_NXT, nxt) ||
		     nla_put_u32(skb, UET_A_QP_RCV_NXT, READ_ONCE(qp->rx.next))))
			goto cancel;
		if (nla_put_u32(skb, UET_A_QP_INFLIGHT_PKTS, nxt - una) ||
		    nla_put_u64_64bit(skb, UET_A_QP_INFLIGHT_BYTES,
				      READ_ONCE(tx->inflight_bytes), UET_A_QP_PAD) ||
		    nla_put_u32(skb, UET_A_QP_SACK_HOLES, uet_pdc_tx_holes(tx)) ||
		    nla_put_u32(skb, UET_A_QP_SRTT_US,
				div_u64(READ_ONCE(tx->srtt_ns), NSEC_PER_USEC)) ||
		    nla_put_u32(skb, UET_A_QP_MIN_RTT_US,
				div_u64(READ_ONCE(tx->min_rtt_ns), NSEC_PER_USEC)))
			goto cancel;
	}
	if (nla_put_u64_64bit(skb, UET_A_QP_RETRANSMITS, READ_ONCE(qp->nretx),
			      UET_A_QP_PAD) ||
	    nla_put_u64_64bit(skb, UET_A_QP_RTO_EXPIRED, READ_ONCE(qp->nrto),
			      UET_A_QP_PAD) ||
	    nla_put_u16(skb, UET_A_QP_ENTROPY, qp->entropy))
		goto cancel;
	if (qp->ibqp.qp_type == IB_QPT_RC &&
	    (nla_put_string(skb, UET_A_QP_LB, qp->lb.ops->name) ||
	     nla_put_u32(skb, UET_A_QP_ENTROPY_COUNT, qp->lb.count) ||
	     uet_nl_put_cc(skb, qp)))
		goto cancel;
end:
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* A QP-GET reply, read with the engine held (engine.c) so that the load
 * balancer and congestion control are seen whole; a stopped engine
 * changes only under ctl_lock, which is held here too.
 */
static int uet_nl_fill_qp_get(struct sk_buff *skb, struct uet_qp *qp,
			      u32 portid, u32 seq, int flags, bool psns)
{
	bool held;
	int err;

	mutex_lock(&qp->ctl_lock);
	held = uet_engine_lock(&qp->eng);
	err = uet_nl_fill_qp(skb, qp, portid, seq, flags, UET_CMD_QP_GET,
			     psns);
	if (held)
		uet_engine_unlock(&qp->eng);
	mutex_unlock(&qp->ctl_lock);
	return err;
}

static int uet_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **a = info->attrs;
	struct uet_qp *qp = NULL;
	struct uet_dev *udev;
	struct sk_buff *msg;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, UET_A_QP_QPN))
		return -EINVAL;
	msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	mutex_lock(&uet_devs_lock);
	udev = uet_nl_find_dev(genl_info_net(info), a[UET_A_QP_DEV_INDEX],
			       a[UET_A_QP_DEV_NAME], info->extack);
	if (IS_ERR(udev)) {
		err = PTR_ERR(udev);
		goto out;
	}
	qp = uet_qp_get(udev, nla_get_u32(a[UET_A_QP_QPN]));
	if (!qp) {
		NL_SET_ERR_MSG_ATTR(info->extack, a[UET_A_QP_QPN], "no such QP");
		err = -ENOENT;
		goto out;
	}
	err = uet_nl_fill_qp_get(msg, qp, info->snd_portid, info->snd_seq, 0,
				 uet_nl_psns_visible(skb, qp));
	uet_qp_put(qp);
out:
	mutex_unlock(&uet_devs_lock);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* The QP's next pass starts the new algorithms: the load balancer and
 * the congestion controller are the engine's state.
 */
static int uet_nl_qp_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **a = info->attrs;
	const struct uet_lb_ops *lb = NULL;
	const struct uet_cc_ops *cc = NULL;
	char name[UET_ALGO_NAME_LEN];
	struct uet_dev *udev;
	struct uet_qp *qp;
	int err = 0;

	if (GENL_REQ_ATTR_CHECK(info, UET_A_QP_QPN))
		return -EINVAL;
	if (!a[UET_A_QP_LB] && !a[UET_A_QP_CC]) {
		NL_SET_ERR_MSG(extack, "nothing to set (lb or cc)");
		return -EINVAL;
	}
	if (a[UET_A_QP_LB]) {
		nla_strscpy(name, a[UET_A_QP_LB], sizeof(name));
		lb = uet_lb_find(name);
		if (!lb) {
			NL_SET_ERR_MSG_ATTR(extack, a[UET_A_QP_LB],
					    "unknown load balancing algorithm");
			return -EINVAL;
		}
	}
	if (a[UET_A_QP_CC]) {
		nla_strscpy(name, a[UET_A_QP_CC], sizeof(name));
		cc = uet_cc_find(name);
		if (!cc) {
			NL_SET_ERR_MSG_ATTR(extack, a[UET_A_QP_CC],
					    "unknown congestion control algorithm");
			return -EINVAL;
		}
	}
	mutex_lock(&uet_devs_lock);
	udev = uet_nl_find_dev(genl_info_net(info), a[UET_A_QP_DEV_INDEX],
			       a[UET_A_QP_DEV_NAME], extack);
	if (IS_ERR(udev)) {
		err = PTR_ERR(udev);
		goto out;
	}
	qp = uet_qp_get(udev, nla_get_u32(a[UET_A_QP_QPN]));
	if (!qp || qp->ibqp.qp_type != IB_QPT_RC) {
		NL_SET_ERR_MSG_ATTR(extack, a[UET_A_QP_QPN], "no such RC QP");
		err = -ENOENT;
	} else {
		if (lb)
			WRITE_ONCE(qp->lb_set, lb);
		if (cc)
			WRITE_ONCE(qp->cc_set, cc);
		uet_engine_kick(&qp->eng);
	}
	if (qp)
		uet_qp_put(qp);
out:
	mutex_unlock(&uet_devs_lock);
	return err;
}

/* cb->args[1]: the next QPN of udev. */
static int uet_nl_qp_dump_one(struct sk_buff *skb, struct netlink_callback *cb,
			      struct uet_dev *udev)
{
	unsigned long qpn = cb->args[1];
	struct uet_qp *qp;
	void *entry;
	int err;

	xa_for_each_start(&udev->qps, qpn, entry, cb->args[1]) {
		qp = uet_qp_get(udev, qpn);
		if (!qp)
			continue;
		err = uet_nl_fill_qp_get(skb, qp, NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI,
					 uet_nl_psns_visible(cb->skb, qp));
		uet_qp_put(qp);
		if (err)
			return err;
		cb->args[1] = qpn + 1;
	}
	return 0;
}

static int uet_nl_qp_get_dumpit(struct sk_buff *skb,
				struct netlink_callback *cb)
{
	struct nlattr **attrs = genl_info_dump(cb)->attrs;

	return uet_nl_dump_devs(skb, cb, attrs[UET_A_QP_DEV_INDEX],
				attrs[UET_A_QP_DEV_NAME],
				uet_nl_qp_dump_one);
}

static const struct genl_ops uet_nl_ops[] = {
	{
		.cmd = UET_CMD_DEV_GET,
		.doit = uet_nl_dev_get_doit,
		.start = uet_nl_dev_get_start,
		.dumpit = uet_nl_dev_get_dumpit,
		.policy = uet_nl_dev_get_policy,
		.maxattr = ARRAY_SIZE(uet_nl_dev_get_policy) - 1,
	},
	{
		.cmd = UET_CMD_DEV_SET,
		.doit = uet_nl_dev_set_doit,
		.policy = uet_nl_dev_set_policy,
		.maxattr = ARRAY_SIZE(uet_nl_dev_set_policy) - 1,
		/* CAP_NET_ADMIN over the device's (the caller's) netns. */
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = UET_CMD_QP_GET,
		.doit = uet_nl_qp_get_doit,
		.dumpit = uet_nl_qp_get_dumpit,
		.policy = uet_nl_qp_get_policy,
		.maxattr = ARRAY_SIZE(uet_nl_qp_get_policy) - 1,
	},
	{
		.cmd = UET_CMD_QP_SET,
		.doit = uet_nl_qp_set_doit,
		.policy = uet_nl_qp_set_policy,
		.maxattr = ARRAY_SIZE(uet_nl_qp_set_policy) - 1,
		.flags = GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd = UET_CMD_PATH_GET,
		.dumpit = uet_nl_path_get_dumpit,
		.policy = uet_nl_path_get_policy,
		.maxattr = UET_NL_PATH_GET_MAXATTR,
	},
	{
		.cmd = UET_CMD_PATH_SET,
		.doit = uet_nl_path_set_doit,
		.policy = uet_nl_path_set_policy,
		.maxattr = UET_NL_PATH_SET_MAXATTR,
		.flags = GENL_UNS_ADMIN_PERM,
	},
};

struct genl_family uet_nl_family __ro_after_init = {
	.name = UET_GENL_NAME,
	.version = UET_GENL_VERSION,
	.netnsok = true,
	.module = THIS_MODULE,
	.ops = uet_nl_ops,
	.n_ops = ARRAY_SIZE(uet_nl_ops),
	.resv_start_op = __UET_CMD_MAX,
	.mcgrps = uet_nl_mcgrps,
	.n_mcgrps = ARRAY_SIZE(uet_nl_mcgrps),
};

static void uet_nl_notify(struct net *net, struct sk_buff *msg)
{
	genlmsg_multicast_netns(&uet_nl_family, net, msg, 0,
				UET_NL_MCGRP_EVENTS, GFP_ATOMIC);
}

/* The port went up or down. RTNL held (netdev notifier). */
void uet_nl_port_event(struct uet_dev *udev)
{
	struct net *net = uet_dev_net(udev);
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&uet_nl_family, net, UET_NL_MCGRP_EVENTS))
		return;
	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &uet_nl_family, 0, UET_CMD_DEV_NTF);
	if (!hdr || uet_nl_put_dev_id(msg, udev)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	uet_nl_notify(net, msg);
}

/* The transport put qp in error. Any context but hard IRQ. */
void uet_nl_qp_error(struct uet_qp *qp)
{
	struct net *net = uet_dev_net(qp->udev);
	struct sk_buff *msg;

	if (!genl_has_listeners(&uet_nl_family, net, UET_NL_MCGRP_EVENTS))
		return;
	msg = nlmsg_new(NLMSG_GOODSIZE, GFP_ATOMIC);
	if (!msg)
		return;
	if (uet_nl_fill_qp(msg, qp, 0, 0, 0, UET_CMD_QP_NTF, false)) {
		nlmsg_free(msg);
		return;
	}
	uet_nl_notify(net, msg);
}

int __init uet_nl_init(void)
{
	uet_nl_param_policy_init();
	return genl_register_family(&uet_nl_family);
}

void uet_nl_exit(void)
{
	genl_unregister_family(&uet_nl_family);
}
