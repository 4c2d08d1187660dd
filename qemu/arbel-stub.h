/*
 * arbel-stub: an emulated Mellanox InfiniHost III Ex (MT25208, "Arbel",
 * mem-free mode) HCA and its firmware, for testing the arbel driver.
 *
 * Written from Documentation/arbel-hw.rst only; it shares no code or headers
 * with any driver.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_STUB_H
#define HW_ARBEL_STUB_H

#include "qemu/units.h"
#include "hw/pci/pci.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "arbel-dbgwin.h"

#define TYPE_ARBEL_STUB "arbel-stub"
OBJECT_DECLARE_SIMPLE_TYPE(ArbelState, ARBEL_STUB)

/* PCI identity */
#define ARBEL_VENDOR_ID         0x15b3
#define ARBEL_DEVICE_ID         0x6282
#define ARBEL_REVISION          0xa0

/* BAR sizes */
#define ARBEL_BAR0_SIZE         (1 * MiB)
#define ARBEL_BAR2_SIZE         (8 * MiB)

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
    OP_CONF_SPECIAL_QP  = 0x023,
    OP_MAD_IFC          = 0x024,
    OP_SYNC_TPT         = 0x02f,
    OP_NOP              = 0x031,
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

/* An event queue as the firmware tracks it (its context lives in ICM) */
typedef struct ArbelEq {
    bool hw;                /* SW2HW_EQ done, HW2SW_EQ not yet */
    bool armed;             /* next EQE raises the interrupt */
    uint8_t status;         /* 0 OK, 9 overflow, 0xa write failure */
    uint32_t lkey;          /* of the EQ buffer's region */
    uint64_t start;         /* virtual address of the buffer */
    uint32_t log_size;      /* log2 of the number of EQEs */
    uint8_t intr;           /* INTx pin (< 128) or 128 + MSI-X vector */
    uint32_t prod;          /* producer index */
    uint32_t cons;          /* consumer index (set-CI doorbell) */
    uint32_t posted;        /* EQEs written, for the trace */
} ArbelEq;

/* One request to the translation engine (arbel_xlate_rw) */
typedef struct ArbelXlReq {
    uint32_t key;
    uint32_t access;        /* ARBEL_XL_ACC_* */
    uint64_t va;
    uint64_t len;
    bool to_region;         /* write the region (else read it) */
    bool check_only;        /* translate, move nothing */
    uint32_t index;         /* out: MPT slot */
    uint64_t pa;            /* out: PA of the first byte */
} ArbelXlReq;

/* The ICM tables INIT_HCA describes (arbel-fw.c reads them) */
typedef enum ArbelTableId {
    ARBEL_TBL_QPC, ARBEL_TBL_EEC, ARBEL_TBL_SRQC, ARBEL_TBL_CQC,
    ARBEL_TBL_EQPC, ARBEL_TBL_EEEC, ARBEL_TBL_EQC, ARBEL_TBL_RDB,
    ARBEL_TBL_MC, ARBEL_TBL_MPT, ARBEL_TBL_MTT, ARBEL_TBL_UAR_SCR,
    ARBEL_TBL_UARC, ARBEL_TBL_NR,
} ArbelTableId;

typedef struct ArbelTable {
    uint64_t base;          /* ICM virtual address */
    uint64_t size;          /* bytes; 0: INIT_HCA does not say */
    uint32_t log_num;       /* log2 of the objects, where INIT_HCA has it */
} ArbelTable;

/* A contiguous guest-physical chunk (FA / aux memory) */
typedef struct ArbelChunk {
    uint64_t pa;
    uint64_t size;
} ArbelChunk;

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
} ArbelCmd;

/* Fault injection settings (properties and debug window) */
typedef struct ArbelFaults {
    uint32_t fail_opcode;   /* 0 = off */
    uint32_t fail_status;
    uint32_t fail_every;    /* 0 = next matching command only */
    uint32_t fail_seen;     /* matching commands seen */
    uint32_t failed;        /* failures injected so far */
    uint32_t hold_ms;       /* 0 = off; UINT32_MAX = until released */
    uint32_t hold_opcode;   /* 0 = any */
    uint32_t corrupt_opcode;/* 0 = off */
    uint32_t corrupt_offset;
    uint32_t corrupt_len;
    uint32_t corrupt_every; /* 0 = next matching command only */
    uint32_t corrupt_seen;
    uint32_t corrupted;
} ArbelFaults;

struct ArbelState {
    PCIDevice parent_obj;

    MemoryRegion bar0;
    MemoryRegion bar2;

    /* HCR */
    uint32_t hcr[7];
    bool busy;
    ArbelCmd pending;
    QEMUTimer *hold_timer;

    /* firmware */
    ArbelFwState state;
    GArray *fa;             /* ArbelChunk */
    GArray *aux;            /* ArbelChunk */
    uint64_t fa_pages;
    uint64_t aux_pages;
    uint64_t icm_size;      /* 0 = SET_ICM_SIZE not done */
    uint64_t aux_needed;
    GHashTable *icm;        /* ICM page number -> guest PA (+1) */

    /* INIT_HCA parameters */
    uint64_t mpt_base;
    uint32_t log_mpt_sz;
    uint64_t mtt_base;
    uint64_t mtt_end;       /* end of the MTT area (exclusive) */
    unsigned long *hw_mpt;  /* bitmap: slots made HW-owned by SW2HW_MPT */
    ArbelTable tbl[ARBEL_TBL_NR];   /* every table, as INIT_HCA set it */

