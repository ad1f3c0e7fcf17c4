// SPDX-License-Identifier: GPL-2.0
/*
 * Protection domains. A PD carries no state of its own yet: the core keeps
 * the object, and MRs and QPs check that they share one.
 */
#include "uet.h"

int uet_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}

int uet_dealloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	return 0;
}
