/*
 * arbel-stub: completion queues: their contexts as firmware objects, the
 * CQEs the send path writes and the arm doorbell.
 *
 * A CQ's context (0x40 bytes) lives in ICM at the CQC base + cqn * 0x40
 * (INIT_HCA gives the base and the log2 count).  SW2HW_CQ writes the
 * mailbox there and hands the CQ to the hardware; HW2SW_CQ takes it back
 * and returns the context in its outbox; QUERY_CQ reads it; RESIZE_CQ
 * (op_mod 1) puts a new log size and lkey into it.  The firmware keeps
 * only which CQs it owns (ArbelCqs); the producer index and the arm state
 * of a CQ live in its context.  A CQE (32 bytes) goes to start + 32 *
 * (producer mod 2^log size) through the buffer's lkey; on an armed CQ it
 * posts a completion event (type 0x00, the cqn) on the CQ's comp_eqn and
 * disarms it.  The arm doorbell (UAR offset 0x20) carries the command and
 * cqn, then the consumer index: CQEs past it fire the event at once.
 * Sources: mthca's cq code (mthca_init_cq, mthca_free_cq, mthca_resize_cq,
 * struct mthca_cqe, mthca_arbel_arm_cq), mthca's cmd code, see
 * Documentation/arbel-stub.rst "Queue objects" and "Send completions".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-eq.h"
#include "arbel-objects.h"

/* CQ context fields (byte offsets) */
#define CQC_FLAGS               0x00    /* arm state in bits 11:8 */
#define CQC_START               0x04
#define CQC_LOGSIZE             0x0c    /* log size in bits 28:24 */
#define CQC_COMP_EQN            0x14
#define CQC_LKEY                0x1c
#define CQC_PI                  0x2c
#define CQC_CQN                 0x30
#define CQC_STATE_SHIFT         8
#define CQC_STATE_MASK          0xfu
#define CQC_DISARMED            0x0
#define CQC_ARMED               0x1
#define CQC_ARMED_SOL           0x4

/* the arm doorbell's first dword */
#define CQ_DB_CMD_SHIFT         24
#define CQ_DB_CMD_MASK          0x7u
#define CQ_DB_REQ_NOT_SOL       1
#define CQ_DB_REQ_NOT           2

/* event types: a completion, a CQ error (the CQE could not be written) */
#define EV_COMP                 0x00
#define EV_CQ_ERROR             0x04
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

static unsigned int arbel_cqc_state(const uint8_t *ctx)
{
    return ldl_be_p(ctx + CQC_FLAGS) >> CQC_STATE_SHIFT & CQC_STATE_MASK;
}

static void arbel_cqc_set_state(uint8_t *ctx, unsigned int st)
{
    uint32_t f = ldl_be_p(ctx + CQC_FLAGS);

    f &= ~(CQC_STATE_MASK << CQC_STATE_SHIFT);
    stl_be_p(ctx + CQC_FLAGS, f | st << CQC_STATE_SHIFT);
}

/* the completion event of CQ @cqn on its comp_eqn; the CQ disarms */
static void arbel_cq_event(ArbelState *s, uint32_t cqn, uint8_t *ctx)
{
    uint8_t data[24] = { 0 };

    stl_be_p(data, cqn);
    arbel_cqc_set_state(ctx, CQC_DISARMED);
    arbel_eq_post_to(s, ldl_be_p(ctx + CQC_COMP_EQN) & 0xff, EV_COMP, 0,
                     data);
}

/* the context of hardware-owned CQ @cqn, from ICM (false: none) */
static bool arbel_cq_ctx(ArbelState *s, uint32_t cqn, uint8_t *ctx,
                         uint64_t *va, const char *what)
{
    if (!arbel_cq_hw(s, cqn) ||
        arbel_icm_slot(s, ARBEL_TBL_CQC, cqn, ARBEL_CQC_SIZE, va) ||
        arbel_icm_read(s, *va, ctx, ARBEL_CQC_SIZE)) {
        arbel_unconfirmed(s, "%s for CQ 0x%x, not in hardware: dropped",
                          what, cqn);
        return false;
    }
    return true;
}

