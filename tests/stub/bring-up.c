// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "bring-up": MAP_FA, RUN_FW, QUERY_DEV_LIM,
 * SET_ICM_SIZE, MAP_ICM_AUX, MAP_ICM and INIT_HCA, each with the
 * refusals of its wrong forms and of its wrong order; the firmware's
 * outputs field by field (fw-outputs.c) and INIT_HCA's layout rules
 * (hca-layout.c).
 */
#include <inttypes.h>

#include "conformance.h"

static void run_fw(void)
{
	struct arbel_dma_page *pg[1];

	/*
	 * an 8 GiB chunk (log2size 21) at 8 GiB: no source limits the chunk
	 * size ("unconfirmed:"); UNMAP_FA drops it again.  A log2size whose
	 * chunk is no 64-bit range (52: 2^64 bytes) is refused.
	 */
	memset(inbox->va, 0, PAGE);
	put64(inbox->va + 8, 0x200000000ULL | 21);
	check_status(cmd(OP_MAP_FA, 0, inbox->pa, 1, 0), ST_OK,
		     "MAP_FA log2size 21 (8 GiB) -> OK (unconfirmed)");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES) == 1u << 21,
			"... 2^21 FA pages counted", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES));
	check_status(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_OK, "UNMAP_FA of it");
	put64(inbox->va + 8, 52);
	check_status(cmd(OP_MAP_FA, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		     "MAP_FA log2size 52 (2^64 bytes) -> bad parameter");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES) == 0,
			"... nothing mapped", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES));

	check_status(map_fa(), ST_OK, "MAP_FA fw_pages single pages");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES) == fw_pages,
			"FA page counter", "%u, expected %u",
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES), fw_pages);
	check_status(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_OK, "RUN_FW");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 1,
			"state running", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
	check_status(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		     "RUN_FW twice -> bad system state");
	pg[0] = page_alloc();
	check_status(map_pages(OP_MAP_FA, pg, 1, 0), ST_BAD_SYS_STATE,
		     "MAP_FA while running -> bad system state");
	check_status(cmd(OP_NOP, 0, 0, 0, 0), ST_OK, "NOP");
	fw_query_fw();
}

static void query_dev_lim(void)
{
	uint8_t *o = outbox->va;

	memset(o, 0, PAGE);
	check_status(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa), ST_OK,
		     "QUERY_DEV_LIM");
	ktap_test_check((o[0x1d] & 0x3f) == 17,
			"DEV_LIM log max MPT (0x1d) = 17", "%u", o[0x1d] & 0x3f);
	ktap_test_check((o[0x22] & 0xf) == 4, "DEV_LIM log rsvd MPT (0x22) = 4",
			"%u", o[0x22] & 0xf);
	ktap_test_check((1u << (o[0x20] >> 4)) == RSVD_MTT,
			"DEV_LIM log rsvd MTT (0x20 high nibble) = 4", "%u",
			o[0x20] >> 4);
	ktap_test_check(get16(o + 0x92) == 64 && get16(o + 0x90) == 8,
			"DEV_LIM MPT entry 64 (0x92), MTT entry 8 (0x90)",
			"%u %u", get16(o + 0x92), get16(o + 0x90));
	ktap_test_check(o[0x4b] == 12, "DEV_LIM min page size 4K (0x4b)", "%u",
			o[0x4b]);
	ktap_test_check((1ULL << ((o[0x49] & 0x3f) + 20)) <= (8u << 20) &&
			o[0x21] >= 32 && get64(o + 0xa0) >= ICM_SIZE &&
			(o[0x65] & 0x3f) >= 16,
			"DEV_LIM UAR size <= BAR2, max MR, max ICM, max PD",
			"uar %u mr %u icm 0x%" PRIx64 " pd %u", o[0x49],
			o[0x21], get64(o + 0xa0), o[0x65]);
	fw_query_dev_lim();
	fw_query_adapter();
}

/* SET_ICM_SIZE and MAP_ICM_AUX, after the refusals before them */
static void icm_size_aux(void)
{
	struct arbel_dma_page *pg[8];
	uint64_t aux_pages = 0;
	unsigned int st, i;

	pg[0] = page_alloc();
	check_status(cmd(OP_SW2HW_MPT, 0, inbox->pa, RSVD_MPT, 0),
		     ST_BAD_SYS_STATE, "SW2HW_MPT before INIT_HCA -> bad state");
	check_status(cmd(OP_WRITE_MTT, 0, inbox->pa, 2, 0), ST_BAD_SYS_STATE,
		     "WRITE_MTT before INIT_HCA -> bad state");
	check_status(map_pages(OP_MAP_ICM, pg, 1, 0), ST_BAD_SYS_STATE,
		     "MAP_ICM before SET_ICM_SIZE -> bad state");
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		     "INIT_HCA before SET_ICM_SIZE -> bad state");
	check_status(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE + 0x10, 0, 0),
		     ST_BAD_PARAM,
		     "SET_ICM_SIZE not page multiple -> bad parameter");
	st = cmd_full(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, false, &aux_pages);
	ktap_test_check(st == ST_OK && aux_pages >= 1 && aux_pages <= 8,
			"SET_ICM_SIZE returns aux pages (imm)",
			"status 0x%02x aux %" PRIu64, st, aux_pages);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		     "INIT_HCA before MAP_ICM_AUX -> bad state");
	if (aux_pages > 8)
		aux_pages = 8;
	for (i = 0; i < aux_pages; i++)
		pg[i] = page_alloc();
	check_status(map_pages(OP_MAP_ICM_AUX, pg, aux_pages, 0), ST_OK,
		     "MAP_ICM_AUX");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES) == aux_pages,
			"aux page counter", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES));
}

