/*
 * arbel-stub: the device's facts (PCI identity, BAR0 offsets, HCR fields,
 * status codes, opcodes, the values the firmware reports, MPT fields) and
 * the command being executed.  The base header: every layer may include
 * it; it includes no other arbel header.
 *
 * Written from Documentation/arbel-hw.rst only; it shares no code or headers
 * with any driver.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_HW_H
#define HW_ARBEL_HW_H

#include "qemu/units.h"

typedef struct ArbelState ArbelState;

/* PCI identity */
#define ARBEL_VENDOR_ID         0x15b3
#define ARBEL_DEVICE_ID         0x6282
#define ARBEL_REVISION          0xa0

/* BAR sizes */
#define ARBEL_BAR0_SIZE         (1 * MiB)
#define ARBEL_BAR2_SIZE         (8 * MiB)
#define ARBEL_UAR_PAGE          4096    /* one UAR page of BAR2 per UAR */
#define ARBEL_UAR_SEND_DB       0x10    /* send doorbell in a UAR page */
#define ARBEL_UAR_CQ_DB         0x20    /* CQ (arm) doorbell */

/* BAR0 offsets */
#define ARBEL_HCR_BASE          0x80680
#define ARBEL_HCR_SIZE          0x1c
#define ARBEL_RESET_REG         0xf0010
#define ARBEL_CLR_INT_BASE      0x80800 /* reported by QUERY_FW */
#define ARBEL_EQ_ARM_BASE       0x80880
#define ARBEL_EQ_SET_CI_BASE    0x80900
#define ARBEL_CATAS_BASE        0x81000
#define ARBEL_CATAS_SIZE        0x10    /* dwords */
#define ARBEL_CLR_INT_SIZE      0x8     /* pins 63..32 at +0, 31..0 at +4 */
#define ARBEL_EQ_ARM_SIZE       0x8     /* EQs 63..32 at +0, 31..0 at +4 */
#define ARBEL_EQ_SET_CI_SIZE    (ARBEL_MAX_EQS * 8)  /* one per EQ, 8 apart */
#define ARBEL_MSIX_TABLE        0x82000 /* MSI-X table and PBA in BAR0 */
#define ARBEL_MSIX_PBA          0x82200
#define ARBEL_MSIX_VECTORS      32

/* Event queues */
#define ARBEL_MAX_EQS           64
#define ARBEL_EQC_SIZE          0x40    /* EQ context in ICM and mailbox */
#define ARBEL_EQE_SIZE          0x20
#define ARBEL_EQE_OWNER_HW      0x80    /* EQE byte 0x1f */
#define ARBEL_EV_CMD            0x0a    /* command completion event type */
#define ARBEL_EQ_INTR_MSIX      128     /* EQC intr >= 128: MSI-X vector */
#define ARBEL_INTX_PINS         64      /* EQC intr < 64: an interrupt pin */

/* CQ, SRQ, QP contexts (mailbox and ICM) */
#define ARBEL_CQC_SIZE          0x40
#define ARBEL_CQE_SIZE          0x20    /* a CQE: */
#define ARBEL_CQE_MY_QPN        0x00    /*   the QP it completes, be32 */
#define ARBEL_CQE_WQE           0x18    /*   the WQE's address, be32 */
#define ARBEL_CQE_OPCODE        0x1c    /*   the WQE's opcode */
#define ARBEL_CQE_IS_SEND       0x1d    /*   0x80: a send completion */
#define ARBEL_CQE_SEND          0x80
#define ARBEL_CQE_OWNER         0x1f    /*   bit 7 set: the HCA's */
#define ARBEL_QPN_MASK          0xffffffu /* QP and CQ numbers: 24 bits */
#define ARBEL_SRQC_SIZE         0x20    /* = QUERY_DEV_LIM SRQC entry size */
#define ARBEL_QPC_SIZE          0x100   /* QP/EE context, after 8 bytes of */
#define ARBEL_QP_PARAM_HDR      0x08    /* opt_param_mask, a reserved dword */
#define ARBEL_EV_PORT_CHANGE    0x09    /* port state change event type */
#define ARBEL_PORT_SUB_DOWN     0x01    /* ... subtype: the port went down */
#define ARBEL_PORT_SUB_ACTIVE   0x04    /* ... subtype: the port is active */

