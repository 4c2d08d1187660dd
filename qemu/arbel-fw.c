/*
 * arbel-stub: firmware state machine and bring-up commands.
 *
 *   FW_RESET   --MAP_FA, RUN_FW-->      FW_RUNNING
 *   FW_RUNNING --SET_ICM_SIZE, MAP_ICM_AUX, MAP_ICM, INIT_HCA--> FW_HCA_INIT
 *   FW_HCA_INIT --CLOSE_HCA-->          FW_RUNNING
 *   FW_RUNNING --UNMAP_FA-->            FW_RESET
 *   any        --reset register-->      FW_RESET (everything dropped)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "arbel-stub.h"
#include "arbel-dbgwin.h"

void arbel_fw_reset(ArbelState *s)
{
    arbel_icm_reset(s);
    arbel_mpt_drop_all(s);
    s->state = FW_RESET;
    s->mpt_base = 0;
    s->log_mpt_sz = 0;
    s->mtt_base = 0;
    s->mtt_end = 0;
    s->xl_result = ARBEL_XL_IDLE;
}

uint8_t arbel_cmd_query_fw(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[0x100] = { 0 };

    stw_be_p(out + 0x00, s->fw_pages);
    stw_be_p(out + 0x02, ARBEL_FW_MAJOR);
    stw_be_p(out + 0x04, ARBEL_FW_SUBMINOR);
    stw_be_p(out + 0x06, ARBEL_FW_MINOR);
    out[0x0f] = ARBEL_LOG_MAX_CMDS;
    stl_be_p(out + 0x10, 0);                    /* no doorbell commands */
    stq_be_p(out + 0x20, ARBEL_CLR_INT_BASE);
    stq_be_p(out + 0x30, ARBEL_CATAS_BASE);
    stl_be_p(out + 0x38, ARBEL_CATAS_SIZE);
    stq_be_p(out + 0x40, ARBEL_EQ_ARM_BASE);
    stq_be_p(out + 0x48, ARBEL_EQ_SET_CI_BASE);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

uint8_t arbel_cmd_enable_lam(ArbelState *s, ArbelCmd *cmd)
{
    return ST_LAM_NOT_PRE;      /* mem-free: no local attached memory */
}

uint8_t arbel_cmd_disable_lam(ArbelState *s, ArbelCmd *cmd)
{
    return ST_LAM_NOT_PRE;
}

uint8_t arbel_cmd_run_fw(ArbelState *s, ArbelCmd *cmd)
{
    if (!s->fa_pages || s->fa_pages < s->fw_pages) {
        return ST_BAD_SYS_STATE;    /* the firmware area is not mapped */
    }
    s->state = FW_RUNNING;
    return ST_OK;
}

