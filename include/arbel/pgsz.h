/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page size of a memory region's MPT entry.
 */
#ifndef _ARBEL_PGSZ_H
#define _ARBEL_PGSZ_H

#include <linux/bits.h>
#include <rdma/ib_umem.h>

#include <arbel/prm.h>

/* Page sizes an MPT expresses: 4 KiB << 0 .. 4 KiB << 19. */
#define ARBEL_MPT_PAGE_SIZES	GENMASK_ULL(ARBEL_MPT_PAGE_SHIFT_BASE + \
					    ARBEL_MPT_PAGE_SIZE_LIMIT - 1, \
					    ARBEL_MPT_PAGE_SHIFT_BASE)

unsigned int arbel_mr_page_shift(struct ib_umem *umem, u64 iova);

#endif /* _ARBEL_PGSZ_H */
