// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for writing a region's MTT entries, against arbel-stub (see
 * flow.h): the driver's CPU stores into the MTT table's ICM and the
 * firmware's WRITE_MTT must leave the same entries there, the ones worked
 * out by hand from Documentation/arbel-hw.rst, "MTT entries": the page's
 * bus address in bits 63:12, the present bit 0, big-endian.
 *
 * The pinned buffer is described by hand (fake_umem.h, DMA segments
 * only): the entries are written and read back, never used for a
 * transfer, so the addresses need no memory behind them.
 */

#include <linux/sizes.h>

#include "fake_umem.h"
#include "flow.h"
#include "mtt.h"
#include "mtt.h"

struct mtt_case {
	const char *name;
	u64 va;
	u64 length;
	unsigned int shift;
	struct fake_seg seg[3];
	int nseg;
	u64 want[4];	/* the entries, host order */
	int nwant;
};

static const struct mtt_case mtt_cases[] = {
	{
		/* 4 KiB pages: one segment of two pages between two of one */
		"4 KiB pages, 3 segments", 0x7f0000001000, SZ_16K, 12,
		{ { 0x10000, SZ_4K }, { 0x30000, SZ_8K }, { 0x50000, SZ_4K } },
		3, { 0x10001, 0x30001, 0x31001, 0x50001 }, 4,
	},
	{
		/* a sub-page buffer in the middle of its page: one entry */
		"4 KiB pages, 100 bytes at +0x234", 0x7f0000003234, 100, 12,
		{ { 0x2345000, SZ_4K } }, 1, { 0x2345001 }, 1,
	},
	{
		/* 2 MiB pages (the block iterator): one 4 MiB segment */
		"2 MiB pages, 4 MiB", 0x7f0000400000, SZ_4M, 21,
		{ { 0x40000000, SZ_4M } }, 1, { 0x40000001, 0x40200001 }, 2,
	},
};

static void mtt_desc(const struct mtt_case *k, char *desc)
{
	strscpy(desc, k->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mtt, mtt_cases, mtt_desc);

/* Compare the entries in ICM with the case's, then scribble over them. */
static void mtt_check(struct kunit *test, const struct mtt_case *k,
		      const struct arbel_mtt *mtt, const char *how)
{
	struct flow_ctx *c = test->priv;
	__be64 *ent;
	int i;

	ent = arbel_icm_table_find(&c->adev->icm[ARBEL_ICM_MTT],
				   mtt->first, NULL, NULL);
	KUNIT_ASSERT_NOT_NULL(test, ent);
	for (i = 0; i < k->nwant; i++) {
		KUNIT_EXPECT_EQ_MSG(test, be64_to_cpu(ent[i]), k->want[i],
				    "%s, entry %d", how, i);
		ent[i] = cpu_to_be64(0xdead0000);
	}
}

static void mtt_flow_entries(struct kunit *test)
{
	const struct mtt_case *k = test->param_value;
	struct flow_ctx *c = test->priv;
	struct arbel_mtt mtt = { .page_shift = k->shift, .n = k->nwant };
	struct ib_umem *umem = fake_umem(test, k->seg, k->nseg, k->va,
					 k->length);
	u32 cmds;

	KUNIT_ASSERT_EQ(test, ib_umem_num_dma_blocks(umem, 1UL << k->shift),
			(size_t)k->nwant);
	KUNIT_ASSERT_EQ(test, arbel_mtt_alloc(&c->adev->mtt, mtt.n,
					      &mtt.first), 0);
	KUNIT_ASSERT_EQ(test, arbel_mtt_icm_hold(c->adev, mtt.first,
						 mtt.n), 0);

	/* CPU stores: no command at all */
	cmds = dbg_rd(c, ARBEL_DBG_CMD_COUNT);
	KUNIT_EXPECT_EQ(test, arbel_mtt_write_direct(c->adev, &mtt, umem), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT), cmds);
	mtt_check(test, k, &mtt, "CPU stores");

	/* the firmware's WRITE_MTT: one command, the same entries */
	KUNIT_EXPECT_EQ(test, arbel_mtt_write_cmd(c->adev, &mtt, umem), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT), cmds + 1);
	mtt_check(test, k, &mtt, "WRITE_MTT");

	arbel_mtt_free(&c->adev->mtt, mtt.first, mtt.n);
	fake_umem_free(umem);
}

static struct kunit_case mtt_flow_cases[] = {
	KUNIT_CASE_PARAM(mtt_flow_entries, mtt_gen_params),
	{}
};

static struct kunit_suite arbel_mtt_flow_suite = {
	.name = "arbel_mtt_flow",
	.init = arbel_flow_init,
	.exit = arbel_flow_exit,
	.test_cases = mtt_flow_cases,
};

kunit_test_suites(&arbel_mtt_flow_suite);
