// SPDX-License-Identifier: GPL-2.0
/*
 * rdma_uet_test.ko: the KUnit suites of rdma_uet's pure logic (the
 * *_test.c files beside this one), apart from the module they test, as
 * net/mptcp builds its own. They run when the module loads; rdma_uet
 * exports what they call only to KUnit's namespace, and only on a kernel
 * with KUnit.
 */
#include <linux/module.h>

MODULE_DESCRIPTION("KUnit suites of rdma_uet");
MODULE_LICENSE("GPL");
/* What MODULE_IMPORT_NS() makes of the namespace on every kernel: 6.13
 * took its argument from an identifier to a string literal.
 */
MODULE_INFO(import_ns, "EXPORTED_FOR_KUNIT_TESTING");
