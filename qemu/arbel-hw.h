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

/* CQ, SRQ, QP contexts (mailbox and ICM) */
#define ARBEL_CQC_SIZE          0x40
#define ARBEL_CQE_SIZE          0x20    /* a CQE: */
#define ARBEL_CQE_MY_QPN        0x00    /*   the QP it completes, be32 */
#define ARBEL_CQE_WQE           0x18    /*   the WQE's address, be32 */
#define ARBEL_CQE_OPCODE        0x1c    /*   the WQE's opcode */
#define ARBEL_CQE_IS_SEND       0x1d    /*   0x80: a send completion */
#define ARBEL_CQE_OWNER         0x1f    /*   bit 7 set: the HCA's */
#define ARBEL_QPN_MASK          0xffffffu /* QP and CQ numbers: 24 bits */
#define ARBEL_SRQC_SIZE         0x20    /* = QUERY_DEV_LIM SRQC entry size */
#define ARBEL_QPC_SIZE          0x100   /* QP/EE context, after 8 bytes of */
#define ARBEL_QP_PARAM_HDR      0x08    /* opt_param_mask and a reserved dword */
#define ARBEL_EV_PORT_CHANGE    0x09    /* port state change event type */
#define ARBEL_PORT_SUB_DOWN     0x01    /* ... subtype: the port went down */
#define ARBEL_PORT_SUB_ACTIVE   0x04    /* ... subtype: the port is active */

/* HCR dword 6 */
#define HCR_OPCODE_MASK         0xfff
#define HCR_OPMOD_SHIFT         12
#define HCR_OPMOD_MASK          0xf
#define HCR_E_BIT               (1u << 22)
#define HCR_GO_BIT              (1u << 23)
#define HCR_STATUS_SHIFT        24

/* Command status codes */
enum {
    ST_OK               = 0x00,
    ST_INTERNAL_ERR     = 0x01,
    ST_BAD_OP           = 0x02,
    ST_BAD_PARAM        = 0x03,
    ST_BAD_SYS_STATE    = 0x04,
    ST_BAD_RESOURCE     = 0x05,
    ST_RESOURCE_BUSY    = 0x06,
    ST_EXCEED_LIM       = 0x08,
    ST_BAD_RES_STATE    = 0x09,
    ST_BAD_INDEX        = 0x0a,
    ST_BAD_NVMEM        = 0x0b,
    ST_BAD_QPEE_STATE   = 0x10,
    ST_BAD_SEG_PARAM    = 0x20,
    ST_REG_BOUND        = 0x21,
    ST_LAM_NOT_PRE      = 0x22,
    ST_BAD_PKT          = 0x30,
    ST_BAD_SIZE         = 0x40,
};

/* Opcodes */
enum {
    OP_SYS_EN           = 0x001,
    OP_SYS_DIS          = 0x002,
    OP_QUERY_DEV_LIM    = 0x003,
    OP_QUERY_FW         = 0x004,
    OP_QUERY_DDR        = 0x005,
    OP_QUERY_ADAPTER    = 0x006,
    OP_INIT_HCA         = 0x007,
    OP_CLOSE_HCA        = 0x008,
    OP_INIT_IB          = 0x009,
    OP_CLOSE_IB         = 0x00a,
    OP_SW2HW_MPT        = 0x00d,
    OP_QUERY_MPT        = 0x00e,
    OP_HW2SW_MPT        = 0x00f,
    OP_READ_MTT         = 0x010,
    OP_WRITE_MTT        = 0x011,
    OP_MAP_EQ           = 0x012,
    OP_SW2HW_EQ         = 0x013,
    OP_HW2SW_EQ         = 0x014,
    OP_QUERY_EQ         = 0x015,
    OP_SET_IB           = 0x00c,
    OP_SW2HW_CQ         = 0x016,
    OP_HW2SW_CQ         = 0x017,
    OP_QUERY_CQ         = 0x018,
    OP_RST2INIT_QPEE    = 0x019,
    OP_INIT2RTR_QPEE    = 0x01a,
    OP_RTR2RTS_QPEE     = 0x01b,
    OP_RTS2RTS_QPEE     = 0x01c,
    OP_SQERR2RTS_QPEE   = 0x01d,
    OP_2ERR_QPEE        = 0x01e,
    OP_RTS2SQD_QPEE     = 0x01f,
    OP_SQD2RTS_QPEE     = 0x020,
    OP_ERR2RST_QPEE     = 0x021,
    OP_QUERY_QPEE       = 0x022,
    OP_CONF_SPECIAL_QP  = 0x023,
    OP_MAD_IFC          = 0x024,
    OP_RESIZE_CQ        = 0x02c,
    OP_INIT2INIT_QPEE   = 0x02d,
    OP_SYNC_TPT         = 0x02f,
    OP_NOP              = 0x031,
    OP_SW2HW_SRQ        = 0x035,
    OP_HW2SW_SRQ        = 0x036,
    OP_QUERY_SRQ        = 0x037,
    OP_SQD2SQD_QPEE     = 0x038,
    OP_ARM_SRQ          = 0x040,
    OP_RUN_FW           = 0xff6,
    OP_DISABLE_LAM      = 0xff7,
    OP_ENABLE_LAM       = 0xff8,
    OP_UNMAP_ICM        = 0xff9,
    OP_MAP_ICM          = 0xffa,
    OP_UNMAP_ICM_AUX    = 0xffb,
    OP_MAP_ICM_AUX      = 0xffc,
    OP_SET_ICM_SIZE     = 0xffd,
    OP_UNMAP_FA         = 0xffe,
    OP_MAP_FA           = 0xfff,
};

/* Firmware state */
typedef enum ArbelFwState {
    FW_RESET = 0,       /* after reset: FW not running */
    FW_RUNNING = 1,     /* RUN_FW done */
    FW_HCA_INIT = 2,    /* INIT_HCA done */
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

/* MPT entry fields (dword index, bit positions) */
#define MPT_D0_RW               (1u << 8)
#define MPT_D0_PA               (1u << 9)
#define MPT_D0_LR               (1u << 10)
#define MPT_D0_LW               (1u << 11)
#define MPT_D0_RR               (1u << 12)
#define MPT_D0_RWR              (1u << 13)
#define MPT_D0_A                (1u << 14)
#define MPT_D0_EB               (1u << 15)
#define MPT_D0_MIO              (1u << 17)
#define MPT_D0_STATUS_SHIFT     28
#define MPT_STATUS_SW           0xf
#define MPT_STATUS_FREE         0x3
#define MPT_D1_PAGE_SIZE_MASK   0x1f
#define MPT_D1_TYPE             (1u << 7)
#define MPT_D3_PD_MASK          0xffffff
#define MPT_D3_ZB               (1u << 26)

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

#endif