/*
 * CQ context (0x40 bytes; mthca's struct mthca_cq_context, the Arbel
 * fields): byte offsets and bits
 */
#define ARBEL_CQC_FLAGS         0x00    /* arm state in bits 11:8 */
#define ARBEL_CQC_START         0x04
#define ARBEL_CQC_LOGSIZE       0x0c    /* log size in bits 28:24 */
#define ARBEL_CQC_COMP_EQN      0x14
#define ARBEL_CQC_EQN_MASK      0xffu
#define ARBEL_CQC_LKEY          0x1c
#define ARBEL_CQC_PI            0x2c
#define ARBEL_CQC_CQN           0x30
#define ARBEL_CQC_STATE_SHIFT   8
#define ARBEL_CQC_STATE_MASK    0xfu
#define ARBEL_CQC_DISARMED      0x0
#define ARBEL_CQC_ARMED         0x1
#define ARBEL_CQC_ARMED_SOL     0x4
#define ARBEL_CQC_LOGSIZE_SHIFT 24
#define ARBEL_CQC_LOGSIZE_MASK  0x1f

/* the arm doorbell's first dword */
#define ARBEL_CQ_DB_CMD_SHIFT   24
#define ARBEL_CQ_DB_CMD_MASK    0x7u
#define ARBEL_CQ_DB_REQ_NOT_SOL 1
#define ARBEL_CQ_DB_REQ_NOT     2

/* event types: a completion, a CQ error (the CQE could not be written) */
#define ARBEL_EV_COMP           0x00
#define ARBEL_EV_CQ_ERROR       0x04

/* RESIZE_CQ inbox */
#define ARBEL_RESIZE_LOGSIZE    0x0c    /* a byte-wide log size, be32 */
#define ARBEL_RESIZE_LKEY       0x1c

/* EQ context (0x40 bytes; mthca's struct mthca_eq_context) */
#define ARBEL_EQC_FLAGS         0x00
#define ARBEL_EQC_START         0x04
#define ARBEL_EQC_LOGSIZE       0x0c    /* log size in bits 28:24 */
#define ARBEL_EQC_INTR          0x17
#define ARBEL_EQC_PD            0x18
#define ARBEL_EQC_LKEY          0x1c
#define ARBEL_EQC_CI            0x28
#define ARBEL_EQC_PI            0x2c
#define ARBEL_EQC_STATE_SHIFT   8       /* flags 11:8: 1 = armed */
#define ARBEL_EQC_STATE_MASK    0x3u
#define ARBEL_EQC_ARMED         1
#define ARBEL_EQC_LOGSIZE_SHIFT 24
#define ARBEL_EQC_LOGSIZE_MASK  0x1f
#define ARBEL_EQC_STATUS_SHIFT  28
#define ARBEL_EQC_STATUS_MASK   0xfu
#define ARBEL_EQC_STATUS_OVERFLOW 0x9
#define ARBEL_EQC_STATUS_WRITE_FAIL 0xa
#define ARBEL_EQC_OWNER_SHIFT   24
#define ARBEL_EQC_OWNER_MASK    0xfu
#define ARBEL_EQC_OWNER_HW      1

/* EQE fields */
#define ARBEL_EQE_TYPE          0x01
#define ARBEL_EQE_SUBTYPE       0x03
#define ARBEL_EQE_DATA          0x04
#define ARBEL_EQE_OWNER         0x1f
/* a command completion's data (from EQE 0x04): EQE 0x06 token, 0x0f status */
#define ARBEL_EQE_CMD_TOKEN     0x02
#define ARBEL_EQE_CMD_STATUS    0x0b
#define ARBEL_EQE_CMD_OUT_PARAM 0x0c

/* SRQ context: ARM_SRQ's limit watermark */
#define ARBEL_SRQC_LIMIT        0x1c    /* limit watermark, be16 */
#define ARBEL_SRQ_MAX_LIMIT     0xffff

