/*
 * arbel-stub: the data path's layouts -- WQE segments, CQEs, the QP, CQ and
 * SRQ context fields the data path reads, doorbell records, syndromes.
 *
 * A base header, like arbel-hw.h: every layer may include it.  Byte
 * offsets and bits, each from the structure named beside it: iPXE's
 * Arbel PRM header (arbelprm_wqe_segment_*_st, arbelprm_completion_queue_
 * entry_st) and mthca's mirrors of them (its wqe header's segments,
 * struct mthca_qp_context / mthca_qp_path, struct mthca_cqe /
 * mthca_err_cqe, struct mthca_cq_context, struct mthca_arbel_srq_context,
 * struct mthca_av).  Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_WQE_H
#define HW_ARBEL_WQE_H

#include "qemu/bswap.h"

/* WQE opcodes (nopcode table; next segment nda_op 4:0, doorbell 4:0) */
#define ARBEL_WQE_NOP           0x00
#define ARBEL_WQE_RDMA_WRITE    0x08
#define ARBEL_WQE_RDMA_WRITE_IMM 0x09
#define ARBEL_WQE_SEND          0x0a
#define ARBEL_WQE_SEND_IMM      0x0b
#define ARBEL_WQE_RDMA_READ     0x10
#define ARBEL_WQE_ATOMIC_CS     0x11
#define ARBEL_WQE_ATOMIC_FA     0x12
#define ARBEL_WQE_BIND          0x18

/* next segment (16 bytes): the first of every WQE */
#define ARBEL_NEXT_EE_NDS       0x04    /* DBD 7, fence 6, next size 5:0 */
#define ARBEL_NEXT_IMM          0x0c
#define ARBEL_NEXT_NDA_MASK     0xffffffc0u /* next WQE address 31:6 */
#define ARBEL_NEXT_SIZE_MASK    0x3fu   /* in 16-byte units */
#define ARBEL_NEXT_FENCE        BIT(6)
#define ARBEL_NEXT_SOLICIT      BIT(1)
#define ARBEL_DB_FENCE          BIT(5)  /* send doorbell dword 0 */
#define ARBEL_WQE_UNIT          16      /* WQE sizes count these */

/* remote address segment (16 bytes): raddr be64, rkey */
#define ARBEL_RADDR_SEG_SIZE    16
#define ARBEL_RADDR_VA          0x00
#define ARBEL_RADDR_RKEY        0x08
/* atomic segment (16 bytes): swap/add be64, compare be64 */
#define ARBEL_ATOMIC_SEG_SIZE   16
#define ARBEL_ATOMIC_SWAP_ADD   0x00
#define ARBEL_ATOMIC_COMPARE    0x08
#define ARBEL_ATOMIC_LEN        8
/* UD segment (48 bytes): the address vector, dest QPN, Q_Key */
#define ARBEL_UD_SEG_SIZE       48
#define ARBEL_AV_PORT_PD        0x00    /* port 31:24, PD 23:0 */
#define ARBEL_AV_G_SLID         0x05    /* GRH 7, source path bits 6:0 */
#define ARBEL_AV_DLID           0x06    /* be16 */
#define ARBEL_AV_GID_INDEX      0x09
#define ARBEL_AV_HOP_LIMIT      0x0b
#define ARBEL_AV_SL_TC_FL       0x0c    /* SL 31:28, class 27:20, flow 19:0 */
#define ARBEL_AV_DGID           0x10
#define ARBEL_AV_GRH            BIT(7)
#define ARBEL_UD_DQPN           0x20
#define ARBEL_UD_QKEY           0x24
/* bind segment (32 bytes): rights, new rkey, the region's lkey, range */
#define ARBEL_BIND_SEG_SIZE     32
#define ARBEL_BIND_FLAGS        0x00
#define ARBEL_BIND_NEW_RKEY     0x08
#define ARBEL_BIND_LKEY         0x0c
#define ARBEL_BIND_ADDR         0x10
#define ARBEL_BIND_LEN          0x18
/* data segment (16 bytes): byte count, lkey, address be64; inline data */
#define ARBEL_DATA_SEG_SIZE     16
#define ARBEL_DATA_COUNT        0x00
#define ARBEL_DATA_LKEY         0x04
#define ARBEL_DATA_ADDR         0x08
#define ARBEL_DATA_INLINE       BIT(31) /* byte count: inline data follows */
#define ARBEL_DATA_COUNT_MASK   0x7fffffffu
#define ARBEL_INVAL_LKEY        0x100   /* ends a receive scatter list */

