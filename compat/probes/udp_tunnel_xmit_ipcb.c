// SPDX-License-Identifier: GPL-2.0
/* udp_tunnel_xmit_skb() and udp_tunnel6_xmit_skb() take the IP control
 * block's flags.
 */
#include <net/udp_tunnel.h>

void uet_probe(struct rtable *rt, struct sock *sk, struct sk_buff *skb);
void uet_probe(struct rtable *rt, struct sock *sk, struct sk_buff *skb)
{
	udp_tunnel_xmit_skb(rt, sk, skb, 0, 0, 0, 64, 0, 0, 0, false, false, 0);
}
