// SPDX-License-Identifier: GPL-2.0
/* genl_info_dump(): a dump's attributes in a struct genl_info. */
#include <net/genetlink.h>

struct nlattr **uet_probe(struct netlink_callback *cb);
struct nlattr **uet_probe(struct netlink_callback *cb)
{
	return genl_info_dump(cb)->attrs;
}
