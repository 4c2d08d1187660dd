/*
 * arbel-stub: the debug register window, a client of the services.
 *
 * The window is a 4 KiB page at BAR0 + ARBEL_DBG_BASE, unused by the real
 * device; its register map is arbel-dbgwin.h, which the tests include too.
 * The driver never touches it; tests reach it through sysfs resource0.
 * Registers are big-endian 32-bit like the rest of BAR0.  It reads the
 * state of the other modules through their functions only, runs the
 * translation engine (arbel_xlate_rw) and sets fault injection.  The
 * layout is documented in Documentation/arbel-stub.rst.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bitops.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-fault.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-dp.h"
#include "arbel-fw.h"
#include "arbel-cmd.h"
#include "arbel-catas.h"
#include "arbel-debug.h"
#include "arbel-irq.h"
#include "arbel-life.h"

/* the fault injection registers and the knobs behind them */
static const struct {
    hwaddr off;
    ArbelFaultKnob knob;
} arbel_dbg_faults[] = {
    { ARBEL_DBG_FI_FAIL_OPCODE, ARBEL_FI_FAIL_OPCODE },
    { ARBEL_DBG_FI_FAIL_STATUS, ARBEL_FI_FAIL_STATUS },
    { ARBEL_DBG_FI_FAIL_EVERY, ARBEL_FI_FAIL_EVERY },
    { ARBEL_DBG_FI_FAILED, ARBEL_FI_FAILED },
    { ARBEL_DBG_FI_HOLD_MS, ARBEL_FI_HOLD_MS },
    { ARBEL_DBG_FI_HOLD_OPCODE, ARBEL_FI_HOLD_OPCODE },
    { ARBEL_DBG_FI_CORRUPT_OPCODE, ARBEL_FI_CORRUPT_OPCODE },
    { ARBEL_DBG_FI_CORRUPT_OFFSET, ARBEL_FI_CORRUPT_OFFSET },
    { ARBEL_DBG_FI_CORRUPT_LEN, ARBEL_FI_CORRUPT_LEN },
    { ARBEL_DBG_FI_CORRUPT_EVERY, ARBEL_FI_CORRUPT_EVERY },
    { ARBEL_DBG_FI_CORRUPTED, ARBEL_FI_CORRUPTED },
};

/* the knob at window offset @off, or -1 */
static int arbel_dbg_fault_knob(hwaddr off)
{
    size_t i;

    for (i = 0; i < ARRAY_SIZE(arbel_dbg_faults); i++) {
        if (arbel_dbg_faults[i].off == off) {
            return arbel_dbg_faults[i].knob;
        }
    }
    return -1;
}

/**
 * arbel_dbg_reset - no translation has run since reset
 * @s: the device
 */
void arbel_dbg_reset(ArbelState *s)
{
    s->dbg.xl_result = ARBEL_XL_IDLE;
}

/* one trace line per translation */
static void arbel_dbg_trace(ArbelState *s)
{
    ArbelDbg *d = &s->dbg;

    trace_arbel_xlate(arbel_trace_seq(s), d->xl_key, d->xl_access, d->xl_va,
                      d->xl_len, d->xl_dir, d->xl_buf, d->xl_index, d->xl_pa,
                      d->xl_result);
}

/* The debug window's request: between the region and a guest buffer. */
static uint32_t arbel_xlate(ArbelState *s)
{
    ArbelXlReq req = {
        .key = s->dbg.xl_key,
        .access = s->dbg.xl_access,
        .va = s->dbg.xl_va,
        .len = s->dbg.xl_len,
        .to_region = s->dbg.xl_dir == ARBEL_XL_DIR_TO_REGION,
    };
    g_autofree uint8_t *bounce = NULL;
    uint32_t r;

    if (s->dbg.xl_dir > ARBEL_XL_DIR_TO_REGION) {
        req.len = 0;    /* refused as a bad request, after the state check */
    }
    if (arbel_tpt_active(s) && req.len && req.len <= ARBEL_XL_MAX_LEN) {
        bounce = g_malloc0(req.len);
    }
    if (bounce && req.to_region) {
        /* translate first: a refused request reads no byte of the buffer */
        req.check_only = true;
        r = arbel_xlate_rw(s, &req, NULL);
        req.check_only = false;
        if (r != ARBEL_XL_OK) {
            goto out;
        }
        if (arbel_dma_read(s, s->dbg.xl_buf, bounce, req.len) != MEMTX_OK) {
            r = ARBEL_XL_DMA_ERROR;
            goto out;
        }
    }
    r = arbel_xlate_rw(s, &req, bounce);
    if (r == ARBEL_XL_OK && !req.to_region &&
        arbel_dma_write(s, s->dbg.xl_buf, bounce, req.len) != MEMTX_OK) {
        r = ARBEL_XL_DMA_ERROR;
    }
out:
    s->dbg.xl_index = req.index;
    s->dbg.xl_pa = req.pa;
    return r;
}

