// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the page-size choice of a region.  Each case builds a
 * pinned-buffer description (DMA blocks) by hand; the expected page size
 * is worked out in the comment: the largest MPT page size (4 KiB .. 2 GiB)
 * at which the iova and every DMA block agree on the offset within a
 * page, and every break in physical contiguity falls on a page boundary;
 * among those giving the fewest pages, the smallest.
 */

#include <kunit/test.h>
#include <linux/sizes.h>

#include <arbel/pgsz.h>
#include "fake_umem.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

struct pgsz_case {
	const char *name;
	u64 va;		/* user address of the first byte */
	u64 length;
	struct fake_seg blk[4];
	int nblk;
	unsigned int shift;
};

static const struct pgsz_case pgsz_cases[] = {
	{
		/* 4 scattered 4 KiB pages: offsets differ at bit 12 */
		"4 KiB pages, not contiguous", 0x7f0000001000, SZ_16K,
		{ { 0x10000, SZ_4K }, { 0x30000, SZ_4K }, { 0x50000, SZ_4K },
		  { 0x70000, SZ_4K } }, 4, 12,
	},
	{
		/* one 2 MiB huge page, va and pa both 2 MiB aligned */
		"one 2 MiB huge page", 0x7f0000200000, SZ_2M,
		{ { 0x40000000, SZ_2M } }, 1, 21,
	},
	{
		/* two huge pages apart: the break at va + 2 MiB caps it */
		"two 2 MiB huge pages apart", 0x7f0000400000, SZ_4M,
		{ { 0x40000000, SZ_2M }, { 0x80000000, SZ_2M } }, 2, 21,
	},
	{
		/* 8 KiB at va ..201000 on pa ..1000: va ^ pa = 0x..200000,
		 * but the buffer spans va bits below 14 only: a 16 KiB page
		 * at pa 0x40000000 holds it whole
		 */
		"unaligned start in a huge page", 0x7f0000201000, SZ_8K,
		{ { 0x40001000, SZ_8K } }, 1, 14,
	},
	{
		/* 100 bytes at a sub-page offset: one 4 KiB page */
		"sub-page buffer", 0x7f0000201234, 100,
		{ { 0x40001000, SZ_4K } }, 1, 12,
	},
	{
		/* va and pa disagree at bit 13: 4 KiB even if contiguous */
		"contiguous but misaligned", 0x7f0000002000, SZ_16K,
		{ { 0x40001000, SZ_16K } }, 1, 12,
	},
};

static void pgsz_desc(const struct pgsz_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pgsz, pgsz_cases, pgsz_desc);

static void pgsz_test_choice(struct kunit *test)
{
	const struct pgsz_case *c = test->param_value;
	struct ib_umem *umem = fake_umem(test, c->blk, c->nblk, c->va,
					 c->length);

	KUNIT_EXPECT_EQ(test, arbel_mr_page_shift(umem, c->va), c->shift);
	fake_umem_free(umem);
}

static struct kunit_case pgsz_kcases[] = {
	KUNIT_CASE_PARAM(pgsz_test_choice, pgsz_gen_params),
	{}
};

static struct kunit_suite arbel_pgsz_suite = {
	.name = "arbel_pgsz",
	.test_cases = pgsz_kcases,
};

kunit_test_suites(&arbel_pgsz_suite);

MODULE_DESCRIPTION("KUnit tests for the Arbel page-size choice");
MODULE_LICENSE("GPL");