/* the send doorbell (UAR 0x10): first dword, second dword */
#define ARBEL_DB_NREQ_SHIFT     24
#define ARBEL_DB_HEAD_SHIFT     8
#define ARBEL_DB_HEAD_MASK      0xffffu
#define ARBEL_DB_OP_MASK        0x1fu
#define ARBEL_DB_QPN_SHIFT      8

/*
 * QP/EE context (0x100 bytes, after the 8-byte parameter header in a
 * mailbox; mthca's struct mthca_qp_context): byte offsets and bits
 */
#define ARBEL_QP_NUM_MASK       0xffffffu
#define ARBEL_QP_IS_EE          BIT(24)
#define ARBEL_QP_SQD_EVENT      BIT(31)
#define ARBEL_ERR2RST_OUTBOX    2       /* op_mod: write the outbox */
#define ARBEL_ERR2RST_NO_OUTBOX 3       /* op_mod: do not */

#define ARBEL_QPC_FLAGS         0x00    /* state 31:28, service type 23:16 */
#define ARBEL_QPC_STATE_SHIFT   28
#define ARBEL_QPC_STATE_MASK    0xfu
#define ARBEL_QPC_SQ_SIZE_STRIDE 0x0a    /* log SQ size 7:3, stride - 4 2:0 */
#define ARBEL_QPC_WQE_LKEY      0x6c
#define ARBEL_QPC_PARAMS1       0x70
#define ARBEL_QPC_CQN_SND       0x7c
#define ARBEL_QPC_SND_WQE_BASE  0x80
#define ARBEL_QPC_ST_SHIFT      16
#define ARBEL_QPC_ST_MASK       0xffu
#define ARBEL_QPC_SSC           BIT(3)    /* in PARAMS1 */
#define ARBEL_QPC_SQ_LOG_SIZE_SHIFT 3
#define ARBEL_QPC_SQ_STRIDE_MASK 0x7u
#define ARBEL_QPC_SQ_STRIDE_BASE 4       /* log stride = field + 4 */
#define ARBEL_QP_ST_UD          0x3
#define ARBEL_QP_ST_MLX         0x7

/* the next segment, the first 16 bytes of a WQE */
#define ARBEL_NEXT_SEG_SIZE     16
#define ARBEL_NEXT_NDA_OP       0x00
#define ARBEL_NEXT_FLAGS        0x08
#define ARBEL_NEXT_CQ_UPDATE    BIT(3)

/* INIT_IB inbox: flags (VL cap 7:4, width cap 11:8, MTU cap 15:12) */
#define ARBEL_INIT_IB_IN_SIZE   56
#define ARBEL_INIT_IB_VL_SHIFT  4
#define ARBEL_INIT_IB_WIDTH_SHIFT 8
#define ARBEL_INIT_IB_MTU_SHIFT 12
#define ARBEL_INIT_IB_CAP_MASK  0xfu
#define ARBEL_INIT_IB_MAX_GID   0x06
#define ARBEL_INIT_IB_MAX_PKEY  0x0a
/* SET_IB inbox */
#define ARBEL_SET_IB_IN_SIZE    0x40
#define ARBEL_SET_IB_CAP_MASK   0x04
/* the port state change event's data: EQE 0x0c, the port in bits 29:28 */
#define ARBEL_EV_PORT_DATA      0x08
#define ARBEL_EV_PORT_SHIFT     28
/* the catastrophic error buffer's dword 0: the error type in 31:24 */
#define ARBEL_CATAS_TYPE_SHIFT  24
#define ARBEL_CATAS_TYPE_MASK   0xffu

/* MAP_FA, MAP_ICM_AUX, MAP_ICM inbox: virtual/physical pairs of 16 bytes */
#define ARBEL_VPM_SIZE          16
#define ARBEL_VPM_VA            0x00    /* ICM address (MAP_ICM only) */
#define ARBEL_VPM_PA            0x08    /* page 63:12, log2 pages 5:0 */
#define ARBEL_VPM_LOG_SIZE_MASK 0x3fu
#define ARBEL_VPM_RSVD          0xfc0u  /* bits 11:6 */

