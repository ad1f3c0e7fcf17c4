/* SPDX-License-Identifier: GPL-2.0 */
/* wire.h includes it; nothing of it is used here. */
#ifndef _SIM_LINUX_SIZES_H
#define _SIM_LINUX_SIZES_H

#endif /* _SIM_LINUX_SIZES_H */
