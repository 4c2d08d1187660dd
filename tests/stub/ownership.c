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

/* QUERY_FW with its outbox in @pg: done, with @want reports (0 or 1) */
static void outbox_into(struct arbel_dma_page *pg, uint32_t want,
			const char *what)
{
	uint32_t n = strays();
	unsigned int st = cmd(OP_QUERY_FW, 0, 0, 0, pg->pa);

	ktap_test_check(st == ST_OK && strays() == n + want, what,
			"status 0x%x, LC_STRAYS +%u, want +%u", st, strays() - n,
			want);
}

/* 8 bytes of @pg read through the physical region @key into @buf */
static void data_read_of(uint32_t key, struct arbel_dma_page *pg,
			 struct arbel_dma_page *buf, uint32_t want,
			 const char *what)
{
	uint32_t n = strays();
	unsigned int r = xlate(key, ARBEL_XL_ACC_LOCAL_READ, pg->pa + 0x40, 8,
			       XL_TO_BUF, buf->pa, NULL);

	ktap_test_check(r == ARBEL_XL_OK && strays() == n + want, what,
			"result %u, LC_STRAYS +%u, want +%u", r, strays() - n,
			want);
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

	outbox_into(pg, 0, "an outbox in a page of no owner: no report");
	data_read_of(key, pg, buf, 0, "a data read of it: no report");

	check_status(map_one(pg, OWN_VA), ST_OK, "MAP_ICM the page");
	outbox_into(pg, 1, "an outbox in an ICM page: done and reported");
	data_read_of(key, pg, buf, 1, "a data read of it: done and reported");
	n = strays();
	check_status(map_one(pg, OWN_VA2), ST_OK,
		     "MAP_ICM the same page at a second address: done");
	ktap_test_check(strays() == n + 1, "a page handed over twice: reported",
			"LC_STRAYS +%u, want +1", strays() - n);

	/* the second mapping never owned it: its UNMAP leaves the first's */
	check_status(cmd(OP_UNMAP_ICM, 0, OWN_VA2, 1, 0), ST_OK,
		     "UNMAP_ICM the second address");
	outbox_into(pg, 1, "still the HCA's after the second UNMAP: reported");
	check_status(cmd(OP_UNMAP_ICM, 0, OWN_VA, 1, 0), ST_OK,
		     "UNMAP_ICM the first address");
	outbox_into(pg, 0, "an outbox in it after its UNMAP: no report");
	data_read_of(key, pg, buf, 0, "a data read of it: no report either");

	check_status(cmd(OP_HW2SW_MPT, 1, 0, OWN_IDX, 0), ST_OK,
		     "HW2SW_MPT the physical region");
	arbel_dbg_write(dev, ARBEL_DBG_LC_OWN_EXPECT, 0);
}
