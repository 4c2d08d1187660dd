// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "send": send WQEs on a UD QP complete as CQEs,
 * and an armed CQ posts its completion event; an RC send nothing answers
 * completes in error (Documentation/arbel-stub.rst "Data path").  One region at iova 0 over three pages, as mthca
 * maps its queue buffers: the send queue (4 WQEs of 64 bytes at 0x400,
 * after a 1 KiB receive queue), the CQ (8 CQEs of 32 bytes at 0x1000) and
 * an EQ (8 EQEs at 0x2000).
 *
 * Layouts, all from mthca: the doorbell (mthca_arbel_post_send: WQE count
 * 31:24, first index 23:8, opcode 4:0; then qpn << 8 | size in 16 bytes),
 * the arm doorbell (mthca_arbel_arm_cq: command 26:24, cqn; then the
 * consumer index), struct mthca_next_seg (nda_op: next WQE | its opcode;
 * flags bit 3 CQ update, bit 1 solicited), struct mthca_cqe (my_qpn at 0,
 * wqe at 0x18, opcode 0x1c, is_send 0x1d bit 7, owner 0x1f bit 7 set while
 * the hardware owns it), struct mthca_qp_context (service type in bits
 * 23:16 of dword 0, 3 = UD, 0 = RC; sq_size_stride at 0x0a; wqe_lkey
 * 0x6c; params1 0x70, bit 3 SSC; cqn_snd 0x7c; snd_wqe_base_l 0x80),
 * struct mthca_cq_context (start 0x04, comp_eqn 0x14, lkey 0x1c, producer
 * index 0x2c), the completion EQE (type 0x00, the cqn in its first data
 * dword: mthca_eq_int) and the CQ error EQE (type 0x04).
 */
#include <stdio.h>

#include "conformance.h"

#define OP_MAP_EQ		0x012
#define OP_HW2SW_EQ		0x014
#define OP_SW2HW_CQ		0x016
#define OP_HW2SW_CQ		0x017
#define OP_QUERY_CQ		0x018
#define OP_RST2INIT		0x019
#define OP_INIT2RTR		0x01a
#define OP_RTR2RTS		0x01b
#define OP_RTS2RTS		0x01c
#define OP_2ERR			0x01e
#define OP_ERR2RST		0x021
#define OP_QUERY_QPEE		0x022

#define SEND_MPT_IDX		(RSVD_MPT + 42)
#define SEND_MTT		(MTT_BASE + 0x400)
#define SQ_BASE			0x400
#define WQE_SHIFT		6
#define SQ_LOG			2
#define CQ_VA			0x1000
#define CQ_LOG			3
#define EQ_VA			0x2000

#define OPC_SEND		0x0a
#define OPC_SEND_IMM		0x0b
#define NEXT_CQ_UPDATE		(1u << 3)
#define NEXT_DBD		(1u << 7)
#define WQE_UNITS		4
#define SYN_RETRY_EXC		0x15
#define CQE_ERR_SEND		0xff
#define NEXT_SOLICIT		(1u << 1)
#define CQ_DB_REQ_NOT_SOL	1u
#define CQ_DB_REQ_NOT		2u
#define ST_UD			3u
#define ST_RC			0u
#define QP_SSC			(1u << 3)
#define EV_COMP			0x00
#define EV_CQ_ERROR		0x04

#define UAR			1	/* a UAR page of BAR2 */
#define DB_SEND			0x10
#define DB_CQ			0x20

static struct arbel_dma_page *wq, *cq, *eqp;
static volatile uint8_t *uar;

static uint8_t *cqe(unsigned int n)
{
	return cq->va + (n % (1u << CQ_LOG)) * 32;
}

static uint8_t *eqe(unsigned int n)
{
	return eqp->va + (n % 8) * 32;
}

/* one 64-bit big-endian store, as mthca_write64() rings a doorbell */
static void ring(unsigned int off, uint32_t hi, uint32_t lo)
{
	*(volatile uint64_t *)(uar + UAR * 4096 + off) =
		htobe64((uint64_t)hi << 32 | lo);
}

/*
 * WQE @idx: its next segment -- the next WQE's opcode and size (4 units of
 * 16 bytes: the next segment and the 48-byte UD segment, no data segment;
 * DBD set, as mthca_arbel_post_send links them), its flags; the UD segment
 * all zero: DLID 0, which no port has
 */
