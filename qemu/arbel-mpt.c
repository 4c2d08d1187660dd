/*
 * arbel-stub: MPT and MTT commands (SW2HW_MPT, HW2SW_MPT, QUERY_MPT,
 * WRITE_MTT, READ_MTT, SYNC_TPT), the TPT object module.  Where the tables
 * are and which slots hardware owns is the TPT service's (arbel-tpt.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-mpt.h"

/* the bits of dwords 0 and 3 that are no reserved field */
#define ARBEL_MPT_D0_ALLOWED    (0xf000ff00u | ARBEL_MPT_D0_MIO)
#define ARBEL_MPT_D3_RSVD       ((1u << 24) | (7u << 29))
/* page sizes the stub takes: 4 KiB << 0..19 */
#define ARBEL_MPT_PAGE_SIZE_LIMIT 20

/* index in range, not reserved, its ICM mapped */
static uint8_t arbel_mpt_slot_check(ArbelState *s, uint32_t index)
{
    if (index >= (1u << arbel_tpt_log_mpt(s))) {
        return ARBEL_ST_BAD_INDEX;
    }
    if (index < (1u << ARBEL_LOG_RSVD_MPT)) {
        return ARBEL_ST_BAD_RESOURCE;
    }
    if (!arbel_icm_mapped(s, arbel_mpt_addr(s, index), ARBEL_MPT_ENTRY_SIZE)) {
        return ARBEL_ST_BAD_RESOURCE;
    }
    return ARBEL_ST_OK;
}

/* the 64-byte entry of a slot that passes arbel_mpt_slot_check() */
static uint8_t arbel_mpt_read_slot(ArbelState *s, uint32_t index,
                                   uint8_t *img)
{
    uint8_t st = arbel_mpt_slot_check(s, index);

    if (st) {
        return st;
    }
    return arbel_icm_read(s, arbel_mpt_addr(s, index), img,
                          ARBEL_MPT_ENTRY_SIZE);
}

static void arbel_mpt_load(const uint8_t *buf, uint32_t *d)
{
    int i;

    for (i = 0; i < ARBEL_MPT_DWORDS; i++) {
        d[i] = ldl_be_p(buf + 4 * i);
    }
}

/* The checks the PRM asks of an entry handed over by SW2HW_MPT. */
static bool arbel_mpt_entry_ok(ArbelState *s, uint32_t index, const uint32_t *d)
{
    uint32_t flags = d[ARBEL_MPT_DW_FLAGS], page = d[ARBEL_MPT_DW_PAGE];
    uint32_t pd = d[ARBEL_MPT_DW_PD];
    bool region = flags & ARBEL_MPT_D0_RW;
    bool phys = flags & ARBEL_MPT_D0_PA;
    bool zb = pd & ARBEL_MPT_D3_ZB;
    uint32_t page_size = page & ARBEL_MPT_D1_PAGE_SIZE_MASK;
    uint64_t start = arbel_mpt_start(d);
    uint64_t len = arbel_mpt_len(d);
    uint64_t mtt_adr = arbel_mpt_mtt_adr(d);
    uint32_t mask = (1u << arbel_tpt_log_mpt(s)) - 1;

    if (flags & ~ARBEL_MPT_D0_ALLOWED) {
        return false;                   /* reserved bits of dword 0 */
    }
    if (page_size >= ARBEL_MPT_PAGE_SIZE_LIMIT ||
        (page & ARBEL_MPT_D1_RSVD2)) {
        return false;
    }
    if ((d[ARBEL_MPT_DW_KEY] & mask) != index) {
        return false;                   /* mem_key does not name the slot */
    }
    if ((pd & ARBEL_MPT_D3_RSVD) ||
        (pd & ARBEL_MPT_D3_PD_MASK) >= (1u << ARBEL_LOG_MAX_PD)) {
        return false;
    }
    if (d[ARBEL_MPT_DW_LKEY] || d[ARBEL_MPT_DW_WIN_CNT] ||
        d[ARBEL_MPT_DW_RSVD5] ||
        (d[ARBEL_MPT_DW_MTT_H] & ~ARBEL_MPT_D11_MTT_H_MASK) ||
        (d[ARBEL_MPT_DW_MTT_L] & ARBEL_MPT_D12_RSVD7) ||
        d[ARBEL_MPT_DW_RSVD8] || d[ARBEL_MPT_DW_RSVD8 + 1]) {
        return false;   /* lkey, win_cnt, reserved, mtt_adr alignment */
    }
    if (!region) {
        /* windows: bind enable is region-only */
        return !(flags & ARBEL_MPT_D0_EB);
    }
    if ((page & ARBEL_MPT_D1_TYPE) || (page >> ARBEL_MPT_D1_QPN_SHIFT)) {
        return false;                   /* type and qpn: windows only */
    }
    if (!zb && len > UINT64_MAX - start) {
        return false;                   /* wraps around */
    }
    if (!phys) {
        unsigned int shift = ARBEL_MPT_PAGE_SHIFT + page_size;
        uint64_t first = zb ? 0 : start & ((1ULL << shift) - 1);
        uint64_t npages;

        if (len > (1ULL << ARBEL_LOG_MAX_MR_SIZE)) {
            return false;
        }
        npages = (first + len + (1ULL << shift) - 1) >> shift;
        if (!arbel_mtt_range_ok(s, mtt_adr, npages * ARBEL_MTT_ENTRY_SIZE) ||
            mtt_adr < arbel_mtt_rsvd_end(s)) {
            return false;
        }
    }
    return true;
}

