// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_device: allocation, registration, port attributes, and following
 * the bound netdev (state, MTU, removal).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_mad.h>
#include <rdma/ib_verbs.h>

#include "mcast.h"
#include "mtu.h"
#include "peer.h"
#include "qp.h"
#include "udp.h"
#include "uet.h"
#include "uet_compat_verbs.h"
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

	/* ib_register_device() asks with no udata at all (Linux 7.x). */
	if (udata && (udata->inlen || udata->outlen))
		return -EINVAL;

	/* The caller zeroed *attr. */
	attr->fw_ver = 0;
	attr->max_mr_size = UET_MAX_MR_SIZE;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = UET_VENDOR_ID;
	attr->vendor_part_id = 0;
	attr->max_qp = UET_MAX_QP;
	attr->max_qp_wr = UET_MAX_QP_WR;
	/* rxe's RXE_DEVICE_CAP_FLAGS (rxe_param.h) but for what uet lacks:
	 * P_Key and Q_Key violation counters (no PMA), automatic path
	 * migration, a second port. With one port, the core's refusal of an
	 * AV naming another (rdma_is_port_valid) is UD_AV_PORT_ENFORCE;
	 * uet_dev_netdev_event() raises the port events.
	 */
	attr->device_cap_flags = IB_DEVICE_UD_AV_PORT_ENFORCE |
				 IB_DEVICE_PORT_ACTIVE_EVENT |
				 IB_DEVICE_SYS_IMAGE_GUID |
				 IB_DEVICE_RC_RNR_NAK_GEN |
				 IB_DEVICE_SRQ_RESIZE |
				 IB_DEVICE_MEM_MGT_EXTENSIONS |
				 IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_WINDOW_TYPE_2B |
				 IB_DEVICE_ATOMIC_WRITE;
#ifdef HAVE_IB_WR_FLUSH
	/* FLUSH to global visibility, not to persistence (UET_MR_FLUSH):
	 * ib_core grants a region only the flush rights a device offers
	 * (ib_check_mr_access()).
	 */
	attr->device_cap_flags |= IB_DEVICE_FLUSH_GLOBAL;
#endif
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_send_sge = UET_MAX_SGE;
	attr->max_recv_sge = UET_MAX_SGE;
	attr->max_sge_rd = UET_MAX_SGE;
	/* No limit of our own on CQs, SRQs, PDs nor AHs: no key or number
	 * space bounds them as it does QPs, MRs and MWs; the rdma cgroup's
	 * hca_object caps a process's objects, the memory cgroup their rings
	 * (queue.c). So the largest the int can say.
	 */
	attr->max_cq = INT_MAX;
	attr->max_cqe = UET_MAX_CQE;
	attr->max_mr = UET_MAX_MR;
	attr->max_mw = UET_MAX_MW;
	attr->max_pd = INT_MAX;
	attr->max_ah = INT_MAX;
	attr->max_qp_rd_atom = UET_MAX_RD_ATOMIC;
	attr->max_qp_init_rd_atom = UET_MAX_RD_ATOMIC;
	attr->max_res_rd_atom = UET_MAX_QP * UET_MAX_RD_ATOMIC;
	attr->atomic_cap = IB_ATOMIC_HCA;
	attr->max_srq = INT_MAX;
	attr->max_srq_wr = UET_MAX_QP_WR;
	attr->max_srq_sge = UET_MAX_SGE;
	attr->max_fast_reg_page_list_len = UET_MAX_FAST_REG_PAGES;
	attr->max_pkeys = 1;
	attr->max_mcast_grp = UET_MAX_MCAST_GRP;
	attr->max_mcast_qp_attach = UET_MAX_MCAST_QP_ATTACH;
	attr->max_total_mcast_qp_attach = UET_MAX_TOT_MCAST_QP_ATTACH;
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
	else if (netif_get_flags(ndev) & IFF_UP)
		attr->phys_state = IB_PORT_PHYS_STATE_POLLING;
	else
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = uet_ib_mtu(READ_ONCE(ndev->mtu));
	attr->gid_tbl_len = UET_GID_TBL_LEN;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = UET_MAX_MSG_SIZE;
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

