// SPDX-License-Identifier: GPL-2.0
/* netif_get_flags(), where dev_get_flags() was. */
#include <linux/netdevice.h>

unsigned int uet_probe(const struct net_device *dev);
unsigned int uet_probe(const struct net_device *dev)
{
	return netif_get_flags(dev);
}
