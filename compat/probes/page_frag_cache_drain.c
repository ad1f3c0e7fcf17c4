// SPDX-License-Identifier: GPL-2.0
/* page_frag_cache_drain(): a cache emptied without reading its
 * members.
 */
#include <linux/skbuff.h>

void uet_probe(struct page_frag_cache *nc);
void uet_probe(struct page_frag_cache *nc)
{
	page_frag_cache_drain(nc);
}
