// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite arbel_fw_flow: every firmware command wrapper (fw.c) of the
 * HCA the driver bound at boot, against arbel-stub; see flow.h.
 */

#include <linux/errno.h>
#include <linux/ktime.h>
#include <linux/string.h>

#include "flow.h"

static void arm_corrupt(struct flow_ctx *c, u16 opcode, u32 off, u32 len,
			u32 every)
{
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_OFFSET, off);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_LEN, len);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_EVERY, every);
	dbg_wr(c, ARBEL_DBG_FI_CORRUPT_OPCODE, opcode);
}

/* ---- arbel_fw_flow: one case or more per wrapper ---------------------- */

static void fw_flow_query_fw(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_fw_info fw;

	memset(&fw, 0xa5, sizeof(fw));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	/* arbel-stub.rst: fw_pages 48 (default), 5.3.0, log max cmds 4. */
	KUNIT_EXPECT_EQ(test, fw.fw_pages, 48);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, fw.minor, 3);
	KUNIT_EXPECT_EQ(test, fw.subminor, 0);
	KUNIT_EXPECT_EQ(test, fw.log_max_cmds, 4);
	/*
	 * arbel-stub.rst: clr_int 0x80800, catas 0x81000 (0x10 dwords), EQ
	 * arm 0x80880, EQ set-CI 0x80900 -- as bus addresses, BAR0 + offset.
	 */
	KUNIT_EXPECT_EQ(test, fw.clr_int_base,
			pci_resource_start(c->pdev, 0) + 0x80800);
	KUNIT_EXPECT_EQ(test, fw.catas_base,
			pci_resource_start(c->pdev, 0) + 0x81000);
	KUNIT_EXPECT_EQ(test, fw.catas_size, 0x10);
	KUNIT_EXPECT_EQ(test, fw.eq_arm_base,
			pci_resource_start(c->pdev, 0) + 0x80880);
	KUNIT_EXPECT_EQ(test, fw.eq_set_ci_base,
			pci_resource_start(c->pdev, 0) + 0x80900);
	KUNIT_EXPECT_EQ(test,
			arbel_fw_bar0_offset(fw.eq_set_ci_base,
					     pci_resource_len(c->pdev, 0)),
			0x80900);
}

static void fw_flow_query_dev_lim(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_dev_lim *l;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	memset(l, 0xa5, sizeof(*l));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_dev_lim(c->cmd, l), 0);
	/* arbel-stub.rst, "QUERY_DEV_LIM values". */
	KUNIT_EXPECT_EQ(test, l->log_rsvd_qps, 6);
	KUNIT_EXPECT_EQ(test, l->log_max_qps, 18);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_srqs, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_srqs, 16);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_eecs, 0);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_cqs, 7);
	KUNIT_EXPECT_EQ(test, l->log_max_cqs, 16);
	KUNIT_EXPECT_EQ(test, l->log_max_mpts, 17);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_eqs, 0);
	KUNIT_EXPECT_EQ(test, l->log_max_eqs, 6);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_mtts, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_mr_size, 36);
	KUNIT_EXPECT_EQ(test, l->log_rsvd_mrws, 4);
	KUNIT_EXPECT_EQ(test, l->log_max_mtt_segs, 20);
	/* RC, UC, UD, SRQ, bad P_Key/Q_Key counters, atomics, AV port */
	KUNIT_EXPECT_EQ(test, l->flags, 0x00140347);
	KUNIT_EXPECT_EQ(test, l->num_ports, 2);
	/* 0x48 and 0x64 bits 7:4 are counts: 1 each (mthca: field >> 4) */
	KUNIT_EXPECT_EQ(test, l->num_rsvd_uars, 1);
	KUNIT_EXPECT_EQ(test, l->uar_size, (u64)SZ_8M);
	KUNIT_EXPECT_EQ(test, l->log_min_page_size, 12);
	KUNIT_EXPECT_EQ(test, l->num_rsvd_pds, 1);
	KUNIT_EXPECT_EQ(test, l->log_max_pds, 24);
	KUNIT_EXPECT_EQ(test, l->eec_entry_sz, 256);
	KUNIT_EXPECT_EQ(test, l->eeec_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->qpc_entry_sz, 256);
	KUNIT_EXPECT_EQ(test, l->eqpc_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->eqc_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->cqc_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->srq_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->uar_scratch_entry_sz, 32);
	KUNIT_EXPECT_EQ(test, l->mtt_entry_sz, 8);
	KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64);
	KUNIT_EXPECT_EQ(test, l->max_icm_sz, 1ULL << 36);
}

