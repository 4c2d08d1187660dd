// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "ownership": a page the driver handed to the HCA
 * (here ICM: MAP_ICM) is the HCA's until its UNMAP_ICM.  A mailbox or a
 * data DMA that touches it, or a second hand-over of it, means the driver
 * freed memory the HCA still owned: the stub reports each (LC_STRAYS, and
 * "arbel-stub: ownership" in its log) and still does what it was told.
 * The reports here are provoked on purpose, under LC_OWN_EXPECT.
 */
#include "conformance.h"

#define OWN_VA		0x1e000ULL	/* in ICM_SIZE, outside every table */
#define OWN_VA2		0x1f000ULL
#define OWN_IDX		(RSVD_MPT + 7)	/* a physical region, pd 7 */

static uint32_t strays(void)
{
	return arbel_dbg_read(dev, ARBEL_DBG_LC_STRAYS);
}

/* @what done: one more report (@want 1) or none (@want 0) */
static void check_reports(uint32_t before, uint32_t want, const char *what)
{
	ktap_test_check(strays() == before + want, what,
			"LC_STRAYS went from %u to %u, want +%u", before,
			strays(), want);
}

static unsigned int map_one(struct arbel_dma_page *pg, uint64_t va)
{
	return map_pages(OP_MAP_ICM, &pg, 1, va);
}

void suite_ownership(void)
{
	struct arbel_dma_page *pg = page_alloc(), *buf = page_alloc();
	uint32_t key = lkey_of(hw_key(OWN_IDX, 0));
	uint32_t n;
	uint8_t e[64];

	ktap_print_msg("suite: ownership");
	arbel_dbg_write(dev, ARBEL_DBG_LC_OWN_EXPECT, 1);
	mpt_build(e, MPT_LR | MPT_PA, 0, hw_key(OWN_IDX, 0), 7, 0, ~0ULL, 0);
	check_status(sw2hw(OWN_IDX, e), ST_OK, "SW2HW_MPT a physical region");

	n = strays();
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, pg->pa), ST_OK,
		     "QUERY_FW into a page of no owner");
	xlate(key, ARBEL_XL_ACC_LOCAL_READ, pg->pa, 4, XL_TO_BUF, buf->pa,
	      NULL);
	check_reports(n, 0, "a mailbox and a data read of a free page: no report");

	check_status(map_one(pg, OWN_VA), ST_OK, "MAP_ICM the page");
	n = strays();
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, pg->pa), ST_OK,
		     "QUERY_FW's outbox in the ICM page: still done");
	check_reports(n, 1, "an outbox in an ICM page: reported");
	n = strays();
	ktap_test_check(xlate(key, ARBEL_XL_ACC_LOCAL_READ, pg->pa + 0x40, 8,
			      XL_TO_BUF, buf->pa, NULL) == ARBEL_XL_OK,
			"a data read of the ICM page: still done", "result %u",
			arbel_dbg_read(dev, ARBEL_DBG_XL_RESULT));
	check_reports(n, 1, "a data read of an ICM page: reported");
	n = strays();
	check_status(map_one(pg, OWN_VA2), ST_OK,
		     "MAP_ICM the same page at a second address: still done");
	check_reports(n, 1, "a page handed over twice: reported");

	/* the second mapping never owned it: its UNMAP leaves the first's */
	check_status(cmd(OP_UNMAP_ICM, 0, OWN_VA2, 1, 0), ST_OK,
		     "UNMAP_ICM the second address");
	n = strays();
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, pg->pa), ST_OK,
		     "QUERY_FW into it again");
	check_reports(n, 1, "still the HCA's after the second UNMAP: reported");
	check_status(cmd(OP_UNMAP_ICM, 0, OWN_VA, 1, 0), ST_OK,
		     "UNMAP_ICM the first address");
	n = strays();
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, pg->pa), ST_OK,
		     "QUERY_FW into it after its UNMAP");
	xlate(key, ARBEL_XL_ACC_LOCAL_READ, pg->pa, 4, XL_TO_BUF, buf->pa,
	      NULL);
	check_reports(n, 0, "given back by UNMAP_ICM: no report");

	check_status(cmd(OP_HW2SW_MPT, 1, 0, OWN_IDX, 0), ST_OK,
		     "HW2SW_MPT the physical region");
	arbel_dbg_write(dev, ARBEL_DBG_LC_OWN_EXPECT, 0);
}
