// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "teardown": CLOSE_HCA, UNMAP_ICM, UNMAP_ICM_AUX
 * and UNMAP_FA.  Out of order, or of pages not mapped, they are not
 * refused: no source states such a refusal, so the stub only notes it
 * ("unconfirmed:" in the trace, checked by trace_checks.py).
 */
#include "conformance.h"

void suite_teardown(void)
{
	unsigned int left;

	ktap_print_msg("suite: teardown");
	check_status(cmd(OP_CLOSE_HCA, 0, 0, 0, 0), ST_OK, "CLOSE_HCA");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 1,
			"state back to running", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
	check_status(cmd(OP_SW2HW_MPT, 0, inbox->pa, RSVD_MPT, 0),
		     ST_BAD_SYS_STATE, "SW2HW_MPT after CLOSE_HCA -> bad state");
	check_status(cmd(OP_UNMAP_ICM, 0, MPT_BASE + 0x10, 1, 0), ST_BAD_PARAM,
		     "UNMAP_ICM misaligned -> bad parameter");
	check_status(cmd(OP_UNMAP_ICM, 0, MPT_BASE, 4, 0), ST_OK,
		     "UNMAP_ICM of 3 mapped MPT pages and 1 unmapped: done, noted");
	check_status(cmd(OP_UNMAP_ICM_AUX, 0, 0, 0, 0), ST_OK,
		     "UNMAP_ICM_AUX with MTT pages still mapped: done, noted");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES) == 0 &&
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES) ==
			MTT_MAPPED_PAGES,
			"only the MTT pages left mapped", "icm %u aux %u",
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES));
	check_status(cmd(OP_UNMAP_ICM, 0, MTT_BASE, MTT_MAPPED_PAGES, 0), ST_OK,
		     "UNMAP_ICM MTT pages");
	check_status(cmd(OP_UNMAP_FA, 0, 0, 0, 0), ST_OK, "UNMAP_FA");
	left = arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES) |
	       arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES) |
	       arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES);
	ktap_test_check(left == 0 && arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 0,
			"teardown: nothing left mapped, firmware stopped",
			"icm %u aux %u fa %u state %u",
			arbel_dbg_read(dev, ARBEL_DBG_ICM_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_AUX_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES),
			arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
}
