// SPDX-License-Identifier: GPL-2.0
/*
 * Keep rdma_rxe and rdma_uet apart. Both register devices with the rxe
 * driver id (that is how the stock rdma-core rxe provider binds to us), and
 * rxe looks devices up by that id and casts them to its own struct rxe_dev:
 * a netdev event or a RoCE packet on a netdev bound to a uet device would
 * then corrupt memory, and "rmmod rdma_rxe" would unregister our devices.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/namei.h>
#include <linux/notifier.h>

#include "uet.h"

#define RXE_MODULE "rdma_rxe"

static int uet_rxe_guard_notify(struct notifier_block *nb, unsigned long state,
				void *data)
{
	struct module *mod = data;

	if (state != MODULE_STATE_COMING || strcmp(mod->name, RXE_MODULE))
		return NOTIFY_DONE;
	pr_err("refusing to load %s while %s is loaded: both use the rxe driver id\n",
	       RXE_MODULE, KBUILD_MODNAME);
	return notifier_from_errno(-EBUSY);
}

static struct notifier_block uet_rxe_guard_nb = {
	.notifier_call = uet_rxe_guard_notify,
};

/* A loaded module, even one without parameters, has a /sys/module entry. */
static bool uet_rxe_loaded(void)
{
	struct path path;

	if (kern_path("/sys/module/" RXE_MODULE, LOOKUP_FOLLOW, &path))
		return false;
	path_put(&path);
	return true;
}

int uet_rxe_guard_init(void)
{
	int err;

	/* Veto first, then look. An rxe load that passed its COMING notifiers
	 * but has not yet created its sysfs entry slips through; that window
	 * is a few instructions of load_module() wide.
	 */
	err = register_module_notifier(&uet_rxe_guard_nb);
	if (err)
		return err;
	if (uet_rxe_loaded()) {
		pr_err("%s is loaded: unload it first, both use the rxe driver id\n",
		       RXE_MODULE);
		unregister_module_notifier(&uet_rxe_guard_nb);
		return -EBUSY;
	}
	return 0;
}

void uet_rxe_guard_exit(void)
{
	unregister_module_notifier(&uet_rxe_guard_nb);
}