static void uet_dev_release(struct uet_dev *udev)
{
	uet_udp_put(udev);
	uet_mcast_release(udev);
	free_percpu(udev->stats);
	xa_destroy(&udev->qps);
	xa_destroy(&udev->mrs);
	xa_destroy(&udev->mws);
	netdev_put(udev->ndev, &udev->ndev_tracker);
}

/* Last reference gone (the core unregistered the device), or registration
 * failed and uet_dev_add() deallocates it.
 */
static void uet_dealloc_driver(struct ib_device *ibdev)
{
	struct uet_dev *udev = to_udev(ibdev);

	mutex_lock(&uet_devs_lock);
	list_del(&udev->list);
	mutex_unlock(&uet_devs_lock);
	uet_dev_release(udev);
}

/* Registered, not yet visible to clients: from here on an unregistration
 * waits for ib_register_device() to return, so the list never holds a
 * freed device (dealloc_driver takes it off).
 */
static int uet_enable_driver(struct ib_device *ibdev)
{
	mutex_lock(&uet_devs_lock);
	list_add_tail(&to_udev(ibdev)->list, &uet_devs);
	mutex_unlock(&uet_devs_lock);
	return 0;
}

static const struct ib_device_ops uet_dev_ops = {
	.owner = THIS_MODULE,
	/* rdma-core binds its rxe provider by this id: see rxe_guard.c. */
	.driver_id = RDMA_DRIVER_RXE,
	.uverbs_abi_ver = UET_UVERBS_ABI_VERSION,

	.alloc_hw_port_stats = uet_alloc_hw_port_stats,
	.alloc_mr = uet_alloc_mr,
	.alloc_mw = uet_alloc_mw,
	.alloc_pd = uet_alloc_pd,
	.alloc_ucontext = uet_alloc_ucontext,
	.attach_mcast = uet_attach_mcast,
	.create_ah = uet_create_ah,
	.create_qp = uet_create_qp,
	.create_srq = uet_create_srq,
	.create_user_ah = uet_create_ah,
	.dealloc_driver = uet_dealloc_driver,
	.dealloc_mw = uet_dealloc_mw,
	.enable_driver = uet_enable_driver,
	.dealloc_pd = uet_dealloc_pd,
	.dealloc_ucontext = uet_dealloc_ucontext,
	.dereg_mr = uet_dereg_mr,
	.destroy_ah = uet_destroy_ah,
	.destroy_cq = uet_destroy_cq,
	.destroy_qp = uet_destroy_qp,
	.destroy_srq = uet_destroy_srq,
	.detach_mcast = uet_detach_mcast,
	.get_dma_mr = uet_get_dma_mr,
	.get_hw_stats = uet_get_hw_stats,
	.get_link_layer = uet_get_link_layer,
	.get_port_immutable = uet_port_immutable,
	.map_mr_sg = uet_map_mr_sg,
	.mmap = uet_mmap,
	.modify_qp = uet_modify_qp,
	.modify_srq = uet_modify_srq,
	.peek_cq = uet_peek_cq,
	.poll_cq = uet_poll_cq,
	.post_recv = uet_post_recv,
	.post_send = uet_post_send,
	.post_srq_recv = uet_post_srq_recv,
	.query_ah = uet_query_ah,
	.query_device = uet_query_device,
	.query_pkey = uet_query_pkey,
	.query_port = uet_query_port,
	.query_qp = uet_query_qp,
	.query_srq = uet_query_srq,
	.req_notify_cq = uet_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, uet_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, uet_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, uet_mw, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, uet_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, uet_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_srq, uet_srq, ibsrq),
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

/* Registered devices, for netlink. */
LIST_HEAD(uet_devs);
/* Protects uet_devs and the devices' parameters. Taken by dealloc_driver
 * under the core's unregistration_lock, so never held across a
 * registration, which takes that lock when it fails late.
 */
DEFINE_MUTEX(uet_devs_lock);
/* Serialises the "already bound?" check with registration: the core finds
 * a device by its netdev only once registered.
 */
static DEFINE_MUTEX(uet_bind_lock);

/* The netdev's link speed in Mb/s, 0 when it reports none (a virtual
 * or emulated NIC may not); congestion control sizes itself by it
 * (cc.h). RTNL held.
 */
