// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "qp": QP 0 of the one-QP table INIT_HCA set up
 * (QPC_BASE, log 0, 256-byte contexts) through every state transition,
 * each one also tried from a state it does not run from (status 0x10, bad
 * QP/EE state: mthca's command header; which transition runs from which state:
 * mthca's cmd code mthca_MODIFY_QP), QUERY_QPEE, ERR2RST with and without its
 * outbox (op_mod 2 / 3), CONF_SPECIAL_QP.  The mailbox: mthca's qp code struct
 * mthca_qp_param (opt_param_mask, a reserved dword, then the context,
 * whose first dword holds the state in bits 31:28).  RST2INIT takes the
 * whole context; later transitions only the fields they require (IBTA
 * vol. 1 table 91: the remote QPN at INIT2RTR) and those the mask names
 * (mthca's MTHCA_QP_OPTPAR_Q_KEY, bit 5: the Q_Key at 0xa8), so the
 * marker (local_qpn, at 0x10) set at RST2INIT stays.
 */
#include <stdio.h>

#include "conformance.h"

#define OP_RST2INIT		0x019
#define OP_INIT2RTR		0x01a
#define OP_RTR2RTS		0x01b
#define OP_RTS2RTS		0x01c
#define OP_SQERR2RTS		0x01d
#define OP_2ERR			0x01e
#define OP_RTS2SQD		0x01f
#define OP_SQD2RTS		0x020
#define OP_ERR2RST		0x021
#define OP_QUERY_QPEE		0x022
#define OP_CONF_SPECIAL_QP	0x023
#define OP_INIT2INIT		0x02d
#define OP_SQD2SQD		0x038
#define ST_BAD_QPEE_STATE	0x10

#define QP_EE			(1u << 24)
#define MARK			0x00c0ffee	/* context dword at 0x10 */
#define CTX_REMOTE_QPN		0x14
#define CTX_QKEY		0xa8
#define OPT_Q_KEY		(1u << 5)

enum { RST, INIT, RTR, RTS, SQE, SQD, ERR };

static const char *const state_name[] = {
	"RST", "INIT", "RTR", "RTS", "SQE", "SQD", "ERR",
};

/* a transition with a context whose marker dword is @mark */
static unsigned int move(uint16_t op, uint8_t op_mod, uint32_t in_mod,
			 uint32_t mark)
{
	memset(inbox->va, 0, 0x108);
	put32(inbox->va + 0x08 + 0x10, mark);
	return cmd(op, op_mod, inbox->pa, in_mod, 0);
}

/* QUERY_QPEE: the state and the marker in the context */
static void check_query(unsigned int state, uint32_t mark, const char *name)
{
	unsigned int st;

	memset(outbox->va, 0xff, 0x108);
	st = cmd(OP_QUERY_QPEE, 0, 0, 0, outbox->pa);
	ktap_test_check(st == ST_OK && get32(outbox->va + 8) >> 28 == state &&
			get32(outbox->va + 8 + 0x10) == mark, name,
			"status 0x%02x state %u marker 0x%08x", st,
			get32(outbox->va + 8) >> 28, get32(outbox->va + 8 + 0x10));
}

/* @op from state @from to @to; first @wrong_op (if any) refused in @from */
static void step(uint16_t op, const char *opname, unsigned int from,
		 unsigned int to, uint16_t wrong_op, const char *wrong)
{
	char name[96];

	if (wrong_op) {
		snprintf(name, sizeof(name), "%s in %s -> 0x10", wrong,
			 state_name[from]);
		check_status(move(wrong_op, 0, 0, MARK), ST_BAD_QPEE_STATE,
			     name);
	}
	check_status(move(op, 0, 0, MARK + to), ST_OK, opname);
	snprintf(name, sizeof(name), "%s: QUERY_QPEE shows %s and the context",
		 opname, state_name[to]);
	/* only RST2INIT takes the local QPN: the one in ICM stays */
	check_query(to, MARK + INIT, name);
}

/* a field a transition requires, a field only the mask brings */
static void merge(void)
{
	unsigned int st;

	memset(outbox->va, 0, 0x108);
	cmd(OP_QUERY_QPEE, 0, 0, 0, outbox->pa);
	ktap_test_check(get32(outbox->va + 8 + CTX_REMOTE_QPN) == 0x1234,
			"INIT2RTR took the remote QPN it requires",
			"remote QPN 0x%x", get32(outbox->va + 8 + CTX_REMOTE_QPN));
	memset(inbox->va, 0, 0x108);
	put32(inbox->va + 8 + CTX_QKEY, 0x11111111);
	st = cmd(OP_RTS2RTS, 0, inbox->pa, 0, 0);
	memset(outbox->va, 0, 0x108);
	cmd(OP_QUERY_QPEE, 0, 0, 0, outbox->pa);
	ktap_test_check(st == ST_OK &&
			get32(outbox->va + 8 + CTX_QKEY) == 0x22222222,
			"RTS2RTS without the Q_Key mask bit keeps the Q_Key",
			"status 0x%02x Q_Key 0x%08x", st,
			get32(outbox->va + 8 + CTX_QKEY));
	put32(inbox->va, OPT_Q_KEY);
	st = cmd(OP_RTS2RTS, 0, inbox->pa, 0, 0);
	memset(outbox->va, 0, 0x108);
	cmd(OP_QUERY_QPEE, 0, 0, 0, outbox->pa);
	ktap_test_check(st == ST_OK &&
			get32(outbox->va + 8 + CTX_QKEY) == 0x11111111,
			"RTS2RTS with mask bit 5 takes the Q_Key",
			"status 0x%02x Q_Key 0x%08x", st,
			get32(outbox->va + 8 + CTX_QKEY));
}

static void special(void)
{
	check_status(cmd(OP_CONF_SPECIAL_QP, 4, 0, 2, 0), ST_BAD_OP,
		     "CONF_SPECIAL_QP op_mod 4 -> 0x02 (0..3: SMI, GSI, raw)");
	check_status(cmd(OP_CONF_SPECIAL_QP, 0, 0, 1, 0), ST_BAD_PARAM,
		     "CONF_SPECIAL_QP odd base -> 0x03 (mthca: must be even)");
	check_status(cmd(OP_CONF_SPECIAL_QP, 1, 0, 2, 0), ST_BAD_INDEX,
		     "CONF_SPECIAL_QP base + ports past the QPC table -> 0x0a");
	check_status(cmd(OP_CONF_SPECIAL_QP, 0, 0, 0, 0), ST_OK,
		     "CONF_SPECIAL_QP base 0 (none)");
}

void suite_qp(void)
{
	struct arbel_dma_page *pg = page_alloc();

	ktap_print_msg("suite: qp");
	check_status(move(OP_RST2INIT, 0, 0, MARK), ST_BAD_RESOURCE,
		     "RST2INIT with the context ICM unmapped -> 0x05");
	check_status(move(OP_RST2INIT, 0, 1, MARK), ST_BAD_RESOURCE,
		     "RST2INIT qpn 1 of a 1-QP table is QP 0 (mthca's QP numbers "
		     "carry bits above the index), ICM unmapped -> 0x05");
	check_status(move(OP_RST2INIT, 0, QP_EE, MARK), ST_BAD_RESOURCE,
		     "RST2INIT of EE 0 (bit 24), EEC ICM unmapped -> 0x05");
	check_status(map_pages(OP_MAP_ICM, &pg, 1, QPC_BASE), ST_OK,
		     "MAP_ICM the QP context page");
	check_status(move(OP_INIT2RTR, 0, 0, MARK), ST_BAD_QPEE_STATE,
		     "INIT2RTR in RST -> 0x10");
	check_status(move(OP_SQD2RTS, 0, 0, MARK), ST_BAD_QPEE_STATE,
		     "SQD2RTS in RST -> 0x10");
	check_status(move(OP_RST2INIT, 1, 0, MARK), ST_BAD_OP,
		     "RST2INIT op_mod 1 -> 0x02");

	memset(inbox->va, 0, 0x108);
	put32(inbox->va + 8 + 0x10, MARK + INIT);
	put32(inbox->va + 8 + CTX_QKEY, 0x22222222);
	check_status(cmd(OP_RST2INIT, 0, inbox->pa, 0, 0), ST_OK, "RST2INIT");
	check_query(INIT, MARK + INIT,
		    "RST2INIT: QUERY_QPEE shows INIT and the context");
	ktap_test_check(get32(pg->va) >> 28 == INIT &&
			get32(pg->va + 0x10) == MARK + INIT,
			"RST2INIT: the context in ICM at qpc_base, state INIT",
			"flags 0x%08x marker 0x%08x", get32(pg->va),
			get32(pg->va + 0x10));
	step(OP_INIT2INIT, "INIT2INIT", INIT, INIT, OP_RST2INIT, "RST2INIT");
	check_status(move(OP_RTR2RTS, 0, 0, MARK), ST_BAD_QPEE_STATE,
		     "RTR2RTS in INIT -> 0x10");
	memset(inbox->va, 0, 0x108);
	put32(inbox->va + 8 + CTX_REMOTE_QPN, 0x1234);
	check_status(cmd(OP_INIT2RTR, 0, inbox->pa, 0, 0), ST_OK, "INIT2RTR");
	check_query(RTR, MARK + INIT,
		    "INIT2RTR: QUERY_QPEE shows RTR and the context");
	step(OP_RTR2RTS, "RTR2RTS", RTR, RTS, OP_INIT2RTR, "INIT2RTR");
	merge();
	step(OP_RTS2RTS, "RTS2RTS", RTS, RTS, OP_SQERR2RTS, "SQERR2RTS");
	step(OP_RTS2SQD, "RTS2SQD", RTS, SQD, OP_SQD2SQD, "SQD2SQD");
	step(OP_SQD2SQD, "SQD2SQD", SQD, SQD, OP_RTS2RTS, "RTS2RTS");
	step(OP_SQD2RTS, "SQD2RTS", SQD, RTS, OP_RTS2SQD, "RTS2SQD");
	step(OP_2ERR, "2ERR from RTS", RTS, ERR, 0, NULL);
	check_status(move(OP_SQERR2RTS, 0, 0, MARK), ST_BAD_QPEE_STATE,
		     "SQERR2RTS in ERR -> 0x10");
	check_status(cmd(OP_ERR2RST, 4, 0, 0, outbox->pa), ST_BAD_OP,
		     "ERR2RST op_mod 4 -> 0x02 (2: outbox, 3: none)");

	memset(outbox->va, 0, 0x108);
	check_status(cmd(OP_ERR2RST, 2, 0, 0, outbox->pa), ST_OK,
		     "ERR2RST op_mod 2");
	ktap_test_check(get32(outbox->va + 8) >> 28 == ERR &&
			get32(outbox->va + 8 + 0x10) == MARK + INIT,
			"ERR2RST op_mod 2: the context before the reset in the outbox",
			"state %u marker 0x%08x", get32(outbox->va + 8) >> 28,
			get32(outbox->va + 8 + 0x10));
	check_query(RST, MARK + INIT, "ERR2RST: QUERY_QPEE shows RST");
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR from RST");
	check_status(cmd(OP_ERR2RST, 3, 0, 0, 0), ST_OK,
		     "ERR2RST op_mod 3, no outbox");
	check_query(RST, MARK + INIT, "ERR2RST op_mod 3: QUERY_QPEE shows RST");
	special();
	check_status(cmd(OP_UNMAP_ICM, 0, QPC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the QP context page");
}