/**
 * arbel_dbg_read - read a debug window register
 * @s: the device
 * @off: offset in the window
 *
 * Return: the register's value (0 for an unused offset).
 */
uint64_t arbel_dbg_read(ArbelState *s, hwaddr off)
{
    int k = arbel_dbg_fault_knob(off);

    if (k >= 0) {
        return arbel_fault_get(s, k);
    }
    if (off >= ARBEL_DBG_CATAS_FIRST && off <= ARBEL_DBG_CATAS_LAST) {
        return arbel_catas_dbg_read(s, off);
    }
    switch (off) {
    case ARBEL_DBG_LC_PULLED:
        return arbel_life_pulled(s);
    case ARBEL_DBG_LC_ACCESSES:
        return arbel_life_get(s, ARBEL_LIFE_ACCESSES);
    case ARBEL_DBG_LC_DMAS:
        return arbel_life_get(s, ARBEL_LIFE_DMAS);
    case ARBEL_DBG_LC_IRQS:
        return arbel_life_get(s, ARBEL_LIFE_IRQS);
    case ARBEL_DBG_LC_INTA_PIN:
        return arbel_irq_inta_pin(s);
    case ARBEL_DBG_LC_STRAYS:
        return arbel_life_get(s, ARBEL_LIFE_STRAYS);
    case ARBEL_DBG_LC_OWN_EXPECT:
        return arbel_life_expecting(s);
    case ARBEL_DBG_ID:
        return ARBEL_DBG_ID_VALUE;
    case ARBEL_DBG_VERSION:
        return 1;
    case ARBEL_DBG_FW_STATE:
        return arbel_fw_state(s);
    case ARBEL_DBG_CMD_COUNT:
        return arbel_cmd_count(s);
    case ARBEL_DBG_ICM_PAGES:
        return arbel_icm_pages(s);
    case ARBEL_DBG_FA_PAGES:
        return arbel_fw_fa_pages(s);
    case ARBEL_DBG_AUX_PAGES:
        return arbel_fw_aux_pages(s);
    case ARBEL_DBG_HW_MPTS:
        return arbel_mpt_hw_count(s);
    case ARBEL_DBG_ICM_SIZE_HI:
        return arbel_fw_icm_size(s) >> 32;
    case ARBEL_DBG_ICM_SIZE_LO:
        return (uint32_t)arbel_fw_icm_size(s);
    case ARBEL_DBG_LOG_MPT_SZ:
        return arbel_tpt_log_mpt(s);
    case ARBEL_DBG_MPT_BASE_HI:
        return arbel_tpt_mpt_base(s) >> 32;
    case ARBEL_DBG_MPT_BASE_LO:
        return (uint32_t)arbel_tpt_mpt_base(s);
    case ARBEL_DBG_MTT_BASE_HI:
        return arbel_tpt_mtt_base(s) >> 32;
    case ARBEL_DBG_MTT_BASE_LO:
        return (uint32_t)arbel_tpt_mtt_base(s);
    case ARBEL_DBG_MTT_END_HI:
        return arbel_tpt_mtt_end(s) >> 32;
    case ARBEL_DBG_MTT_END_LO:
        return (uint32_t)arbel_tpt_mtt_end(s);
    case ARBEL_DBG_TPT_HITS:
    case ARBEL_DBG_TPT_MISSES:
    case ARBEL_DBG_TPT_SYNCS: {
        uint64_t c[3];

        arbel_tpt_cache_stats(s, &c[0], &c[1], &c[2]);
        return (uint32_t)c[(off - ARBEL_DBG_TPT_HITS) / 4];
    }
    case ARBEL_DBG_DP_WQES:
    case ARBEL_DBG_DP_ERRORS:
    case ARBEL_DBG_DP_RECVS:
    case ARBEL_DBG_DP_BYTES:
        return (uint32_t)arbel_dp_count(s, (off - ARBEL_DBG_DP_WQES) / 4);
    case ARBEL_DBG_XL_KEY:
        return s->dbg.xl_key;
    case ARBEL_DBG_XL_ACCESS:
        return s->dbg.xl_access;
    case ARBEL_DBG_XL_VA_HI:
        return s->dbg.xl_va >> 32;
    case ARBEL_DBG_XL_VA_LO:
        return (uint32_t)s->dbg.xl_va;
    case ARBEL_DBG_XL_LEN:
        return s->dbg.xl_len;
    case ARBEL_DBG_XL_DIR:
        return s->dbg.xl_dir;
    case ARBEL_DBG_XL_BUF_HI:
        return s->dbg.xl_buf >> 32;
    case ARBEL_DBG_XL_BUF_LO:
        return (uint32_t)s->dbg.xl_buf;
    case ARBEL_DBG_XL_RESULT:
        return s->dbg.xl_result;
    case ARBEL_DBG_XL_PA_HI:
        return s->dbg.xl_pa >> 32;
    case ARBEL_DBG_XL_PA_LO:
        return (uint32_t)s->dbg.xl_pa;
    case ARBEL_DBG_XL_INDEX:
        return s->dbg.xl_index;
    case ARBEL_DBG_XL_COUNT:
        return s->dbg.xl_count;
    default:
        return 0;
    }
}

