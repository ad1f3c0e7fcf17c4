/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rdma_uet: shared definitions of the device glue.
 */
#ifndef _UET_H
#define _UET_H

#include <linux/netdevice.h>
#include <rdma/ib_verbs.h>

/* Version of the rdma-core rxe provider ABI we serve (rxe's RXE_UVERBS_ABI_VERSION). */
#define UET_UVERBS_ABI_VERSION	2

#define UET_PORT		1
#define UET_GID_TBL_LEN		128

struct uet_dev {
	struct ib_device ibdev;
	/* Bound netdev; held from newlink until dealloc_driver. Immutable. */
	struct net_device *ndev;
	netdevice_tracker ndev_tracker;
	/* Last port state reported through ib_dispatch_event(); written only
	 * from the netdev notifier, which runs under RTNL.
	 */
	enum ib_port_state port_state;
};

struct uet_ucontext {
	struct ib_ucontext ibuc;
};

struct uet_pd {
	struct ib_pd ibpd;
};

static inline struct uet_dev *to_udev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct uet_dev, ibdev);
}

/* device.c */
int uet_dev_add(const char *ibdev_name, struct net_device *ndev);
struct uet_dev *uet_dev_get_by_netdev(struct net_device *ndev);
void uet_dev_put(struct uet_dev *udev);
void uet_dev_netdev_event(struct uet_dev *udev, unsigned long event);

/* pd.c */
int uet_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);
int uet_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata);

/* rxe_guard.c */
int uet_rxe_guard_init(void);
void uet_rxe_guard_exit(void);

#endif /* _UET_H */