static void map_icm(void)
{
	struct arbel_dma_page *pg[1];
	unsigned int i;

	/* refusals */
	pg[0] = page_alloc();
	memset(inbox->va, 0, PAGE);
	put64(inbox->va, 0x800);
	put64(inbox->va + 8, pg[0]->pa);
	check_status(cmd(OP_MAP_ICM, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		     "MAP_ICM va not page aligned -> bad parameter");
	/* no source refuses these: "unconfirmed:" in the trace, status OK */
	check_status(map_pages(OP_MAP_ICM, pg, 1, ICM_SIZE), ST_OK,
		     "MAP_ICM beyond ICM size (iPXE's doorbell page) -> OK");
	check_status(cmd(OP_UNMAP_ICM, 0, ICM_SIZE, 1, 0), ST_OK,
		     "UNMAP_ICM of it -> OK");
	memset(inbox->va, 0, PAGE);
	put64(inbox->va, 0x4000);
	put64(inbox->va + 8, (pg[0]->pa & ~0x3fffULL) + 0x1000 + 2);
	check_status(cmd(OP_MAP_ICM, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		     "MAP_ICM 16K chunk misaligned -> bad parameter");

	/* MPT pages 0..2 (page 3 stays unmapped), MTT pages 0x8000, 0x9000 */
	for (i = 0; i < 4; i++)
		icm_mpt[i] = page_alloc();
	check_status(map_pages(OP_MAP_ICM, icm_mpt, 3, MPT_BASE), ST_OK,
		     "MAP_ICM MPT pages");
	for (i = 0; i < MTT_MAPPED_PAGES; i++)
		icm_mtt[i] = page_alloc();
	check_status(map_pages(OP_MAP_ICM, icm_mtt, MTT_MAPPED_PAGES, MTT_BASE),
		     ST_OK, "MAP_ICM MTT pages");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES) ==
			3 + MTT_MAPPED_PAGES, "ICM page counter", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES));
	check_status(map_pages(OP_MAP_ICM, icm_mtt, 1, MTT_BASE), ST_OK,
		     "MAP_ICM of a mapped page again -> OK");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES) ==
			3 + MTT_MAPPED_PAGES, "ICM page counter unchanged", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES));
}

static void init_hca(void)
{
	hca_layout_rules();
	init_hca_mbox(inbox->va, MPT_BASE, 18, MTT_BASE);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_PARAM,
		     "INIT_HCA log_mpt_sz 18 > DEV_LIM 0x1d (17) -> bad parameter");
	/* the PRM leaves the layout to software: "unconfirmed:", taken */
	init_hca_mbox(inbox->va, MPT_BASE, 17, MTT_BASE);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK,
		     "INIT_HCA MPT table beyond ICM size -> OK (unconfirmed)");
	check_status(cmd(OP_CLOSE_HCA, 0, 0, 0, 0), ST_OK, "CLOSE_HCA after it");
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, ICM_SIZE + 0x1000);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK,
		     "INIT_HCA MTT base beyond ICM size -> OK (unconfirmed)");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_MTT_END_HI) == 0x10 &&
			arbel_dbg_read(dev, ARBEL_DBG_MTT_END_LO) == 0,
			"... its MTT area runs to the largest ICM (2^36)",
			"0x%x%08x", arbel_dbg_read(dev, ARBEL_DBG_MTT_END_HI),
			arbel_dbg_read(dev, ARBEL_DBG_MTT_END_LO));
	check_status(cmd(OP_CLOSE_HCA, 2, 0, 0, 0), ST_OK,
		     "CLOSE_HCA op_mod 2 -> OK (unconfirmed)");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 1,
			"... the HCA closed", "state %u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_OK, "INIT_HCA");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 2,
			"state HCA initialised", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_MTT_END_LO) == EQC_BASE,
			"MTT area ends at the next table base", "0x%x",
			arbel_dbg_read(dev, ARBEL_DBG_MTT_END_LO));
	check_status(cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0), ST_BAD_SYS_STATE,
		     "INIT_HCA twice -> bad state");
	fw_dev_lim_vs_mad();
	check_status(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0), ST_BAD_SYS_STATE,
		     "SET_ICM_SIZE after INIT_HCA -> bad state");
	check_status(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		     "UNMAP_FA while HCA initialised -> bad state");
}

void suite_bring_up(void)
{
	ktap_print_msg("suite: bring-up");
	run_fw();
	query_dev_lim();
	icm_size_aux();
	map_icm();
	init_hca();
}