static void fw_flow_query_adapter(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	char id[32], small[6];

	memset(id, 'x', sizeof(id));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     NULL), 0);
	KUNIT_EXPECT_STREQ(test, id, STUB_BOARD_ID);
	/* A short buffer gets a truncated, terminated ID. */
	memset(small, 'x', sizeof(small));
	KUNIT_ASSERT_EQ(test, arbel_fw_query_adapter(c->cmd, small,
						     sizeof(small), NULL), 0);
	KUNIT_EXPECT_STREQ(test, small, "ARBEL");
}

/* The INTA pin is outbox byte 0x10 (mthca's QUERY_ADAPTER_INTA_PIN_OFFSET). */
static void fw_flow_query_adapter_inta_pin(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u8 pin = 0xaa;
	char id[32];

	dbg_wr(c, ARBEL_DBG_LC_INTA_PIN, 37);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     &pin), 0);
	dbg_wr(c, ARBEL_DBG_LC_INTA_PIN, 0);
	KUNIT_EXPECT_EQ(test, pin, 37);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     &pin), 0);
	KUNIT_EXPECT_EQ(test, pin, 0);
}

static void fw_flow_enable_lam(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	/* Always 0x22, "local attached memory not present": -EAGAIN. */
	KUNIT_EXPECT_EQ(test, arbel_fw_enable_lam(c->cmd), -EAGAIN);
}

/*
 * In HCA_INIT the state gate refuses with 0x04 (-ENXIO), before any of the
 * command's own checks, every command that belongs to another state.
 */
static void fw_flow_wrong_state(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_map_chunk chunk = {};
	struct arbel_mailbox *mb;
	u32 fa = dbg_rd(c, ARBEL_DBG_FA_PAGES);
	u32 aux = dbg_rd(c, ARBEL_DBG_AUX_PAGES);
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u64 aux_pages = 0x5a5a;

	KUNIT_ASSERT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	chunk.dma = mb->dma;

	KUNIT_EXPECT_EQ(test, arbel_fw_set_icm_size(c->cmd, SZ_1M, &aux_pages),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_run_fw(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_fa(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm_aux(c->cmd), -ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_init_hca(c->cmd, &c->adev->layout),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_FA, &chunk, 1),
			-ENXIO);
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM_AUX, &chunk, 1),
			-ENXIO);
	arbel_mailbox_free(c->cmd, mb);

	/* Nothing changed. */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FA_PAGES), fa);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_AUX_PAGES), aux);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

