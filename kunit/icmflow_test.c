// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite arbel_icm_flow: ICM chunks the HCA may still own are never
 * freed (issue #11, finding 3), against arbel-stub; see flow.h.
 *
 * Each case builds a private ICM table over the last chunk of the MPT
 * table's ICM range (the driver maps it only when MPTs that far up are in
 * use; they are not), so that the bound device's own tables are not
 * touched.  The firmware refuses UNMAP_ICM, or holds MAP_ICM past the
 * timeout; the chunk must stay allocated (the firmware may still write
 * it) until arbel_icm_table_hca_reset() says the HCA was reset.  And
 * (finding 6) a chunk is made of smaller blocks, all in one MAP_ICM, when
 * 256 KiB of contiguous memory is not to be had (forced with max_block).
 */

#include <linux/errno.h>
#include <linux/iopoll.h>
#include <linux/slab.h>

#include "flow.h"

/* arbel-hw.rst, "Status codes": 0x06 resource busy */
#define T_STATUS_BUSY		0x06
/* a 256 KiB chunk is 64 pages of 4 KiB (arbel-hw.rst, "ICM") */
#define T_CHUNK_PAGES		64

struct icm_case {
	struct arbel_icm_table t;
	u32 last;	/* the private table's one object in its last chunk */
	u64 va;		/* that chunk's ICM address */
};

static void icm_case_init(struct kunit *test, struct icm_case *k)
{
	struct flow_ctx *c = test->priv;
	const struct arbel_icm_table *mpt = &c->adev->icm[ARBEL_ICM_MPT];
	u32 per_chunk = mpt->chunk_size / ARBEL_MPT_ENTRY_SIZE;

	KUNIT_ASSERT_GT(test, mpt->nchunks, 1);
	KUNIT_ASSERT_EQ(test, mpt->mem[mpt->nchunks - 1].n, 0);
	memset(&k->t, 0, sizeof(k->t));
	k->t.cmd = c->cmd;
	k->t.dev = &c->pdev->dev;
	k->t.place = mpt->place;
	k->t.chunk_size = mpt->chunk_size;
	k->t.nchunks = mpt->nchunks;
	k->t.mem = kunit_kcalloc(test, k->t.nchunks, sizeof(*k->t.mem),
				 GFP_KERNEL);
	k->t.refcount = kunit_kcalloc(test, k->t.nchunks,
				      sizeof(*k->t.refcount), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, k->t.mem);
	KUNIT_ASSERT_NOT_NULL(test, k->t.refcount);
	mutex_init(&k->t.lock);
	k->last = (mpt->nchunks - 1) * per_chunk;
	k->va = mpt->place.base + (u64)(mpt->nchunks - 1) * mpt->chunk_size;
}

/*
 * A held chunk: unmapped by hand if the stub maps it (for the later
 * cases), then "the HCA was reset" must free it.
 */
