// SPDX-License-Identifier: GPL-2.0
/* The rxe mmap protocol: each user ring gets a device-unique offset that
 * create/resize hand to userspace in a struct mminfo; the process then
 * mmap()s the uverbs file at that offset, once.
 */
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <asm/shmparam.h>
#include <rdma/uverbs_ioctl.h>

#include "uet.h"
#include "uet_compat.h"

struct uet_mmap_info {
	/* One for the ring's owner, one per VMA mapping the buffer. */
	struct kref ref;
	struct uet_dev *udev;
	/* Only the process that created the ring may map it; never dereferenced. */
	struct ib_ucontext *ucontext;
	void *obj;		/* vmalloc() buffer, freed with the last ref */
	struct mminfo info;	/* offset and page-aligned size, as userspace sees them */
	/* On udev->pending_mmaps from export until mapped, under udev->mmap_lock. */
	struct list_head pending;
};

static void uet_mmap_release(struct kref *ref)
{
	struct uet_mmap_info *ip = container_of(ref, struct uet_mmap_info, ref);
	struct uet_dev *udev = ip->udev;

	/* A ring never mapped is still listed: withdraw its offset. */
	spin_lock(&udev->mmap_lock);
	list_del(&ip->pending);
	spin_unlock(&udev->mmap_lock);
	vfree(ip->obj);
	kfree(ip);
}

/* Returns the info with one reference, which owns @obj from now on: the
 * last uet_mmap_info_put() vfree()s it. Process context.
 */
struct uet_mmap_info *uet_mmap_info_create(struct uet_dev *udev, u32 size,
					   struct ib_udata *udata, void *obj)
{
	struct uet_ucontext *uctx;
	struct uet_mmap_info *ip;
	u64 len = PAGE_ALIGN((u64)size);

	if (!udata || !size || len > U32_MAX)
		return ERR_PTR(-EINVAL);
	uctx = rdma_udata_to_drv_context(udata, struct uet_ucontext, ibuc);

	ip = kzalloc(sizeof(*ip), GFP_KERNEL_ACCOUNT);
	if (!ip)
		return ERR_PTR(-ENOMEM);
	kref_init(&ip->ref);
	INIT_LIST_HEAD(&ip->pending);
	ip->udev = udev;
	ip->ucontext = &uctx->ibuc;
	ip->obj = obj;
	ip->info.size = len;

	spin_lock(&udev->mmap_lock);
	ip->info.offset = udev->mmap_offset;
	udev->mmap_offset += ALIGN(len, SHMLBA);
	spin_unlock(&udev->mmap_lock);
	return ip;
}

/* Tell userspace where to map @ip and let it do so. Process context. */
int uet_mmap_info_export(struct uet_mmap_info *ip, struct mminfo __user *out)
{
	struct uet_dev *udev = ip->udev;

	if (copy_to_user(out, &ip->info, sizeof(ip->info)))
		return -EFAULT;

	spin_lock(&udev->mmap_lock);
	list_add_tail(&ip->pending, &udev->pending_mmaps);
	spin_unlock(&udev->mmap_lock);
	return 0;
}

void uet_mmap_info_put(struct uet_mmap_info *ip)
{
	kref_put(&ip->ref, uet_mmap_release);
}

/* Fork and VMA splits duplicate the mapping: each copy holds the buffer. */
static void uet_vma_open(struct vm_area_struct *vma)
{
	struct uet_mmap_info *ip = vma->vm_private_data;

	kref_get(&ip->ref);
}

static void uet_vma_close(struct vm_area_struct *vma)
{
	uet_mmap_info_put(vma->vm_private_data);
}

static const struct vm_operations_struct uet_vm_ops = {
	.open = uet_vma_open,
	.close = uet_vma_close,
};

/* remap_vmalloc_range() wants a VM_USERMAP area, which only vmalloc_user()
 * makes, and vmalloc_user() cannot charge a memory cgroup: the rings come
 * from __vmalloc(GFP_KERNEL_ACCOUNT) and are inserted page by page.
 */
static int uet_mmap_pages(struct vm_area_struct *vma, void *obj)
{
	unsigned long addr;
	int err;

	vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	for (addr = vma->vm_start; addr < vma->vm_end; addr += PAGE_SIZE) {
		err = vm_insert_page(vma, addr, vmalloc_to_page(obj));
		if (err)
			return err;
		obj += PAGE_SIZE;
	}
	return 0;
}

int uet_mmap(struct ib_ucontext *ibuc, struct vm_area_struct *vma)
{
	struct uet_dev *udev = to_udev(ibuc->device);
	u64 offset = (u64)vma->vm_pgoff << PAGE_SHIFT;
	unsigned long size = vma->vm_end - vma->vm_start;
	struct uet_mmap_info *ip = NULL, *iter;
	int err;

	/* A private copy of a ring is useless and would hide the driver's writes. */
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;

	spin_lock(&udev->mmap_lock);
	list_for_each_entry(iter, &udev->pending_mmaps, pending) {
		if (iter->ucontext != ibuc || iter->info.offset != offset)
			continue;
		if (size > iter->info.size)
			break;
		/* The owner may be dropping its last reference right now. */
		if (!kref_get_unless_zero(&iter->ref))
			break;
		list_del_init(&iter->pending);
		ip = iter;
		break;
	}
	spin_unlock(&udev->mmap_lock);
	if (!ip)
		return -EINVAL;

	err = uet_mmap_pages(vma, ip->obj);
	if (err) {
		uet_mmap_info_put(ip);
		return err;
	}
	vma->vm_ops = &uet_vm_ops;
	vma->vm_private_data = ip;
	return 0;
}
