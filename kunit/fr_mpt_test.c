// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for arbel_mpt_fast_reg(): the MPT entry an IB_WR_REG_MR
 * gives a fast-registration region, against images computed by hand from
 * the PRM's arbelprm_mpt_st (Documentation/arbel-hw.rst, "The MPT
 * entry"): the key in hardware-index form (the lkey rotated right by 8),
 * status 0 (hardware-owned), r_w and local read always, the access bits,
 * log2(page size / 4 KiB), start and length high dword first, the MTT
 * address in place; and the requests it refuses.
 */

#include <kunit/test.h>
#include <linux/sizes.h>
#include <rdma/ib_verbs.h>

#include <arbel/mpt.h>

struct fr_golden {
	const char *name;
	struct arbel_fr_reg r;
	u32 image[ARBEL_MPT_DWORDS];
};

static const struct fr_golden fr_goldens[] = {
	{
		.name = "4 KiB pages, lw+rr+rw, a first byte at 0x64",
		.r = {
			.key = 0x00034e07, .pd = 5,
			.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ |
				  IB_ACCESS_REMOTE_WRITE,
			.page_size = SZ_4K, .iova = 0x123456789064ULL,
			.length = 0x1f9c, .mtt_addr = 0x201000040ULL,
		},
		.image = {
			0x00003d00,	/* rw 1<<13 | rr | lw | lr | r_w 1<<8 */
			0x00000000,	/* page_size 0: 4 KiB */
			0x0700034e,	/* 0x00034e07 rotated right by 8 */
			0x00000005,	/* pd */
			0x00001234, 0x56789064,	/* start h, l */
			0x00000000, 0x00001f9c,	/* length h, l */
			0, 0, 0,
			0x00000002,	/* MTT address bits 37:32 */
			0x01000040,	/* MTT address bits 31:3, in place */
			0, 0, 0,
		},
	},
	{
		.name = "2 MiB pages, lw+atomic, the largest PD",
		.r = {
			.key = 0xabcdefff, .pd = 0xffffff,
			.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC,
			.page_size = SZ_2M, .iova = 0x40000000ULL,
			.length = 0x400000, .mtt_addr = 0x3ffffffff8ULL,
		},
		.image = {
			0x00004d00,	/* a 1<<14 | lw | lr | r_w */
			0x00000009,	/* page_size 9: 4 KiB << 9 */
			0xffabcdef,
			0x00ffffff,
			0x00000000, 0x40000000,
			0x00000000, 0x00400000,
			0, 0, 0,
			0x0000003f,
			0xfffffff8,
			0, 0, 0,
		},
	},
};

static void fr_golden_desc(const struct fr_golden *g, char *desc)
{
	strscpy(desc, g->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fr_golden, fr_goldens, fr_golden_desc);

static void fr_mpt_golden(struct kunit *test)
{
	const struct fr_golden *g = test->param_value;
	__be32 img[ARBEL_MPT_DWORDS];
	int i;

	KUNIT_ASSERT_EQ(test, arbel_mpt_fast_reg(&g->r, img), 0);
	for (i = 0; i < ARBEL_MPT_DWORDS; i++)
		KUNIT_EXPECT_EQ_MSG(test, be32_to_cpu(img[i]), g->image[i],
				    "dword %d", i);
}

/* what arbel_mpt_fast_reg() refuses; the image is left untouched */
static void fr_mpt_refused(struct kunit *test)
{
	static const struct {
		u32 page_size;
		int access;
		u32 pd;
	} bad[] = {
		{ SZ_2K, IB_ACCESS_LOCAL_WRITE, 1 },	/* below 4 KiB */
		{ 3 * SZ_4K, IB_ACCESS_LOCAL_WRITE, 1 },	/* not a power of 2 */
		{ SZ_4K, IB_ACCESS_REMOTE_WRITE, 1 },	/* no local write */
		{ SZ_4K, IB_ACCESS_REMOTE_ATOMIC, 1 },	/* the same */
		{ SZ_4K, IB_ACCESS_LOCAL_WRITE | IB_ZERO_BASED, 1 },
		{ SZ_4K, IB_ACCESS_ON_DEMAND, 1 },
		{ SZ_4K, IB_ACCESS_LOCAL_WRITE, 1 << 24 },	/* PD too wide */
	};
	__be32 img[ARBEL_MPT_DWORDS];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct arbel_fr_reg r = {
			.key = 0x100, .pd = bad[i].pd, .access = bad[i].access,
			.page_size = bad[i].page_size, .length = SZ_4K,
		};

		memset(img, 0xa5, sizeof(img));
		KUNIT_EXPECT_NE_MSG(test, arbel_mpt_fast_reg(&r, img), 0,
				    "case %d", i);
		for (j = 0; j < ARBEL_MPT_DWORDS; j++)
			KUNIT_EXPECT_EQ_MSG(test, be32_to_cpu(img[j]),
					    0xa5a5a5a5, "case %d dword %d", i, j);
	}
}

static struct kunit_case fr_mpt_cases[] = {
	KUNIT_CASE_PARAM(fr_mpt_golden, fr_golden_gen_params),
	KUNIT_CASE(fr_mpt_refused),
	{}
};

static struct kunit_suite arbel_fr_mpt_suite = {
	.name = "arbel_mpt_fast_reg",
	.test_cases = fr_mpt_cases,
};

kunit_test_suites(&arbel_fr_mpt_suite);
