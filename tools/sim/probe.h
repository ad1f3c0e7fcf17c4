/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Probes of entropy values assumed bad, as the module's peer.c sends
 * them: a round runs as soon as a value becomes ASSUMED_BAD and then
 * every probe interval while any is, sending a control packet on each
 * value whose probe is due (uet_ev_probe_due()); the receiver answers it
 * on the same value, and an answer puts the value back in use
 * (uet_ev_probe_ok()).
 */
#ifndef _SIM_PROBE_H
#define _SIM_PROBE_H

#include <linux/types.h>

struct flow;

/* The module's default probe_interval_us (net/uet/params.c). */
#define PROBE_INTERVAL_US	10000

/* A value's state may have changed: a round now if one is due. */
void probe_arm(struct flow *f);
/* The receiver answered a probe on @ev. */
void probe_answered(struct flow *f, u16 ev);

#endif /* _SIM_PROBE_H */
