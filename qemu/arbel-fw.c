/*
 * arbel-stub: firmware state machine and bring-up commands, the firmware
 * object module (with arbel-fwmem.c).  It owns the HCA's life: INIT_HCA
 * sets up the ICM layout, the TPT and the EQs below it, CLOSE_HCA and
 * reset take them down.
 *
 *   RESET    --MAP_FA, RUN_FW-->      RUNNING
 *   RUNNING  --SET_ICM_SIZE, MAP_ICM_AUX, MAP_ICM, INIT_HCA-->  HCA_INIT
 *   HCA_INIT --CLOSE_HCA-->          RUNNING
 *   RUNNING  --UNMAP_FA-->           RESET
 *   any      --reset register-->     RESET (everything dropped)
 *
 * (ArbelFwState: ARBEL_FW_RESET, ARBEL_FW_RUNNING, ARBEL_FW_HCA_INIT)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-irq.h"
#include "arbel-tpt.h"
#include "arbel-eq.h"
#include "arbel-ctx.h"
#include "arbel-objects.h"
#include "arbel-dp.h"
#include "arbel-fw.h"

/* CQs, SRQs, QPs back to software, ports down (CLOSE_HCA, reset) */
static void arbel_objects_reset(ArbelState *s)
{
    arbel_ctx_reset(s);
    arbel_qp_reset(s);
    arbel_srq_reset(s);
    arbel_dp_reset(s);
    arbel_ib_reset(s);
}

/**
 * arbel_fw_fini - free what the firmware's objects hold (device exit)
 * @s: the device
 */
void arbel_fw_fini(ArbelState *s)
{
    arbel_ctx_fini(s);
    arbel_qp_fini(s);
    arbel_srq_fini(s);
}

/**
 * arbel_fw_reset - the firmware stops; everything it was given is dropped
 * @s: the device
 */
void arbel_fw_reset(ArbelState *s)
{
    arbel_fwmem_reset(s);
    arbel_icm_reset(s);
    arbel_tpt_reset(s);
    arbel_objects_reset(s);
    s->fw.state = ARBEL_FW_RESET;
}

/**
 * arbel_fw_state - the firmware state, for the dispatch's state check
 * @s: the device
 *
 * Return: ARBEL_FW_RESET, ARBEL_FW_RUNNING or ARBEL_FW_HCA_INIT.
 */
ArbelFwState arbel_fw_state(ArbelState *s)
{
    return s->fw.state;
}

/**
 * arbel_fw_fa_pages - 4 KiB pages of firmware area mapped (MAP_FA)
 * @s: the device
 *
 * Return: that count.
 */
uint64_t arbel_fw_fa_pages(ArbelState *s)
{
    return s->fw.fa_pages;
}

/**
 * arbel_fw_aux_pages - 4 KiB pages of aux ICM mapped (MAP_ICM_AUX)
 * @s: the device
 *
 * Return: that count.
 */
uint64_t arbel_fw_aux_pages(ArbelState *s)
{
    return s->fw.aux_pages;
}

/**
 * arbel_fw_icm_size - the ICM size SET_ICM_SIZE set (0: not yet)
 * @s: the device
 *
 * Return: bytes.
 */
uint64_t arbel_fw_icm_size(ArbelState *s)
{
    return s->fw.icm_size;
}

/* BAR0's bus address: the firmware reports its registers there. */
static uint64_t arbel_bar0_bus_addr(ArbelState *s)
{
    pcibus_t addr = pci_get_bar_addr(PCI_DEVICE(s), 0);

    return addr == PCI_BAR_UNMAPPED ? 0 : addr;
}

