// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "rdma", its receive side: SENDs into receive
 * WQEs that doorbell records count (RNR, the immediate, too small a
 * buffer, flushes), a doorbell of two 32-bit stores, a DMA the bus
 * refuses, a full CQ, an SRQ (its link walk, limit event, last WQE
 * reached), a receive posted in ERR flushed by the next 2ERR.  Sources: rdma.c's header.
 */
#include <unistd.h>

#include "rdma.h"

/* receive WQE @n: one data segment, @count bytes at SRC_VA + @off */
void rd_recv_wqe(unsigned int n, uint32_t count, uint32_t off)
{
	uint8_t *w = rd.wq->va + (n % (1u << RQ_LOG)) * 32;

	memset(w, 0, 32);
	put32(w + 0x10, count);
	put32(w + 0x14, rd_key(SRC_IDX));
	put64(w + 0x18, SRC_VA + off);
	put32(rd.uarc->va + RQ_DB * 8, n + 1);	/* the doorbell record */
}

/* the next CQE: receive WQE @n got @bytes of IB opcode @op */
void rd_check_recv_cqe(unsigned int n, uint8_t op, uint32_t bytes,
		       uint32_t imm, const char *name)
{
	const uint8_t *e = rd.cq->va + (rd.cq_next % (1u << CQ_LOG)) * 32;

	ktap_test_check(!(e[0x1f] & 0x80) && get32(e) == 0 &&
			get32(e + 0x08) == 0 && get16(e + 0x0e) == 1 &&
			get32(e + 0x14) == bytes && get32(e + 0x18) == n * 32 &&
			e[0x1c] == op && !(e[0x1d] & 0x80) &&
			(op != IBOP_SEND_ONLY_IMM || get32(e + 0x10) == imm),
			name,
			"owner 0x%02x qpn 0x%x rqpn 0x%x rlid %u bytes %u wqe 0x%x opcode 0x%02x is_send 0x%02x imm 0x%08x",
			e[0x1f], get32(e), get32(e + 0x08), get16(e + 0x0e),
			get32(e + 0x14), get32(e + 0x18), e[0x1c], e[0x1d],
			get32(e + 0x10));
	rd.cq_next++;
	/* consumed, as polled */
	put32(rd.uarc->va + CQ_CI_DB * 8, rd.cq_next);
}

/* the next CQE: receive WQE @n completed in error with @syn */
void rd_check_recv_err(unsigned int n, uint8_t syn, const char *name)
{
	const uint8_t *e = rd.cq->va + (rd.cq_next % (1u << CQ_LOG)) * 32;

	ktap_test_check(!(e[0x1f] & 0x80) && e[0x1c] == 0xfe &&
			e[0x10] == syn && get32(e + 0x18) == n * 32, name,
			"owner 0x%02x opcode 0x%02x syndrome 0x%02x wqe 0x%x",
			e[0x1f], e[0x1c], e[0x10], get32(e + 0x18));
	rd.cq_next++;
	/* consumed, as polled */
	put32(rd.uarc->va + CQ_CI_DB * 8, rd.cq_next);
}

