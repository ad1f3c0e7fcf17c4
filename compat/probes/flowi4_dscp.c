// SPDX-License-Identifier: GPL-2.0
/* struct flowi4's flowi4_dscp, where flowi4_tos was. */
#include <net/flow.h>
#include <net/inet_dscp.h>

void uet_probe(struct flowi4 *fl4, u8 tos);
void uet_probe(struct flowi4 *fl4, u8 tos)
{
	fl4->flowi4_dscp = inet_dsfield_to_dscp(tos);
}