    /* event queues and interrupts (arbel-eq.c) */
    ArbelEq eq[ARBEL_MAX_EQS];
    int8_t ev_eq[64];       /* event type -> EQ number, -1 = not mapped */
    uint64_t int_pending;   /* INTx pins raised, not yet cleared */
    bool msix;              /* property: MSI-X capability present */
    uint32_t cmd_count;

    /* debug window: translation engine */
    uint32_t xl_key;
    uint32_t xl_access;
    uint64_t xl_va;
    uint32_t xl_len;
    uint32_t xl_dir;
    uint64_t xl_buf;
    uint32_t xl_result;
    uint64_t xl_pa;
    uint32_t xl_index;
    uint32_t xl_count;

    /* fault injection */
    ArbelFaults faults;
    ArbelFaults faults_prop;

    /* properties */
    char *trace_path;
    uint64_t node_guid;
    uint64_t port_guid;
    uint32_t fw_pages;
    uint8_t num_ports;      /* 1 or 2 */

    /* trace */
    FILE *trace;
    uint64_t trace_seq;
};

/* arbel-pci.c */
bool arbel_bus_master(ArbelState *s);
MemTxResult arbel_dma_read(ArbelState *s, uint64_t addr, void *buf,
                           uint64_t len);
MemTxResult arbel_dma_write(ArbelState *s, uint64_t addr, const void *buf,
                            uint64_t len);

/* arbel-cmd.c: dispatch and mailbox helpers */
void arbel_cmd_execute(ArbelState *s, ArbelCmd *cmd);
const char *arbel_opcode_name(uint16_t opcode);
uint8_t arbel_inbox_read(ArbelState *s, ArbelCmd *cmd, uint32_t len);
uint8_t arbel_outbox_write(ArbelState *s, ArbelCmd *cmd, const void *buf,
                           uint32_t len);

/* arbel-fw.c: firmware state machine and bring-up commands */
void arbel_fw_reset(ArbelState *s);
uint8_t arbel_cmd_query_fw(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_enable_lam(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_disable_lam(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_run_fw(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_dev_lim(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_adapter(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_init_hca(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_close_hca(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_nop(ArbelState *s, ArbelCmd *cmd);

/* arbel-icm.c: FA, aux and ICM mappings */
void arbel_icm_init(ArbelState *s);
void arbel_icm_reset(ArbelState *s);
uint8_t arbel_cmd_map_fa(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_fa(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_set_icm_size(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_icm_aux(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_icm_aux(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_icm(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_icm(ArbelState *s, ArbelCmd *cmd);
bool arbel_icm_mapped(ArbelState *s, uint64_t va, uint64_t len);
/* 0 on success, ST_BAD_RESOURCE if unmapped, ST_INTERNAL_ERR on DMA error */
uint8_t arbel_icm_read(ArbelState *s, uint64_t va, void *buf, uint64_t len);
uint8_t arbel_icm_write(ArbelState *s, uint64_t va, const void *buf,
                        uint64_t len);
uint64_t arbel_icm_pages(ArbelState *s);
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

/* arbel-mpt.c: MPT and MTT commands */
uint8_t arbel_cmd_sw2hw_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_hw2sw_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_write_mtt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_read_mtt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_sync_tpt(ArbelState *s, ArbelCmd *cmd);
bool arbel_mpt_hw_owned(ArbelState *s, uint32_t index, uint32_t dword0);
uint32_t arbel_mpt_hw_count(ArbelState *s);
void arbel_mpt_drop_all(ArbelState *s);
bool arbel_mtt_range_ok(ArbelState *s, uint64_t va, uint64_t len);

/* arbel-xlate.c: translation engine and debug window */
uint32_t arbel_xlate_rw(ArbelState *s, ArbelXlReq *req, void *buf);
uint64_t arbel_dbg_read(ArbelState *s, hwaddr off);
void arbel_dbg_write(ArbelState *s, hwaddr off, uint32_t val);

/* arbel-fault.c: command trace and fault injection */
void arbel_trace_open(ArbelState *s, Error **errp);
void arbel_trace_close(ArbelState *s);
void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note);
void arbel_trace_xlate(ArbelState *s);
bool arbel_fault_fail(ArbelState *s, uint16_t opcode, uint8_t *status);
uint32_t arbel_fault_hold_ms(ArbelState *s, uint16_t opcode);
void arbel_fault_corrupt(ArbelState *s, ArbelCmd *cmd, uint8_t *buf,
                         uint32_t len);

/* arbel-eq.c: event queues, event-mode completions, interrupts */
void arbel_eq_reset(ArbelState *s);
uint8_t arbel_cmd_sw2hw_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_hw2sw_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_eq(ArbelState *s, ArbelCmd *cmd);
void arbel_eq_post(ArbelState *s, uint8_t type, const uint8_t *data24);
void arbel_eq_cmd_done(ArbelState *s, ArbelCmd *cmd, uint8_t status);
void arbel_eq_arm_write(ArbelState *s, unsigned int word, uint32_t mask);
void arbel_eq_set_ci_write(ArbelState *s, unsigned int eqn, uint32_t ci);
void arbel_clr_int_write(ArbelState *s, unsigned int word, uint32_t mask);

/* arbel-mad.c: MAD_IFC */
uint8_t arbel_cmd_mad_ifc(ArbelState *s, ArbelCmd *cmd);

#endif
