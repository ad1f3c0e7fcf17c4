// SPDX-License-Identifier: GPL-2.0
/* <net/gso.h>: skb_gso_segment() left <linux/netdevice.h>. */
#include <net/gso.h>

struct sk_buff *uet_probe(struct sk_buff *skb);
struct sk_buff *uet_probe(struct sk_buff *skb)
{
	return skb_gso_segment(skb, 0);
}
