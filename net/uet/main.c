// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_uet: an Ultra Ethernet style RDMA transport over UDP/IP for any
 * Ethernet netdev. Module entry: "rdma link add NAME type uet netdev DEV"
 * and the netdev notifier that keeps each device in step with its netdev.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <rdma/rdma_netlink.h>

#include "qp.h"
#include "udp.h"
#include "uet.h"

static int uet_newlink(const char *ibdev_name, struct net_device *ndev)
{
	return uet_dev_add(ibdev_name, ndev);
}

static struct rdma_link_ops uet_link_ops = {
	.type = "uet",
	.newlink = uet_newlink,
};

static int uet_netdev_event(struct notifier_block *nb, unsigned long event,
			    void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct uet_dev *udev;

	udev = uet_dev_get_by_netdev(ndev);
	if (!udev)
		return NOTIFY_DONE;
	uet_dev_netdev_event(udev, event);
	uet_dev_put(udev);
	return NOTIFY_OK;
}

static struct notifier_block uet_netdev_nb = {
	.notifier_call = uet_netdev_event,
};

static int __init uet_init(void)
{
	int err;

	err = uet_rxe_guard_init();
	if (err)
		return err;
	err = uet_engine_wq_init();
	if (err)
		goto err_guard;
	err = uet_udp_init();
	if (err)
		goto err_wq;
	err = uet_nl_init();
	if (err)
		goto err_udp;
	err = register_netdevice_notifier(&uet_netdev_nb);
	if (err)
		goto err_nl;
	rdma_link_register(&uet_link_ops);
	pr_info("loaded, UDP port %u\n", uet_udp_port);
	return 0;

err_nl:
	uet_nl_exit();
err_udp:
	uet_udp_exit();
err_wq:
	uet_engine_wq_exit();
err_guard:
	uet_rxe_guard_exit();
	return err;
}

static void __exit uet_exit(void)
{
	rdma_link_unregister(&uet_link_ops);
	unregister_netdevice_notifier(&uet_netdev_nb);
	/* Every device with the rxe driver id is ours: rxe_guard.c keeps
	 * rdma_rxe out while we are loaded.
	 */
	ib_unregister_driver(RDMA_DRIVER_RXE);
	uet_nl_exit();
	uet_udp_exit();
	uet_engine_wq_exit();
	uet_rxe_guard_exit();
}

module_init(uet_init);
module_exit(uet_exit);

MODULE_DESCRIPTION("Ultra Ethernet style RDMA transport over UDP/IP");
MODULE_LICENSE("GPL");
MODULE_ALIAS_RDMA_LINK("uet");