uint8_t arbel_cmd_query_dev_lim(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[0x100] = { 0 };

    out[0x12] = 6;                          /* log rsvd QPs */
    out[0x13] = 18;                         /* log max QPs */
    out[0x14] = 4 << 4;                     /* log rsvd SRQs */
    out[0x15] = 16;                         /* log max SRQs */
    out[0x19] = 16;                         /* log max CQ size */
    out[0x1a] = 7;                          /* log rsvd CQs */
    out[0x1b] = 16;                         /* log max CQs */
    out[0x1d] = ARBEL_LOG_MAX_MPT;          /* log max MPTs */
    out[0x1e] = 0;                          /* log rsvd EQs */
    out[0x1f] = 6;                          /* log max EQs */
    out[0x20] = ARBEL_LOG_RSVD_MTT << 4;    /* log rsvd MTT entries */
    out[0x21] = ARBEL_LOG_MAX_MR_SIZE;      /* log max MR size */
    out[0x22] = ARBEL_LOG_RSVD_MPT;         /* log rsvd MPTs */
    out[0x23] = ARBEL_LOG_MAX_MTT_SEG;      /* log max MTT segments */
    stl_be_p(out + 0x44, 0);                /* flags */
    out[0x48] = 0;                          /* log rsvd UARs */
    out[0x49] = 3;                          /* UAR size: 2^(3+20) = BAR2 */
    out[0x4b] = 12;                         /* log min page size */
    out[0x64] = 0;                          /* rsvd PDs */
    out[0x65] = ARBEL_LOG_MAX_PD;           /* log max PDs */
    stw_be_p(out + 0x80, 0);                /* EEC entry size */
    stw_be_p(out + 0x82, 256);              /* QPC */
    stw_be_p(out + 0x84, 0);                /* EEEC */
    stw_be_p(out + 0x86, 32);               /* EQPC */
    stw_be_p(out + 0x88, 64);               /* EQC */
    stw_be_p(out + 0x8a, 64);               /* CQC */
    stw_be_p(out + 0x8c, 32);               /* SRQ */
    stw_be_p(out + 0x8e, 32);               /* UAR scratch */
    stw_be_p(out + 0x90, ARBEL_MTT_ENTRY_SIZE);
    stw_be_p(out + 0x92, ARBEL_MPT_ENTRY_SIZE);
    out[0x96] = 0;                          /* PBL size */
    out[0x97] = 0;                          /* BMME flags */
    stl_be_p(out + 0x98, 0);                /* reserved L_Key */
    out[0x9f] = 0;                          /* LAM not required */
    stq_be_p(out + 0xa0, ARBEL_MAX_ICM_SIZE);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

uint8_t arbel_cmd_query_adapter(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[0x100] = { 0 };

    stl_be_p(out + 0x00, ARBEL_VENDOR_ID);
    stl_be_p(out + 0x04, ARBEL_DEVICE_ID);
    stl_be_p(out + 0x08, ARBEL_REVISION);
    out[0x10] = 0;                          /* INTA pin */
    memcpy(out + 0x20, "ARBEL-STUB-0001", 15);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

/* One ICM table described by INIT_HCA. */
typedef struct ArbelTable {
    const char *name;
    unsigned int base_off;      /* be64 base */
    int log_off;                /* byte with log2 count (low 5 bits), -1 */
    uint32_t entry_size;        /* 0: size not known from INIT_HCA */
    bool log_in_base;           /* log shares the base's low byte */
} ArbelTable;

static const ArbelTable arbel_tables[] = {
    { "QPC", 0x30, 0x37, 256, true },
    { "EEC", 0x40, 0x47, 0, true },
    { "SRQC", 0x48, 0x4f, 32, true },
    { "CQC", 0x50, 0x57, 64, true },
    { "EQPC", 0x60, -1, 0, false },
    { "EEEC", 0x70, -1, 0, false },
    { "EQC", 0x80, 0x87, 64, true },
    { "RDB", 0x90, -1, 0, false },
    { "MC", 0xc0, -1, 0, false },
    { "UAR-scratch", 0x130, -1, 0, false },
    { "UARC", 0x138, -1, 0, false },
};

uint8_t arbel_cmd_init_hca(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t bases[ARRAY_SIZE(arbel_tables) + 1];
    uint64_t mpt_base, mtt_base, mtt_end, mpt_size;
    uint32_t log_mpt;
    uint8_t *in;
    uint8_t st;
    size_t i, n = 0;

    if (!s->icm_size || s->aux_pages < s->aux_needed) {
        return ST_BAD_SYS_STATE;    /* SET_ICM_SIZE / MAP_ICM_AUX missing */
    }
    st = arbel_inbox_read(s, cmd, 0x200);
    if (st) {
        return st;
    }
    in = cmd->inbox;

    for (i = 0; i < ARRAY_SIZE(arbel_tables); i++) {
        const ArbelTable *t = &arbel_tables[i];
        uint64_t base = ldq_be_p(in + t->base_off);

        if (t->log_in_base) {
            base &= ~0xffULL;
        }
        if (t->entry_size && t->log_off >= 0) {
            uint64_t size = (uint64_t)t->entry_size << (in[t->log_off] & 0x1f);

            if (base >= s->icm_size || size > s->icm_size - base) {
                return ST_BAD_PARAM;
            }
        }
        bases[n++] = base;
    }

    /* multicast table: log entry size at 0xd2, log table size at 0xdb */
    {
        uint64_t mc_base = ldq_be_p(in + 0xc0);
        uint64_t mc_size = (1ULL << (in[0xd2] & 0x1f)) <<
                           (in[0xdb] & 0x1f);

        if (mc_base >= s->icm_size || mc_size > s->icm_size - mc_base) {
            return ST_BAD_PARAM;
        }
    }

    mpt_base = ldq_be_p(in + 0xf0);
    log_mpt = in[0xfb] & 0x3f;
    mtt_base = ldq_be_p(in + 0x100);
    if (log_mpt > ARBEL_LOG_MAX_MPT || log_mpt <= ARBEL_LOG_RSVD_MPT) {
        return ST_BAD_PARAM;
    }
    mpt_size = (uint64_t)ARBEL_MPT_ENTRY_SIZE << log_mpt;
    if ((mpt_base & (ARBEL_MPT_ENTRY_SIZE - 1)) ||
        mpt_base >= s->icm_size || mpt_size > s->icm_size - mpt_base) {
        return ST_BAD_PARAM;
    }
    if ((mtt_base & (ARBEL_MTT_ENTRY_SIZE - 1)) || mtt_base >= s->icm_size) {
        return ST_BAD_PARAM;
    }
    bases[n++] = mpt_base;

    /* The MTT area runs up to the next table base above it, or ICM end. */
    mtt_end = s->icm_size;
    for (i = 0; i < n; i++) {
        if (bases[i] > mtt_base && bases[i] < mtt_end) {
            mtt_end = bases[i];
        }
    }
    if (mtt_end - mtt_base <
        ((uint64_t)ARBEL_MTT_ENTRY_SIZE << ARBEL_LOG_RSVD_MTT)) {
        return ST_BAD_PARAM;    /* no room even for the reserved MTTs */
    }
    if (mpt_base < mtt_base && mpt_base + mpt_size > mtt_base) {
        return ST_BAD_PARAM;    /* MPT table overlaps the MTT area */
    }

    s->mpt_base = mpt_base;
    s->log_mpt_sz = log_mpt;
    s->mtt_base = mtt_base;
    s->mtt_end = mtt_end;
    g_free(s->hw_mpt);
    s->hw_mpt = bitmap_new(1u << log_mpt);
    arbel_eq_init_hca(s, in);
    s->state = FW_HCA_INIT;
    return ST_OK;
}

uint8_t arbel_cmd_close_hca(ArbelState *s, ArbelCmd *cmd)
{
    if (cmd->op_mod > 1) {
        return ST_BAD_OP;
    }
    arbel_mpt_drop_all(s);
    arbel_eq_reset(s);
    s->state = FW_RUNNING;
    return ST_OK;
}

uint8_t arbel_cmd_nop(ArbelState *s, ArbelCmd *cmd)
{
    return ST_OK;
}
