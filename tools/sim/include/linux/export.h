/* SPDX-License-Identifier: GPL-2.0 */
/* One program, nothing to export: the shared files include this for the
 * kernel's build, and export through kunit/visibility.h.
 */
#ifndef _SIM_LINUX_EXPORT_H
#define _SIM_LINUX_EXPORT_H

#endif /* _SIM_LINUX_EXPORT_H */