static void wqe(unsigned int idx, uint8_t next_op, uint32_t flags)
{
	uint8_t *w = wq->va + SQ_BASE + (idx % (1u << SQ_LOG)) * 64;
	uint32_t next = SQ_BASE + ((idx + 1) % (1u << SQ_LOG)) * 64;

	memset(w, 0, 64);
	put32(w + 0x00, next | next_op);
	put32(w + 0x04, NEXT_DBD | WQE_UNITS);
	put32(w + 0x08, flags);
}

/* the send doorbell: @n WQEs from @head, the first of opcode @op */
static void send_db(unsigned int head, unsigned int n, uint8_t op)
{
	ring(DB_SEND, n << 24 | (head & 0xffff) << 8 | op, 0u << 8 | WQE_UNITS);
}

/* a QP 0 transition with the UD (or @st) context of this suite */
static unsigned int qp_move(uint16_t op, uint32_t st, uint32_t params1,
			    uint32_t lkey)
{
	uint8_t *c = inbox->va + 8;

	memset(inbox->va, 0, 0x108);
	put32(c + 0x00, st << 16);
	c[0x0a] = SQ_LOG << 3 | (WQE_SHIFT - 4);
	put32(c + 0x6c, lkey);
	put32(c + 0x70, params1);
	put32(c + 0x7c, 0);			/* cqn_snd: CQ 0 */
	put32(c + 0x80, SQ_BASE);
	return cmd(op, 0, inbox->pa, 0, 0);
}

static void cq_create(uint32_t lkey)
{
	uint8_t *m = inbox->va;
	unsigned int i;

	for (i = 0; i < 1u << CQ_LOG; i++)
		cqe(i)[0x1f] = 0x80;		/* hardware-owned */
	memset(m, 0, 0x40);
	put64(m + 0x04, CQ_VA);
	put32(m + 0x0c, CQ_LOG << 24);
	put32(m + 0x14, 0);			/* comp_eqn: EQ 0 */
	put32(m + 0x18, 7);
	put32(m + 0x1c, lkey);
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_CQ");
}

/* CQE @n: a successful send of WQE @idx with opcode @op, software-owned */
static void check_cqe(unsigned int n, unsigned int idx, uint8_t op,
		      const char *name)
{
	const uint8_t *e = cqe(n);

	ktap_test_check(!(e[0x1f] & 0x80) && get32(e) == 0 &&
			get32(e + 0x18) == SQ_BASE + idx * 64 &&
			e[0x1c] == op && (e[0x1d] & 0x80), name,
			"owner 0x%02x qpn 0x%06x wqe 0x%x opcode 0x%02x is_send 0x%02x",
			e[0x1f], get32(e), get32(e + 0x18), e[0x1c], e[0x1d]);
}

static void check_hw_owned(const uint8_t *e, const char *name)
{
	ktap_test_check(e[0x1f] & 0x80, name, "owner 0x%02x type 0x%02x",
			e[0x1f], e[1]);
}

/* EQE @n: an event of @type for CQ 0, software-owned */
static void check_cq_eqe(unsigned int n, uint8_t type, const char *name)
{
	const uint8_t *e = eqe(n);

	ktap_test_check(e[1] == type && get32(e + 4) == 0 && !(e[0x1f] & 0x80),
			name, "type 0x%02x cqn 0x%08x owner 0x%02x", e[1],
			get32(e + 4), e[0x1f]);
}

/* QUERY_CQ: the producer index is @want (CQE @want not yet written) */
static void check_producer(uint32_t want)
{
	char name[64];
	uint32_t pi = ~0u;

	memset(outbox->va, 0xff, 0x40);
	if (cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa) == ST_OK)
		pi = get32(outbox->va + 0x2c);
	snprintf(name, sizeof(name), "QUERY_CQ: producer index %u", want);
	ktap_test_check(pi == want && cqe(want)[0x1f] & 0x80, name,
			"0x%08x, CQE %u owner 0x%02x", pi, want,
			cqe(want)[0x1f]);
}

/* WQEs 0..3 and the CQEs they write; the producer index in QUERY_CQ */
static void completions(void)
{
	wqe(0, OPC_SEND, NEXT_CQ_UPDATE);
	send_db(0, 1, OPC_SEND);
	check_cqe(0, 0, OPC_SEND,
		  "signaled SEND: CQE 0, qpn 0, the WQE's address, opcode 0x0a, is_send, owner SW");
	check_producer(1);

	wqe(1, OPC_SEND_IMM, 0);		/* unsignaled; WQE 2 is SEND_IMM */
	wqe(2, OPC_SEND, NEXT_CQ_UPDATE);
	send_db(1, 2, OPC_SEND);
	check_cqe(1, 2, OPC_SEND_IMM,
		  "two WQEs, one doorbell: only the signaled one completes, opcode from nda_op");
	check_producer(2);		/* none for the unsignaled WQE */
}

