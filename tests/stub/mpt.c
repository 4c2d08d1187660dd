// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "mpt": SW2HW_MPT, QUERY_MPT and HW2SW_MPT --
 * every refusal of a wrong entry or index that a source states, the
 * entries no source refuses taken (Documentation/arbel-stub.rst, "Checks
 * and their sources": "unconfirmed:" in the trace), then where a valid
 * entry lands in ICM and how ownership goes back and forth.
 */
#include "conformance.h"

#define MPT_IDX		(RSVD_MPT + 1)
#define MPT_MTT		(MTT_BASE + RSVD_MTT * 8)

/* @e with the 32-bit word at byte @off set to @val, refused with 0x03 */
static void refuse_word(const uint8_t *e, unsigned int off, uint32_t val,
			const char *name)
{
	uint8_t bad[64];

	memcpy(bad, e, 64);
	put32(bad + off, val);
	check_status(sw2hw(MPT_IDX, bad), ST_BAD_PARAM, name);
}

/*
 * @e with the 32-bit word at byte @off set to @val: no source refuses it,
 * so the stub takes it (and traces "unconfirmed:", trace_checks.py); the
 * entry in ICM is the one given, then HW2SW_MPT gives the slot back.
 */
static void take_word(const uint8_t *e, unsigned int off, uint32_t val,
		      const char *name)
{
	uint8_t *slot = icm_mpt_slot(MPT_IDX);
	uint8_t odd[64];

	memcpy(odd, e, 64);
	put32(odd + off, val);
	check_status(sw2hw(MPT_IDX, odd), ST_OK, name);
	if (off == 0)		/* the status nibble: 0, hardware-owned */
		val &= 0x0fffffff;
	ktap_test_check(get32(slot + off) == val,
			"... the entry in ICM as given", "word 0x%x: 0x%08x",
			off, get32(slot + off));
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_OK,
		     "... HW2SW_MPT gives the slot back");
}

static void sw2hw_refusals(const uint8_t *e)
{
	uint8_t bad[64];

	check_status(sw2hw(3, e), ST_BAD_RESOURCE,
		     "SW2HW_MPT reserved index -> 0x05");
	check_status(sw2hw(NUM_MPT, e), ST_BAD_INDEX,
		     "SW2HW_MPT index >= 2^log_mpt_sz -> 0x0a");
	mpt_build(bad, MPT_LR, 0, hw_key(NUM_MPT - 1, 1), 1, 0, 0x1000,
		  MPT_MTT);
	check_status(sw2hw(NUM_MPT - 1, bad), ST_BAD_RESOURCE,
		     "SW2HW_MPT slot in unmapped ICM -> 0x05");
	/* what the PRM's arbelprm_mpt_st states */
	refuse_word(e, 32, 0x1234, "SW2HW_MPT lkey != 0 -> 0x03 (PRM)");
	refuse_word(e, 4, 20, "SW2HW_MPT page_size 20 -> 0x03 (PRM < 20)");
	refuse_word(e, 4, 1u << 7,
		    "SW2HW_MPT region with type 1 -> 0x03 (PRM)");
	refuse_word(e, 48, MPT_MTT + 4,
		    "SW2HW_MPT mtt_adr not 8-byte aligned -> 0x03 (PRM)");
	/* length 2^36 + 1: QUERY_DEV_LIM 0x21, max MR size 2^36 */
	memcpy(bad, e, 64);
	put32(bad + 24, 0x10);
	put32(bad + 28, 1);
	check_status(sw2hw(MPT_IDX, bad), ST_BAD_PARAM,
		     "SW2HW_MPT region longer than 2^36 (DEV_LIM 0x21) -> 0x03");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 0,
			"refused SW2HW_MPT leaves no entry", "%u HW-owned",
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
}

/* what no source refuses: taken, "unconfirmed:" in the trace */
static void sw2hw_unconfirmed(const uint8_t *e)
{
	uint8_t *slot = icm_mpt_slot(MPT_IDX);

	take_word(e, 8, hw_key(MPT_IDX + 1, 0x5a),
		  "SW2HW_MPT mem_key index bits != slot -> OK (unconfirmed)");
	take_word(e, 0, get32(e) | 1,
		  "SW2HW_MPT reserved bit (dword0 bit 0) -> OK (unconfirmed)");
	take_word(e, 60, 1,
		  "SW2HW_MPT reserved dword 15 -> OK (unconfirmed)");
	/* win_cnt 3 taken; the region then counts as bound (0x21) */
	memcpy(inbox->va, e, 64);
	put32(inbox->va + 36, 3);
	check_status(cmd(OP_SW2HW_MPT, 0, inbox->pa, MPT_IDX, 0), ST_OK,
		     "SW2HW_MPT win_cnt 3 -> OK (unconfirmed)");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_REG_BOUND,
		     "... HW2SW_MPT then -> 0x21, the windows it claims");
	put32(slot + 36, 0);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_OK,
		     "... HW2SW_MPT gives the slot back");
	/* a relative offset, not the absolute ICM address */
	take_word(e, 48, RSVD_MTT * 8,
		  "SW2HW_MPT mtt_adr below the MTT area -> OK (unconfirmed)");
	take_word(e, 48, (uint32_t)MTT_BASE,
		  "SW2HW_MPT MTTs in the reserved range -> OK (unconfirmed)");
	/* 2 pages need 2 MTTs */
	take_word(e, 48, (uint32_t)EQC_BASE - 8,
		  "SW2HW_MPT MTT range past the MTT area -> OK (unconfirmed)");
	/* op_mod 1: mthca sends 0, no source gives others */
	memcpy(inbox->va, e, 64);
	check_status(cmd(OP_SW2HW_MPT, 1, inbox->pa, MPT_IDX, 0), ST_OK,
		     "SW2HW_MPT op_mod 1 -> OK (unconfirmed)");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_OK,
		     "... HW2SW_MPT gives the slot back");
	/* a mailbox not 4 KiB aligned is read where it is */
	memset(inbox->va, 0, 0x80);
	memcpy(inbox->va + 0x40, e, 64);
	check_status(cmd(OP_SW2HW_MPT, 0, inbox->pa + 0x40, MPT_IDX, 0),
		     ST_OK, "SW2HW_MPT mailbox not 4 KiB aligned -> OK (unconfirmed)");
	ktap_test_check(get32(slot + 8) == get32(e + 8) &&
			get32(slot + 48) == get32(e + 48),
			"... the entry read at the misaligned address",
			"key 0x%08x", get32(slot + 8));
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_OK,
		     "... HW2SW_MPT gives the slot back");
}