/* INIT_HCA inbox: the fields besides the table bases (arbel-fw.c) */
#define ARBEL_INIT_HCA_IN_SIZE  0x200
#define ARBEL_INIT_HCA_LOG_QP   0x37    /* log2 QPs, bits 4:0 */
#define ARBEL_INIT_HCA_LOG_EEC  0x47    /* log2 EECs, bits 4:0 */
#define ARBEL_INIT_HCA_MC_ENTRY 0xd2    /* be16: log2 MCG entry size */
#define ARBEL_INIT_HCA_MC_HASH  0xd4    /* MGHT entries, bits 16:0 */
#define ARBEL_INIT_HCA_MC_HASH_MASK 0x1ffffu
#define ARBEL_INIT_HCA_MC_HASH_FN 0xd8  /* hash function, bits 2:0 */
#define ARBEL_INIT_HCA_LOG_MC   0xdb    /* log2 MCG entries, bits 4:0 */
#define ARBEL_INIT_HCA_LOG_MPT  0xfb    /* log2 MPT entries, bits 5:0 */
#define ARBEL_INIT_HCA_LOG_UARC 0x129   /* log2 UAR context pages */
#define ARBEL_INIT_HCA_LOG_UAR  0x12a   /* log2 UARs */
#define ARBEL_INIT_HCA_LOG_MASK 0x1fu
#define ARBEL_INIT_HCA_LOG_MPT_MASK 0x3fu

/* HCR dword 6 */
#define ARBEL_HCR_IN_PARAM_H    0       /* HCR dwords */
#define ARBEL_HCR_IN_PARAM_L    1
#define ARBEL_HCR_IN_MOD        2
#define ARBEL_HCR_OUT_PARAM_H   3
#define ARBEL_HCR_OUT_PARAM_L   4
#define ARBEL_HCR_TOKEN         5       /* token 31:16 */
#define ARBEL_HCR_CTRL          6       /* the bits below */
#define ARBEL_HCR_TOKEN_SHIFT   16
#define ARBEL_HCR_STATUS_MASK   0xffu
#define ARBEL_HCR_OPCODE_MASK         0xfff
#define ARBEL_HCR_OPMOD_SHIFT         12
#define ARBEL_HCR_OPMOD_MASK          0xf
#define ARBEL_HCR_E_BIT               (1u << 22)
#define ARBEL_HCR_GO_BIT              (1u << 23)
#define ARBEL_HCR_STATUS_SHIFT        24

/* Command status codes */
enum {
    ARBEL_ST_OK               = 0x00,
    ARBEL_ST_INTERNAL_ERR     = 0x01,
    ARBEL_ST_BAD_OP           = 0x02,
    ARBEL_ST_BAD_PARAM        = 0x03,
    ARBEL_ST_BAD_SYS_STATE    = 0x04,
    ARBEL_ST_BAD_RESOURCE     = 0x05,
    ARBEL_ST_RESOURCE_BUSY    = 0x06,
    ARBEL_ST_EXCEED_LIM       = 0x08,
    ARBEL_ST_BAD_RES_STATE    = 0x09,
    ARBEL_ST_BAD_INDEX        = 0x0a,
    ARBEL_ST_BAD_NVMEM        = 0x0b,
    ARBEL_ST_BAD_QPEE_STATE   = 0x10,
    ARBEL_ST_BAD_SEG_PARAM    = 0x20,
    ARBEL_ST_REG_BOUND        = 0x21,
    ARBEL_ST_LAM_NOT_PRE      = 0x22,
    ARBEL_ST_BAD_PKT          = 0x30,
    ARBEL_ST_BAD_SIZE         = 0x40,
};

