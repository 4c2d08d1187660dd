// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "rdma": RDMA WRITE, RDMA READ and both atomics
 * on an RC QP connected to itself through port 1 (LID 1: the stub's
 * subnet manager numbers port n from 1), every key checked the way the
 * HCA checks it (Documentation/arbel-stub.rst "Data path"): each refused
 * access completes with its syndrome and leaves the target bytes as they
 * were; a SEND takes a receive WQE its doorbell record counts, or gets
 * RNR, or too small a buffer's errors; posted receives flush when the QP
 * goes to ERR; a doorbell of two 32-bit stores works as one of 64 bits; a
 * DMA the bus refuses fails the WRITE (0x14); a type 1 window binds to a
 * region with bind enable and gives access to its range only; a full CQ
 * and an SRQ's limit raise their events; the TPT cache
 * keeps serving a translation the CPU rewrote in ICM until SYNC_TPT.
 *
 * Layouts, all from mthca: the send doorbell (mthca_arbel_post_send), the
 * WQE segments (struct mthca_next_seg, mthca_raddr_seg, mthca_atomic_seg,
 * mthca_data_seg), the QP context (struct mthca_qp_context: service type
 * 23:16 of dword 0, RC 0; sq_size_stride 0x0a; local QPN 0x10; remote QPN
 * 0x14; primary path port 0x20 31:24, RLID 0x26; PD 0x64; wqe_lkey 0x6c;
 * params1 0x70 bit 3 SSC; cqn_snd 0x7c; snd_wqe_base_l 0x80; params2
 * 0x90: RRE 15, RWE 14, RAE 13; cqn_rcv 0x9c; rcv_db_index 0xa4), the
 * receive WQE (mthca_arbel_post_receive: the next segment, data segments)
 * and its doorbell record (mthca_alloc_db: UARC + UAR * 4 KiB + index * 8,
 * the counter in its first be32), the bind segment (struct mthca_bind_seg:
 * rights 31 atomic, 30 remote write, 29 remote read; new rkey 0x08; the
 * region's lkey 0x0c; address 0x10; length 0x18; opcode 0x18), the
 * receive CQE's opcode (the BTH
 * opcode: 0x04 SEND_ONLY, 0x05 with immediate; mthca_poll_one), the CQEs (struct mthca_cqe, mthca_err_cqe: byte count
 * 0x14, syndrome 0x10, opcode 0xff for a send in error), the syndromes
 * (mthca's cq code: 0x04 local protection, 0x13 remote access), the WQE
 * opcodes (iPXE's PRM header: 0x08 RDMA_WRITE, 0x10 RDMA_READ, 0x11
 * ATOMIC_CS, 0x12 ATOMIC_FA), the MPT rights (arbelprm_mpt_st).
 */
#include <inttypes.h>
#include <stdio.h>

#include "conformance.h"

#define OP_INIT_IB		0x009
#define OP_CLOSE_IB		0x00a
#define OP_SW2HW_CQ		0x016
#define OP_HW2SW_CQ		0x017
#define OP_RST2INIT		0x019
#define OP_INIT2RTR		0x01a
#define OP_RTR2RTS		0x01b
#define OP_2ERR			0x01e
#define OP_MAP_EQ		0x012
#define OP_HW2SW_EQ		0x014
#define EV_CQ_ERROR		0x04
#define CQ_CI_DB		2	/* the CQ's set-CI doorbell record */
#define EQ_VA			0x1800
#define OP_SW2HW_SRQ		0x035
#define OP_HW2SW_SRQ		0x036
#define OP_ARM_SRQ		0x040
#define EV_SRQ_LAST_WQE		0x13
#define EV_SRQ_LIMIT		0x14
#define SRQ_OFF			0x600	/* 4 SRQ WQEs of 32 bytes */
#define SRQ_DB			3	/* the SRQ's doorbell record */
#define OP_ERR2RST		0x021

#define OPC_WRITE		0x08
#define OPC_READ		0x10
#define OPC_CS			0x11
#define OPC_FA			0x12
#define NEXT_CQ_UPDATE		(1u << 3)
#define SYN_LOCAL_PROT		0x04
#define SYN_REMOTE_ACCESS	0x13
#define QP_RRE			(1u << 15)
#define QP_RWE			(1u << 14)
#define QP_RAE			(1u << 13)
#define QP_SSC			(1u << 3)

#define Q_IDX			(RSVD_MPT + 60)	/* the queues' region */
#define SRC_IDX			(RSVD_MPT + 61)	/* local buffer */
#define DST_IDX			(RSVD_MPT + 62)	/* remote: every right */
#define NORIGHT_IDX		(RSVD_MPT + 63)	/* remote: local rights only */
#define OTHERPD_IDX		(RSVD_MPT + 64)	/* remote: another PD */
#define DEREG_IDX		(RSVD_MPT + 65)	/* registered, then not */
#define BINDABLE_IDX		(RSVD_MPT + 66)	/* local rights, bind enabled */
#define WINDOW_IDX		(RSVD_MPT + 67)	/* a type 1 window */
#define NOWHERE_IDX		(RSVD_MPT + 68)	/* its page: no RAM there */
#define NOWHERE_PA		(1ULL << 39)
#define SYN_WR_FLUSH		0x05
#define SYN_REMOTE_OP		0x14
#define MPT_EB			(1u << 15)
#define OPC_BIND		0x18
#define BIND_RREAD		(1u << 29)
#define BIND_RWRITE		(1u << 30)
#define SYN_MW_BIND		0x06
#define RDMA_MTT		(MTT_BASE + 0x500)
#define PD			7
#define SRC_VA			0x100000ULL
#define DST_VA			0x200000ULL
#define CQ_VA			0x1000
#define CQ_LOG			6
#define SQ_LOG			3
#define SQ_OFF			0x100	/* the RQ first, as mthca lays them */
#define RQ_LOG			2	/* 4 receive WQEs of 32 bytes */
#define RQ_DB			1	/* the RQ's doorbell record */
#define OPC_SEND		0x0a
#define OPC_SEND_IMM		0x0b
#define NEXT_SOLICIT		(1u << 1)
#define SYN_LOCAL_LENGTH	0x01
#define SYN_REMOTE_INVAL_REQ	0x12
#define SYN_RNR_RETRY_EXC	0x16
#define IBOP_SEND_ONLY		0x04
#define IBOP_SEND_ONLY_IMM	0x05
#define UAR			1
#define DB_SEND			0x10

static struct arbel_dma_page *wq, *cq, *src, *dst, *alt, *uarc;
static volatile uint8_t *uar;
static unsigned int sq_head, cq_next;
static bool on_srq;		/* qp_up: the QP takes receives from SRQ 0 */
static bool db32;		/* post: ring as two 32-bit stores */

static uint32_t key(uint32_t index)
{
	return lkey_of(hw_key(index, 3));
}

static void region(uint32_t index, uint32_t flags, uint32_t pd, uint64_t va,
		   uint64_t len, uint64_t mtt, const char *name)
{
	uint8_t e[64];

	mpt_build(e, flags, 0, hw_key(index, 3), pd, va, len, mtt);
	check_status(sw2hw(index, e), ST_OK, name);
}

/* QP 0 from any state to RTS: RC, connected to itself on port 1 */
static void qp_up(uint32_t params2)
{
	static const uint16_t ops[] = { OP_RST2INIT, OP_INIT2RTR, OP_RTR2RTS };
	uint8_t *c = inbox->va + 8;
	bool ok = cmd(OP_2ERR, 0, 0, 0, 0) == ST_OK &&
		  cmd(OP_ERR2RST, 3, 0, 0, 0) == ST_OK;
	unsigned int i;

	put32(uarc->va + RQ_DB * 8, 0);		/* no receive posted */
	for (i = 0; i < 3; i++) {
		memset(inbox->va, 0, 0x108);
		put32(c + 0x00, 0u << 16);		/* RC */
		c[0x09] = RQ_LOG << 3 | (5 - 4);	/* 4 WQEs of 32 bytes */
		c[0x0a] = SQ_LOG << 3 | (6 - 4);	/* 8 WQEs of 64 bytes */
		put32(c + 0x0c, 0);			/* UAR 0 */
		put32(c + 0x10, 0);			/* local QPN */
		put32(c + 0x14, 0);			/* remote QPN: itself */
		put32(c + 0x20, 1u << 24);		/* port 1 */
		put32(c + 0x24, 1);			/* RLID 1 */
		put32(c + 0x64, PD);
		put32(c + 0x6c, key(Q_IDX));
		put32(c + 0x70, QP_SSC);
		put32(c + 0x80, SQ_OFF);		/* snd_wqe_base_l */
		put32(c + 0x90, params2);
		put32(c + 0xa4, RQ_DB);			/* rcv_db_index */
		put32(c + 0xac, on_srq ? 1u << 24 : 0);	/* srqn: SRQ 0 */
		ok = ok && cmd(ops[i], 0, inbox->pa, 0, 0) == ST_OK;
	}
	ktap_test_check(ok, params2 & QP_RWE ?
			"QP 0 up: RC to itself on port 1, RRE RWE RAE" :
			"QP 0 up without RWE", "a transition failed");
	sq_head = 0;
}

/* one signaled WQE: @op to raddr/rkey, the local SGE laddr/lkey/len */
static void post(uint8_t op, uint64_t raddr, uint32_t rkey, uint64_t laddr,
		 uint32_t lkey, uint32_t len, uint64_t swap, uint64_t cmp)
{
	uint8_t *w = wq->va + SQ_OFF + (sq_head % (1u << SQ_LOG)) * 64;
	unsigned int off = 32;

	memset(w, 0, 64);
	put32(w + 0x00, SQ_OFF + ((sq_head + 1) % (1u << SQ_LOG)) * 64);
	put32(w + 0x08, NEXT_CQ_UPDATE);
	if (op == OPC_SEND || op == OPC_SEND_IMM) {
		put32(w + 0x08, NEXT_CQ_UPDATE | NEXT_SOLICIT);
		put32(w + 0x0c, (uint32_t)swap);	/* the immediate */
		off = 16;
	}
	put64(w + 0x10, raddr);
	put32(w + 0x18, rkey);
	if (op == OPC_CS || op == OPC_FA) {
		put64(w + 0x20, swap);
		put64(w + 0x28, cmp);
		off = 48;
	}
	put32(w + off, len);
	put32(w + off + 4, lkey);
	put64(w + off + 8, laddr);
	if (db32) {
		/* as mthca_write64 on 32-bit hosts: the high dword first */
		*(volatile uint32_t *)(uar + UAR * 4096 + DB_SEND) =
			htobe32(1u << 24 | (sq_head & 0xffff) << 8 | op);
		*(volatile uint32_t *)(uar + UAR * 4096 + DB_SEND + 4) =
			htobe32((off + 16) / 16);
	} else {
		*(volatile uint64_t *)(uar + UAR * 4096 + DB_SEND) =
			htobe64((uint64_t)(1u << 24 | (sq_head & 0xffff) << 8 |
					   op) << 32 | (off + 16) / 16);
	}
	sq_head++;
}

/* a BIND_MW WQE: window key @new_rkey over @len bytes at @va of @lkey */
static void post_bind(uint32_t new_rkey, uint32_t lkey, uint64_t va,
		      uint64_t len, uint32_t rights)
{
	uint8_t *w = wq->va + SQ_OFF + (sq_head % (1u << SQ_LOG)) * 64;

	memset(w, 0, 64);
	put32(w + 0x00, SQ_OFF + ((sq_head + 1) % (1u << SQ_LOG)) * 64);
	put32(w + 0x08, NEXT_CQ_UPDATE);
	put32(w + 0x10, rights);
	put32(w + 0x18, new_rkey);
	put32(w + 0x1c, lkey);
	put64(w + 0x20, va);
	put64(w + 0x28, len);
	*(volatile uint64_t *)(uar + UAR * 4096 + DB_SEND) =
		htobe64((uint64_t)(1u << 24 | (sq_head & 0xffff) << 8 |
				   OPC_BIND) << 32 | 3);
	sq_head++;
}

/* the next CQE: success of @op (syndrome 0) or an error with @syn */
static void check_cqe(uint8_t op, uint8_t syn, uint32_t byte_cnt,
		      const char *name)
{
	const uint8_t *e = cq->va + (cq_next % (1u << CQ_LOG)) * 32;
	uint32_t wqe = SQ_OFF + ((sq_head - 1) % (1u << SQ_LOG)) * 64;
	bool ok = !(e[0x1f] & 0x80) && get32(e) == 0 &&
		  get32(e + 0x18) == wqe;

	if (syn)
		ok = ok && e[0x1c] == 0xff && e[0x10] == syn;
	else
		ok = ok && e[0x1c] == op && (e[0x1d] & 0x80) &&
		     get32(e + 0x14) == byte_cnt;
	ktap_test_check(ok, name,
			"owner 0x%02x qpn 0x%x wqe 0x%x opcode 0x%02x syndrome 0x%02x bytes %u",
			e[0x1f], get32(e), get32(e + 0x18), e[0x1c], e[0x10],
			get32(e + 0x14));
	cq_next++;
	put32(uarc->va + CQ_CI_DB * 8, cq_next);	/* consumed, as polled */
}

static bool all(const uint8_t *p, uint8_t v, size_t n)
{
	while (n--)
		if (*p++ != v)
			return false;
	return true;
}

/* a refused WRITE of 64 bytes: its syndrome, the target page untouched */
static void refused_write(uint64_t raddr, uint32_t rkey, uint64_t laddr,
			  uint8_t syn, const char *name)
{
	char what[160];

	memset(dst->va, 0xaa, PAGE);
	post(OPC_WRITE, raddr, rkey, laddr, key(SRC_IDX), 64, 0, 0);
	check_cqe(OPC_WRITE, syn, 0, name);
	snprintf(what, sizeof(what), "%s: the target bytes untouched", name);
	ktap_test_check(all(dst->va, 0xaa, PAGE), what, "first byte 0x%02x",
			dst->va[0]);
	qp_up(QP_RRE | QP_RWE | QP_RAE);
}

static void writes_and_reads(void)
{
	unsigned int i;

	for (i = 0; i < PAGE; i++)
		src->va[i] = (uint8_t)(i * 7 + 1);
	memset(dst->va, 0xaa, PAGE);
	post(OPC_WRITE, DST_VA + 0x100, key(DST_IDX), SRC_VA, key(SRC_IDX), 64,
	     0, 0);
	check_cqe(OPC_WRITE, 0, 0, "RDMA WRITE 64 bytes: CQE opcode 0x08");
	ktap_test_check(!memcmp(dst->va + 0x100, src->va, 64) &&
			all(dst->va, 0xaa, 0x100) &&
			all(dst->va + 0x140, 0xaa, PAGE - 0x140),
			"RDMA WRITE: the 64 bytes, and only they, landed",
			"byte 0x100: 0x%02x", dst->va[0x100]);

	post(OPC_READ, DST_VA + 0x100, key(DST_IDX), SRC_VA + 0x300,
	     key(SRC_IDX), 32, 0, 0);
	check_cqe(OPC_READ, 0, 32, "RDMA READ 32 bytes: CQE opcode 0x10, 32 bytes");
	ktap_test_check(!memcmp(src->va + 0x300, dst->va + 0x100, 32),
			"RDMA READ: the bytes in the local buffer",
			"byte 0x300: 0x%02x", src->va[0x300]);

	refused_write(DST_VA, key(NORIGHT_IDX), SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE without the rkey's remote write right -> 0x13");
	refused_write(DST_VA + PAGE - 32, key(DST_IDX), SRC_VA,
		      SYN_REMOTE_ACCESS,
		      "WRITE past the region's end -> 0x13");
	refused_write(DST_VA, key(OTHERPD_IDX), SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE with another PD's rkey -> 0x13");
	refused_write(DST_VA, key(DEREG_IDX), SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE with a deregistered rkey -> 0x13");
	refused_write(DST_VA, key(DST_IDX) ^ 0x1, SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE with a wrong key tag -> 0x13");
	refused_write(DST_VA, key(DST_IDX), SRC_VA + PAGE - 32, SYN_LOCAL_PROT,
		      "WRITE whose local SGE runs past its lkey -> 0x04");

	memset(src->va + 0x300, 0x55, 32);
	post(OPC_READ, DST_VA, key(NORIGHT_IDX), SRC_VA + 0x300, key(SRC_IDX),
	     32, 0, 0);
	check_cqe(OPC_READ, SYN_REMOTE_ACCESS, 0,
		  "READ without the rkey's remote read right -> 0x13");
	ktap_test_check(all(src->va + 0x300, 0x55, 32),
			"refused READ: the local buffer untouched",
			"byte 0x%02x", src->va[0x300]);
	qp_up(QP_RRE | QP_RWE | QP_RAE);
}

static void atomics(void)
{
	put64(dst->va + 0x400, 5);
	post(OPC_FA, DST_VA + 0x400, key(DST_IDX), SRC_VA + 0x400,
	     key(SRC_IDX), 8, 3, 0);
	check_cqe(OPC_FA, 0, 0, "ATOMIC_FA: CQE opcode 0x12");
	ktap_test_check(get64(dst->va + 0x400) == 8 &&
			get64(src->va + 0x400) == 5,
			"ATOMIC_FA: 5 + 3 in the region, 5 returned",
			"region %" PRIu64 " returned %" PRIu64,
			get64(dst->va + 0x400), get64(src->va + 0x400));
	post(OPC_CS, DST_VA + 0x400, key(DST_IDX), SRC_VA + 0x408,
	     key(SRC_IDX), 8, 42, 8);
	check_cqe(OPC_CS, 0, 0, "ATOMIC_CS: CQE opcode 0x11");
	ktap_test_check(get64(dst->va + 0x400) == 42 &&
			get64(src->va + 0x408) == 8,
			"ATOMIC_CS: 8 == 8, swapped for 42, 8 returned",
			"region %" PRIu64 " returned %" PRIu64,
			get64(dst->va + 0x400), get64(src->va + 0x408));
	post(OPC_FA, DST_VA + 0x404, key(DST_IDX), SRC_VA + 0x400,
	     key(SRC_IDX), 8, 1, 0);
	check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		  "ATOMIC_FA not 8-byte aligned -> 0x13");
	ktap_test_check(get64(dst->va + 0x400) == 42,
			"unaligned atomic: the region untouched",
			"%" PRIu64, get64(dst->va + 0x400));
	qp_up(QP_RRE | QP_RWE | QP_RAE);
	post(OPC_FA, DST_VA + 0x400, key(NORIGHT_IDX), SRC_VA + 0x400,
	     key(SRC_IDX), 8, 1, 0);
	check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		  "ATOMIC_FA without the rkey's atomic right -> 0x13");
	qp_up(QP_RRE | QP_RAE);
	refused_write(DST_VA, key(DST_IDX), SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE to a QP without RWE (the rkey allows it) -> 0x13");
}

/* receive WQE @n: one data segment, @count bytes at SRC_VA + @off */
static void recv_wqe(unsigned int n, uint32_t count, uint32_t off)
{
	uint8_t *w = wq->va + (n % (1u << RQ_LOG)) * 32;

	memset(w, 0, 32);
	put32(w + 0x10, count);
	put32(w + 0x14, key(SRC_IDX));
	put64(w + 0x18, SRC_VA + off);
	put32(uarc->va + RQ_DB * 8, n + 1);	/* the doorbell record */
}

/* the next CQE: receive WQE @n got @bytes of IB opcode @op */
static void check_recv_cqe(unsigned int n, uint8_t op, uint32_t bytes,
			   uint32_t imm, const char *name)
{
	const uint8_t *e = cq->va + (cq_next % (1u << CQ_LOG)) * 32;

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
	cq_next++;
	put32(uarc->va + CQ_CI_DB * 8, cq_next);	/* consumed, as polled */
}

/* the next CQE: receive WQE @n completed in error with @syn */
static void check_recv_err(unsigned int n, uint8_t syn, const char *name)
{
	const uint8_t *e = cq->va + (cq_next % (1u << CQ_LOG)) * 32;

	ktap_test_check(!(e[0x1f] & 0x80) && e[0x1c] == 0xfe &&
			e[0x10] == syn && get32(e + 0x18) == n * 32, name,
			"owner 0x%02x opcode 0x%02x syndrome 0x%02x wqe 0x%x",
			e[0x1f], e[0x1c], e[0x10], get32(e + 0x18));
	cq_next++;
	put32(uarc->va + CQ_CI_DB * 8, cq_next);	/* consumed, as polled */
}

/* SEND: RNR, a receive WQE through the doorbell record, too small a one */
static void receives(void)
{
	post(OPC_SEND, 0, 0, SRC_VA, key(SRC_IDX), 64, 0, 0);
	check_cqe(OPC_SEND, SYN_RNR_RETRY_EXC, 0,
		  "SEND, no receive posted, rnr_retry 0 -> 0x16");
	qp_up(QP_RRE | QP_RWE | QP_RAE);

	memset(src->va + 0x800, 0xcc, 0x100);
	recv_wqe(0, 128, 0x800);
	post(OPC_SEND, 0, 0, SRC_VA, key(SRC_IDX), 64, 0, 0);
	check_recv_cqe(0, IBOP_SEND_ONLY, 64, 0,
		       "SEND: receive CQE, SEND_ONLY (0x04), 64 bytes, source QP 0, SLID 1");
	check_cqe(OPC_SEND, 0, 0, "SEND: send CQE opcode 0x0a");
	ktap_test_check(!memcmp(src->va + 0x800, src->va, 64) &&
			all(src->va + 0x840, 0xcc, 0xc0),
			"SEND: the payload in the receive buffer, nothing past it",
			"byte 0x800: 0x%02x byte 0x840: 0x%02x",
			src->va[0x800], src->va[0x840]);

	recv_wqe(1, 128, 0x900);
	post(OPC_SEND_IMM, 0, 0, SRC_VA, key(SRC_IDX), 8, 0x12345678, 0);
	check_recv_cqe(1, IBOP_SEND_ONLY_IMM, 8, 0x12345678,
		       "SEND_IMM: receive CQE 0x05 with the immediate");
	check_cqe(OPC_SEND_IMM, 0, 0, "SEND_IMM: send CQE opcode 0x0b");

	memset(src->va + 0xa00, 0xcc, 0x100);
	recv_wqe(2, 16, 0xa00);
	post(OPC_SEND, 0, 0, SRC_VA, key(SRC_IDX), 64, 0, 0);
	check_recv_err(2, SYN_LOCAL_LENGTH,
		       "SEND into a 16-byte receive buffer: the receive WQE 0x01");
	check_cqe(OPC_SEND, SYN_REMOTE_INVAL_REQ, 0,
		  "... and the sender 0x12 (remote invalid request)");
	ktap_test_check(all(src->va + 0xa10, 0xcc, 0xf0),
			"too small a buffer: nothing written past it",
			"byte 0xa10: 0x%02x", src->va[0xa10]);
	qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* a doorbell of two 32-bit stores; flushed receives; a DMA that fails */
static void more(void)
{
	db32 = true;
	post(OPC_WRITE, DST_VA, key(DST_IDX), SRC_VA, key(SRC_IDX), 16, 0, 0);
	check_cqe(OPC_WRITE, 0, 0,
		  "the send doorbell as two 32-bit stores, high dword first");
	db32 = false;

	recv_wqe(0, 64, 0xe00);
	recv_wqe(1, 64, 0xe40);
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK,
		     "2ERR with two receives posted");
	check_recv_err(0, SYN_WR_FLUSH, "receive WQE 0 flushed (0x05)");
	check_recv_err(1, SYN_WR_FLUSH, "receive WQE 1 flushed (0x05)");
	qp_up(QP_RRE | QP_RWE | QP_RAE);

	post(OPC_WRITE, DST_VA, key(NOWHERE_IDX), SRC_VA, key(SRC_IDX), 16, 0,
	     0);
	check_cqe(OPC_WRITE, SYN_REMOTE_OP, 0,
		  "WRITE into a page the bus cannot reach: the responder's DMA fails, 0x14");
	qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* a type 1 window bound to a region, used, refused outside, unbound */
static void windows(void)
{
	uint32_t wkey = lkey_of(hw_key(WINDOW_IDX, 4));
	uint32_t wkey2 = lkey_of(hw_key(WINDOW_IDX, 5));
	uint8_t e[64];

	memset(e, 0, 64);
	put32(e + 0, MPT_SW_OWNS);		/* r_w 0: a window, unbound */
	put32(e + 8, hw_key(WINDOW_IDX, 3));
	put32(e + 12, PD);
	check_status(sw2hw(WINDOW_IDX, e), ST_OK, "SW2HW_MPT a type 1 window");

	post_bind(wkey, key(DST_IDX), DST_VA + 0x100, 0x100, BIND_RWRITE);
	check_cqe(OPC_BIND, SYN_MW_BIND, 0,
		  "BIND_MW to a region without bind enable (eb) -> 0x06");
	qp_up(QP_RRE | QP_RWE | QP_RAE);

	post_bind(wkey, key(BINDABLE_IDX), DST_VA + 0x100, 0x100,
		  BIND_RWRITE | BIND_RREAD);
	check_cqe(OPC_BIND, 0, 0, "BIND_MW: 256 bytes of the region, CQE 0x18");
	memset(dst->va, 0xaa, PAGE);
	post(OPC_WRITE, DST_VA + 0x100, wkey, SRC_VA, key(SRC_IDX), 16, 0, 0);
	check_cqe(OPC_WRITE, 0, 0, "WRITE through the window's rkey");
	ktap_test_check(!memcmp(dst->va + 0x100, src->va, 16),
			"... the bytes landed in the region behind it",
			"byte 0x100: 0x%02x", dst->va[0x100]);
	check_status(cmd(OP_HW2SW_MPT, 1, 0, BINDABLE_IDX, 0), ST_REG_BOUND,
		     "HW2SW_MPT of a region with a window bound -> 0x21");
	refused_write(DST_VA, wkey, SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE through the window, below its range -> 0x13");
	post(OPC_FA, DST_VA + 0x100, wkey, SRC_VA, key(SRC_IDX), 8, 1, 0);
	check_cqe(OPC_FA, SYN_REMOTE_ACCESS, 0,
		  "ATOMIC through a window without the atomic right -> 0x13");
	qp_up(QP_RRE | QP_RWE | QP_RAE);

	post_bind(wkey2, 0, 0, 0, 0);
	check_cqe(OPC_BIND, 0, 0, "BIND_MW of length 0 unbinds");
	refused_write(DST_VA + 0x100, wkey2, SRC_VA, SYN_REMOTE_ACCESS,
		      "WRITE through the unbound window -> 0x13");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, BINDABLE_IDX, 0), ST_OK,
		     "HW2SW_MPT of the region, no window bound");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, WINDOW_IDX, 0), ST_OK,
		     "HW2SW_MPT of the window");
}

/*
 * a CQ whose consumer index (its set-CI doorbell record) is a whole CQ
 * behind the producer is full: the next CQE is not written, the CQ error
 * event comes with syndrome 1, overrun (mthca's cq_err)
 */
static void cq_overrun(void)
{
	const uint8_t *e = cq->va + 0x800;	/* EQE 0 at EQ_VA */
	unsigned int st;
	uint32_t pi = ~0u;

	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 0, 0), ST_OK,
		     "MAP_EQ event 4 (CQ error) to EQ 0");
	put32(uarc->va + CQ_CI_DB * 8, cq_next - (1u << CQ_LOG));
	post(OPC_WRITE, DST_VA, key(DST_IDX), SRC_VA, key(SRC_IDX), 16, 0, 0);
	ktap_test_check(e[1] == EV_CQ_ERROR && get32(e + 4) == 0 &&
			e[4 + 11] == 1 && !(e[0x1f] & 0x80),
			"a full CQ (set-CI record a CQ behind): CQ error EQE, syndrome 1 (overrun)",
			"type 0x%02x cqn 0x%x syndrome %u owner 0x%02x", e[1],
			get32(e + 4), e[4 + 11], e[0x1f]);
	memset(outbox->va, 0xff, 0x40);
	st = cmd(0x018, 0, 0, 0, outbox->pa);		/* QUERY_CQ */
	if (st == ST_OK)
		pi = get32(outbox->va + 0x2c);
	ktap_test_check(pi == cq_next, "... and the CQE was not written",
			"status 0x%02x producer index %u, want %u", st, pi,
			cq_next);
	put32(uarc->va + CQ_CI_DB * 8, cq_next);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_CQ_ERROR, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap event 4");
}