static void unmap_then_reset(struct kunit *test, struct icm_case *k, u32 icm)
{
	struct flow_ctx *c = test->priv;

	if (dbg_rd(c, ARBEL_DBG_ICM_PAGES) != icm)
		KUNIT_EXPECT_EQ(test,
				arbel_fw_unmap_icm(c->cmd, k->va,
						   T_CHUNK_PAGES), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	arbel_icm_table_hca_reset(&k->t);
	KUNIT_EXPECT_EQ(test, k->t.mem[k->t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k->t.held, 0);
}

/* A refused UNMAP_ICM: the chunk is held, the device marked failed. */
static void icm_flow_refused_unmap(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u32 failed = dbg_rd(c, ARBEL_DBG_FI_FAILED);
	struct icm_case k;
	int err = 0;

	icm_case_init(test, &k);
	KUNIT_ASSERT_EQ(test, arbel_icm_table_get_range(&k.t, k.last, k.last),
			0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES),
			icm + T_CHUNK_PAGES);

	dbg_wr(c, ARBEL_DBG_FI_FAIL_STATUS, T_STATUS_BUSY);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_EVERY, 0);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_OPCODE, OP_UNMAP_ICM);
	arbel_icm_table_put_range(&k.t, k.last, k.last);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_FAILED), failed + 1);

	/* still the HCA's: mapped in the stub, allocated in the driver */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES),
			icm + T_CHUNK_PAGES);
	KUNIT_EXPECT_NE(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.refcount[k.t.nchunks - 1], 0);
	KUNIT_EXPECT_EQ(test, k.t.held, 1);
	/* escalated: no command is posted any more */
	KUNIT_EXPECT_TRUE(test, arbel_cmd_failed(c->cmd));
	/* a held chunk is not handed out again */
	KUNIT_EXPECT_EQ(test, arbel_icm_table_get_range(&k.t, k.last, k.last),
			-EIO);
	KUNIT_EXPECT_NE(test, k.t.mem[k.t.nchunks - 1].n, 0);

	arbel_flow_unfail(test, c->cmd->timeout_ms);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES),
			icm + T_CHUNK_PAGES);
	unmap_then_reset(test, &k, icm);
	/* after a reset a failing UNMAP_ICM frees at once */
	KUNIT_ASSERT_EQ(test, arbel_icm_table_get_range(&k.t, k.last, k.last),
			0);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_OPCODE, OP_UNMAP_ICM);
	arbel_icm_table_put_range(&k.t, k.last, k.last);
	KUNIT_EXPECT_EQ(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.held, 0);
	arbel_flow_unfail(test, c->cmd->timeout_ms);
	if (dbg_rd(c, ARBEL_DBG_ICM_PAGES) != icm)
		err = arbel_fw_unmap_icm(c->cmd, k.va, T_CHUNK_PAGES);
	KUNIT_EXPECT_EQ(test, err, 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	mutex_destroy(&k.t.lock);
}

/* MAP_ICM past the timeout: the firmware may map the chunk: held. */
static void icm_flow_map_timeout(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	struct icm_case k;
	int err;

	icm_case_init(test, &k);
	arbel_flow_hold(test, OP_MAP_ICM, 50, 500);

	err = arbel_icm_table_get_range(&k.t, k.last, k.last);
	KUNIT_EXPECT_EQ(test, err, -ETIMEDOUT);
	KUNIT_EXPECT_TRUE(test, arbel_cmd_failed(c->cmd));
	KUNIT_EXPECT_NE(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.refcount[k.t.nchunks - 1], 0);
	KUNIT_EXPECT_EQ(test, k.t.held, 1);

	/*
	 * The held MAP_ICM completes late, reading a mailbox the driver has
	 * freed by then (see "Failure policy", mailboxes): mapped or not,
	 * the chunk was kept, which is what this case is about.
	 */
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
	arbel_flow_unfail(test, c->saved_timeout_ms);
	unmap_then_reset(test, &k, icm);
	mutex_destroy(&k.t.lock);
}

/*
 * MAP_ICM outstanding when the card is pulled (-ENODEV, event mode): the
 * firmware may have mapped the chunk before it went: held, not freed.
 */
static void icm_flow_map_pulled(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	struct icm_case k;
	int err;

	icm_case_init(test, &k);
	arbel_flow_hold(test, OP_MAP_ICM, 20000, U32_MAX);
	arbel_flow_pull_after(test, 100);

	err = arbel_icm_table_get_range(&k.t, k.last, k.last);
	KUNIT_EXPECT_EQ(test, err, -ENODEV);
	KUNIT_EXPECT_TRUE(test, arbel_cmd_failed(c->cmd));
	KUNIT_EXPECT_NE(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.refcount[k.t.nchunks - 1], 0);
	KUNIT_EXPECT_EQ(test, k.t.held, 1);

	/* back in the slot, the held MAP_ICM completes (see map_timeout) */
	arbel_flow_plug_back(test);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
	arbel_flow_unfail(test, c->saved_timeout_ms);
	unmap_then_reset(test, &k, icm);
	mutex_destroy(&k.t.lock);
}

