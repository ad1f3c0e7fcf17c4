// SPDX-License-Identifier: GPL-2.0
/* ib_umem_get_va(), where ib_umem_get() was. */
#include <rdma/ib_umem.h>

struct ib_umem *uet_probe(struct ib_device *dev, unsigned long addr, size_t len);
struct ib_umem *uet_probe(struct ib_device *dev, unsigned long addr, size_t len)
{
	return ib_umem_get_va(dev, addr, len, 0);
}
