// SPDX-License-Identifier: GPL-2.0
/*
 * Packet sizes on a netdev (mtu.h).
 */
#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/minmax.h>

#include "mtu.h"
#include "wire.h"

/* Largest IB MTU whose payload plus our worst-case headers fits the netdev MTU. */
enum ib_mtu uet_ib_mtu(unsigned int netdev_mtu)
{
	enum ib_mtu mtu;

	for (mtu = IB_MTU_4096; mtu > IB_MTU_256; mtu--)
		if (ib_mtu_enum_to_int(mtu) + UET_MAX_HDR_LEN <= netdev_mtu)
			break;
	return mtu;
}
EXPORT_SYMBOL_IF_KUNIT(uet_ib_mtu);

/* Payload bytes of an RC data packet on a path whose IB MTU is path_mtu
 * over a netdev of netdev_mtu. Every packet says where its payload goes
 * in the message, so RC need not cut messages at the IB MTU enum: it
 * fills what the netdev carries after the worst-case headers (at 1500,
 * 1392 bytes instead of 1024; at 9000, 8892 instead of 4096). A path MTU
 * asked below the port's is kept, as the limit of the path it names.
 *
 * A local destination (a uet device of this host) takes its packets from
 * udp.c's loopback path, never from the netdev nor IP: they are 64 KiB,
 * the largest frame TCP hands lo (GSO_LEGACY_MAX_SIZE), so a 64 KiB
 * WRITE is one packet.
 */
u32 uet_rc_seg(enum ib_mtu path_mtu, unsigned int netdev_mtu, bool local)
{
	enum ib_mtu port = uet_ib_mtu(netdev_mtu);
	u32 bytes = ib_mtu_enum_to_int(min(path_mtu, port));

	if (path_mtu < port)
		return bytes;
	if (local)
		return UET_RC_SEG_LOCAL;
	if (netdev_mtu < bytes + UET_MAX_HDR_LEN)
		return bytes;
	return min_t(u32, netdev_mtu, UET_RC_SEG_MAX_MTU) - UET_MAX_HDR_LEN;
}
EXPORT_SYMBOL_IF_KUNIT(uet_rc_seg);
