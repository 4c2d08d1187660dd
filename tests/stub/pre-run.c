// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "pre-run": the firmware after reset, before
 * RUN_FW -- what it refuses, QUERY_FW, mailbox and MAP_FA checks, DMA
 * without bus mastering.
 */
#include <inttypes.h>

#include "conformance.h"

static void query_fw(void)
{
	uint8_t *o = outbox->va;
	unsigned int st;

	memset(o, 0xee, PAGE);
	st = cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	fw_pages = get16(o + 0x00);
	ktap_test_check(st == ST_OK && get16(o + 0x02) == 5 &&
			get16(o + 0x06) == 3 && get16(o + 0x04) == 0,
			"QUERY_FW: version 5.3.0 (major 0x02, subminor 0x04, minor 0x06)",
			"status 0x%02x, %u.%u.%u", st, get16(o + 2),
			get16(o + 6), get16(o + 4));
	ktap_test_check(fw_pages > 0 && fw_pages <= 256,
			"QUERY_FW: fw_pages at 0x00", "fw_pages %u", fw_pages);
	ktap_test_check(o[0x0f] > 0 && o[0x0f] < 16,
			"QUERY_FW: log max cmds at 0x0f", "0x%02x", o[0x0f]);
	ktap_test_check((get64(o + 0x20) & (ARBEL_BAR0_SIZE - 1)) !=
			ARBEL_HCR_BASE && get64(o + 0x40) && get64(o + 0x48),
			"QUERY_FW: clr_int / eq_arm / eq_set_ci bases",
			"%" PRIx64 " %" PRIx64 " %" PRIx64, get64(o + 0x20),
			get64(o + 0x40), get64(o + 0x48));
}

void suite_pre_run(void)
{
	struct arbel_dma_page *p;
	unsigned int st;

	ktap_print_msg("suite: pre-run");
	reset_device();
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FW_STATE) == 0 &&
			!(arbel_be32_read(dev, ARBEL_HCR_CTRL) & ARBEL_HCR_GO),
			"after reset: firmware not running, go clear",
			"state %u", arbel_dbg_read(dev, ARBEL_DBG_FW_STATE));
	check_status(cmd(OP_NOP, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		     "NOP before RUN_FW -> bad system state");
	check_status(cmd(OP_QUERY_DEV_LIM, 0, 0, 0, outbox->pa),
		     ST_BAD_SYS_STATE,
		     "QUERY_DEV_LIM before RUN_FW -> bad system state");
	check_status(cmd(OP_SET_ICM_SIZE, 0, ICM_SIZE, 0, 0), ST_BAD_SYS_STATE,
		     "SET_ICM_SIZE before RUN_FW -> bad system state");

	query_fw();

	check_status(cmd(OP_ENABLE_LAM, 0, 0, 0, outbox->pa), ST_LAM_NOT_PRE,
		     "ENABLE_LAM -> 0x22 no local memory");
	check_status(cmd(0x7fe, 0, 0, 0, 0), ST_BAD_OP,
		     "unknown opcode -> bad opcode");
	memset(outbox->va, 0, PAGE);
	st = cmd_full(OP_QUERY_FW, 0, 0, 0, outbox->pa, true, NULL);
	ktap_test_check(st != ST_TIMEOUT && get16(outbox->va + 2) == 5,
			"e bit set, no EQ: go clears, the command runs",
			"status 0x%x, major %u", st, get16(outbox->va + 2));
	check_status(cmd(OP_RUN_FW, 0, 0, 0, 0), ST_BAD_SYS_STATE,
		     "RUN_FW before MAP_FA -> bad system state");
	/* no source asks 4 KiB: taken where it is, "unconfirmed:" traced */
	memset(outbox->va, 0, PAGE);
	check_status(cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa + 0x10), ST_OK,
		     "outbox not 4 KiB aligned -> OK (unconfirmed)");
	ktap_test_check(get16(outbox->va + 0x12) == 5 &&
			get16(outbox->va + 2) == 0,
			"misaligned outbox: QUERY_FW written at its address",
			"major at +0x12: %u, at +0x02: %u",
			get16(outbox->va + 0x12), get16(outbox->va + 2));
	check_status(cmd(OP_MAP_FA, 0, 0, 1, 0), ST_BAD_PARAM,
		     "MAP_FA with null mailbox -> bad parameter");

	/* a 2-page chunk (log2size 1) at an address not 8 KiB aligned */
	p = page_alloc();
	memset(inbox->va, 0, PAGE);
	put64(inbox->va + 8, ((p->pa | 0x1000) & ~0x1fffULL) + 0x1000 + 1);
	check_status(cmd(OP_MAP_FA, 0, inbox->pa, 1, 0), ST_BAD_PARAM,
		     "MAP_FA chunk not aligned to its size -> bad parameter");

	arbel_dev_set_bus_master(dev, false);
	st = cmd(OP_QUERY_FW, 0, 0, 0, outbox->pa);
	arbel_dev_set_bus_master(dev, true);
	check_status(st, ST_INTERNAL_ERR,
		     "bus mastering off: mailbox command -> internal error");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES) == 0,
			"refused MAP_FA maps nothing", "%u pages",
			arbel_dbg_read(dev, ARBEL_DBG_FA_PAGES));
}