/* QP context: the fields the data path reads (struct mthca_qp_context) */
#define ARBEL_QPC_MTU_MSGMAX    0x08    /* MTU 7:5, log max message 4:0 */
#define ARBEL_QPC_RQ_SIZE_STRIDE 0x09   /* as SQ_SIZE_STRIDE */
#define ARBEL_QPC_USR_PAGE      0x0c
#define ARBEL_QPC_LOCAL_QPN     0x10
#define ARBEL_QPC_REMOTE_QPN    0x14
#define ARBEL_QPC_PRI_PATH      0x20    /* struct mthca_qp_path, 32 bytes */
#define ARBEL_PATH_PORT         0x00    /* port 31:24, P_Key index 6:0 */
#define ARBEL_PATH_PKEY_MASK    0x7fu   /* the P_Key index, byte 3 */
#define ARBEL_QPC_RNR_PSN       0x94    /* min RNR timer 28:24, RQ PSN */
#define ARBEL_PATH_RNR_RETRY    0x04    /* 7:5 */
#define ARBEL_PATH_G_MYLMC      0x05    /* GRH 7 */
#define ARBEL_PATH_RLID         0x06    /* be16 */
#define ARBEL_QPC_PD            0x64
#define ARBEL_QPC_WQE_BASE      0x68    /* bits 63:32 of WQE addresses */
#define ARBEL_QPC_PARAMS2       0x90
#define ARBEL_QPC_RRE           BIT(15) /* in PARAMS2 */
#define ARBEL_QPC_RWE           BIT(14)
#define ARBEL_QPC_RAE           BIT(13)
#define ARBEL_QPC_RETRY_SHIFT   16      /* in PARAMS1, 18:16 */
#define ARBEL_QPC_RETRY_MASK    0x7u
#define ARBEL_QPC_CQN_RCV       0x9c
#define ARBEL_QPC_RCV_DB_INDEX  0xa4
#define ARBEL_QPC_QKEY          0xa8
#define ARBEL_QPC_SRQN          0xac    /* 24: has an SRQ, 23:0 */
#define ARBEL_QPC_HAS_SRQ       BIT(24)
#define ARBEL_QPC_PD_MASK       0xffffffu
#define ARBEL_QP_ST_RC          0x0
#define ARBEL_QP_ST_UC          0x1
#define ARBEL_RNR_INFINITE      7

/* a QP context's service type and PD (@ctx: ARBEL_QPC_SIZE bytes) */
static inline uint32_t arbel_qpc_st(const uint8_t *ctx)
{
    return ldl_be_p(ctx + ARBEL_QPC_FLAGS) >> ARBEL_QPC_ST_SHIFT &
           ARBEL_QPC_ST_MASK;
}

static inline uint32_t arbel_qpc_pd(const uint8_t *ctx)
{
    return ldl_be_p(ctx + ARBEL_QPC_PD) & ARBEL_QPC_PD_MASK;
}

/* SRQ context (struct mthca_arbel_srq_context) */
#define ARBEL_SRQC_STATE_LOG    0x00    /* log size 28:24 */
#define ARBEL_SRQC_LKEY         0x04
#define ARBEL_SRQC_DB_INDEX     0x08
#define ARBEL_SRQC_STRIDE_UAR   0x0c    /* log stride - 4 31:29, UAR 23:0 */
#define ARBEL_SRQC_WQE_BASE     0x10    /* be64 */
#define ARBEL_SRQC_EQ_PD        0x18    /* EQ 31:24, PD 23:0 */
#define ARBEL_SRQ_NDA_VALID     BIT(0)  /* next segment: a next WQE */