/* the arm doorbell and the completion event on comp_eqn */
static void events(void)
{
	ring(DB_CQ, CQ_DB_REQ_NOT << 24 | 0, 2);
	check_hw_owned(eqe(0), "arm with every CQE consumed: no event yet");
	wqe(3, OPC_SEND, NEXT_CQ_UPDATE);
	send_db(3, 1, OPC_SEND);
	check_cqe(2, 3, OPC_SEND, "CQE 2");
	check_cq_eqe(0, EV_COMP,
		     "armed CQ: completion EQE 0 (type 0x00, cqn 0) on comp_eqn");

	wqe(4, OPC_SEND, NEXT_CQ_UPDATE);	/* index 0 again: the SQ wraps */
	send_db(4, 1, OPC_SEND);
	check_cqe(3, 0, OPC_SEND, "the SQ wraps: CQE 3 for WQE index 0");
	check_hw_owned(eqe(1), "the CQ disarmed after its event: no EQE 1");

	ring(DB_CQ, CQ_DB_REQ_NOT << 24 | 0, 3);
	check_cq_eqe(1, EV_COMP,
		     "arm with an unconsumed CQE (ci 3, producer 4): EQE 1 at once");

	ring(DB_CQ, CQ_DB_REQ_NOT_SOL << 24 | 0, 4);
	wqe(5, OPC_SEND, NEXT_CQ_UPDATE);
	send_db(5, 1, OPC_SEND);
	check_cqe(4, 1, OPC_SEND, "CQE 4");
	check_hw_owned(eqe(2), "armed for solicited: an unsolicited CQE fires nothing");
	wqe(6, OPC_SEND, NEXT_CQ_UPDATE | NEXT_SOLICIT);
	send_db(6, 1, OPC_SEND);
	check_cqe(5, 2, OPC_SEND, "CQE 5");
	check_hw_owned(eqe(2),
		       "armed for solicited: a send's CQE is never solicited, even with SE set");
}

/* CQE @n: send WQE @idx completed in error with @syn, software-owned */
static void check_err_cqe(unsigned int n, unsigned int idx, uint8_t syn,
			  const char *name)
{
	const uint8_t *e = cqe(n);

	ktap_test_check(!(e[0x1f] & 0x80) && get32(e) == 0 &&
			e[0x10] == syn && e[0x1c] == CQE_ERR_SEND &&
			get32(e + 0x18) == SQ_BASE + idx * 64, name,
			"owner 0x%02x qpn 0x%06x syndrome 0x%02x opcode 0x%02x wqe 0x%x",
			e[0x1f], get32(e), e[0x10], e[0x1c], get32(e + 0x18));
}

/* QP 0 back to RST, then up to RTS as a new @st QP with @params1 */
static void renew(uint32_t st, uint32_t params1, uint32_t lkey,
		  const char *name)
{
	ktap_test_check(cmd(OP_2ERR, 0, 0, 0, 0) == ST_OK &&
			cmd(OP_ERR2RST, 3, 0, 0, 0) == ST_OK &&
			qp_move(OP_RST2INIT, st, params1, lkey) == ST_OK &&
			qp_move(OP_INIT2RTR, st, params1, lkey) == ST_OK &&
			qp_move(OP_RTR2RTS, st, params1, lkey) == ST_OK,
			name, "a transition failed");
}

