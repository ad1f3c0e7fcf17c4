// SPDX-License-Identifier: GPL-2.0
/* <linux/skbuff_ref.h>: __skb_frag_unref() left <linux/skbuff.h>. */
#include <linux/skbuff_ref.h>

void uet_probe(skb_frag_t *frag);
void uet_probe(skb_frag_t *frag)
{
	__skb_frag_unref(frag, false);
}