/* Opcodes */
enum {
    ARBEL_OP_SYS_EN           = 0x001,
    ARBEL_OP_SYS_DIS          = 0x002,
    ARBEL_OP_QUERY_DEV_LIM    = 0x003,
    ARBEL_OP_QUERY_FW         = 0x004,
    ARBEL_OP_QUERY_DDR        = 0x005,
    ARBEL_OP_QUERY_ADAPTER    = 0x006,
    ARBEL_OP_INIT_HCA         = 0x007,
    ARBEL_OP_CLOSE_HCA        = 0x008,
    ARBEL_OP_INIT_IB          = 0x009,
    ARBEL_OP_CLOSE_IB         = 0x00a,
    ARBEL_OP_SW2HW_MPT        = 0x00d,
    ARBEL_OP_QUERY_MPT        = 0x00e,
    ARBEL_OP_HW2SW_MPT        = 0x00f,
    ARBEL_OP_READ_MTT         = 0x010,
    ARBEL_OP_WRITE_MTT        = 0x011,
    ARBEL_OP_MAP_EQ           = 0x012,
    ARBEL_OP_SW2HW_EQ         = 0x013,
    ARBEL_OP_HW2SW_EQ         = 0x014,
    ARBEL_OP_QUERY_EQ         = 0x015,
    ARBEL_OP_SET_IB           = 0x00c,
    ARBEL_OP_SW2HW_CQ         = 0x016,
    ARBEL_OP_HW2SW_CQ         = 0x017,
    ARBEL_OP_QUERY_CQ         = 0x018,
    ARBEL_OP_RST2INIT_QPEE    = 0x019,
    ARBEL_OP_INIT2RTR_QPEE    = 0x01a,
    ARBEL_OP_RTR2RTS_QPEE     = 0x01b,
    ARBEL_OP_RTS2RTS_QPEE     = 0x01c,
    ARBEL_OP_SQERR2RTS_QPEE   = 0x01d,
    ARBEL_OP_2ERR_QPEE        = 0x01e,
    ARBEL_OP_RTS2SQD_QPEE     = 0x01f,
    ARBEL_OP_SQD2RTS_QPEE     = 0x020,
    ARBEL_OP_ERR2RST_QPEE     = 0x021,
    ARBEL_OP_QUERY_QPEE       = 0x022,
    ARBEL_OP_CONF_SPECIAL_QP  = 0x023,
    ARBEL_OP_MAD_IFC          = 0x024,
    ARBEL_OP_READ_MGM         = 0x025,
    ARBEL_OP_WRITE_MGM        = 0x026,
    ARBEL_OP_MGID_HASH        = 0x027,
    ARBEL_OP_RESIZE_CQ        = 0x02c,
    ARBEL_OP_INIT2INIT_QPEE   = 0x02d,
    ARBEL_OP_SYNC_TPT         = 0x02f,
    ARBEL_OP_NOP              = 0x031,
    ARBEL_OP_SW2HW_SRQ        = 0x035,
    ARBEL_OP_HW2SW_SRQ        = 0x036,
    ARBEL_OP_QUERY_SRQ        = 0x037,
    ARBEL_OP_SQD2SQD_QPEE     = 0x038,
    ARBEL_OP_ARM_SRQ          = 0x040,
    ARBEL_OP_RUN_FW           = 0xff6,
    ARBEL_OP_DISABLE_LAM      = 0xff7,
    ARBEL_OP_ENABLE_LAM       = 0xff8,
    ARBEL_OP_UNMAP_ICM        = 0xff9,
    ARBEL_OP_MAP_ICM          = 0xffa,
    ARBEL_OP_UNMAP_ICM_AUX    = 0xffb,
    ARBEL_OP_MAP_ICM_AUX      = 0xffc,
    ARBEL_OP_SET_ICM_SIZE     = 0xffd,
    ARBEL_OP_UNMAP_FA         = 0xffe,
    ARBEL_OP_MAP_FA           = 0xfff,
};

/* Firmware state */
typedef enum ArbelFwState {
    ARBEL_FW_RESET = 0,       /* after reset: FW not running */
    ARBEL_FW_RUNNING = 1,     /* RUN_FW done */
    ARBEL_FW_HCA_INIT = 2,    /* INIT_HCA done */
} ArbelFwState;

