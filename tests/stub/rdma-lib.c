// SPDX-License-Identifier: GPL-2.0
/*
 * arbel-conformance suite "rdma", its helpers: the regions, QP 0 brought
 * up connected to itself, WQEs posted and their doorbell rung, CQEs
 * checked.  The layouts and their sources: rdma.c's header.
 */
#include "rdma.h"

struct rdma_state rd;

uint32_t rd_key(uint32_t index)
{
	return lkey_of(hw_key(index, 3));
}

void rd_region(uint32_t index, uint32_t flags, uint32_t pd, uint64_t va,
	       uint64_t len, uint64_t mtt, const char *name)
{
	uint8_t e[64];

	mpt_build(e, flags, 0, hw_key(index, 3), pd, va, len, mtt);
	check_status(sw2hw(index, e), ST_OK, name);
}

/* QP 0 from any state to RTS: RC, connected to itself on port 1 */
void rd_qp_up(uint32_t params2)
{
	static const uint16_t ops[] = { OP_RST2INIT, OP_INIT2RTR, OP_RTR2RTS };
	uint8_t *c = inbox->va + 8;
	bool ok = cmd(OP_2ERR, 0, 0, 0, 0) == ST_OK &&
		  cmd(OP_ERR2RST, 3, 0, 0, 0) == ST_OK;
	unsigned int i;

	put32(rd.uarc->va + RQ_DB * 8, 0);		/* no receive posted */
	for (i = 0; i < 3; i++) {
		memset(inbox->va, 0, 0x108);
		put32(c + 0x00, (uint32_t)rd.st << 16);	/* RC 0, UC 1, UD 3 */
		put32(c + 0xa8, QKEY);
		c[0x09] = RQ_LOG << 3 | (5 - 4);	/* 4 WQEs of 32 bytes */
		c[0x0a] = SQ_LOG << 3 | (6 - 4);	/* 8 WQEs of 64 bytes */
		put32(c + 0x0c, 0);			/* UAR 0 */
		put32(c + 0x10, 0);			/* local QPN */
		put32(c + 0x14, 0);			/* remote QPN: itself */
		/* port 1, the P_Key index; RNR retries 31:29, RLID 1 */
		put32(c + 0x20, 1u << 24 | rd.pkey_index);
		put32(c + 0x24, (uint32_t)rd.rnr_retry << 29 | 1);
		put32(c + 0x94, (uint32_t)rd.rnr_timer << 24);
		put32(c + 0x64, PD);
		put32(c + 0x6c, rd_key(Q_IDX));
		put32(c + 0x70, QP_SSC);
		put32(c + 0x80, SQ_OFF);		/* snd_wqe_base_l */
		put32(c + 0x90, params2);
		put32(c + 0xa4, RQ_DB);			/* rcv_db_index */
		/* srqn: SRQ 0 */
		put32(c + 0xac, rd.on_srq ? 1u << 24 : 0);
		ok = ok && cmd(ops[i], 0, inbox->pa, 0, 0) == ST_OK;
	}
	ktap_test_check(ok, params2 & QP_RWE ?
			"QP 0 up: RC to itself on port 1, RRE RWE RAE" :
			"QP 0 up without RWE", "a transition failed");
	rd.sq_head = 0;
}

/* one signaled WQE: @op to raddr/rkey, the local SGE laddr/lkey/len */
void rd_post(uint8_t op, uint64_t raddr, uint32_t rkey, uint64_t laddr,
	     uint32_t lkey, uint32_t len, uint64_t swap, uint64_t cmp)
{
	uint8_t *w = rd.wq->va + SQ_OFF + (rd.sq_head % (1u << SQ_LOG)) * 64;
	unsigned int off = 32;

	memset(w, 0, 64);
	put32(w + 0x00, SQ_OFF + ((rd.sq_head + 1) % (1u << SQ_LOG)) * 64);
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
	if (rd.db32) {
		/* as mthca_write64 on 32-bit hosts: the high dword first */
		*(volatile uint32_t *)(rd.uar + UAR * 4096 + DB_SEND) =
			htobe32(1u << 24 | (rd.sq_head & 0xffff) << 8 | op);
		*(volatile uint32_t *)(rd.uar + UAR * 4096 + DB_SEND + 4) =
			htobe32((off + 16) / 16);
	} else {
		*(volatile uint64_t *)(rd.uar + UAR * 4096 + DB_SEND) =
			htobe64((uint64_t)(1u << 24 |
					   (rd.sq_head & 0xffff) << 8 |
					   op) << 32 | (off + 16) / 16);
	}
	rd.sq_head++;
}

/* a BIND_MW WQE: window key @new_rkey over @len bytes at @va of @lkey */
void rd_post_bind(uint32_t new_rkey, uint32_t lkey, uint64_t va,
		  uint64_t len, uint32_t rights)
{
	uint8_t *w = rd.wq->va + SQ_OFF + (rd.sq_head % (1u << SQ_LOG)) * 64;

	memset(w, 0, 64);
	put32(w + 0x00, SQ_OFF + ((rd.sq_head + 1) % (1u << SQ_LOG)) * 64);
	put32(w + 0x08, NEXT_CQ_UPDATE);
	put32(w + 0x10, rights);
	put32(w + 0x18, new_rkey);
	put32(w + 0x1c, lkey);
	put64(w + 0x20, va);
	put64(w + 0x28, len);
	*(volatile uint64_t *)(rd.uar + UAR * 4096 + DB_SEND) =
		htobe64((uint64_t)(1u << 24 | (rd.sq_head & 0xffff) << 8 |
				   OPC_BIND) << 32 | 3);
	rd.sq_head++;
}

/* the next CQE: success of @op (syndrome 0) or an error with @syn */
void rd_check_cqe(uint8_t op, uint8_t syn, uint32_t byte_cnt,
		  const char *name)
{
	const uint8_t *e = rd.cq->va + (rd.cq_next % (1u << CQ_LOG)) * 32;
	uint32_t wqe = SQ_OFF + ((rd.sq_head - 1) % (1u << SQ_LOG)) * 64;
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
	rd.cq_next++;
	/* consumed, as polled */
	put32(rd.uarc->va + CQ_CI_DB * 8, rd.cq_next);
}

bool rd_all(const uint8_t *p, uint8_t v, size_t n)
{
	while (n--)
		if (*p++ != v)
			return false;
	return true;
}

/* a refused WRITE of 64 bytes: its syndrome, the target page untouched */
void rd_refused_write(uint64_t raddr, uint32_t rkey, uint64_t laddr,
		      uint8_t syn, const char *name)
{
	char what[160];

	memset(rd.dst->va, 0xaa, PAGE);
	rd_post(OPC_WRITE, raddr, rkey, laddr, rd_key(SRC_IDX), 64, 0, 0);
	rd_check_cqe(OPC_WRITE, syn, 0, name);
	snprintf(what, sizeof(what), "%s: the target bytes untouched", name);
	ktap_test_check(rd_all(rd.dst->va, 0xaa, PAGE), what,
			"first byte 0x%02x",
			rd.dst->va[0]);
	rd_qp_up(QP_RRE | QP_RWE | QP_RAE);
}

/* QUERY_CQ: CQ 0's producer index (struct mthca_cq_context 0x2c), ~0 */
uint32_t rd_cq_producer(void)
{
	memset(outbox->va, 0xff, 0x40);
	if (cmd(OP_QUERY_CQ, 0, 0, 0, outbox->pa) != ST_OK)
		return ~0u;
	return get32(outbox->va + 0x2c);
}
