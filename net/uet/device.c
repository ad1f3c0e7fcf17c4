// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_device: allocation, registration, port attributes, and following
 * the bound netdev (state, MTU, removal).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_vlan.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "uet.h"
#include "wire.h"

static const char *uet_port_state_name(enum ib_port_state state)
{
	return state == IB_PORT_ACTIVE ? "ACTIVE" : "DOWN";
}

static enum ib_port_state uet_ndev_port_state(struct net_device *ndev)
{
	return netif_running(ndev) && netif_oper_up(ndev) ?
	       IB_PORT_ACTIVE : IB_PORT_DOWN;
}

static int uet_query_device(struct ib_device *ibdev, struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	struct uet_dev *udev = to_udev(ibdev);

	if (udata->inlen || udata->outlen)
		return -EINVAL;

	/* The caller zeroed *attr: no QPs, CQs or MRs until the verbs land. */
	attr->page_size_cap = PAGE_SIZE;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_pkeys = 1;
	attr->max_pd = U32_MAX;
	addrconf_addr_eui48((unsigned char *)&attr->sys_image_guid,
			    udev->ndev->dev_addr);
	return 0;
}

static int uet_query_port(struct ib_device *ibdev, u32 port,
			  struct ib_port_attr *attr)
{
	struct net_device *ndev = to_udev(ibdev)->ndev;

	/* The caller zeroed *attr. */
	attr->state = uet_ndev_port_state(ndev);
	if (attr->state == IB_PORT_ACTIVE)
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	else if (dev_get_flags(ndev) & IFF_UP)
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = uet_ib_mtu(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = UET_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = 1U << 31;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;

	return ib_get_eth_speed(ibdev, port, &attr->active_speed,
				&attr->active_width);
}

static int uet_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			  u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = IB_DEFAULT_PKEY_FULL;
	return 0;
}

static int uet_port_immutable(struct ib_device *ibdev, u32 port,
			      struct ib_port_immutable *immutable)
{
	struct ib_port_attr attr;
	int err;

	/* RoCEv2-style: the core fills the GID table from the netdev's IP addresses. */
	immutable->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	err = ib_query_port(ibdev, port, &attr);
	if (err)
		return err;
	immutable->pkey_tbl_len = attr.pkey_tbl_len;
	immutable->gid_tbl_len = attr.gid_tbl_len;
	immutable->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer uet_get_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int uet_alloc_ucontext(struct ib_ucontext *ibuc, struct ib_udata *udata)
{
	return 0;
}

static void uet_dealloc_ucontext(struct ib_ucontext *ibuc)
{
}

/* Last reference gone: the core has unregistered the device. */
static void uet_dealloc_driver(struct ib_device *ibdev)
{
	struct uet_dev *udev = to_udev(ibdev);

	netdev_put(udev->ndev, &udev->ndev_tracker);
}

static const struct ib_device_ops uet_dev_ops = {
	.owner = THIS_MODULE,
	/* rdma-core binds its rxe provider by this id: see rxe_guard.c. */
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = UET_UVERBS_ABI_VERSION,

	.alloc_pd = uet_alloc_pd,
	.alloc_ucontext = uet_alloc_ucontext,
	.dealloc_driver = uet_dealloc_driver,
	.dealloc_pd = uet_dealloc_pd,
	.dealloc_ucontext = uet_dealloc_ucontext,
	.get_link_layer = uet_get_link_layer,
	.get_port_immutable = uet_port_immutable,
	.query_device = uet_query_device,
	.query_pkey = uet_query_pkey,
	.query_port = uet_query_port,

	INIT_RDMA_OBJ_SIZE(ib_pd, uet_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, uet_ucontext, ibuc),
};

struct uet_dev *uet_dev_get_by_netdev(struct net_device *ndev)
{
	struct ib_device *ibdev;

	ibdev = ib_device_get_by_netdev(ndev, RDMA_DRIVER_RXE);
	return ibdev ? to_udev(ibdev) : NULL;
}

void uet_dev_put(struct uet_dev *udev)
{
	ib_device_put(&udev->ibdev);
}

/* Serialises the "already bound?" check with registration in uet_dev_add(). */
static DEFINE_MUTEX(uet_dev_add_lock);

int uet_dev_add(const char *ibdev_name, struct net_device *ndev)
{
	struct uet_dev *udev;
	struct ib_device *ibdev;
	int err;

	if (is_vlan_dev(ndev) || ndev->type != ARPHRD_ETHER) {
		pr_err("%s: uet needs an Ethernet netdev\n", ndev->name);
		return -EINVAL;
	}

	mutex_lock(&uet_dev_add_lock);
	udev = uet_dev_get_by_netdev(ndev);
	if (udev) {
		uet_dev_put(udev);
		pr_err("%s is already bound to a uet device\n", ndev->name);
		err = -EEXIST;
		goto out;
	}

	udev = ib_alloc_device(uet_dev, ibdev);
	if (!udev) {
		err = -ENOMEM;
		goto out;
	}
	ibdev = &udev->ibdev;
	udev->ndev = ndev;
	netdev_hold(ndev, &udev->ndev_tracker, GFP_KERNEL);
	udev->port_state = uet_ndev_port_state(ndev);

	strscpy(ibdev->node_desc, "uet", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	addrconf_addr_eui48((unsigned char *)&ibdev->node_guid, ndev->dev_addr);
	/* librxe rings the send doorbell and arms CQs through these legacy commands. */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ib_set_device_ops(ibdev, &uet_dev_ops);

	err = ib_device_set_netdev(ibdev, ndev, UET_PORT);
	if (!err)
		err = ib_register_device(ibdev, ibdev_name, NULL);
	if (err) {
		/* Before registration dealloc_driver is not called: drop the ref here. */
		netdev_put(ndev, &udev->ndev_tracker);
		ib_dealloc_device(ibdev);
		goto out;
	}
	dev_info(&ibdev->dev, "bound to %s, port %s\n", ndev->name,
		 uet_port_state_name(udev->port_state));
out:
	mutex_unlock(&uet_dev_add_lock);
	return err;
}

static void uet_port_event(struct uet_dev *udev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &udev->ibdev,
		.element.port_num = UET_PORT,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

/* Called with RTNL held, from the netdev notifier in main.c. */
void uet_dev_netdev_event(struct uet_dev *udev, unsigned long event)
{
	enum ib_port_state state;

	switch (event) {
	case NETDEV_UNREGISTER:
		ib_unregister_device_queued(&udev->ibdev);
		return;
	case NETDEV_UP:
	case NETDEV_DOWN:
	case NETDEV_CHANGE:
		state = uet_ndev_port_state(udev->ndev);
		if (state == udev->port_state)
			return;
		udev->port_state = state;
		uet_port_event(udev, state == IB_PORT_ACTIVE ?
			       IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
		dev_info(&udev->ibdev.dev, "port %s\n", uet_port_state_name(state));
		return;
	default:
		return;
	}
}