/* Values this firmware reports (QUERY_FW / QUERY_DEV_LIM) */
#define ARBEL_FW_MAJOR          5
#define ARBEL_FW_MINOR          3
#define ARBEL_FW_SUBMINOR       0
#define ARBEL_FW_PAGES_DEFAULT  48
#define ARBEL_LOG_MAX_CMDS      4
#define ARBEL_LOG_MAX_MPT       17
#define ARBEL_LOG_RSVD_MPT      4
#define ARBEL_LOG_RSVD_MTT      4       /* 16 MTT entries */
#define ARBEL_LOG_MAX_MTT_SEG   20
#define ARBEL_LOG_MAX_MR_SIZE   36
#define ARBEL_LOG_MAX_PD        24
#define ARBEL_MPT_ENTRY_SIZE    64
#define ARBEL_MTT_ENTRY_SIZE    8
#define ARBEL_MTT_PRESENT       1ULL    /* an MTT entry: bit 0 present, */
#define ARBEL_MTT_RSVD_BITS     0xffeULL /* 11:1 reserved, 63:12 the page */
#define ARBEL_MTT_MAX_WRITE     510     /* (4096 - 16) / 8 */
#define ARBEL_MTT_MAX_READ      512
#define ARBEL_WRITE_MTT_TARGET  0x00    /* WRITE_MTT inbox: the first entry's */
#define ARBEL_WRITE_MTT_RSVD    0x08    /* ICM address, a reserved qword, */
#define ARBEL_WRITE_MTT_HDR     0x10    /* then the entries */
#define ARBEL_MAX_ICM_SIZE      (1ULL << 36)
#define ARBEL_ICM_PAGE          4096ULL
#define ARBEL_MBOX_SIZE         4096
#define ARBEL_AUX_ICM_PER_PAGE  (2 * MiB)  /* 1 aux page per 2 MiB ICM */

/* QUERY_DEV_LIM: context entry sizes, ports and port limits */
#define ARBEL_QPC_ENTRY_SIZE    256
#define ARBEL_EEC_ENTRY_SIZE    256
#define ARBEL_EQPC_ENTRY_SIZE   32
#define ARBEL_EEEC_ENTRY_SIZE   32
#define ARBEL_EQC_ENTRY_SIZE    64
#define ARBEL_CQC_ENTRY_SIZE    64
#define ARBEL_SRQC_ENTRY_SIZE   32
#define ARBEL_UAR_SCR_ENTRY_SIZE 32
#define ARBEL_UARC_PAGE         4096ULL /* INIT_HCA 0x129 counts these */
#define ARBEL_LOG_MAX_EQ        6
#define ARBEL_RSVD_UARS         1       /* a count (mthca: field >> 4) */
#define ARBEL_RSVD_PDS          1       /* a count (mthca: field >> 4) */
#define ARBEL_PORTS_DEFAULT     2       /* MT25208: two 4x ports */
#define ARBEL_LOG_NUM_GIDS      3       /* = PortInfo GUIDCap, 8 */
#define ARBEL_LOG_NUM_PKEYS     6       /* = NodeInfo PartitionCap, 64 */
#define ARBEL_IB_MTU_2048       4
#define ARBEL_PORT_WIDTH_CAP    3       /* 1x and 4x */
#define ARBEL_VL_CAP            4       /* VL0-7 */
#define ARBEL_BOARD_ID          "ARBEL-STUB-0001"

/*
 * MPT entry (64 bytes, big-endian dwords; the PRM's arbelprm_mpt_st):
 * the dword indices, then the fields' bits
 */
