/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arbel-conformance suite "rdma": what its files share -- rdma.c (the
 * setup, RDMA and atomics), rdma-lib.c (the helpers), rdma-recv.c
 * (receives, SRQs, events), rdma-tpt.c (memory windows, the TPT cache).  The facts each
 * value comes from are in rdma.c's header.
 */
#ifndef ARBEL_RDMA_H
#define ARBEL_RDMA_H

#include <inttypes.h>
#include <stdio.h>

#include "conformance.h"

#define OP_INIT_IB		0x009
#define OP_CLOSE_IB		0x00a
#define OP_SW2HW_CQ		0x016
#define OP_HW2SW_CQ		0x017
#define OP_QUERY_CQ		0x018
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
#define EV_SQ_DRAINED		0x03
#define EV_SRQ_LAST_WQE		0x13
#define OP_RTS2SQD		0x01f
#define OP_SQD2RTS		0x020
#define QP_SQD_EVENT		(1u << 31)
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
#define SYN_RETRY_EXC		0x15
#define SYN_LOCAL_QP_OP		0x02
#define QKEY			0x11111111
#define ST_UC			1
#define ST_UD			3
#define IBOP_SEND_ONLY		0x04
#define IBOP_SEND_ONLY_IMM	0x05
#define UAR			1
#define DB_SEND			0x10

/* the suite's buffers and positions (rdma-lib.c) */
struct rdma_state {
	struct arbel_dma_page *wq, *cq, *src, *dst, *alt, *uarc;
	volatile uint8_t *uar;
	unsigned int sq_head, cq_next;
	bool on_srq;		/* rd_qp_up: receives from SRQ 0 */
	bool db32;		/* rd_post: ring as two 32-bit stores */
	uint8_t pkey_index;	/* rd_qp_up: the QP's P_Key index */
	uint8_t rnr_retry;	/* rd_qp_up: its RNR retry count */
	uint8_t rnr_timer;	/* rd_qp_up: its min RNR NAK timer code */
	uint8_t st;		/* rd_qp_up: its service type (0: RC) */
};

extern struct rdma_state rd;

uint32_t rd_key(uint32_t index);
void rd_region(uint32_t index, uint32_t flags, uint32_t pd, uint64_t va,
	       uint64_t len, uint64_t mtt, const char *name);
void rd_qp_up(uint32_t params2);
void rd_post(uint8_t op, uint64_t raddr, uint32_t rkey, uint64_t laddr,
	     uint32_t lkey, uint32_t len, uint64_t swap, uint64_t cmp);
void rd_post_bind(uint32_t new_rkey, uint32_t lkey, uint64_t va,
		  uint64_t len, uint32_t rights);
void rd_check_cqe(uint8_t op, uint8_t syn, uint32_t byte_cnt,
		  const char *name);
bool rd_all(const uint8_t *p, uint8_t v, size_t n);
void rd_refused_write(uint64_t raddr, uint32_t rkey, uint64_t laddr,
		      uint8_t syn, const char *name);
void rd_recv_wqe(unsigned int n, uint32_t count, uint32_t off);
void rd_check_recv_cqe(unsigned int n, uint8_t op, uint32_t bytes,
		       uint32_t imm, const char *name);
void rd_check_recv_err(unsigned int n, uint8_t syn, const char *name);
uint32_t rd_cq_producer(void);
void rd_receives(void);
void rd_recv_in_err(void);
void rd_more(void);
void rd_windows(void);
void rd_cq_overrun(void);
void rd_srq(void);
void rd_sq_drained(void);
void rd_tpt_cache(void);
void rd_fmr_cycle(void);

#endif /* ARBEL_RDMA_H */
