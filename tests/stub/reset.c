// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "reset": a second bring-up, then the reset
 * register -- what it ignores, what it drops -- and BAR0's access widths.
 */
#include "conformance.h"

/* bring up again, partly checked: the suites before tested each step */
static void bring_up_again(void)
{
	struct arbel_dma_page *pg[1];
	uint64_t imm;
	uint8_t e[64];

	map_fa();
	cmd(OP_RUN_FW, 0, 0, 0, 0);
	cmd_full(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0, false, &imm);
	pg[0] = page_alloc();
	map_pages(OP_MAP_ICM_AUX, pg, 1, 0);
	map_pages(OP_MAP_ICM, icm_mpt, 3, MPT_BASE);
	map_pages(OP_MAP_ICM, icm_mtt, 2, MTT_BASE);
	init_hca_mbox(inbox->va, MPT_BASE, LOG_MPT, MTT_BASE);
	cmd(OP_INIT_HCA, 0, inbox->pa, 0, 0);
	mpt_build(e, MPT_LR | MPT_PA, 0, hw_key(RSVD_MPT, 0), 1, 0, 0, 0);
	sw2hw(RSVD_MPT, e);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 2 &&
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 1,
			"second bring-up works", "state %u mpts %u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE),
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
}

void suite_reset(void)
{
	volatile uint8_t *bar0 = dev->bar0;

	ktap_print_msg("suite: reset");
	bring_up_again();
	arbel_be32_write(dev, ARBEL_RESET_REG, 2);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 2,
			"reset register: value other than 1 ignored",
			"state %u", arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));

	arbel_fi_hold(dev, 0, ARBEL_FI_HOLD_FOREVER);
	hcr_post(OP_NOP, 0, 0, 0, 0, false);
	reset_device();
	arbel_fi_release(dev);
	ktap_test_check(!(arbel_be32_read(dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO),
			"reset clears a held go bit", "0x%08x",
			arbel_be32_read(dev, ARBEL_HCR_CTRL));
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 0 &&
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES) == 0 &&
			arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES) == 0 &&
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES) == 0 &&
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 0,
			"reset drops all mappings and MPTs",
			"state %u icm %u aux %u fa %u mpts %u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE),
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
	check_status(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa),
		     ST_BAD_SYS_STATE, "after reset: QUERY_DEV_LIM -> bad state");
	ktap_test_check(xlate(0, ARBEL_XL_ACC_LOCAL_READ, 0, 4, XL_TO_BUF,
			      outbox->pa, NULL) == ARBEL_XL_NOT_RUNNING,
			"after reset: translation refused", "result %u",
			arbel_dbg_read(dev, ARBEL_DBG_XL_RESULT));

	/* only aligned 32-bit accesses count */
	arbel_be32_write(dev, ARBEL_HCR_BASE + 0x08, 0x11223344);
	*(volatile uint8_t *)(bar0 + ARBEL_HCR_BASE + 0x08) = 0x99;
	*(volatile uint16_t *)(bar0 + ARBEL_HCR_BASE + 0x0a) = 0x9999;
	ktap_test_check(arbel_be32_read(dev, ARBEL_HCR_BASE + 0x08) == 0x11223344,
			"8/16-bit HCR writes are ignored", "0x%08x",
			arbel_be32_read(dev, ARBEL_HCR_BASE + 0x08));
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa), ST_OK,
		     "QUERY_FW works after reset");
}