#define ARBEL_MPT_DWORDS        16
#define ARBEL_MPT_DW_FLAGS      0       /* r_w .. eb 15:8, status 31:28 */
#define ARBEL_MPT_DW_PAGE       1       /* page_size 4:0, type 7, qpn 31:8 */
#define ARBEL_MPT_DW_KEY        2       /* mem_key */
#define ARBEL_MPT_DW_PD         3       /* pd 23:0, ei, zb, fre, rae */
#define ARBEL_MPT_DW_START_H    4
#define ARBEL_MPT_DW_START_L    5
#define ARBEL_MPT_DW_LEN_H      6
#define ARBEL_MPT_DW_LEN_L      7
#define ARBEL_MPT_DW_LKEY       8
#define ARBEL_MPT_DW_WIN_CNT    9
#define ARBEL_MPT_DW_RSVD5      10
#define ARBEL_MPT_DW_MTT_H      11      /* mtt_adr_h 5:0 */
#define ARBEL_MPT_DW_MTT_L      12      /* mtt_adr_l 31:3 */
#define ARBEL_MPT_DW_MTT_SZ     13
#define ARBEL_MPT_DW_RSVD8      14      /* 14 and 15 */
#define ARBEL_MPT_D0_RW             (1u << 8)
#define ARBEL_MPT_D0_PA             (1u << 9)
#define ARBEL_MPT_D0_LR             (1u << 10)
#define ARBEL_MPT_D0_LW             (1u << 11)
#define ARBEL_MPT_D0_RR             (1u << 12)
#define ARBEL_MPT_D0_RWR            (1u << 13)
#define ARBEL_MPT_D0_A              (1u << 14)
#define ARBEL_MPT_D0_EB             (1u << 15)
#define ARBEL_MPT_D0_MIO            (1u << 17)
#define ARBEL_MPT_D0_STATUS_SHIFT   28
#define ARBEL_MPT_STATUS_MASK       0xfu
#define ARBEL_MPT_STATUS_SW         0xf
#define ARBEL_MPT_STATUS_FREE       0x3
#define ARBEL_MPT_D1_PAGE_SIZE_MASK 0x1f
#define ARBEL_MPT_D1_RSVD2          (3u << 5)
#define ARBEL_MPT_D1_TYPE           (1u << 7)
#define ARBEL_MPT_D1_QPN_SHIFT      8
#define ARBEL_MPT_D3_PD_MASK        0xffffff
#define ARBEL_MPT_D3_ZB             (1u << 26)
#define ARBEL_MPT_D11_MTT_H_MASK    0x3fu
#define ARBEL_MPT_D12_RSVD7         0x7u
#define ARBEL_MPT_PAGE_SHIFT        12      /* page size: 4 KiB << page_size */

/* the 64-bit fields of an MPT entry, from its dwords @d (host order) */
static inline uint64_t arbel_mpt_start(const uint32_t *d)
{
    return (uint64_t)d[ARBEL_MPT_DW_START_H] << 32 | d[ARBEL_MPT_DW_START_L];
}

static inline uint64_t arbel_mpt_len(const uint32_t *d)
{
    return (uint64_t)d[ARBEL_MPT_DW_LEN_H] << 32 | d[ARBEL_MPT_DW_LEN_L];
}

static inline uint64_t arbel_mpt_mtt_adr(const uint32_t *d)
{
    return (uint64_t)(d[ARBEL_MPT_DW_MTT_H] & ARBEL_MPT_D11_MTT_H_MASK) << 32 |
           d[ARBEL_MPT_DW_MTT_L];
}

/* A command being executed */
typedef struct ArbelCmd {
    uint64_t in_param;
    uint64_t out_param;
    uint32_t in_mod;
    uint16_t token;
    uint16_t opcode;
    uint8_t op_mod;
    bool e;
    /* filled by the handlers, for the trace */
    uint8_t *inbox;
    uint32_t inbox_len;
    uint8_t *outbox;
    uint32_t outbox_len;
    bool out_imm;           /* the command has an immediate result */
    uint64_t imm;           /* ... this one, for HCR dwords 3..4 */
    const char *note;       /* fault injection note for the trace */
    const char *name;       /* the opcode's name (dispatch), for the trace */
} ArbelCmd;

/*
 * strictness (issue 26 §7): what the checks with a source need, and
 * the limits of what the stub can represent
 */
#define ARBEL_LOG_MAX_CQE       17      /* QUERY_DEV_LIM 0x19 */
#define ARBEL_VPM_MAX_LOG_CHUNK 51      /* 4 KiB << 51 = 2^63, a u64 holds it */

#endif
