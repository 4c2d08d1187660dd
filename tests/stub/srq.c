// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "srq": SW2HW_SRQ / ARM_SRQ / QUERY_SRQ /
 * HW2SW_SRQ on SRQ 0 of the one-SRQ table INIT_HCA set up (SRQC_BASE,
 * log 0, 32-byte entries as QUERY_DEV_LIM reports), with the refusals of
 * Documentation/arbel-stub.rst "Queue objects".  Layout: mthca's srq code
 * struct mthca_arbel_srq_context (lkey at 0x04, limit watermark be16 at
 * 0x1c); ARM_SRQ: mthca's cmd code (in_param = the limit).
 */
#include "conformance.h"

#define OP_SW2HW_SRQ		0x035
#define OP_HW2SW_SRQ		0x036
#define OP_QUERY_SRQ		0x037
#define OP_ARM_SRQ		0x040

#define SRQ_LKEY		0x00004321

static void srq_ctx(uint8_t *m)
{
	memset(m, 0, 0x30);
	put32(m + 0x00, 4u << 24 | 0);		/* log size 4 (28:24), srqn 0 */
	put32(m + 0x04, SRQ_LKEY);
}

void suite_srq(void)
{
	struct arbel_dma_page *pg = page_alloc();

	ktap_print_msg("suite: srq");
	srq_ctx(inbox->va);
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 0, 0), ST_BAD_RESOURCE,
		     "SW2HW_SRQ with its context ICM unmapped -> 0x05");
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 1, 0), ST_BAD_INDEX,
		     "SW2HW_SRQ srqn >= 2^log_num_srqs (INIT_HCA) -> 0x0a");
	check_status(map_pages(OP_MAP_ICM, &pg, 1, SRQC_BASE), ST_OK,
		     "MAP_ICM the SRQ context page");
	check_status(cmd(OP_HW2SW_SRQ, 0, 0, 0, outbox->pa), ST_BAD_RES_STATE,
		     "HW2SW_SRQ of an SRQ not in hardware -> 0x09");
	check_status(cmd(OP_ARM_SRQ, 0, 16, 0, 0), ST_BAD_RES_STATE,
		     "ARM_SRQ of an SRQ not in hardware -> 0x09");
	srq_ctx(inbox->va);		/* MAP_ICM used the inbox */
	check_status(cmd(OP_SW2HW_SRQ, 1, inbox->pa, 0, 0), ST_BAD_OP,
		     "SW2HW_SRQ op_mod 1 -> 0x02");
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_SRQ");
	ktap_test_check(get32(pg->va + 0x04) == SRQ_LKEY,
			"SW2HW_SRQ: the context in ICM at srqc_base",
			"lkey 0x%08x", get32(pg->va + 0x04));
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 0, 0), ST_BAD_RES_STATE,
		     "SW2HW_SRQ of an SRQ in hardware -> 0x09");
	check_status(cmd(OP_ARM_SRQ, 0, 0x10000, 0, 0), ST_BAD_PARAM,
		     "ARM_SRQ limit above 16 bits -> 0x03");
	check_status(cmd(OP_ARM_SRQ, 0, 0x1234, 0, 0), ST_OK, "ARM_SRQ 0x1234");
	memset(outbox->va, 0, 0x30);
	check_status(cmd(OP_QUERY_SRQ, 0, 0, 0, outbox->pa), ST_OK, "QUERY_SRQ");
	ktap_test_check(get16(outbox->va + 0x1c) == 0x1234 &&
			get32(outbox->va + 0x04) == SRQ_LKEY,
			"QUERY_SRQ: the limit ARM_SRQ set, the lkey",
			"limit 0x%04x lkey 0x%08x", get16(outbox->va + 0x1c),
			get32(outbox->va + 0x04));
	memset(outbox->va, 0, 0x30);
	check_status(cmd(OP_HW2SW_SRQ, 0, 0, 0, outbox->pa), ST_OK, "HW2SW_SRQ");
	ktap_test_check(get32(outbox->va + 0x04) == SRQ_LKEY,
			"HW2SW_SRQ: the context in the outbox", "lkey 0x%08x",
			get32(outbox->va + 0x04));
	check_status(cmd(OP_QUERY_SRQ, 0, 0, 0, outbox->pa), ST_BAD_RES_STATE,
		     "QUERY_SRQ of an SRQ not in hardware -> 0x09");
	check_status(cmd(OP_UNMAP_ICM, 0, SRQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the SRQ context page");
}