/* SSC, an RC QP nothing answers, a QP not in RTS, a refused CQ buffer */
static void rules(uint32_t lkey)
{
	unsigned int st;

	/* SSC is the QP's from RST2INIT on (no mask bit names it) */
	renew(ST_UD, QP_SSC, lkey, "a new UD QP with SSC (every send signaled)");
	wqe(0, OPC_SEND, 0);
	send_db(0, 1, OPC_SEND);
	check_cqe(6, 0, OPC_SEND, "SSC: an unsignaled WQE completes as CQE 6");
	check_hw_owned(eqe(2), "still armed for solicited only: no EQE");

	renew(ST_RC, 0, lkey, "a new RC QP");
	wqe(0, OPC_SEND, NEXT_CQ_UPDATE);
	send_db(0, 1, OPC_SEND);
	check_err_cqe(7, 0, SYN_RETRY_EXC,
		      "RC send, no port up at its LID: error CQE 7, syndrome 0x15 (transport retry exceeded)");
	memset(outbox->va, 0, 0x108);
	st = cmd(OP_QUERY_QPEE, 0, 0, 0, outbox->pa);
	ktap_test_check(st == ST_OK && get32(outbox->va + 8) >> 28 == 6,
			"the RC QP went to ERR", "status 0x%02x state %u", st,
			get32(outbox->va + 8) >> 28);

	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR");
	check_status(cmd(OP_ERR2RST, 3, 0, 0, 0), ST_OK, "ERR2RST");
	check_status(qp_move(OP_RST2INIT, ST_UD, 0, lkey), ST_OK,
		     "RST2INIT again");
	send_db(0, 1, OPC_SEND);
	memset(outbox->va, 0xff, 0x40);
	st = cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa);
	ktap_test_check(st == ST_OK && get32(outbox->va + 0x2c) == 8,
			"QP in INIT: the doorbell completes nothing (producer index 8)",
			"status 0x%02x producer index 0x%08x", st,
			get32(outbox->va + 0x2c));
	check_status(qp_move(OP_INIT2RTR, ST_UD, 0, lkey), ST_OK, "INIT2RTR");
	check_status(qp_move(OP_RTR2RTS, ST_UD, 0, lkey), ST_OK, "RTR2RTS");

	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 0, 0), ST_OK,
		     "MAP_EQ event 4 (CQ error) to EQ 0");
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_OK,
		     "HW2SW_CQ");
	cq_create(lkey_of(hw_key(SEND_MPT_IDX + 1, 1)));
	send_db(0, 1, OPC_SEND);
	check_cq_eqe(2, EV_CQ_ERROR,
		     "CQ buffer key not valid: a CQ error EQE (type 0x04, cqn 0)");
	ktap_test_check(eqe(2)[4 + 11] == 2,
			"... syndrome 2 (access violation; mthca's cq_err: 1 is overrun)",
			"syndrome %u", eqe(2)[4 + 11]);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap event 4");
}

void suite_send(void)
{
	struct arbel_dma_page *qpc = page_alloc(), *cqc = page_alloc();
	uint32_t hw = hw_key(SEND_MPT_IDX, 1), lkey = lkey_of(hw);
	uint64_t ents[3];
	uint8_t e[64];
	size_t len;

	ktap_print_msg("suite: send");
	uar = arbel_dev_map_bar(dev, 2, &len);
	wq = page_alloc();
	cq = page_alloc();
	eqp = page_alloc();
	ents[0] = wq->pa | 1;
	ents[1] = cq->pa | 1;
	ents[2] = eqp->pa | 1;
	check_status(write_mtt(SEND_MTT, ents, 3), ST_OK,
		     "WRITE_MTT the queue buffers' three pages");
	mpt_build(e, MPT_LR | MPT_LW, 0, hw, 7, 0, 3 * PAGE, SEND_MTT);
	check_status(sw2hw(SEND_MPT_IDX, e), ST_OK,
		     "SW2HW_MPT the queue buffers' region at iova 0");
	eq_create_unarmed(eqp->va, EQ_VA, lkey);
	check_status(map_pages(OP_MAP_ICM, &cqc, 1, CQC_BASE), ST_OK,
		     "MAP_ICM the CQ context page");
	cq_create(lkey);
	check_status(map_pages(OP_MAP_ICM, &qpc, 1, QPC_BASE), ST_OK,
		     "MAP_ICM the QP context page");
	check_status(qp_move(OP_RST2INIT, ST_UD, 0, lkey), ST_OK, "RST2INIT");
	check_status(qp_move(OP_INIT2RTR, ST_UD, 0, lkey), ST_OK, "INIT2RTR");
	check_status(qp_move(OP_RTR2RTS, ST_UD, 0, lkey), ST_OK, "RTR2RTS");

	completions();
	events();
	rules(lkey);

	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR");
	check_status(cmd(OP_ERR2RST, 3, 0, 0, 0), ST_OK, "ERR2RST");
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_OK, "HW2SW_CQ");
	check_status(cmd(OP_HW2SW_EQ, 1, 0, 0, 0), ST_OK, "HW2SW_EQ");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, SEND_MPT_IDX, 0), ST_OK,
		     "HW2SW_MPT the queue buffers' region");
	check_status(cmd(OP_UNMAP_ICM, 0, QPC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the QP context page");
	check_status(cmd(OP_UNMAP_ICM, 0, CQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the CQ context page");
	check_status(cmd(OP_UNMAP_ICM, 0, EQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the EQ context page");
}