uint8_t arbel_cmd_query_fw(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t bar0 = arbel_bar0_bus_addr(s);
    uint8_t out[0x100] = { 0 };

    stw_be_p(out + 0x00, s->props.fw_pages);
    stw_be_p(out + 0x02, ARBEL_FW_MAJOR);
    stw_be_p(out + 0x04, ARBEL_FW_SUBMINOR);
    stw_be_p(out + 0x06, ARBEL_FW_MINOR);
    out[0x0f] = ARBEL_LOG_MAX_CMDS;
    stl_be_p(out + 0x10, 0);                    /* no doorbell commands */
    /*
     * bus addresses, as the device reports them (mthca masks them with
     * BAR0's length, iPXE maps them as they are)
     */
    stq_be_p(out + 0x20, bar0 + ARBEL_CLR_INT_BASE);
    stq_be_p(out + 0x30, bar0 + ARBEL_CATAS_BASE);
    stl_be_p(out + 0x38, ARBEL_CATAS_SIZE);
    stq_be_p(out + 0x40, bar0 + ARBEL_EQ_ARM_BASE);
    stq_be_p(out + 0x48, bar0 + ARBEL_EQ_SET_CI_BASE);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

uint8_t arbel_cmd_enable_lam(ArbelState *s, ArbelCmd *cmd)
{
    return ARBEL_ST_LAM_NOT_PRE;      /* mem-free: no local attached memory */
}

uint8_t arbel_cmd_disable_lam(ArbelState *s, ArbelCmd *cmd)
{
    return ARBEL_ST_LAM_NOT_PRE;
}

uint8_t arbel_cmd_run_fw(ArbelState *s, ArbelCmd *cmd)
{
    if (!s->fw.fa_pages || s->fw.fa_pages < s->props.fw_pages) {
        return ARBEL_ST_BAD_SYS_STATE;    /* the firmware area is not mapped */
    }
    s->fw.state = ARBEL_FW_RUNNING;
    return ARBEL_ST_OK;
}

/*
 * DEV_LIM flags (mthca's DEV_LIM_FLAG_*): RC, UC, UD, SRQ, bad P_Key and
 * Q_Key counters, atomics, UD address-vector port check
 */
#define ARBEL_DEV_LIM_FLAGS     0x00140347u

uint8_t arbel_cmd_query_dev_lim(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[0x100] = { 0 };

    out[0x10] = 16;                         /* log max SRQ WQEs */
    out[0x11] = 16;                         /* log max WQEs per QP */
    out[0x12] = 6;                          /* log rsvd QPs */
    out[0x13] = 18;                         /* log max QPs */
    out[0x14] = 4 << 4;                     /* log rsvd SRQs */
    out[0x15] = 16;                         /* log max SRQs */
    out[0x16] = 0;                          /* log rsvd EECs */
    out[0x17] = 0;                          /* log max EECs: no RD */
    out[0x19] = ARBEL_LOG_MAX_CQE;          /* log max CQEs */
    out[0x1a] = 7;                          /* log rsvd CQs */
    out[0x1b] = 16;                         /* log max CQs */
    out[0x1d] = ARBEL_LOG_MAX_MPT;          /* log max MPTs */
    out[0x1e] = 0;                          /* log rsvd EQs */
    out[0x1f] = ARBEL_LOG_MAX_EQ;           /* log max EQs */
    out[0x20] = ARBEL_LOG_RSVD_MTT << 4;    /* log rsvd MTT entries */
    out[0x21] = ARBEL_LOG_MAX_MR_SIZE;      /* log max MR size */
    out[0x22] = ARBEL_LOG_RSVD_MPT;         /* log rsvd MPTs */
    out[0x23] = ARBEL_LOG_MAX_MTT_SEG;      /* log max MTT segments */
    out[0x29] = 7;                          /* log max RDMA reads out */
    out[0x2b] = 2;                          /* log max RDMA reads in */
    out[0x2f] = 12;                         /* log max RDMA reads, all QPs */
    out[0x33] = 0;                          /* SRQ resize: no */
    out[0x35] = 15;                         /* local CA ACK delay */
    out[0x36] = ARBEL_IB_MTU_2048 << 4 | ARBEL_PORT_WIDTH_CAP;
    out[0x37] = ARBEL_VL_CAP << 4 | s->props.num_ports;
    out[0x3b] = ARBEL_LOG_NUM_GIDS;         /* log GIDs per port */
    stw_be_p(out + 0x3c, 0x000f);           /* static rates supported */
    out[0x3f] = ARBEL_LOG_NUM_PKEYS;        /* log P_Keys per port */
    stl_be_p(out + 0x44, ARBEL_DEV_LIM_FLAGS);
    out[0x48] = ARBEL_RSVD_UARS << 4;       /* reserved UARs: a count */
    out[0x49] = 3;                          /* UAR size: 2^(3+20) = BAR2 */
    out[0x4b] = 12;                         /* log min page size */
    out[0x51] = 30;                         /* max S/G entries, send */
    stw_be_p(out + 0x52, 1008);             /* max send WQE bytes */
    out[0x55] = 30;                         /* max S/G entries, receive */
    stw_be_p(out + 0x56, 1008);             /* max receive WQE bytes */
    out[0x61] = 3;                          /* log max QPs per MCG */
    out[0x62] = 0;                          /* reserved MCGs */
    out[0x63] = 13;                         /* log max MCGs */
    out[0x64] = ARBEL_RSVD_PDS << 4;        /* reserved PDs: a count */
    out[0x65] = ARBEL_LOG_MAX_PD;           /* log max PDs */
    out[0x66] = 0;                          /* reserved RDDs */
    out[0x67] = 0;                          /* log max RDDs: no RD */
    stw_be_p(out + 0x80, ARBEL_EEC_ENTRY_SIZE);
    stw_be_p(out + 0x82, ARBEL_QPC_ENTRY_SIZE);
    stw_be_p(out + 0x84, ARBEL_EEEC_ENTRY_SIZE);
    stw_be_p(out + 0x86, ARBEL_EQPC_ENTRY_SIZE);
    stw_be_p(out + 0x88, ARBEL_EQC_ENTRY_SIZE);
    stw_be_p(out + 0x8a, ARBEL_CQC_ENTRY_SIZE);
    stw_be_p(out + 0x8c, ARBEL_SRQC_ENTRY_SIZE);
    stw_be_p(out + 0x8e, ARBEL_UAR_SCR_ENTRY_SIZE);
    stw_be_p(out + 0x90, ARBEL_MTT_ENTRY_SIZE);
    stw_be_p(out + 0x92, ARBEL_MPT_ENTRY_SIZE);
    out[0x96] = 0;                          /* PBL size */
    out[0x97] = 0;                          /* BMME flags: none */
    stl_be_p(out + 0x98, 0);                /* reserved L_Key */
    out[0x9f] = 0;                          /* LAM not required */
    stq_be_p(out + 0xa0, ARBEL_MAX_ICM_SIZE);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

/*
 * The VSD: 208 bytes from outbox 0x20; the Mellanox board ID is the 16
 * bytes at VSD + 0xd0, each dword byte-swapped (mthca's get_board_id).
 */
#define ARBEL_VSD               0x20
#define ARBEL_VSD_BOARD_ID      0xd0

uint8_t arbel_cmd_query_adapter(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[0x100] = { 0 };
    uint8_t id[16] = { 0 };
    int i;

    stl_be_p(out + 0x00, ARBEL_VENDOR_ID);
    stl_be_p(out + 0x04, ARBEL_DEVICE_ID);
    stl_be_p(out + 0x08, ARBEL_REVISION);
    out[0x10] = arbel_irq_inta_pin(s);            /* INTA pin */
    memcpy(id, ARBEL_BOARD_ID, MIN(sizeof(id), strlen(ARBEL_BOARD_ID)));
    for (i = 0; i < 4; i++) {
        stl_le_p(out + ARBEL_VSD + ARBEL_VSD_BOARD_ID + i * 4,
                 ldl_be_p(id + i * 4));
    }
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

/*
 * INIT_HCA's inbox (0x200 bytes): table bases are be64.  For QPC, EEC,
 * SRQC, CQC and EQC the log2 count sits in bits 4:0 of the base's low
 * dword and the address starts above it: bit 7 (QPC, EEC), 6 (CQC, EQC),
 * 5 (SRQC) [mthca_INIT_HCA; iPXE arbel_alloc_icm, which shifts each base
 * by that much].
 */
static const uint16_t arbel_tbl_base_off[ARBEL_TBL_NR] = {
    0x30, 0x40, 0x48, 0x50, 0x60, 0x70, 0x80, 0x90, 0xc0, 0xf0, 0x100,
    0x130, 0x138,
};

/* address bits below the base, where the qword also holds a log count */
static const uint8_t arbel_tbl_base_low[ARBEL_TBL_NR] = {
    [ARBEL_TBL_QPC] = 0x7f, [ARBEL_TBL_EEC] = 0x7f, [ARBEL_TBL_SRQC] = 0x1f,
    [ARBEL_TBL_CQC] = 0x3f, [ARBEL_TBL_EQC] = 0x3f,
};

#define ARBEL_TBL_NO_SIZE       UINT64_MAX  /* beyond any ICM */

/* @entry << @log, or ARBEL_TBL_NO_SIZE past the largest ICM */
static uint64_t arbel_tbl_size(uint64_t entry, unsigned int log)
{
    if (log >= 48 || entry > (ARBEL_MAX_ICM_SIZE >> log)) {
        return ARBEL_TBL_NO_SIZE;
    }
    return entry << log;
}

/* Read every table's base and size from the inbox. */
static void arbel_hca_tables(const uint8_t *in, ArbelTable *t)
{
    unsigned int log_qp = in[ARBEL_INIT_HCA_LOG_QP] & ARBEL_INIT_HCA_LOG_MASK;
    unsigned int log_eec = in[ARBEL_INIT_HCA_LOG_EEC] &
                           ARBEL_INIT_HCA_LOG_MASK;
    unsigned int log_uar = in[ARBEL_INIT_HCA_LOG_UAR];
    unsigned int log_uarc = in[ARBEL_INIT_HCA_LOG_UARC];
    unsigned int log_mc_entry = lduw_be_p(in + ARBEL_INIT_HCA_MC_ENTRY);
    uint64_t uarc_entry;
    int i;

    for (i = 0; i < ARBEL_TBL_NR; i++) {
        t[i].base = ldq_be_p(in + arbel_tbl_base_off[i]);
        t[i].size = 0;
        t[i].log_num = 0;
        if (arbel_tbl_base_low[i]) {
            t[i].log_num = t[i].base & ARBEL_INIT_HCA_LOG_MASK;
            t[i].base &= ~(uint64_t)arbel_tbl_base_low[i];
        }
    }
    t[ARBEL_TBL_QPC].size = arbel_tbl_size(ARBEL_QPC_ENTRY_SIZE, log_qp);
    t[ARBEL_TBL_EEC].size = arbel_tbl_size(ARBEL_EEC_ENTRY_SIZE, log_eec);
    t[ARBEL_TBL_SRQC].size = arbel_tbl_size(ARBEL_SRQC_ENTRY_SIZE,
                                            t[ARBEL_TBL_SRQC].log_num);
    t[ARBEL_TBL_CQC].size = arbel_tbl_size(ARBEL_CQC_ENTRY_SIZE,
                                           t[ARBEL_TBL_CQC].log_num);
    /* one extended context per QP / EE context */
    t[ARBEL_TBL_EQPC].size = arbel_tbl_size(ARBEL_EQPC_ENTRY_SIZE, log_qp);
    t[ARBEL_TBL_EEEC].size = arbel_tbl_size(ARBEL_EEEC_ENTRY_SIZE, log_eec);
    t[ARBEL_TBL_EQPC].log_num = log_qp;
    t[ARBEL_TBL_EEEC].log_num = log_eec;
    t[ARBEL_TBL_EQC].size = arbel_tbl_size(ARBEL_EQC_ENTRY_SIZE,
                                           t[ARBEL_TBL_EQC].log_num);
    /* RDB: entries per QP are not in the inbox, so its size is unknown */
    t[ARBEL_TBL_MC].log_num = in[ARBEL_INIT_HCA_LOG_MC] &
                              ARBEL_INIT_HCA_LOG_MASK;
    t[ARBEL_TBL_MC].size = log_mc_entry >= 32 ? ARBEL_TBL_NO_SIZE :
        arbel_tbl_size(1ULL << log_mc_entry, t[ARBEL_TBL_MC].log_num);
    t[ARBEL_TBL_MPT].log_num = in[ARBEL_INIT_HCA_LOG_MPT] &
                               ARBEL_INIT_HCA_LOG_MPT_MASK;
    t[ARBEL_TBL_MPT].size = arbel_tbl_size(ARBEL_MPT_ENTRY_SIZE,
                                           t[ARBEL_TBL_MPT].log_num);
    /* MTT: its size is where the next table starts (below) */
    t[ARBEL_TBL_UAR_SCR].log_num = log_uar;
    t[ARBEL_TBL_UAR_SCR].size = arbel_tbl_size(ARBEL_UAR_SCR_ENTRY_SIZE,
                                               log_uar);
    t[ARBEL_TBL_UARC].log_num = log_uar;
    uarc_entry = arbel_tbl_size(ARBEL_UARC_PAGE, log_uarc);
    t[ARBEL_TBL_UARC].size = uarc_entry == ARBEL_TBL_NO_SIZE ?
        uarc_entry : arbel_tbl_size(uarc_entry, log_uar);
}

static const char *const arbel_tbl_name[ARBEL_TBL_NR] = {
    "QPC", "EEC", "SRQC", "CQC", "EQPC", "EEEC", "EQC", "RDB", "MC", "MPT",
    "MTT", "UAR scratch", "UARC",
};

/*
 * The end of @t's extent for overlap checks: a table of unknown size
 * (RDB, and MTT until its end is known) holds at least its first byte.
 */
static uint64_t arbel_tbl_end(const ArbelTable *t)
{
    return t->base + MAX(t->size, 1);
}

/* the size of one entry of @t, 0 if unknown (RDB, MTT) */
static uint64_t arbel_tbl_entry(const ArbelTable *t)
{
    if (!t->size || t->size == ARBEL_TBL_NO_SIZE) {
        return 0;
    }
    return pow2floor(t->size >> t->log_num);
}

/*
 * The layout rules, and their sources (Documentation/arbel-stub.rst,
 * "Checks and their sources").  Refused with 0x03: log_num_eq above
 * QUERY_DEV_LIM 0x1f, log_mpt_sz above 0x1d, a table reaching past the
 * largest ICM (QUERY_DEV_LIM 0xa0, as MAP_ICM), a table base not aligned
 * to its entry size (entries sit at base + n * entry size, QUERY_DEV_LIM
 * 0x80..0x92; the QPC, EEC, SRQC, CQC and EQC bases even carry their log
 * count in those low bits, mthca_INIT_HCA and iPXE), an MTT base not
 * 8-byte aligned (the PRM's 8-byte MTT entry).  Unconfirmed, the layout is
 * taken: a table not aligned to its whole size (mthca's
 * mthca_make_profile and iPXE align each table so; the PRM does not ask
 * it), tables outside the
 * SET_ICM_SIZE value or overlapping (the PRM leaves the layout to
 * software; iPXE puts the UAR contexts above its ICM size), an MPT table
 * of reserved entries only, an MTT area smaller than the reserved MTTs.
 */
static uint8_t arbel_hca_check(ArbelState *s, ArbelTable *t)
{
    uint64_t mtt_base = t[ARBEL_TBL_MTT].base, mtt_end;
    int i, j;

    if (t[ARBEL_TBL_EQC].log_num > ARBEL_LOG_MAX_EQ ||
        t[ARBEL_TBL_MPT].log_num > ARBEL_LOG_MAX_MPT ||
        (mtt_base & (ARBEL_MTT_ENTRY_SIZE - 1))) {
        return ARBEL_ST_BAD_PARAM;
    }
    for (i = 0; i < ARBEL_TBL_NR; i++) {
        uint64_t size = t[i].size, entry = arbel_tbl_entry(&t[i]);

        if (size == ARBEL_TBL_NO_SIZE || t[i].base >= ARBEL_MAX_ICM_SIZE ||
            size > ARBEL_MAX_ICM_SIZE - t[i].base) {
            return ARBEL_ST_BAD_PARAM;        /* past the largest ICM */
        }
        if (entry && (t[i].base & (entry - 1))) {
            return ARBEL_ST_BAD_PARAM;        /* not aligned to an entry */
        }
    }
    if (t[ARBEL_TBL_MPT].log_num <= ARBEL_LOG_RSVD_MPT) {
        arbel_unconfirmed(s, "INIT_HCA log_mpt_sz %u: reserved MPTs only",
                          t[ARBEL_TBL_MPT].log_num);
    }
    mtt_end = mtt_base < s->fw.icm_size ? s->fw.icm_size : ARBEL_MAX_ICM_SIZE;
    for (i = 0; i < ARBEL_TBL_NR; i++) {
        uint64_t size = t[i].size;

        if (t[i].base >= s->fw.icm_size ||
            (size && size > s->fw.icm_size - t[i].base)) {
            arbel_unconfirmed(s, "INIT_HCA %s [0x%" PRIx64 ", +0x%" PRIx64
                              ") outside ICM size 0x%" PRIx64,
                              arbel_tbl_name[i], t[i].base, size,
                              s->fw.icm_size);
        }
        if (size && (t[i].base & (pow2floor(size) - 1))) {
            arbel_unconfirmed(s, "INIT_HCA %s [0x%" PRIx64 ", +0x%" PRIx64
                              ") not aligned to its size", arbel_tbl_name[i],
                              t[i].base, size);
        }
        if (i != ARBEL_TBL_MTT && t[i].base > mtt_base &&
            t[i].base < mtt_end) {
            mtt_end = t[i].base;
        }
    }
    /* the MTT area runs up to the next table base above it, or ICM end */
    if (mtt_end - mtt_base <
        ((uint64_t)ARBEL_MTT_ENTRY_SIZE << ARBEL_LOG_RSVD_MTT)) {
        arbel_unconfirmed(s, "INIT_HCA MTT area [0x%" PRIx64 ", 0x%" PRIx64
                          ") smaller than the reserved MTTs", mtt_base,
                          mtt_end);
    }
    t[ARBEL_TBL_MTT].size = mtt_end - mtt_base;
    for (i = 0; i < ARBEL_TBL_NR; i++) {
        for (j = i + 1; j < ARBEL_TBL_NR; j++) {
            if (t[i].base < arbel_tbl_end(&t[j]) &&
                t[j].base < arbel_tbl_end(&t[i])) {
                arbel_unconfirmed(s, "INIT_HCA %s at 0x%" PRIx64
                                  " and %s at 0x%" PRIx64 " overlap",
                                  arbel_tbl_name[i], t[i].base,
                                  arbel_tbl_name[j], t[j].base);
            }
        }
    }
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_init_hca(ArbelState *s, ArbelCmd *cmd)
{
    ArbelTable t[ARBEL_TBL_NR];
    uint8_t st;

    if (!s->fw.icm_size || s->fw.aux_pages < s->fw.aux_needed) {
        /* SET_ICM_SIZE / MAP_ICM_AUX missing */
        return ARBEL_ST_BAD_SYS_STATE;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_INIT_HCA_IN_SIZE);
    if (st) {
        return st;
    }
    arbel_hca_tables(cmd->inbox, t);
    st = arbel_hca_check(s, t);
    if (st) {
        return st;
    }
    arbel_icm_set_tables(s, t);
    arbel_mcg_init(s, cmd->inbox);
    arbel_tpt_init(s, t[ARBEL_TBL_MPT].base, t[ARBEL_TBL_MPT].log_num,
                   t[ARBEL_TBL_MTT].base,
                   t[ARBEL_TBL_MTT].base + t[ARBEL_TBL_MTT].size);
    arbel_eq_reset(s);              /* no EQ yet; EQC is in the layout */
    s->fw.state = ARBEL_FW_HCA_INIT;
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_close_hca(ArbelState *s, ArbelCmd *cmd)
{
    if (cmd->op_mod > 1) {
        /* PRM: op_mod 1 = panic; no source gives other values */
        arbel_unconfirmed(s, "CLOSE_HCA op_mod %u (sources give 0..1)",
                          cmd->op_mod);
    }
    arbel_mpt_drop_all(s);
    arbel_eq_reset(s);
    arbel_objects_reset(s);
    s->fw.state = ARBEL_FW_RUNNING;
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_nop(ArbelState *s, ArbelCmd *cmd)
{
    return ARBEL_ST_OK;
}
