/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A pinned buffer described by hand, for the KUnit suites that take one
 * (pgsz_test.c: the page-size choice, mttflow_test.c: MTT entries): an
 * ib_umem whose SG table holds the given DMA segments and nothing else.
 * No page is pinned and no memory lies behind the addresses: the code
 * under test only reads the segments, the user address and the length.
 */
#ifndef _ARBEL_KUNIT_FAKE_UMEM_H
#define _ARBEL_KUNIT_FAKE_UMEM_H

#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <rdma/ib_umem.h>

/* one DMA segment of a hand-described buffer */
struct fake_seg {
	u64 dma;
	u32 len;
};

/*
 * The umem of @nseg segments at user address @va, @length bytes; freed
 * by fake_umem_free().  Fails the test if memory runs out.
 */
static inline struct ib_umem *fake_umem(struct kunit *test,
					const struct fake_seg *seg, int nseg,
					u64 va, u64 length)
{
	struct scatterlist *sg;
	struct ib_umem *umem;
	int i;

	umem = kunit_kzalloc(test, sizeof(*umem), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, umem);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&umem->sgt_append.sgt, nseg,
					     GFP_KERNEL), 0);
	for_each_sgtable_sg(&umem->sgt_append.sgt, sg, i) {
		sg->length = seg[i].len;
		sg_dma_address(sg) = seg[i].dma;
		sg_dma_len(sg) = seg[i].len;
	}
	umem->sgt_append.sgt.nents = nseg;
	umem->address = va;
	umem->iova = va;
	umem->length = length;
	return umem;
}

static inline void fake_umem_free(struct ib_umem *umem)
{
	sg_free_table(&umem->sgt_append.sgt);
}

#endif /* _ARBEL_KUNIT_FAKE_UMEM_H */
