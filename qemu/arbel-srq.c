/*
 * arbel-stub: shared receive queues as firmware objects (no data path).
 *
 * An SRQ's context lives in ICM at the SRQC base + srqn * 0x20, the entry
 * size QUERY_DEV_LIM reports (INIT_HCA gives the base and the log2 count).
 * SW2HW_SRQ writes the first 0x20 bytes of the mailbox there (mthca's
 * Arbel context has nothing but reserved fields and the WQE counter past
 * them); HW2SW_SRQ and QUERY_SRQ return it; ARM_SRQ (in_param: the limit)
 * sets its limit watermark, be16 at 0x1c.  Sources: mthca's srq code
 * (mthca_alloc_srq, mthca_free_srq, mthca_modify_srq, mthca_query_srq),
 * mthca's cmd code; Documentation/arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-objects.h"

#define SRQC_LIMIT              0x1c    /* limit watermark, be16 */
#define SRQ_MAX_LIMIT           0xffff

/**
 * arbel_srq_reset - forget every SRQ
 * @s: the device
 */
void arbel_srq_reset(ArbelState *s)
{
    if (!s->srqs.hw) {
        s->srqs.hw = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    g_hash_table_remove_all(s->srqs.hw);
}

/**
 * arbel_srq_fini - free what the SRQ module holds
 * @s: the device
 */
void arbel_srq_fini(ArbelState *s)
{
    if (s->srqs.hw) {
        g_hash_table_destroy(s->srqs.hw);
        s->srqs.hw = NULL;
    }
}

/* SRQ in_mod's slot; @want_hw (0 or 1): the ownership it must have */
static uint8_t arbel_srq_slot(ArbelState *s, ArbelCmd *cmd, bool want_hw,
                              uint64_t *va)
{
    uint8_t st = arbel_icm_slot(s, ARBEL_TBL_SRQC, cmd->in_mod,
                                ARBEL_SRQC_SIZE, va);

    if (st) {
        return st;
    }
    if (g_hash_table_contains(s->srqs.hw,
                              GUINT_TO_POINTER(cmd->in_mod)) != want_hw) {
        return ST_BAD_RES_STATE;
    }
    return ST_OK;
}

/**
 * arbel_cmd_sw2hw_srq - SW2HW_SRQ: hand SRQ in_mod to the hardware
 * @s: the device
 * @cmd: the command (inbox: the SRQ context)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_sw2hw_srq(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_srq_slot(s, cmd, false, &va);
    if (!st) {
        st = arbel_inbox_read(s, cmd, ARBEL_SRQC_SIZE);
    }
    if (!st) {
        st = arbel_icm_write(s, va, cmd->inbox, ARBEL_SRQC_SIZE);
    }
    if (!st) {
        g_hash_table_add(s->srqs.hw, GUINT_TO_POINTER(cmd->in_mod));
    }
    return st;
}

/* the context of SRQ in_mod to the outbox; @release: HW2SW_SRQ */
static uint8_t arbel_srq_out(ArbelState *s, ArbelCmd *cmd, bool release)
{
    uint8_t ctx[ARBEL_SRQC_SIZE];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_srq_slot(s, cmd, true, &va);
    if (!st) {
        st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    }
    if (!st) {
        st = arbel_outbox_write(s, cmd, ctx, sizeof(ctx));
    }
    if (!st && release) {
        g_hash_table_remove(s->srqs.hw, GUINT_TO_POINTER(cmd->in_mod));
    }
    return st;
}

/**
 * arbel_cmd_hw2sw_srq - HW2SW_SRQ: take SRQ in_mod back from the hardware
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_hw2sw_srq(ArbelState *s, ArbelCmd *cmd)
{
    return arbel_srq_out(s, cmd, true);
}

/**
 * arbel_cmd_query_srq - QUERY_SRQ: the context of SRQ in_mod to the outbox
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_query_srq(ArbelState *s, ArbelCmd *cmd)
{
    return arbel_srq_out(s, cmd, false);
}

/**
 * arbel_cmd_arm_srq - ARM_SRQ: set the limit watermark of SRQ in_mod
 * @s: the device
 * @cmd: the command (in_param: the limit)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_arm_srq(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t lim[2];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_srq_slot(s, cmd, true, &va);
    if (st) {
        return st;
    }
    if (cmd->in_param > SRQ_MAX_LIMIT) {
        return ST_BAD_PARAM;
    }
    stw_be_p(lim, cmd->in_param);
    return arbel_icm_write(s, va + SRQC_LIMIT, lim, sizeof(lim));
}