/* a write to a read-only or unused register: a guest error */
static void arbel_dbg_write_refused(hwaddr off, uint32_t val)
{
    qemu_log_mask(LOG_GUEST_ERROR,
                  "arbel-stub: write 0x%08x to read-only or unused debug "
                  "register 0x%03" HWADDR_PRIx "\n", val, off);
}

/**
 * arbel_dbg_write - write a debug window register
 * @s: the device
 * @off: offset in the window
 * @val: the value
 */
void arbel_dbg_write(ArbelState *s, hwaddr off, uint32_t val)
{
    int k = arbel_dbg_fault_knob(off);

    if (k >= 0 && arbel_fault_set(s, k, val)) {
        return;
    }
    if (off >= ARBEL_DBG_CATAS_FIRST && off <= ARBEL_DBG_CATAS_LAST) {
        if (!arbel_catas_dbg_write(s, off, val)) {
            arbel_dbg_write_refused(off, val);
        }
        return;
    }
    switch (off) {
    case ARBEL_DBG_LC_INTA_PIN:
        if (!arbel_irq_set_inta_pin(s, val)) {
            arbel_dbg_write_refused(off, val);
        }
        break;
    case ARBEL_DBG_LC_OWN_EXPECT:
        if (val > 1) {
            arbel_dbg_write_refused(off, val);
        } else {
            arbel_life_expect(s, val);
        }
        break;
    case ARBEL_DBG_XL_KEY:
        s->dbg.xl_key = val;
        break;
    case ARBEL_DBG_XL_ACCESS:
        s->dbg.xl_access = val;
        break;
    case ARBEL_DBG_XL_VA_HI:
        s->dbg.xl_va = deposit64(s->dbg.xl_va, 32, 32, val);
        break;
    case ARBEL_DBG_XL_VA_LO:
        s->dbg.xl_va = deposit64(s->dbg.xl_va, 0, 32, val);
        break;
    case ARBEL_DBG_XL_LEN:
        s->dbg.xl_len = val;
        break;
    case ARBEL_DBG_XL_DIR:
        s->dbg.xl_dir = val;
        break;
    case ARBEL_DBG_XL_BUF_HI:
        s->dbg.xl_buf = deposit64(s->dbg.xl_buf, 32, 32, val);
        break;
    case ARBEL_DBG_XL_BUF_LO:
        s->dbg.xl_buf = deposit64(s->dbg.xl_buf, 0, 32, val);
        break;
    case ARBEL_DBG_XL_GO:
        if (val & 1) {
            s->dbg.xl_pa = 0;
            s->dbg.xl_index = 0;
            s->dbg.xl_result = arbel_xlate(s);
            s->dbg.xl_count++;
            arbel_dbg_trace(s);
        }
        break;
    case ARBEL_DBG_FI_CLEAR:
        if (val & 1) {
            arbel_fault_clear(s);
        }
        break;
    default:
        arbel_dbg_write_refused(off, val);
        break;
    }
}