static void fw_flow_map_unmap_icm(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	struct arbel_icm_table *t = &c->adev->icm[ARBEL_ICM_MPT];
	struct arbel_map_chunk chunk[2] = {};
	struct arbel_mailbox *mb;
	u32 icm = dbg_rd(c, ARBEL_DBG_ICM_PAGES);
	u64 va;

	/*
	 * A free ICM page: the start of the MPT table's last chunk, which
	 * the driver maps only when MPTs that far up are in use (they are
	 * not: nothing has been registered).
	 */
	KUNIT_ASSERT_GT(test, t->nchunks, 1);
	KUNIT_ASSERT_EQ(test, t->mem[t->nchunks - 1].n, 0);
	va = t->place.base + (u64)(t->nchunks - 1) * t->chunk_size;

	mb = arbel_mailbox_alloc(c->cmd);
	KUNIT_ASSERT_FALSE(test, IS_ERR_OR_NULL(mb));
	chunk[0].va = va;
	chunk[0].dma = mb->dma;
	chunk[0].log_pages = 0;

	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm + 1);
	/*
	 * Mapped twice: no source refuses it, so the stub takes it (an
	 * "unconfirmed:" line in its trace) and maps nothing more.
	 */
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm + 1);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	/*
	 * Not mapped any more: no source refuses it, so the stub notes it
	 * ("unconfirmed:") and unmaps nothing.  0 pages: 0x03.
	 */
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 1), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	KUNIT_EXPECT_EQ(test, arbel_fw_unmap_icm(c->cmd, va, 0), -EINVAL);

	/* va bits 11:0 not zero: 0x03. */
	chunk[0].va = va + 0x800;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1),
			-EINVAL);
	/*
	 * log2 size 52: 4 KiB << 52 is no 64-bit range, 0x03.  (A size
	 * above 4 GiB alone is only "unconfirmed:": no source limits it.)
	 */
	chunk[0].va = va;
	chunk[0].log_pages = 52;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 1),
			-EINVAL);
	/*
	 * A refused command maps nothing: a good entry followed by one
	 * with va bits 11:0 set.
	 */
	chunk[0].log_pages = 0;
	chunk[1] = chunk[0];
	chunk[1].va = va + SZ_4K + 0x800;
	KUNIT_EXPECT_EQ(test, arbel_fw_map(c->cmd, OP_MAP_ICM, chunk, 2),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_ICM_PAGES), icm);
	/* don't leave it mapped */
	if (dbg_rd(c, ARBEL_DBG_ICM_PAGES) != icm)
		arbel_fw_unmap_icm(c->cmd, va, 1);
	arbel_mailbox_free(c->cmd, mb);
}

static void fw_flow_close_init_hca(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	/*
	 * (CLOSE_HCA with op_mod > 1 is no refusal: no source gives those
	 * values, the stub notes "unconfirmed:" and closes -- the
	 * conformance suite checks it; the driver sends 0.)
	 */
	KUNIT_ASSERT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);

	/*
	 * CLOSE_HCA forgets every EQ and MPT: the driver's EQ goes first
	 * (back to polling), as in the driver's own teardown.
	 */
	c->eq_stopped = true;
	arbel_eq_cleanup(c->adev);
	KUNIT_EXPECT_FALSE(test, c->cmd->use_events);
	c->closed = true;
	KUNIT_ASSERT_EQ(test, arbel_fw_close_hca(c->cmd), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_RUNNING);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_close_hca(c->cmd), -ENXIO);
	/*
	 * SET_ICM_SIZE, UNMAP_ICM_AUX and UNMAP_FA with ICM still mapped are
	 * not refused (no source says the firmware does; the stub only notes
	 * them), so they are not sent here: they would tear the HCA down.
	 * The conformance suite's teardown checks them.
	 */
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_RUNNING);

	/* INIT_HCA with the driver's layout brings it back. */
	KUNIT_EXPECT_EQ(test, arbel_fw_init_hca(c->cmd, &c->adev->layout), 0);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FW_STATE), FW_STATE_HCA_INIT);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_LOG_MPT_SZ), 17);
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
	/*
	 * And INIT_IB the port, as the driver's bring-up does, for the suites
	 * that send traffic after this one.  The queues the driver's kernel
	 * clients held (the MAD agents') are forgotten as the EQ was: their
	 * teardown at removal finds them gone and resets the HCA.
	 */
	KUNIT_EXPECT_EQ(test, arbel_fw_init_ib(c->cmd, 1, &c->adev->lim), 0);
}

