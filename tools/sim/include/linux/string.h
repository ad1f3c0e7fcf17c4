/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _SIM_LINUX_STRING_H
#define _SIM_LINUX_STRING_H

#include <string.h>

#endif /* _SIM_LINUX_STRING_H */