/* SEND: RNR, a receive WQE through the doorbell record, too small a one */
void rd_receives(void)
{
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 64, 0, 0);
	rd_check_cqe(OPC_SEND, SYN_RNR_RETRY_EXC, 0,
		     "SEND, no receive posted, rnr_retry 0 -> 0x16");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);

	memset(rd.src->va + 0x800, 0xcc, 0x100);
	rd_recv_wqe(0, 128, 0x800);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 64, 0, 0);
	rd_check_recv_cqe(0, IBOP_SEND_ONLY, 64, 0,
			  "SEND: receive CQE, SEND_ONLY (0x04), 64 bytes, source QP 0, SLID 1");
	rd_check_cqe(OPC_SEND, 0, 0, "SEND: send CQE opcode 0x0a");
	ktap_test_check(!memcmp(rd.src->va + 0x800, rd.src->va, 64) &&
			rd_all(rd.src->va + 0x840, 0xcc, 0xc0),
			"SEND: the payload in the receive buffer, nothing past it",
			"byte 0x800: 0x%02x byte 0x840: 0x%02x",
			rd.src->va[0x800], rd.src->va[0x840]);

	rd_recv_wqe(1, 128, 0x900);
	rd_post(OPC_SEND_IMM, 0, 0, SRC_VA, rd_key(SRC_IDX), 8, 0x12345678, 0);
	rd_check_recv_cqe(1, IBOP_SEND_ONLY_IMM, 8, 0x12345678,
			  "SEND_IMM: receive CQE 0x05 with the immediate");
	rd_check_cqe(OPC_SEND_IMM, 0, 0, "SEND_IMM: send CQE opcode 0x0b");

	memset(rd.src->va + 0xa00, 0xcc, 0x100);
	rd_recv_wqe(2, 16, 0xa00);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 64, 0, 0);
	rd_check_recv_err(2, SYN_LOCAL_LENGTH,
			  "SEND into a 16-byte receive buffer: the receive WQE 0x01");
	rd_check_cqe(OPC_SEND, SYN_REMOTE_INVAL_REQ, 0,
		     "... and the sender 0x12 (remote invalid request)");
	ktap_test_check(rd_all(rd.src->va + 0xa10, 0xcc, 0xf0),
			"too small a buffer: nothing written past it",
			"byte 0xa10: 0x%02x", rd.src->va[0xa10]);
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/*
 * A receive posted to a QP in ERR (its doorbell record only, no doorbell)
 * completes flushed at the next 2ERR (arbel-stub.rst, "Errors")
 */
void rd_recv_in_err(void)
{
	uint32_t pi;

	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR");
	pi = rd_cq_producer();
	rd_recv_wqe(0, 64, 0x800);
	usleep(10000);
	ktap_test_check(rd_cq_producer() == pi,
			"a receive posted in ERR: no CQE while no command comes",
			"CQ producer 0x%x, was 0x%x", rd_cq_producer(), pi);
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR on a QP in ERR");
	rd_check_recv_err(0, SYN_WR_FLUSH,
			  "... flushes the receive posted since: 0x05");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/*
 * RNR: the requester waits the responder's RNR NAK timer (IBTA's code, 1
 * is 10 us; the stub runs it 100 times faster) and tries again, rnr_retry
 * times or, with 7, until a receive WQE is posted
 */
static void rnr(void)
{
	rd.rnr_retry = 2;
	rd.rnr_timer = 1;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 16, 0, 0);
	usleep(20000);
	rd_check_cqe(OPC_SEND, SYN_RNR_RETRY_EXC, 0,
		     "SEND, rnr_retry 2, nothing posted: RNR retries run out -> 0x16");
	rd.rnr_retry = 7;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 16, 0, 0);
	usleep(20000);
	ktap_test_check(rd_cq_producer() == rd.cq_next,
			"rnr_retry 7: still waiting after 20 ms, no CQE",
			"producer index %u, CQEs seen %u", rd_cq_producer(),
			rd.cq_next);
	rd_recv_wqe(0, 64, 0xf00);
	usleep(20000);
	rd_check_recv_cqe(0, IBOP_SEND_ONLY, 16, 0,
			  "a receive posted later: the retried SEND lands");
	rd_check_cqe(OPC_SEND, 0, 0, "... and completes");
	rd.rnr_retry = 0;
	rd.rnr_timer = 0;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* a QP whose P_Key index holds no key: its messages are dropped */
