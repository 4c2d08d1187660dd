// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "cq": SW2HW_CQ / QUERY_CQ / RESIZE_CQ / HW2SW_CQ
 * on CQ 0 of the one-CQ table INIT_HCA set up (CQC_BASE, log 0), with the
 * refusals of Documentation/arbel-stub.rst "Queue objects": an index past
 * the table 0x0a, its context ICM unmapped 0x05, the wrong owner 0x09,
 * an op_mod mthca never sends 0x02, a RESIZE_CQ log size above
 * QUERY_DEV_LIM's 0x03.  Layout: mthca's cq code struct mthca_cq_context
 * (0x40 bytes: lkey at 0x1c, log size in bits 28:24 of 0x0c, cqn at 0x30);
 * RESIZE_CQ: mthca's cmd code (op_mod 1, the log size one byte at 0x0c --
 * bits 28:24 of that dword -- the lkey at 0x1c).
 */
#include "conformance.h"

#define OP_SW2HW_CQ		0x016
#define OP_HW2SW_CQ		0x017
#define OP_QUERY_CQ		0x018
#define OP_RESIZE_CQ		0x02c

#define CQ_LKEY			0x00001234
#define CQ_LKEY2		0x00005678

static void cq_ctx(uint8_t *m)
{
	memset(m, 0, 0x40);
	put64(m + 0x04, 0);		/* start: mthca's CQ MRs start at 0 */
	put32(m + 0x0c, 6u << 24);	/* 64 CQEs */
	put32(m + 0x14, 0);		/* completion EQ */
	put32(m + 0x18, 7);		/* PD */
	put32(m + 0x1c, CQ_LKEY);
	put32(m + 0x30, 0);		/* cqn */
}

void suite_cq(void)
{
	struct arbel_dma_page *pg = page_alloc();

	ktap_print_msg("suite: cq");
	cq_ctx(inbox->va);
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_BAD_RESOURCE,
		     "SW2HW_CQ with its context ICM unmapped -> 0x05");
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 1, 0), ST_BAD_RESOURCE,
		     "SW2HW_CQ cqn 1 of a 1-CQ table is CQ 0 (mthca's CQ numbers "
		     "carry bits above the index), ICM unmapped -> 0x05");
	check_status(map_pages(OP_MAP_ICM, &pg, 1, CQC_BASE), ST_OK,
		     "MAP_ICM the CQ context page");
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_BAD_RES_STATE,
		     "HW2SW_CQ of a CQ not in hardware -> 0x09");
	check_status(cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa), ST_BAD_RES_STATE,
		     "QUERY_CQ of a CQ not in hardware -> 0x09");
	cq_ctx(inbox->va);		/* MAP_ICM used the inbox */
	check_status(cmd(OP_SW2HW_CQ, 1, inbox->pa, 0, 0), ST_BAD_OP,
		     "SW2HW_CQ op_mod 1 -> 0x02");
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_CQ");
	ktap_test_check(get32(pg->va + 0x1c) == CQ_LKEY &&
			get32(pg->va + 0x0c) == 6u << 24,
			"SW2HW_CQ: the context in ICM at cqc_base",
			"lkey 0x%08x logsize 0x%08x", get32(pg->va + 0x1c),
			get32(pg->va + 0x0c));
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_BAD_RES_STATE,
		     "SW2HW_CQ of a CQ in hardware -> 0x09");

	memset(outbox->va, 0, 0x40);
	check_status(cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa), ST_OK, "QUERY_CQ");
	ktap_test_check(get32(outbox->va + 0x1c) == CQ_LKEY,
			"QUERY_CQ: the context", "lkey 0x%08x",
			get32(outbox->va + 0x1c));

	/*
	 * mthca_RESIZE_CQ: MTHCA_PUT of a u8 log_size at 0x0c, one byte,
	 * i.e. bits 28:24 of the dword; the lkey be32 at 0x1c.  The context
	 * then holds 9 << 24 = 0x09000000 at 0x0c (by hand: bits 28:24).
	 */
	memset(inbox->va, 0, 0x40);
	inbox->va[0x0c] = 9;
	put32(inbox->va + 0x1c, CQ_LKEY2);
	check_status(cmd(OP_RESIZE_CQ, 0, inbox->pa, 0, 0), ST_BAD_OP,
		     "RESIZE_CQ op_mod 0 -> 0x02 (mthca sends 1)");
	check_status(cmd(OP_RESIZE_CQ, 1, inbox->pa, 0, 0), ST_OK,
		     "RESIZE_CQ to 512 CQEs (byte 0x0c = 9), another lkey");
	cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa);
	ktap_test_check(get32(outbox->va + 0x1c) == CQ_LKEY2 &&
			get32(outbox->va + 0x0c) == 0x09000000,
			"RESIZE_CQ: the context has the new log size and lkey",
			"lkey 0x%08x logsize 0x%08x", get32(outbox->va + 0x1c),
			get32(outbox->va + 0x0c));

	/* log max CQEs is 17 (QUERY_DEV_LIM 0x19); mthca never asks more */
	memset(inbox->va, 0, 0x40);
	inbox->va[0x0c] = 18;
	put32(inbox->va + 0x1c, CQ_LKEY);
	check_status(cmd(OP_RESIZE_CQ, 1, inbox->pa, 0, 0), ST_BAD_PARAM,
		     "RESIZE_CQ log size 18 > QUERY_DEV_LIM 0x19 (17) -> 0x03");
	cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa);
	ktap_test_check(get32(outbox->va + 0x1c) == CQ_LKEY2 &&
			get32(outbox->va + 0x0c) == 0x09000000,
			"refused RESIZE_CQ: the context unchanged",
			"lkey 0x%08x logsize 0x%08x", get32(outbox->va + 0x1c),
			get32(outbox->va + 0x0c));

	memset(outbox->va, 0, 0x40);
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_OK, "HW2SW_CQ");
	ktap_test_check(get32(outbox->va + 0x1c) == CQ_LKEY2,
			"HW2SW_CQ: the context in the outbox", "lkey 0x%08x",
			get32(outbox->va + 0x1c));
	check_status(cmd(OP_RESIZE_CQ, 1, inbox->pa, 0, 0), ST_BAD_RES_STATE,
		     "RESIZE_CQ of a CQ not in hardware -> 0x09");
	check_status(cmd(OP_UNMAP_ICM, 0, CQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the CQ context page");
}