static u32 uet_ndev_link_mbps(struct net_device *ndev)
{
	struct ethtool_link_ksettings ks;

	if (__ethtool_get_link_ksettings(ndev, &ks) ||
	    ks.base.speed == SPEED_UNKNOWN)
		return 0;
	return ks.base.speed;
}

int uet_dev_add(const char *ibdev_name, struct net_device *ndev)
{
	u32 link_mbps;
	struct uet_dev *udev;
	struct ib_device *ibdev;
	int err;

	if (is_vlan_dev(ndev) || ndev->type != ARPHRD_ETHER) {
		pr_err("%s: uet needs an Ethernet netdev\n", ndev->name);
		return -EINVAL;
	}

	/* rdma link add calls without RTNL, which ethtool wants held. */
	rtnl_lock();
	link_mbps = uet_ndev_link_mbps(ndev);
	rtnl_unlock();

	mutex_lock(&uet_bind_lock);
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
	spin_lock_init(&udev->mmap_lock);
	INIT_LIST_HEAD(&udev->pending_mmaps);
	mutex_init(&udev->peers_lock);
	INIT_LIST_HEAD(&udev->peers);
	uet_mcast_init(udev);
	ratelimit_state_init(&udev->probe_answers, UET_PEER_ANSWERS_PERIOD,
			     UET_PEER_ANSWERS_MAX);
	/* Drops are counted (drop_no_qp), not logged. */
	ratelimit_set_flags(&udev->probe_answers, RATELIMIT_MSG_ON_RELEASE);
	/* Offset 0 is never handed out, as in rxe. */
	udev->mmap_offset = ALIGN(PAGE_SIZE, SHMLBA);
	udev->ndev = ndev;
	netdev_hold(ndev, &udev->ndev_tracker, GFP_KERNEL);
	udev->port_state = uet_ndev_port_state(ndev);
	udev->link_mbps = link_mbps;
	uet_params_init(&udev->params);
	INIT_LIST_HEAD(&udev->list);
	xa_init_flags(&udev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&udev->mrs, XA_FLAGS_ALLOC1);
	xa_init_flags(&udev->mws, XA_FLAGS_ALLOC);
	udev->stats = alloc_percpu(struct uet_counters);
	err = udev->stats ? uet_udp_get(udev) : -ENOMEM;
	if (err) {
		/* No ops yet: ib_dealloc_device() calls no dealloc_driver. */
		uet_dev_release(udev);
		ib_dealloc_device(&udev->ibdev);
		goto out;
	}

	strscpy(ibdev->node_desc, "uet", sizeof(ibdev->node_desc));
	ibdev->node_type = RDMA_NODE_IB_CA;
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = num_possible_cpus();
	addrconf_addr_eui48((unsigned char *)&ibdev->node_guid, ndev->dev_addr);
	/* librxe rings the send doorbell and arms CQs through these legacy commands. */
	ibdev->uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				  BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ib_set_device_ops(ibdev, &uet_dev_ops);
	ib_set_device_ops(ibdev, &uet_compat_dev_ops);

	err = ib_device_set_netdev(ibdev, ndev, UET_PORT);
	if (!err)
		err = ib_register_device(ibdev, ibdev_name, NULL);
	if (err) {
		/* With the ops set, ib_dealloc_device() calls dealloc_driver,
		 * which takes the device off uet_devs if it got there and
		 * releases it.
		 */
		mutex_unlock(&uet_bind_lock);
		ib_dealloc_device(ibdev);
		return err;
	}
	dev_info(&ibdev->dev, "bound to %s, port %s\n", ndev->name,
		 uet_port_state_name(udev->port_state));
out:
	mutex_unlock(&uet_bind_lock);
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
		WRITE_ONCE(udev->link_mbps, uet_ndev_link_mbps(udev->ndev));
		state = uet_ndev_port_state(udev->ndev);
		if (state == udev->port_state)
			return;
		WRITE_ONCE(udev->port_state, state);
		uet_port_event(udev, state == IB_PORT_ACTIVE ?
			       IB_EVENT_PORT_ACTIVE : IB_EVENT_PORT_ERR);
		dev_info(&udev->ibdev.dev, "port %s\n", uet_port_state_name(state));
		uet_nl_port_event(udev);
		return;
	default:
		return;
	}
}