static void pkey(void)
{
	rd.pkey_index = 1;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_post(OPC_WRITE, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	rd_check_cqe(OPC_WRITE, SYN_RETRY_EXC, 0,
		     "P_Key index 1 (an empty entry): dropped, RC retries run out -> 0x15");
	rd.pkey_index = 0;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/*
 * a UD send to QP 0 itself (struct mthca_arbel_ud_seg: the address vector
 * -- port 31:24 of dword 0, DLID at 6 -- then the destination QPN at 0x20,
 * the Q_Key at 0x24); it fills the 64-byte stride, so no data: 0 bytes
 */
static void post_ud(uint32_t qkey)
{
	uint8_t *w = rd.wq->va + SQ_OFF + (rd.sq_head % (1u << SQ_LOG)) * 64;

	memset(w, 0, 64);
	put32(w + 0x00, SQ_OFF + ((rd.sq_head + 1) % (1u << SQ_LOG)) * 64);
	put32(w + 0x08, NEXT_CQ_UPDATE);
	put32(w + 0x10, 1u << 24 | PD);		/* port 1 */
	put32(w + 0x14, 1);			/* DLID 1 */
	put32(w + 0x30, 0);			/* QP 0 */
	put32(w + 0x34, qkey);
	*(volatile uint64_t *)(rd.uar + UAR * 4096 + DB_SEND) =
		htobe64((uint64_t)(1u << 24 | (rd.sq_head & 0xffff) << 8 |
				   OPC_SEND) << 32 | 4);
	rd.sq_head++;
}

/*
 * UD: a Q_Key other than the QP's drops the message (the sender completes,
 * nothing is received; IBTA 10.2.4); UC: an RDMA READ is not an opcode the
 * service has, a local QP operation error (0x02)
 */
static void services(void)
{
	rd.st = ST_UD;
	rd_qp_up(0);
	rd_recv_wqe(0, 128, 0xe00);
	post_ud(QKEY ^ 1);
	rd_check_cqe(OPC_SEND, 0, 0, "UD SEND with another Q_Key: completes");
	ktap_test_check(rd_cq_producer() == rd.cq_next,
			"... and is dropped: no receive CQE", "producer %u, seen %u",
			rd_cq_producer(), rd.cq_next);
	post_ud(QKEY);
	rd_check_recv_cqe(0, IBOP_SEND_ONLY, 40, 0,
			  "UD SEND with the QP's Q_Key: received, 40 GRH bytes counted");
	rd_check_cqe(OPC_SEND, 0, 0, "... and completes");

	rd.st = ST_UC;
	rd_qp_up(QP_RWE);
	rd_post(OPC_READ, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	rd_check_cqe(OPC_READ, SYN_LOCAL_QP_OP, 0,
		     "RDMA READ on a UC QP -> 0x02 (local QP operation)");
	rd.st = 0;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* a doorbell of two 32-bit stores; flushed receives; a DMA that fails */
void rd_more(void)
{
	rnr();
	pkey();
	services();
	rd.db32 = true;
	rd_post(OPC_WRITE, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	rd_check_cqe(OPC_WRITE, 0, 0,
		     "the send doorbell as two 32-bit stores, high dword first");
	rd.db32 = false;

	rd_recv_wqe(0, 64, 0xe00);
	rd_recv_wqe(1, 64, 0xe40);
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK,
		     "2ERR with two receives posted");
	rd_check_recv_err(0, SYN_WR_FLUSH, "receive WQE 0 flushed (0x05)");
	rd_check_recv_err(1, SYN_WR_FLUSH, "receive WQE 1 flushed (0x05)");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);

	rd_post(OPC_WRITE, DST_VA, rd_key(NOWHERE_IDX), SRC_VA, rd_key(SRC_IDX),
		16, 0,
		0);
	rd_check_cqe(OPC_WRITE, SYN_REMOTE_OP, 0,
		     "WRITE into a page the bus cannot reach: the responder's DMA fails, 0x14");
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/*
 * a CQ whose consumer index (its set-CI doorbell record) is a whole CQ
 * behind the producer is full: the next CQE is not written, the CQ error
 * event comes with syndrome 1, overrun (mthca's cq_err)
 */
void rd_cq_overrun(void)
{
	const uint8_t *e = rd.cq->va + 0x800;	/* EQE 0 at EQ_VA */
	uint32_t pi = ~0u;

	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 0, 0), ST_OK,
		     "MAP_EQ event 4 (CQ error) to EQ 0");
	put32(rd.uarc->va + CQ_CI_DB * 8, rd.cq_next - (1u << CQ_LOG));
	rd_post(OPC_WRITE, DST_VA, rd_key(DST_IDX), SRC_VA, rd_key(SRC_IDX), 16,
		0, 0);
	ktap_test_check(e[1] == EV_CQ_ERROR && get32(e + 4) == 0 &&
			e[4 + 11] == 1 && !(e[0x1f] & 0x80),
			"a full CQ (set-CI record a CQ behind): CQ error EQE, syndrome 1 (overrun)",
			"type 0x%02x cqn 0x%x syndrome %u owner 0x%02x", e[1],
			get32(e + 4), e[4 + 11], e[0x1f]);
	pi = rd_cq_producer();
	ktap_test_check(pi == rd.cq_next, "... and the CQE was not written",
			"producer index %u, want %u", pi, rd.cq_next);
	put32(rd.uarc->va + CQ_CI_DB * 8, rd.cq_next);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap event 4");
}

/* SRQ WQE @i: one data segment; linked to the next, the last to none */
static void srq_wqe(unsigned int i, uint32_t off)
{
	uint8_t *w = rd.wq->va + SRQ_OFF + i * 32;

	memset(w, 0, 32);
	put32(w, i < 3 ? ((i + 1) << 5 | 1) : 0);
	put32(w + 0x10, 64);
	put32(w + 0x14, rd_key(SRC_IDX));
	put64(w + 0x18, SRC_VA + off);
}

/* EQE @n of EQ 0 (at EQ_VA): @type for object 0 */
static void check_eqe(unsigned int n, uint8_t type, const char *name)
{
	const uint8_t *e = rd.cq->va + 0x800 + n * 32;

	ktap_test_check(e[1] == type && get32(e + 4) == 0 && !(e[0x1f] & 0x80),
			name, "type 0x%02x number 0x%x owner 0x%02x", e[1],
			get32(e + 4), e[0x1f]);
}

/*
 * an SRQ (mthca_arbel_srq_context: log size 28:24 at 0x00, lkey 0x04,
 * db_index 0x08, log stride - 4 31:29 and UAR at 0x0c, wqe_base 0x10, PD
 * 0x18; WQEs linked by nda_op | 1, mthca_alloc_srq_buf): receives by the
 * link, its limit event, the last WQE reached event of its QP in error
 */
void rd_srq(void)
{
	struct arbel_dma_page *pg = page_alloc();
	uint8_t *m = inbox->va;
	unsigned int i;

	check_status(map_pages(OP_MAP_ICM, &pg, 1, SRQC_BASE), ST_OK,
		     "MAP_ICM the SRQ context page");
	for (i = 0; i < 4; i++)
		srq_wqe(i, 0xc00 + i * 0x40);
	put32(rd.uarc->va + SRQ_DB * 8, 0);
	memset(m, 0, 0x30);
	put32(m + 0x00, 2u << 24 | 0);		/* 4 WQEs, SRQ 0 */
	put32(m + 0x04, rd_key(Q_IDX));
	put32(m + 0x08, SRQ_DB);
	put32(m + 0x0c, (5u - 4) << 29 | 0);	/* 32-byte WQEs, UAR 0 */
	put64(m + 0x10, SRQ_OFF);
	put32(m + 0x18, PD);
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_SRQ");
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SRQ_LIMIT |
			 1ull << EV_SRQ_LAST_WQE, 0, 0), ST_OK,
		     "MAP_EQ events 0x13, 0x14 to EQ 0");
	rd.on_srq = true;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	put32(rd.uarc->va + SRQ_DB * 8, 3);	/* three posted */
	check_status(cmd(OP_ARM_SRQ, 0, 2, 0, 0), ST_OK, "ARM_SRQ limit 2");
	memset(rd.src->va + 0xc00, 0xcc, 0x100);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 32, 0, 0);
	rd_check_recv_cqe(0, IBOP_SEND_ONLY, 32, 0,
			  "SEND on an SRQ QP: SRQ WQE 0 (wqe 0x0)");
	rd_check_cqe(OPC_SEND, 0, 0, "... its send CQE");
	ktap_test_check(rd.cq->va[0x800 + 32 + 0x1f] & 0x80,
			"two left of three, limit 2: no event yet",
			"EQE 1 type 0x%02x", rd.cq->va[0x800 + 32 + 1]);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 32, 0, 0);
	rd_check_recv_cqe(1, IBOP_SEND_ONLY, 32, 0,
			  "the next SEND: SRQ WQE 1, WQE 0's link (wqe 0x20)");
	rd_check_cqe(OPC_SEND, 0, 0, "... its send CQE");
	ktap_test_check(!memcmp(rd.src->va + 0xc40, rd.src->va, 32),
			"the payload in SRQ WQE 1's buffer", "byte 0x%02x",
			rd.src->va[0xc40]);
	check_eqe(1, EV_SRQ_LIMIT,
		  "one left, under the limit: SRQ limit event (0x14, SRQ 0)");
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR the QP");
	check_eqe(2, EV_SRQ_LAST_WQE,
		  "a QP on an SRQ in error: last WQE reached (0x13, QP 0)");
	rd.on_srq = false;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SRQ_LIMIT |
			 1ull << EV_SRQ_LAST_WQE, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap events 0x13, 0x14");
	check_status(cmd(OP_HW2SW_SRQ, 0, 0, 0, outbox->pa), ST_OK,
		     "HW2SW_SRQ");
	check_status(cmd(OP_UNMAP_ICM, 0, SRQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the SRQ context page");
}

/*
 * RTS2SQD's in_mod bit 31 asks for the SQ-drained event (mthca's
 * sqd_event; event type 0x03: mthca's MTHCA_EVENT_TYPE_SQ_DRAINED): with
 * nothing in flight it comes as the command completes, for QP 0; without
 * the bit none comes.  A SEND an RNR NAK holds is in flight: SQD lets it
 * finish (IBTA vol. 1 10.3.1), and the event comes once a receive lets
 * it land.  EQEs 3 to 5 of EQ 0 (rd_srq wrote 1 and 2).
 */
void rd_sq_drained(void)
{
	const uint8_t *next = rd.cq->va + 0x800 + 4 * 32;

	memset(inbox->va, 0, 0x108);	/* SQD2RTS: no optional parameter */
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SQ_DRAINED, 0, 0), ST_OK,
		     "MAP_EQ event 0x03 to EQ 0");
	check_status(cmd(OP_RTS2SQD, 0, 0, 0, 0), ST_OK,
		     "RTS2SQD without in_mod bit 31");
	check_status(cmd(OP_SQD2RTS, 0, inbox->pa, 0, 0), ST_OK, "SQD2RTS");
	check_status(cmd(OP_RTS2SQD, 0, 0, QP_SQD_EVENT, 0), ST_OK,
		     "RTS2SQD with in_mod bit 31 (SQ-drained event requested)");
	check_eqe(3, EV_SQ_DRAINED,
		  "the SQ-drained event (0x03, QP 0), and none for the RTS2SQD "
		  "without the bit");
	ktap_test_check(next[0x1f] & 0x80, "no second SQ-drained event",
			"EQE 4 type 0x%02x", next[1]);
	check_status(cmd(OP_SQD2RTS, 0, inbox->pa, 0, 0), ST_OK, "SQD2RTS");

	rd.rnr_retry = 7;
	rd.rnr_timer = 1;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	rd_post(OPC_SEND, 0, 0, SRC_VA, rd_key(SRC_IDX), 16, 0, 0);
	check_status(cmd(OP_RTS2SQD, 0, 0, QP_SQD_EVENT, 0), ST_OK,
		     "RTS2SQD with bit 31, a SEND held by RNR NAKs");
	usleep(20000);
	ktap_test_check(next[0x1f] & 0x80,
			"the SEND still in flight after 20 ms: no event yet",
			"EQE 4 type 0x%02x", next[1]);
	rd_recv_wqe(0, 64, 0xf00);
	usleep(20000);
	rd_check_recv_cqe(0, IBOP_SEND_ONLY, 16, 0,
			  "a receive posted: the SEND retried in SQD lands");
	rd_check_cqe(OPC_SEND, 0, 0, "... and completes");
	check_eqe(4, EV_SQ_DRAINED,
		  "then the SQ-drained event (0x03, QP 0)");
	memset(inbox->va, 0, 0x108);
	check_status(cmd(OP_SQD2RTS, 0, inbox->pa, 0, 0), ST_OK, "SQD2RTS");
	rd.rnr_retry = 0;
	rd.rnr_timer = 0;
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SQ_DRAINED, 1u << 31, 0),
		     ST_OK, "MAP_EQ unmap event 0x03");
}