/* A MAP_ICM the firmware refuses maps nothing: freed at once. */
static void icm_flow_map_refused(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	struct icm_case k;

	icm_case_init(test, &k);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_STATUS, T_STATUS_BUSY);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_EVERY, 0);
	dbg_wr(c, ARBEL_DBG_FI_FAIL_OPCODE, OP_MAP_ICM);
	/* 0x06 -> -EBUSY (arbel-hw.rst, "Status codes") */
	KUNIT_EXPECT_EQ(test, arbel_icm_table_get_range(&k.t, k.last, k.last),
			-EBUSY);
	KUNIT_EXPECT_EQ(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.held, 0);
	KUNIT_EXPECT_FALSE(test, arbel_cmd_failed(c->cmd));
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	mutex_destroy(&k.t.lock);
}

struct split_param {
	u32 max_block;	/* what the table is told */
	u32 block;	/* the block size wanted */
};

static const struct split_param split_params[] = {
	{ SZ_128K, SZ_128K }, { SZ_16K, SZ_16K }, { SZ_4K, SZ_4K },
	/* not a power of two: the next one down */
	{ 12 * SZ_1K, SZ_8K },
	/* below a page: a page */
	{ SZ_1K, SZ_4K },
};

static void split_desc(const struct split_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "max_block %u KiB",
		 p->max_block / SZ_1K);
}

KUNIT_ARRAY_PARAM(split, split_params, split_desc);

/* The fallback to smaller blocks: one MAP_ICM maps them all. */
static void icm_flow_split(struct kunit *test)
{
	const struct split_param *p = test->param_value;
	struct flow_ctx *c = test->priv;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u32 cmds = dbg_rd(c, ARBEL_DBG_CMD_COUNT);
	struct arbel_icm_area *a;
	struct icm_case k;
	int i;

	icm_case_init(test, &k);
	k.t.max_block = p->max_block;
	KUNIT_ASSERT_EQ(test, arbel_icm_table_get_range(&k.t, k.last, k.last),
			0);
	a = &k.t.mem[k.t.nchunks - 1];
	KUNIT_EXPECT_EQ(test, a->n, SZ_256K / p->block);
	for (i = 0; i < a->n; i++) {
		KUNIT_EXPECT_EQ(test, a->mem[i].size, p->block);
		KUNIT_EXPECT_EQ(test, a->mem[i].dma & (p->block - 1), 0);
	}
	KUNIT_EXPECT_EQ(test, k.t.split, 1);
	/* the whole chunk is mapped, by one command (<= 256 blocks) */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES),
			icm + T_CHUNK_PAGES);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_CMD_COUNT), cmds + 1);

	arbel_icm_table_put_range(&k.t, k.last, k.last);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	KUNIT_EXPECT_EQ(test, k.t.mem[k.t.nchunks - 1].n, 0);
	KUNIT_EXPECT_EQ(test, k.t.split, 0);
	KUNIT_EXPECT_FALSE(test, arbel_cmd_failed(c->cmd));
	mutex_destroy(&k.t.lock);
}

static struct kunit_case icm_flow_cases[] = {
	KUNIT_CASE(icm_flow_refused_unmap),
	KUNIT_CASE(icm_flow_map_timeout),
	KUNIT_CASE(icm_flow_map_pulled),
	KUNIT_CASE(icm_flow_map_refused),
	KUNIT_CASE_PARAM(icm_flow_split, split_gen_params),
	{}
};

static struct kunit_suite arbel_icm_flow_suite = {
	.name = "arbel_icm_flow",
	.init = arbel_flow_init,
	.exit = arbel_flow_exit,
	.test_cases = icm_flow_cases,
};

kunit_test_suites(&arbel_icm_flow_suite);
