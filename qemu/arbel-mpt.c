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

#define MPT_WORDS               16
#define MTT_MAX_WRITE           510     /* (4096 - 16) / 8 */
#define MTT_MAX_READ            512
#define MTT_PRESENT             1ULL
#define MTT_RSVD_BITS           0xffeULL
#define MPT_D0_ALLOWED          (0xf000ff00u | MPT_D0_MIO)
#define MPT_D3_RSVD             ((1u << 24) | (7u << 29))

/* index in range, not reserved, its ICM mapped */
static uint8_t arbel_mpt_slot_check(ArbelState *s, uint32_t index)
{
    if (index >= (1u << arbel_tpt_log_mpt(s))) {
        return ST_BAD_INDEX;
    }
    if (index < (1u << ARBEL_LOG_RSVD_MPT)) {
        return ST_BAD_RESOURCE;
    }
    if (!arbel_icm_mapped(s, arbel_mpt_addr(s, index), ARBEL_MPT_ENTRY_SIZE)) {
        return ST_BAD_RESOURCE;
    }
    return ST_OK;
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

    for (i = 0; i < MPT_WORDS; i++) {
        d[i] = ldl_be_p(buf + 4 * i);
    }
}

/* The checks the PRM asks of an entry handed over by SW2HW_MPT. */
static bool arbel_mpt_entry_ok(ArbelState *s, uint32_t index, const uint32_t *d)
{
    bool region = d[0] & MPT_D0_RW;
    bool phys = d[0] & MPT_D0_PA;
    bool zb = d[3] & MPT_D3_ZB;
    uint32_t page_size = d[1] & MPT_D1_PAGE_SIZE_MASK;
    uint64_t start = ((uint64_t)d[4] << 32) | d[5];
    uint64_t len = ((uint64_t)d[6] << 32) | d[7];
    uint64_t mtt_adr = ((uint64_t)(d[11] & 0x3f) << 32) | d[12];
    uint32_t mask = (1u << arbel_tpt_log_mpt(s)) - 1;

    if (d[0] & ~MPT_D0_ALLOWED) {
        return false;                   /* reserved bits of dword 0 */
    }
    if (page_size >= 20 || (d[1] & 0x60)) {
        return false;
    }
    if ((d[2] & mask) != index) {
        return false;                   /* mem_key does not name the slot */
    }
    if ((d[3] & MPT_D3_RSVD) ||
        (d[3] & MPT_D3_PD_MASK) >= (1u << ARBEL_LOG_MAX_PD)) {
        return false;
    }
    if (d[8] || d[9] || d[10] || (d[11] & ~0x3fu) || (d[12] & 7) ||
        d[14] || d[15]) {
        return false;   /* lkey, win_cnt, reserved, mtt_adr alignment */
    }
    if (!region) {
        return !(d[0] & MPT_D0_EB); /* windows: bind enable is region-only */
    }
    if ((d[1] & MPT_D1_TYPE) || (d[1] >> 8)) {
        return false;                   /* type and qpn: windows only */
    }
    if (!zb && len > UINT64_MAX - start) {
        return false;                   /* wraps around */
    }
    if (!phys) {
        unsigned int shift = 12 + page_size;
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

uint8_t arbel_cmd_sw2hw_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint32_t d[MPT_WORDS];
    uint8_t cur[4];
    uint8_t st;
    int i;

    if (cmd->op_mod) {
        return ST_BAD_OP;
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
        return ST_BAD_RES_STATE;
    }
    arbel_mpt_load(cmd->inbox, d);
    if (!arbel_mpt_entry_ok(s, index, d)) {
        return ST_BAD_PARAM;
    }

    /* hand over: status becomes hardware-owned (a free type-2 window: 3) */
    d[0] &= ~(0xfu << MPT_D0_STATUS_SHIFT);
    if (!(d[0] & MPT_D0_RW) && (d[1] & MPT_D1_TYPE)) {
        d[0] |= MPT_STATUS_FREE << MPT_D0_STATUS_SHIFT;
    }
    {
        uint8_t img[ARBEL_MPT_ENTRY_SIZE];

        for (i = 0; i < MPT_WORDS; i++) {
            stl_be_p(img + 4 * i, d[i]);
        }
        st = arbel_icm_write(s, arbel_mpt_addr(s, index), img, sizeof(img));
        if (st) {
            return st;
        }
    }
    arbel_mpt_set_hw(s, index, true);
    return ST_OK;
}

uint8_t arbel_cmd_hw2sw_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint32_t d0;
    uint8_t st;

    if (cmd->op_mod > 1) {
        return ST_BAD_OP;
    }
    st = arbel_mpt_read_slot(s, index, img);
    if (st) {
        return st;
    }
    d0 = ldl_be_p(img);
    if (!arbel_mpt_hw_owned(s, index, d0)) {
        return ST_BAD_RES_STATE;
    }
    if ((d0 & MPT_D0_RW) && ldl_be_p(img + 9 * 4)) {
        return ST_REG_BOUND;            /* windows still bound */
    }
    if (cmd->op_mod == 0) {
        st = arbel_outbox_write(s, cmd, img, sizeof(img));
        if (st) {
            return st;
        }
    }
    d0 = (d0 & ~(0xfu << MPT_D0_STATUS_SHIFT)) |
         ((uint32_t)MPT_STATUS_SW << MPT_D0_STATUS_SHIFT);
    stl_be_p(img, d0);
    st = arbel_icm_write(s, arbel_mpt_addr(s, index), img, 4);
    if (st) {
        return st;
    }
    arbel_mpt_set_hw(s, index, false);
    return ST_OK;
}

uint8_t arbel_cmd_query_mpt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t index = cmd->in_mod;
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
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
        return ST_BAD_OP;
    }
    if (n == 0 || n > MTT_MAX_WRITE) {
        return ST_BAD_PARAM;
    }
    st = arbel_inbox_read(s, cmd, 16 + n * ARBEL_MTT_ENTRY_SIZE);
    if (st) {
        return st;
    }
    target = ldq_be_p(cmd->inbox);
    if (ldq_be_p(cmd->inbox + 8) || (target & 7) ||
        !arbel_mtt_range_ok(s, target, (uint64_t)n * ARBEL_MTT_ENTRY_SIZE)) {
        return ST_BAD_PARAM;
    }
    if (target < arbel_mtt_rsvd_end(s)) {
        return ST_BAD_RESOURCE;         /* firmware-reserved MTTs */
    }
    count = n;
    for (i = 0; i < n; i++) {
        uint64_t e = ldq_be_p(cmd->inbox + 16 + i * 8);

        if (!(e & MTT_PRESENT)) {
            /* only a trailing all-zero pad that rounds the count up */
            if (e == 0 && i == n - 1 && n % 2 == 0 && n > 1) {
                count = n - 1;
                break;
            }
            return ST_BAD_PARAM;
        }
        if (e & MTT_RSVD_BITS) {
            return ST_BAD_PARAM;
        }
    }
    /* the pad entry is not written: it may belong to someone else */
    return arbel_icm_write(s, target, cmd->inbox + 16,
                           (uint64_t)count * ARBEL_MTT_ENTRY_SIZE);
}

uint8_t arbel_cmd_read_mtt(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va = cmd->in_param;
    uint32_t n = cmd->in_mod;
    g_autofree uint8_t *buf = NULL;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    if (n == 0 || n > MTT_MAX_READ || (va & 7) ||
        !arbel_mtt_range_ok(s, va, (uint64_t)n * ARBEL_MTT_ENTRY_SIZE)) {
        return ST_BAD_PARAM;
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
    return ST_OK;
}