/* SRQ WQE @i: one data segment; linked to the next, the last to none */
static void srq_wqe(unsigned int i, uint32_t off)
{
	uint8_t *w = wq->va + SRQ_OFF + i * 32;

	memset(w, 0, 32);
	put32(w, i < 3 ? ((i + 1) << 5 | 1) : 0);
	put32(w + 0x10, 64);
	put32(w + 0x14, key(SRC_IDX));
	put64(w + 0x18, SRC_VA + off);
}

/* EQE @n of EQ 0 (at EQ_VA): @type for object 0 */
static void check_eqe(unsigned int n, uint8_t type, const char *name)
{
	const uint8_t *e = cq->va + 0x800 + n * 32;

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
static void srq(void)
{
	struct arbel_dma_page *pg = page_alloc();
	uint8_t *m = inbox->va;
	unsigned int i;

	check_status(map_pages(OP_MAP_ICM, &pg, 1, SRQC_BASE), ST_OK,
		     "MAP_ICM the SRQ context page");
	for (i = 0; i < 4; i++)
		srq_wqe(i, 0xc00 + i * 0x40);
	put32(uarc->va + SRQ_DB * 8, 0);
	memset(m, 0, 0x30);
	put32(m + 0x00, 2u << 24 | 0);		/* 4 WQEs, SRQ 0 */
	put32(m + 0x04, key(Q_IDX));
	put32(m + 0x08, SRQ_DB);
	put32(m + 0x0c, (5u - 4) << 29 | 0);	/* 32-byte WQEs, UAR 0 */
	put64(m + 0x10, SRQ_OFF);
	put32(m + 0x18, PD);
	check_status(cmd(OP_SW2HW_SRQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_SRQ");
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SRQ_LIMIT |
			 1ull << EV_SRQ_LAST_WQE, 0, 0), ST_OK,
		     "MAP_EQ events 0x13, 0x14 to EQ 0");
	on_srq = true;
	qp_up(QP_RRE | QP_RWE | QP_RAE);
	put32(uarc->va + SRQ_DB * 8, 3);	/* three posted */
	check_status(cmd(OP_ARM_SRQ, 0, 2, 0, 0), ST_OK, "ARM_SRQ limit 2");
	memset(src->va + 0xc00, 0xcc, 0x100);
	post(OPC_SEND, 0, 0, SRC_VA, key(SRC_IDX), 32, 0, 0);
	check_recv_cqe(0, IBOP_SEND_ONLY, 32, 0,
		       "SEND on an SRQ QP: SRQ WQE 0 (wqe 0x0)");
	check_cqe(OPC_SEND, 0, 0, "... its send CQE");
	ktap_test_check(cq->va[0x800 + 32 + 0x1f] & 0x80,
			"two left of three, limit 2: no event yet",
			"EQE 1 type 0x%02x", cq->va[0x800 + 32 + 1]);
	post(OPC_SEND, 0, 0, SRC_VA, key(SRC_IDX), 32, 0, 0);
	check_recv_cqe(1, IBOP_SEND_ONLY, 32, 0,
		       "the next SEND: SRQ WQE 1, WQE 0's link (wqe 0x20)");
	check_cqe(OPC_SEND, 0, 0, "... its send CQE");
	ktap_test_check(!memcmp(src->va + 0xc40, src->va, 32),
			"the payload in SRQ WQE 1's buffer", "byte 0x%02x",
			src->va[0xc40]);
	check_eqe(1, EV_SRQ_LIMIT,
		  "one left, under the limit: SRQ limit event (0x14, SRQ 0)");
	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR the QP");
	check_eqe(2, EV_SRQ_LAST_WQE,
		  "a QP on an SRQ in error: last WQE reached (0x13, QP 0)");
	on_srq = false;
	qp_up(QP_RRE | QP_RWE | QP_RAE);
	check_status(cmd(OP_MAP_EQ, 0, 1ull << EV_SRQ_LIMIT |
			 1ull << EV_SRQ_LAST_WQE, 1u << 31, 0), ST_OK,
		     "MAP_EQ unmap events 0x13, 0x14");
	check_status(cmd(OP_HW2SW_SRQ, 0, 0, 0, outbox->pa), ST_OK,
		     "HW2SW_SRQ");
	check_status(cmd(OP_UNMAP_ICM, 0, SRQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the SRQ context page");
}

/* a CPU rewrite of an MTT entry in ICM is not seen until SYNC_TPT */
static void tpt_cache(void)
{
	uint32_t syncs = arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS);
	uint8_t *mtt = icm_mtt_entry(RDMA_MTT + 3 * 8);	/* DST's entry */

	memset(dst->va, 0xaa, PAGE);
	memset(alt->va, 0xbb, PAGE);
	put64(mtt, alt->pa | 1);
	post(OPC_WRITE, DST_VA, key(DST_IDX), SRC_VA, key(SRC_IDX), 16, 0, 0);
	check_cqe(OPC_WRITE, 0, 0, "WRITE after a CPU rewrite of the MTT entry");
	ktap_test_check(!memcmp(dst->va, src->va, 16) &&
			all(alt->va, 0xbb, PAGE),
			"no SYNC_TPT: the cached entry still maps the old page",
			"old 0x%02x new 0x%02x", dst->va[0], alt->va[0]);
	check_status(cmd(OP_SYNC_TPT, 0, 0, 0, 0), ST_OK, "SYNC_TPT");
	ktap_test_check(arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS) == syncs + 1 &&
			arbel_dbg_read(dev, ARBEL_DBG_TPT_HITS) > 0,
			"debug window: one more sync, cache hits counted",
			"syncs %u hits %u", arbel_dbg_read(dev, ARBEL_DBG_TPT_SYNCS),
			arbel_dbg_read(dev, ARBEL_DBG_TPT_HITS));
	post(OPC_WRITE, DST_VA, key(DST_IDX), SRC_VA, key(SRC_IDX), 16, 0, 0);
	check_cqe(OPC_WRITE, 0, 0, "WRITE after SYNC_TPT");
	ktap_test_check(!memcmp(alt->va, src->va, 16),
			"after SYNC_TPT: the new page", "new 0x%02x",
			alt->va[0]);
}

void suite_rdma(void)
{
	struct arbel_dma_page *qpc = page_alloc(), *cqc = page_alloc();
	uint64_t ents[6];
	uint8_t *m = inbox->va;
	uint32_t idx;
	size_t len;

	ktap_print_msg("suite: rdma");
	uar = arbel_dev_map_bar(dev, 2, &len);
	wq = page_alloc();
	cq = page_alloc();
	src = page_alloc();
	dst = page_alloc();
	alt = page_alloc();
	ents[0] = wq->pa | 1;
	ents[1] = cq->pa | 1;
	ents[2] = src->pa | 1;
	ents[3] = dst->pa | 1;
	ents[4] = dst->pa | 1;
	ents[5] = NOWHERE_PA | 1;
	check_status(write_mtt(RDMA_MTT, ents, 6), ST_OK,
		     "WRITE_MTT: queues (2 pages), source, target (twice), nowhere");
	region(Q_IDX, MPT_LR | MPT_LW, PD, 0, 2 * PAGE, RDMA_MTT,
	       "SW2HW_MPT the queues' region at iova 0");
	region(SRC_IDX, MPT_LR | MPT_LW, PD, SRC_VA, PAGE, RDMA_MTT + 16,
	       "SW2HW_MPT the local buffer");
	region(DST_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A, PD, DST_VA,
	       PAGE, RDMA_MTT + 24, "SW2HW_MPT the target, every right");
	region(NORIGHT_IDX, MPT_LR | MPT_LW, PD, DST_VA, PAGE, RDMA_MTT + 32,
	       "SW2HW_MPT the target, local rights only");
	region(OTHERPD_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A, PD + 1,
	       DST_VA, PAGE, RDMA_MTT + 32, "SW2HW_MPT the target in PD 8");
	region(DEREG_IDX, MPT_LR | MPT_LW | MPT_RR | MPT_RWR | MPT_A, PD,
	       DST_VA, PAGE, RDMA_MTT + 32, "SW2HW_MPT the target once more");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, DEREG_IDX, 0), ST_OK,
		     "HW2SW_MPT it: its key is gone");
	region(BINDABLE_IDX, MPT_LR | MPT_LW | MPT_EB, PD, DST_VA, PAGE,
	       RDMA_MTT + 32, "SW2HW_MPT the target, local rights, bind enabled");
	region(NOWHERE_IDX, MPT_LR | MPT_LW | MPT_RWR, PD, DST_VA, PAGE,
	       RDMA_MTT + 40, "SW2HW_MPT a region over a page with no RAM");

	check_status(map_pages(OP_MAP_ICM, &cqc, 1, CQC_BASE), ST_OK,
		     "MAP_ICM the CQ context page");
	memset(m, 0, 0x40);
	put64(m + 0x04, CQ_VA);
	put32(m + 0x0c, CQ_LOG << 24);		/* UAR 0 */
	put32(m + 0x1c, key(Q_IDX));
	put32(m + 0x34, CQ_CI_DB);
	check_status(cmd(OP_SW2HW_CQ, 0, inbox->pa, 0, 0), ST_OK, "SW2HW_CQ");
	check_status(map_pages(OP_MAP_ICM, &qpc, 1, QPC_BASE), ST_OK,
		     "MAP_ICM the QP context page");
	uarc = page_alloc();
	memset(uarc->va, 0, PAGE);
	check_status(map_pages(OP_MAP_ICM, &uarc, 1, UARC_BASE), ST_OK,
		     "MAP_ICM UAR 0's context page (doorbell records)");
	memset(m, 0, 56);
	put32(m, 4u << 12 | 3u << 8 | 4u << 4);	/* as suite "ports" */
	m[0x07] = 8;
	m[0x0b] = 64;
	check_status(cmd(OP_INIT_IB, 0, inbox->pa, 1, 0), ST_OK,
		     "INIT_IB port 1");
	qp_up(QP_RRE | QP_RWE | QP_RAE);

	writes_and_reads();
	atomics();
	receives();
	more();
	windows();
	eq_create_unarmed(cq->va + 0x800, EQ_VA, key(Q_IDX));
	cq_overrun();
	srq();
	check_status(cmd(OP_HW2SW_EQ, 1, 0, 0, 0), ST_OK, "HW2SW_EQ");
	check_status(cmd(OP_UNMAP_ICM, 0, EQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the EQ context page");
	qp_up(QP_RRE | QP_RWE | QP_RAE);
	tpt_cache();

	check_status(cmd(OP_2ERR, 0, 0, 0, 0), ST_OK, "2ERR");
	check_status(cmd(OP_ERR2RST, 3, 0, 0, 0), ST_OK, "ERR2RST");
	check_status(cmd(OP_CLOSE_IB, 0, 0, 1, 0), ST_OK, "CLOSE_IB port 1");
	check_status(cmd(OP_HW2SW_CQ, 0, 0, 0, outbox->pa), ST_OK, "HW2SW_CQ");
	check_status(cmd(OP_UNMAP_ICM, 0, QPC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the QP context page");
	check_status(cmd(OP_UNMAP_ICM, 0, CQC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the CQ context page");
	check_status(cmd(OP_UNMAP_ICM, 0, UARC_BASE, 1, 0), ST_OK,
		     "UNMAP_ICM the UAR context page");
	check_status(cmd(OP_HW2SW_MPT, 1, 0, NOWHERE_IDX, 0), ST_OK,
		     "HW2SW_MPT the region with no RAM");
	for (idx = Q_IDX; idx <= OTHERPD_IDX; idx++)
		check_status(cmd(OP_HW2SW_MPT, 1, 0, idx, 0), ST_OK,
			     "HW2SW_MPT a region of the suite");
}
