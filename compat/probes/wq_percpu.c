// SPDX-License-Identifier: GPL-2.0
/* WQ_PERCPU: a workqueue says it is bound to CPUs (Linux 7.x warns when
 * one says neither this nor WQ_UNBOUND).
 */
#include <linux/workqueue.h>

int uet_probe(void);
int uet_probe(void)
{
	return WQ_PERCPU;
}
