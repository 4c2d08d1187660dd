/*
 * arbel-stub: completion queues as firmware objects (no data path).
 *
 * A CQ's context (0x40 bytes) lives in ICM at the CQC base + cqn * 0x40
 * (INIT_HCA gives the base and the log2 count).  SW2HW_CQ writes the
 * mailbox there and hands the CQ to the hardware; HW2SW_CQ takes it back
 * and returns the context in its outbox; QUERY_CQ reads it; RESIZE_CQ
 * (op_mod 1) puts a new log size and lkey into it.  The firmware keeps
 * only which CQs it owns (ArbelCqs).  Sources: mthca_cq.c
 * (mthca_init_cq, mthca_free_cq, mthca_resize_cq), mthca_cmd.c, see
 * Documentation/arbel-stub.rst "Queue objects".
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

/* CQ context fields (byte offsets) */
#define CQC_LOGSIZE             0x0c    /* log size in bits 28:24 */
#define CQC_LKEY                0x1c
#define CQC_CQN                 0x30
#define CQC_LOGSIZE_SHIFT       24
#define CQC_LOGSIZE_MASK        0x1f

/* RESIZE_CQ inbox */
#define RESIZE_LOGSIZE          0x0c    /* a byte-wide log size, be32 */
#define RESIZE_LKEY             0x1c

/**
 * arbel_cq_reset - forget every CQ
 * @s: the device
 */
void arbel_cq_reset(ArbelState *s)
{
    if (!s->cqs.hw) {
        s->cqs.hw = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    g_hash_table_remove_all(s->cqs.hw);
}

/**
 * arbel_cq_fini - free what the CQ module holds
 * @s: the device
 */
void arbel_cq_fini(ArbelState *s)
{
    if (s->cqs.hw) {
        g_hash_table_destroy(s->cqs.hw);
        s->cqs.hw = NULL;
    }
}

static bool arbel_cq_hw(ArbelState *s, uint32_t cqn)
{
    return g_hash_table_contains(s->cqs.hw, GUINT_TO_POINTER(cqn));
}

/* the CQ's slot; with @want_hw, also its ownership */
static uint8_t arbel_cq_slot(ArbelState *s, ArbelCmd *cmd, int want_hw,
                             uint64_t *va)
{
    uint8_t st = arbel_icm_slot(s, ARBEL_TBL_CQC, cmd->in_mod,
                                ARBEL_CQC_SIZE, va);

    if (st) {
        return st;
    }
    if (want_hw >= 0 && arbel_cq_hw(s, cmd->in_mod) != want_hw) {
        return ST_BAD_RES_STATE;
    }
    return ST_OK;
}

/**
 * arbel_cmd_sw2hw_cq - SW2HW_CQ: hand CQ in_mod to the hardware
 * @s: the device
 * @cmd: the command (inbox: the 0x40-byte CQ context)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_sw2hw_cq(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_cq_slot(s, cmd, false, &va);
    if (st) {
        return st;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_CQC_SIZE);
    if (st) {
        return st;
    }
    if (ldl_be_p(cmd->inbox + CQC_CQN) != cmd->in_mod) {
        arbel_unconfirmed(s, "SW2HW_CQ %u: context cqn 0x%x", cmd->in_mod,
                          ldl_be_p(cmd->inbox + CQC_CQN));
    }
    st = arbel_icm_write(s, va, cmd->inbox, ARBEL_CQC_SIZE);
    if (!st) {
        g_hash_table_add(s->cqs.hw, GUINT_TO_POINTER(cmd->in_mod));
    }
    return st;
}

/* The context of CQ in_mod, hardware-owned, to the outbox. */
static uint8_t arbel_cq_ctx_out(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t ctx[ARBEL_CQC_SIZE];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_cq_slot(s, cmd, true, &va);
    if (!st) {
        st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    }
    return st ? st : arbel_outbox_write(s, cmd, ctx, sizeof(ctx));
}

/**
 * arbel_cmd_hw2sw_cq - HW2SW_CQ: take CQ in_mod back, context to the outbox
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_hw2sw_cq(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t st = arbel_cq_ctx_out(s, cmd);

    if (!st) {
        g_hash_table_remove(s->cqs.hw, GUINT_TO_POINTER(cmd->in_mod));
    }
    return st;
}

/**
 * arbel_cmd_query_cq - QUERY_CQ: the context of CQ in_mod to the outbox
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_query_cq(ArbelState *s, ArbelCmd *cmd)
{
    return arbel_cq_ctx_out(s, cmd);
}

/**
 * arbel_cmd_resize_cq - RESIZE_CQ: a new buffer (log size, lkey) for a CQ
 * @s: the device
 * @cmd: the command (op_mod 1, inbox: log size at 0x0c, lkey at 0x1c)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_resize_cq(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t ctx[ARBEL_CQC_SIZE];
    uint32_t logsize, v;
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod != 1) {
        return ST_BAD_OP;
    }
    st = arbel_cq_slot(s, cmd, true, &va);
    if (st) {
        return st;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_CQC_SIZE);
    if (st) {
        return st;
    }
    logsize = ldl_be_p(cmd->inbox + RESIZE_LOGSIZE);
    if (logsize > CQC_LOGSIZE_MASK) {
        return ST_BAD_PARAM;
    }
    st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    if (st) {
        return st;
    }
    v = ldl_be_p(ctx + CQC_LOGSIZE);
    v &= ~(CQC_LOGSIZE_MASK << CQC_LOGSIZE_SHIFT);
    stl_be_p(ctx + CQC_LOGSIZE, v | logsize << CQC_LOGSIZE_SHIFT);
    stl_be_p(ctx + CQC_LKEY, ldl_be_p(cmd->inbox + RESIZE_LKEY));
    return arbel_icm_write(s, va, ctx, sizeof(ctx));
}
