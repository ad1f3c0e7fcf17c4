// SPDX-License-Identifier: GPL-2.0
/* vm_flags_set(): vma->vm_flags became read-only. */
#include <linux/mm.h>

void uet_probe(struct vm_area_struct *vma);
void uet_probe(struct vm_area_struct *vma)
{
	vm_flags_set(vma, VM_DONTEXPAND);
}
