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
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-mpt.h"

/* an op_mod the sources do not give: noted, the command runs as usual */
static void arbel_op_mod_note(ArbelState *s, ArbelCmd *cmd, uint8_t max)
{
    if (cmd->op_mod > max) {
        arbel_unconfirmed(s, "%s op_mod %u (sources give 0..%u)", cmd->name,
                          cmd->op_mod, max);
    }
}

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

/* the first @len bytes of the entry into ICM; then @hw owns the slot */
static uint8_t arbel_mpt_store(ArbelState *s, uint32_t index,
                               const uint8_t *img, uint32_t len, bool hw)
{
    uint8_t st = arbel_icm_write(s, arbel_mpt_addr(s, index), img, len);

    if (!st) {
        arbel_mpt_set_hw(s, index, hw);
        arbel_mpt_fw_image(s, index, hw ? img : NULL);
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

    arbel_op_mod_note(s, cmd, 0);     /* mthca_SW2HW_MPT: 0 */
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
    if (!arbel_mpt_entry_check(s, index, d, false)) {
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

    /* mthca_HW2SW_MPT: 1 = no outbox, 0 = the entry; others as 0 */
    arbel_op_mod_note(s, cmd, 1);
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
    if (cmd->op_mod != 1) {
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

    arbel_op_mod_note(s, cmd, 0);     /* no source calls it; as HW2SW 0 */
    st = arbel_mpt_read_slot(s, index, img);
    if (st) {
        return st;
    }
    return arbel_outbox_write(s, cmd, img, sizeof(img));
}

/*
 * WRITE_MTT refuses what a source states: more than 510 entries (mthca's
 * 4 KiB mailbox, arbel-prm-notes.md section 6), a target not 8-byte
 * aligned (an MTT entry is 8 bytes), outside the MTT area (0x03), in the
 * reserved MTTs (QUERY_DEV_LIM 0x20) or unmapped ICM (0x05).  Unconfirmed,
 * the entries are written as given: in_mod 0, the reserved qword or bits
 * 11:1 of an entry not 0 (PRM reserved fields), an entry without the
 * present bit (mthca writes present entries only; no source says the
 * firmware refuses others -- the translation engine refuses a non-present
 * entry when it reads one).
 */
uint8_t arbel_cmd_write_mtt(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t n = cmd->in_mod, i, count;
    bool absent = false, rsvd = false;
    uint64_t target;
    uint8_t st;

    arbel_op_mod_note(s, cmd, 0);     /* mthca_WRITE_MTT: 0 */
    if (n > ARBEL_MTT_MAX_WRITE) {
        return ARBEL_ST_BAD_PARAM;
    }
    st = arbel_inbox_read(s, cmd,
                          ARBEL_WRITE_MTT_HDR + n * ARBEL_MTT_ENTRY_SIZE);
    if (st) {
        return st;
    }
    target = ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_TARGET);
    if ((target & (ARBEL_MTT_ENTRY_SIZE - 1)) ||
        !arbel_mtt_range_ok(s, target, (uint64_t)n * ARBEL_MTT_ENTRY_SIZE)) {
        return ARBEL_ST_BAD_PARAM;
    }
    if (target < arbel_mtt_rsvd_end(s)) {
        return ARBEL_ST_BAD_RESOURCE;         /* firmware-reserved MTTs */
    }
    if (n == 0) {
        arbel_unconfirmed(s, "WRITE_MTT of 0 entries at 0x%" PRIx64, target);
        return ARBEL_ST_OK;
    }
    if (ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_RSVD)) {
        arbel_unconfirmed(s, "WRITE_MTT 0x%" PRIx64 ": reserved qword not 0",
                          target);
    }
    count = n;
    for (i = 0; i < n; i++) {
        uint64_t e = ldq_be_p(cmd->inbox + ARBEL_WRITE_MTT_HDR +
                              i * ARBEL_MTT_ENTRY_SIZE);

        /* a trailing all-zero pad that rounds the count up is not written */
        if (e == 0 && i == n - 1 && n % 2 == 0 && n > 1) {
            count = n - 1;
            break;
        }
        absent |= !(e & ARBEL_MTT_PRESENT);
        rsvd |= !!(e & ARBEL_MTT_RSVD_BITS);
    }
    if (absent) {
        arbel_unconfirmed(s, "WRITE_MTT 0x%" PRIx64 ": an entry without "
                          "the present bit", target);
    }
    if (rsvd) {
        arbel_unconfirmed(s, "WRITE_MTT 0x%" PRIx64 ": reserved bits 11:1 "
                          "of an entry set", target);
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

    arbel_op_mod_note(s, cmd, 0);     /* the stub's own format: 0 */
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