/* the first @len bytes of the entry into ICM; then @hw owns the slot */
static uint8_t arbel_mpt_store(ArbelState *s, uint32_t index,
                               const uint8_t *img, uint32_t len, bool hw)
{
    uint8_t st = arbel_icm_write(s, arbel_mpt_addr(s, index), img, len);

    if (!st) {
        arbel_mpt_set_hw(s, index, hw);
        /* the TPT cache: HW2SW_MPT drops the entry and the MTTs it used */
        arbel_tpt_cache_drop_mpt(s, index, !hw);
    }
    return st;
}

uint8_t arbel_cmd_sw2hw_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint32_t d[ARBEL_MPT_DWORDS];
    uint8_t cur[4];
    uint8_t st;
    int i;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_mpt_slot_check(s, index);
    if (st) {
        return st;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_MPT_ENTRY_SIZE);
    if (st) {
        return st;
    }
    st = arbel_icm_read(s, arbel_mpt_addr(s, index), cur, sizeof(cur));
    if (st) {
        return st;
    }
    if (arbel_mpt_hw_owned(s, index, ldl_be_p(cur))) {
        return ARBEL_ST_BAD_RES_STATE;
    }
    arbel_mpt_load(cmd->inbox, d);
    if (!arbel_mpt_entry_ok(s, index, d)) {
        return ARBEL_ST_BAD_PARAM;
    }

    /* hand over: status becomes hardware-owned (a free type-2 window: 3) */
    d[ARBEL_MPT_DW_FLAGS] &= ~(ARBEL_MPT_STATUS_MASK <<
                               ARBEL_MPT_D0_STATUS_SHIFT);
    if (!(d[ARBEL_MPT_DW_FLAGS] & ARBEL_MPT_D0_RW) &&
        (d[ARBEL_MPT_DW_PAGE] & ARBEL_MPT_D1_TYPE)) {
        d[ARBEL_MPT_DW_FLAGS] |= ARBEL_MPT_STATUS_FREE <<
                                 ARBEL_MPT_D0_STATUS_SHIFT;
    }
    for (i = 0; i < ARBEL_MPT_DWORDS; i++) {
        stl_be_p(img + 4 * i, d[i]);
    }
    return arbel_mpt_store(s, index, img, sizeof(img), true);
}