/* CQ context: the doorbell records (struct mthca_cq_context) */
#define ARBEL_CQC_USR_PAGE      0x0c    /* UAR 23:0 */
#define ARBEL_CQC_CI_DB         0x34

/* doorbell records: 8 bytes each, in the UAR context pages (UARC) */
#define ARBEL_DB_REC_SIZE       8
#define ARBEL_DB_COUNTER_MASK   0xffffu /* RQ/SRQ counter: low 16 bits */

/* CQE fields (struct mthca_cqe, struct mthca_err_cqe) */
#define ARBEL_CQE_RQPN          0x08    /* source QP (UD) */
#define ARBEL_CQE_SL_IPOK       0x0c    /* SL 7:4 */
#define ARBEL_CQE_G_MLPATH      0x0d    /* GRH 7, path bits 6:0 */
#define ARBEL_CQE_RLID          0x0e    /* be16 */
#define ARBEL_CQE_IMM_PKEY      0x10    /* immediate; P_Key index 31:16 */
#define ARBEL_CQE_BYTE_CNT      0x14
#define ARBEL_CQE_SYNDROME      0x10    /* error CQE */
#define ARBEL_CQE_VENDOR        0x11
#define ARBEL_CQE_ERR_SEND      0xff    /* error CQE opcode, send side */
#define ARBEL_CQE_ERR_RECV      0xfe    /* error CQE opcode, receive side */

/* syndromes of an error CQE (mthca's cq code, the PRM's CQE) */
#define ARBEL_SYN_LOCAL_LENGTH  0x01
#define ARBEL_SYN_LOCAL_QP_OP   0x02
#define ARBEL_SYN_LOCAL_PROT    0x04
#define ARBEL_SYN_WR_FLUSH      0x05
#define ARBEL_SYN_MW_BIND       0x06
#define ARBEL_SYN_BAD_RESP      0x10
#define ARBEL_SYN_LOCAL_ACCESS  0x11
#define ARBEL_SYN_REMOTE_INVAL_REQ 0x12
#define ARBEL_SYN_REMOTE_ACCESS 0x13
#define ARBEL_SYN_REMOTE_OP     0x14
#define ARBEL_SYN_RETRY_EXC     0x15
#define ARBEL_SYN_RNR_RETRY_EXC 0x16

/* IB BTH opcodes' low five bits, as a receive CQE reports them */
#define ARBEL_IBOP_SEND_ONLY    0x04
#define ARBEL_IBOP_SEND_ONLY_IMM 0x05
#define ARBEL_IBOP_WRITE_ONLY_IMM 0x0b

/* affiliated asynchronous events (EQE types, mthca's eq code) */
#define ARBEL_EV_COMM_EST       0x02
#define ARBEL_EV_SQ_DRAINED     0x03
#define ARBEL_EV_WQ_CATAS       0x05
#define ARBEL_EV_WQ_INVAL_REQ   0x10
#define ARBEL_EV_WQ_ACCESS      0x11
#define ARBEL_EV_SRQ_LAST_WQE   0x13
#define ARBEL_EV_SRQ_LIMIT      0x14
#define ARBEL_EV_EQ_OVERFLOW    0x0f
/* the CQ error event's syndrome (EQE data byte 11): mthca's cq_err */
#define ARBEL_EV_CQ_ERR_SYNDROME 11
#define ARBEL_CQ_ERR_OVERRUN    1
#define ARBEL_CQ_ERR_ACCESS     2

/* UD: the first 40 bytes of a receive buffer hold the GRH */
#define ARBEL_GRH_SIZE          40
#define ARBEL_UD_MTU            2048

#endif