/**
 * arbel_cq_complete - write a CQE on CQ @cqn, with its completion event
 * @s: the device
 * @cqn: the CQ
 * @cqe: the 32-byte CQE (the owner byte is cleared here: software owns it)
 * @solicited: the CQE fires a CQ armed for solicited completions only
 *
 * A CQE that cannot be written (the buffer's key refuses it) posts a CQ
 * error event (type 0x04, the cqn) instead.
 */
void arbel_cq_complete(ArbelState *s, uint32_t cqn, const uint8_t *cqe,
                       bool solicited)
{
    uint8_t ctx[ARBEL_CQC_SIZE], e[ARBEL_CQE_SIZE];
    ArbelXlReq req = { 0 };
    uint32_t pi, log, r;
    unsigned int armed;
    uint64_t va;

    if (!arbel_cq_ctx(s, cqn, ctx, &va, "CQE")) {
        return;
    }
    memcpy(e, cqe, sizeof(e));
    e[ARBEL_CQE_OWNER] = 0;
    pi = ldl_be_p(ctx + CQC_PI);
    log = ldl_be_p(ctx + CQC_LOGSIZE) >> CQC_LOGSIZE_SHIFT & CQC_LOGSIZE_MASK;
    req.key = ldl_be_p(ctx + CQC_LKEY);
    req.access = ARBEL_XL_ACC_LOCAL_WRITE;
    req.va = ldq_be_p(ctx + CQC_START) +
             (uint64_t)(pi & ((1u << log) - 1)) * ARBEL_CQE_SIZE;
    req.len = ARBEL_CQE_SIZE;
    req.to_region = true;
    r = arbel_xlate_rw(s, &req, e);
    if (r != ARBEL_XL_OK) {
        uint8_t data[24] = { 0 };

        arbel_trace_note(s, "CQ-WRITE-FAIL cq=0x%x result=%u", cqn, r);
        stl_be_p(data, cqn);
        arbel_eq_post_event(s, EV_CQ_ERROR, 0, data);
        return;
    }
    arbel_trace_note(s, "CQE cq=0x%x index=%u qp=0x%x opcode=0x%02x", cqn,
                     pi, ldl_be_p(cqe + ARBEL_CQE_MY_QPN) & ARBEL_QPN_MASK,
                     cqe[ARBEL_CQE_OPCODE]);
    stl_be_p(ctx + CQC_PI, pi + 1);
    armed = arbel_cqc_state(ctx);
    if (armed == CQC_ARMED || (armed == CQC_ARMED_SOL && solicited)) {
        arbel_cq_event(s, cqn, ctx);
    }
    arbel_icm_write(s, va, ctx, sizeof(ctx));
}

/**
 * arbel_cq_doorbell - the CQ doorbell (UAR offset 0x20): arm a CQ
 * @s: the device
 * @cmd_cqn: the first dword: sequence 29:28, command 26:24, cqn 23:0
 * @ci: the second: the consumer index
 *
 * Command 2 arms for the next completion, 1 for the next solicited one.
 * If the CQ holds CQEs past @ci, the event fires at once: mthca's
 * mthca_arbel_arm_cq sends its consumer index and never asks the core to
 * poll again for completions it might have missed.
 */
void arbel_cq_doorbell(ArbelState *s, uint32_t cmd_cqn, uint32_t ci)
{
    uint32_t cqn = cmd_cqn & ARBEL_QPN_MASK;
    unsigned int c = cmd_cqn >> CQ_DB_CMD_SHIFT & CQ_DB_CMD_MASK;
    uint8_t ctx[ARBEL_CQC_SIZE];
    uint64_t va;

    if (c != CQ_DB_REQ_NOT && c != CQ_DB_REQ_NOT_SOL) {
        arbel_unconfirmed(s, "CQ doorbell command %u for CQ 0x%x ignored",
                          c, cqn);
        return;
    }
    if (!arbel_cq_ctx(s, cqn, ctx, &va, "CQ arm")) {
        return;
    }
    if (ldl_be_p(ctx + CQC_PI) != ci) {
        arbel_cq_event(s, cqn, ctx);
    } else {
        arbel_cqc_set_state(ctx, c == CQ_DB_REQ_NOT ? CQC_ARMED :
                            CQC_ARMED_SOL);
    }
    arbel_icm_write(s, va, ctx, sizeof(ctx));
}
