// SPDX-License-Identifier: GPL-2.0
/* udp_tunnel_sock_release() takes the struct sock, not the socket. */
#include <net/udp_tunnel.h>

void uet_probe(struct sock *sk);
void uet_probe(struct sock *sk)
{
	udp_tunnel_sock_release(sk);
}