uint8_t arbel_cmd_hw2sw_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint32_t d0;
    uint8_t st;

    if (cmd->op_mod > 1) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_mpt_read_slot(s, index, img);
    if (st) {
        return st;
    }
    d0 = ldl_be_p(img);
    if (!arbel_mpt_hw_owned(s, index, d0)) {
        return ARBEL_ST_BAD_RES_STATE;
    }
    if ((d0 & ARBEL_MPT_D0_RW) && ldl_be_p(img + 4 * ARBEL_MPT_DW_WIN_CNT)) {
        return ARBEL_ST_REG_BOUND;            /* windows still bound */
    }
    if (cmd->op_mod == 0) {
        st = arbel_outbox_write(s, cmd, img, sizeof(img));
        if (st) {
            return st;
        }
    }
    d0 = (d0 & ~(ARBEL_MPT_STATUS_MASK << ARBEL_MPT_D0_STATUS_SHIFT)) |
         ((uint32_t)ARBEL_MPT_STATUS_SW << ARBEL_MPT_D0_STATUS_SHIFT);
    stl_be_p(img, d0);
    return arbel_mpt_store(s, index, img, 4, false);
}

uint8_t arbel_cmd_query_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_mpt_read_slot(s, index, img);
    if (st) {
        return st;
    }
    return arbel_outbox_write(s, cmd, img, sizeof(img));
}

uint8_t arbel_cmd_write_mtt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t n = cmd->in_mod, i, count;
    uint64_t target;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    if (n == 0 || n > ARBEL_MTT_MAX_WRITE) {
        return ARBEL_ST_BAD_PARAM;
    }
    st = arbel_inbox_read(s, cmd,
                          ARBEL_WRITE_MTT_HDR + n * ARBEL_MTT_ENTRY_SIZE);
    if (st) {
        return st;
    }
    target = ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_TARGET);
    if (ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_RSVD) ||
        (target & (ARBEL_MTT_ENTRY_SIZE - 1)) ||
        !arbel_mtt_range_ok(s, target, (uint64_t)n * ARBEL_MTT_ENTRY_SIZE)) {
        return ARBEL_ST_BAD_PARAM;
    }
    if (target < arbel_mtt_rsvd_end(s)) {
        return ARBEL_ST_BAD_RESOURCE;         /* firmware-reserved MTTs */
    }
    count = n;
    for (i = 0; i < n; i++) {
        uint64_t e = ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_HDR +
                              i * ARBEL_MTT_ENTRY_SIZE);

        if (!(e & ARBEL_MTT_PRESENT)) {
            /* only a trailing all-zero pad that rounds the count up */
            if (e == 0 && i == n - 1 && n % 2 == 0 && n > 1) {
                count = n - 1;
                break;
            }
            return ARBEL_ST_BAD_PARAM;
        }
        if (e & ARBEL_MTT_RSVD_BITS) {
            return ARBEL_ST_BAD_PARAM;
        }
    }
    /* the pad entry is not written: it may belong to someone else */
    arbel_tpt_cache_drop_mtt(s, target, count);
    return arbel_icm_write(s, target, cmd->inbox + ARBEL_WRITE_MTT_HDR,
                           (uint64_t)count * ARBEL_MTT_ENTRY_SIZE);
}

uint8_t arbel_cmd_read_mtt(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va = cmd->in_param;
    uint32_t n = cmd->in_mod;
    g_autofree uint8_t *buf = NULL;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    if (n == 0 || n > ARBEL_MTT_MAX_READ || (va & (ARBEL_MTT_ENTRY_SIZE - 1)) ||
        !arbel_mtt_range_ok(s, va, (uint64_t)n * ARBEL_MTT_ENTRY_SIZE)) {
        return ARBEL_ST_BAD_PARAM;
    }
    buf = g_malloc0(n * ARBEL_MTT_ENTRY_SIZE);
    st = arbel_icm_read(s, va, buf, n * ARBEL_MTT_ENTRY_SIZE);
    if (st) {
        return st;
    }
    return arbel_outbox_write(s, cmd, buf, n * ARBEL_MTT_ENTRY_SIZE);
}

uint8_t arbel_cmd_sync_tpt(ArbelState *s, ArbelCmd *cmd)
{
    arbel_tpt_sync(s);
    return ARBEL_ST_OK;
}
