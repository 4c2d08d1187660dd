// SPDX-License-Identifier: GPL-2.0-only
/*
 * Page-size choice for a region: the largest MPT page size that every
 * DMA block of the pinned buffer and the iova agree on, as the kernel's
 * ib_umem_find_best_pgsz() computes it, never below PAGE_SIZE.
 */

#include <linux/bitops.h>
#include <linux/mm.h>
#include <kunit/visibility.h>

#include <arbel/pgsz.h>

/**
 * arbel_mr_page_shift() - log2 of the page size for a region's MPT
 * @umem: the pinned buffer
 * @iova: the region's first virtual address
 *
 * A buffer on 2 MiB huge pages aligned at 2 MiB gets 2 MiB pages (one MTT
 * entry each); physically contiguous runs of small pages get larger pages
 * too; otherwise PAGE_SIZE.
 *
 * Context: any.
 * Return: the shift, or 0 if no page size the MPT expresses fits.
 */
unsigned int arbel_mr_page_shift(struct ib_umem *umem, u64 iova)
{
	unsigned long pgsz;

	pgsz = ib_umem_find_best_pgsz(umem, ARBEL_MPT_PAGE_SIZES &
				      ~((u64)PAGE_SIZE - 1), iova);
	return pgsz ? __ffs(pgsz) : 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mr_page_shift);