static void fw_flow_corrupt_outbox(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 corrupted = dbg_rd(c, ARBEL_DBG_FI_CORRUPTED);
	struct arbel_fw_info fw;
	char id[32];

	/* Flip QUERY_FW's major (u16 @0x02): 5 ^ 0xffff. */
	arm_corrupt(c, OP_QUERY_FW, 0x02, 2, 0);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, fw.minor, 3);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 1);
	/* Once only. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);

	/* Every 2nd. */
	arm_corrupt(c, OP_QUERY_FW, 0x02, 2, 2);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 5);
	KUNIT_EXPECT_EQ(test, arbel_fw_query_fw(c->cmd, &fw), 0);
	KUNIT_EXPECT_EQ(test, fw.major, 0xfffa);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 3);
	dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);

	/*
	 * The board ID (VSD + 0xd0 = outbox 0xf0) with its terminator
	 * flipped: 16 non-zero bytes; the copy stops at 16 and terminates.
	 */
	arm_corrupt(c, OP_QUERY_ADAPTER, 0xf0, 16, 0);
	memset(id, 'x', sizeof(id));
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     NULL), 0);
	KUNIT_EXPECT_EQ(test, strnlen(id, sizeof(id)), 16);
	KUNIT_EXPECT_EQ(test, (u8)id[0], (u8)('A' ^ 0xff));
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 4);

	/* Clean again. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_adapter(c->cmd, id, sizeof(id),
						     NULL), 0);
	KUNIT_EXPECT_STREQ(test, id, STUB_BOARD_ID);
}

/*
 * The whole QUERY_DEV_LIM outbox flipped: the wrapper parses garbage (or
 * refuses it) but must not crash or hit undefined behaviour (UBSAN).
 */
static void fw_flow_corrupt_dev_lim(struct kunit *test)
{
	struct flow_ctx *c = test->priv;
	u32 corrupted = dbg_rd(c, ARBEL_DBG_FI_CORRUPTED);
	struct arbel_dev_lim *l;
	int err;

	l = kunit_kzalloc(test, sizeof(*l), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, l);
	arm_corrupt(c, OP_QUERY_DEV_LIM, 0, 0x100, 0);
	err = arbel_fw_query_dev_lim(c->cmd, l);
	KUNIT_EXPECT_EQ(test, dbg_rd(c, ARBEL_DBG_FI_CORRUPTED), corrupted + 1);
	KUNIT_EXPECT_TRUE_MSG(test, err == 0 || err == -EIO, "err %d", err);
	if (!err) {
		KUNIT_EXPECT_EQ(test, l->log_max_mpts, (17 ^ 0xff) & 0x3f);
		KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64 ^ 0xffff);
		KUNIT_EXPECT_EQ(test, l->max_icm_sz, ~(1ULL << 36));
	}
	/* Clean again. */
	KUNIT_EXPECT_EQ(test, arbel_fw_query_dev_lim(c->cmd, l), 0);
	KUNIT_EXPECT_EQ(test, l->mpt_entry_sz, 64);
}

static struct kunit_case fw_flow_cases[] = {
	KUNIT_CASE(fw_flow_query_fw),
	KUNIT_CASE(fw_flow_query_dev_lim),
	KUNIT_CASE(fw_flow_query_adapter),
	KUNIT_CASE(fw_flow_query_adapter_inta_pin),
	KUNIT_CASE(fw_flow_enable_lam),
	KUNIT_CASE(fw_flow_wrong_state),
	KUNIT_CASE(fw_flow_map_unmap_icm),
	KUNIT_CASE(fw_flow_close_init_hca),
	KUNIT_CASE(fw_flow_corrupt_outbox),
	KUNIT_CASE(fw_flow_corrupt_dev_lim),
	{}
};

static struct kunit_suite arbel_fw_flow_suite = {
	.name = "arbel_fw_flow",
	.init = arbel_flow_init,
	.exit = arbel_flow_exit,
	.test_cases = fw_flow_cases,
};

kunit_test_suites(&arbel_fw_flow_suite);
