/* SPDX-License-Identifier: GPL-2.0 */
/* As the kernel without CONFIG_KUNIT: nothing exported. */
#ifndef _SIM_KUNIT_VISIBILITY_H
#define _SIM_KUNIT_VISIBILITY_H

#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif /* _SIM_KUNIT_VISIBILITY_H */
