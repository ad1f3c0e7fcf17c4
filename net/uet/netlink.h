/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files of the "uet" generic netlink family. */
#ifndef _UET_NETLINK_H
#define _UET_NETLINK_H

#include <net/genetlink.h>

#include "uet.h"

extern struct genl_family uet_nl_family;

struct uet_dev *uet_nl_find_dev(struct net *net, struct nlattr *index,
				struct nlattr *name,
				struct netlink_ext_ack *extack);

/* One device's part of a dump (uet_nl_dump_devs()): 0 once it is all in
 * skb, else an error; -EMSGSIZE resumes it in the next skb.
 */
typedef int (*uet_nl_dump_fill_t)(struct sk_buff *skb,
				  struct netlink_callback *cb,
				  struct uet_dev *udev);
int uet_nl_dump_devs(struct sk_buff *skb, struct netlink_callback *cb,
		     struct nlattr *index, struct nlattr *name,
		     uet_nl_dump_fill_t fill);

/* netlink_path.c */
extern const struct nla_policy uet_nl_path_get_policy[];
extern const struct nla_policy uet_nl_path_set_policy[];
#define UET_NL_PATH_GET_MAXATTR	UET_A_PATH_DEV_NAME
#define UET_NL_PATH_SET_MAXATTR	UET_A_PATH_DENY
int uet_nl_path_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int uet_nl_path_set_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _UET_NETLINK_H */