/* success, ICM placement, QUERY_MPT */
static void sw2hw_valid(const uint8_t *e, uint8_t *slot)
{
	uint8_t want[64];
	unsigned int st;
	int i;

	memset(icm_mpt[0]->va, 0xa5, PAGE);
	memset(icm_mpt[1]->va, 0xa5, PAGE);
	for (i = 0; i < 64; i++)	/* keep ownership nibble SW for idx */
		slot[i] = 0xf0;
	check_status(sw2hw(MPT_IDX, e), ST_OK, "SW2HW_MPT valid region");
	memcpy(want, e, 64);
	want[0] &= 0x0f;	/* status nibble 0: hardware-owned */
	ktap_test_check(!memcmp(slot, want, 64),
			"SW2HW_MPT entry in ICM at mpt_base + index * 64, status HW-owned",
			"dword0 0x%08x key 0x%08x", get32(slot),
			get32(slot + 8));
	ktap_test_check(slot[-1] == 0xa5 && slot[64] == 0xa5,
			"SW2HW_MPT touches only its 64 bytes", "%02x %02x",
			slot[-1], slot[64]);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 1,
			"HW-owned MPT counter 1", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
	check_status(sw2hw(MPT_IDX, e), ST_BAD_RES_STATE,
		     "SW2HW_MPT on a HW-owned slot -> 0x09");

	memset(outbox->va, 0, PAGE);
	st = cmd(OP_QUERY_MPT, 0, 0, MPT_IDX, outbox->pa);
	ktap_test_check(st == ST_OK && !memcmp(outbox->va, slot, 64),
			"QUERY_MPT returns the stored entry", "status 0x%02x",
			st);
	check_status(cmd(OP_QUERY_MPT, 0, 0, NUM_MPT + 5, outbox->pa),
		     ST_BAD_INDEX, "QUERY_MPT index out of range -> 0x0a");
}

static void hw2sw(const uint8_t *e, uint8_t *slot)
{
	uint8_t want[64];
	unsigned int st;

	/* windows bound (win_cnt, dword 9, kept by the HCA in ICM) */
	put32(slot + 36, 2);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_REG_BOUND,
		     "HW2SW_MPT region with windows bound -> 0x21");
	put32(slot + 36, 0);

	/* op_mod 2: no source gives it; unconfirmed, taken as 0 */
	memset(outbox->va, 0, PAGE);
	memcpy(want, e, 64);
	want[0] &= 0x0f;
	st = cmd(OP_HW2SW_MPT, 2, 0, MPT_IDX, outbox->pa);
	ktap_test_check(st == ST_OK && !memcmp(outbox->va, want, 64),
			"HW2SW_MPT op_mod 2 -> OK (unconfirmed), the entry out",
			"status 0x%02x", st);
	check_status(sw2hw(MPT_IDX, e), ST_OK, "SW2HW_MPT again");
	memset(outbox->va, 0, PAGE);
	st = cmd(OP_HW2SW_MPT, 0, 0, MPT_IDX, outbox->pa);
	ktap_test_check(st == ST_OK && !memcmp(outbox->va, want, 64),
			"HW2SW_MPT op_mod 0 returns the entry",
			"status 0x%02x", st);
	ktap_test_check((slot[0] >> 4) == 0xf,
			"HW2SW_MPT: ICM status nibble SW (0xF)", "0x%02x",
			slot[0]);
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS) == 0,
			"HW-owned MPT counter back to 0", "%u",
			arbel_dbg_read(dev, ARBEL_DBG_HW_MPTS));
	check_status(cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, 0), ST_BAD_RES_STATE,
		     "HW2SW_MPT on a SW-owned slot -> 0x09");
	check_status(sw2hw(MPT_IDX, e), ST_OK,
		     "SW2HW_MPT again after HW2SW_MPT");
	memset(outbox->va, 0x3c, PAGE);
	st = cmd(OP_HW2SW_MPT, 1, 0, MPT_IDX, outbox->pa);
	ktap_test_check(st == ST_OK && outbox->va[0] == 0x3c &&
			outbox->va[63] == 0x3c,
			"HW2SW_MPT op_mod 1 writes no outbox", "status 0x%02x",
			st);
}

void suite_mpt(void)
{
	uint8_t e[64];

	ktap_print_msg("suite: mpt");
	mpt_build(e, MPT_LR | MPT_LW, 0, hw_key(MPT_IDX, 0x5a), 0x42,
		  0x7000, 0x2000, MPT_MTT);
	/* refusals first (the slot stays software-owned) */
	sw2hw_refusals(e);
	sw2hw_unconfirmed(e);
	sw2hw_valid(e, icm_mpt_slot(MPT_IDX));
	hw2sw(e, icm_mpt_slot(MPT_IDX));
}
