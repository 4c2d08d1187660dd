/*
 * arbel-stub: event queues and event-mode command completion (the
 * interrupts themselves are raised by arbel-irq.c).
 *
 * An EQ's context lives in ICM at the EQC base + eqn * 0x40 (INIT_HCA gives
 * the base and the log of the table size).  The firmware keeps its own copy of
 * what it needs (ArbelEq) and writes the context back on HW2SW_EQ.  EQEs
 * are written into the EQ buffer through the buffer's MPT/MTT, the way the
 * HCA reaches any registered memory (arbel_xlate_rw), with the owner bit
 * (byte 0x1f, bit 7) cleared: the entry now belongs to software.
 *
 * An EQE on an armed EQ raises its interrupt and disarms it: MSI-X vector
 * intr - 128 when intr >= 128 and the guest enabled MSI-X, else an
 * interrupt pin; INTA# only from QUERY_ADAPTER's INTA pin, asserted until
 * that pin is written to the clear-interrupt register (arbel-irq.c).  Sources: mthca's EQ code [L-eq], see
 * Documentation/arbel-stub.rst "Event queues and interrupts".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-dma.h"
#include "arbel-irq.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-ctx.h"
#include "arbel-eq.h"


/**
 * arbel_eq_reset - forget every EQ, event mapping and raised interrupt
 * @s: the device
 */
void arbel_eq_reset(ArbelState *s)
{
    memset(s->eqs.eq, 0, sizeof(s->eqs.eq));
    memset(s->eqs.ev_eq, -1, sizeof(s->eqs.ev_eq));
    arbel_irq_reset(s);
}

/* eqn inside the EQC table INIT_HCA sized, its context page mapped */
static uint8_t arbel_eq_find(ArbelState *s, uint32_t eqn, uint64_t *va)
{
    return arbel_ctx_find(s, ARBEL_CTX_EQ, eqn, -1, va);
}

/* the context as the firmware keeps it, into @ctx */
static void arbel_eq_ctx_fill(ArbelState *s, uint32_t eqn, uint8_t *ctx)
{
    ArbelEq *eq = &s->eqs.eq[eqn];
    uint32_t flags = ldl_be_p(ctx + ARBEL_EQC_FLAGS);

    flags &= ~((ARBEL_EQC_OWNER_MASK << ARBEL_EQC_OWNER_SHIFT) |
               (ARBEL_EQC_STATUS_MASK << ARBEL_EQC_STATUS_SHIFT));
    flags |= (uint32_t)eq->status << ARBEL_EQC_STATUS_SHIFT;
    if (eq->hw) {
        flags |= ARBEL_EQC_OWNER_HW << ARBEL_EQC_OWNER_SHIFT;
    }
    stl_be_p(ctx + ARBEL_EQC_FLAGS, flags);
    stl_be_p(ctx + ARBEL_EQC_CI, eq->cons);
    stl_be_p(ctx + ARBEL_EQC_PI, eq->prod);
}

/**
 * arbel_cmd_sw2hw_eq - SW2HW_EQ: hand EQ in_mod to the hardware
 * @s: the device
 * @cmd: the command (inbox: the 0x40-byte EQ context)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_sw2hw_eq(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t eqn = cmd->in_mod;
    ArbelEq *eq;
    uint8_t ctx[ARBEL_EQC_SIZE];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_eq_find(s, eqn, &va);
    if (st) {
        return st;
    }
    eq = &s->eqs.eq[eqn];
    if (eq->hw) {
        return ARBEL_ST_BAD_RES_STATE;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_EQC_SIZE);
    if (st) {
        return st;
    }
    memcpy(ctx, cmd->inbox, sizeof(ctx));
    eq->start = ldq_be_p(ctx + ARBEL_EQC_START);
    eq->log_size = ldl_be_p(ctx + ARBEL_EQC_LOGSIZE) >>
                   ARBEL_EQC_LOGSIZE_SHIFT & ARBEL_EQC_LOGSIZE_MASK;
    eq->intr = ctx[ARBEL_EQC_INTR];
    eq->lkey = ldl_be_p(ctx + ARBEL_EQC_LKEY);
    eq->cons = ldl_be_p(ctx + ARBEL_EQC_CI);
    eq->prod = ldl_be_p(ctx + ARBEL_EQC_PI);
    /* state field 11:8: 1 = armed (mthca sets 1 | the Arbel bit 8) */
    eq->armed = (ldl_be_p(ctx + ARBEL_EQC_FLAGS) >> ARBEL_EQC_STATE_SHIFT &
                 ARBEL_EQC_STATE_MASK) == ARBEL_EQC_ARMED;
    eq->posted = 0;
    eq->status = 0;
    eq->hw = true;
    arbel_eq_ctx_fill(s, eqn, ctx);
    st = arbel_icm_write(s, va, ctx, sizeof(ctx));
    if (st) {
        eq->hw = false;
    }
    return st;
}

/**
 * arbel_cmd_hw2sw_eq - HW2SW_EQ: take EQ in_mod back from the hardware
 * @s: the device
 * @cmd: the command (op_mod 0: the context goes to the outbox)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_hw2sw_eq(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t eqn = cmd->in_mod;
    uint8_t ctx[ARBEL_EQC_SIZE];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod > 1) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_eq_find(s, eqn, &va);
    if (st) {
        return st;
    }
    if (!s->eqs.eq[eqn].hw) {
        return ARBEL_ST_BAD_RES_STATE;
    }
    st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    if (st) {
        return st;
    }
    s->eqs.eq[eqn].hw = false;
    s->eqs.eq[eqn].armed = false;
    arbel_eq_ctx_fill(s, eqn, ctx);
    if (cmd->op_mod == 0) {
        st = arbel_outbox_write(s, cmd, ctx, sizeof(ctx));
        if (st) {
            s->eqs.eq[eqn].hw = true;
            return st;
        }
    }
    return arbel_icm_write(s, va, ctx, sizeof(ctx));
}

/**
 * arbel_cmd_query_eq - QUERY_EQ: the context of EQ in_mod to the outbox
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_query_eq(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t eqn = cmd->in_mod;
    uint8_t ctx[ARBEL_EQC_SIZE];
    uint64_t va;
    uint8_t st;

    st = arbel_eq_find(s, eqn, &va);
    if (st) {
        return st;
    }
    st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    if (st) {
        return st;
    }
    arbel_eq_ctx_fill(s, eqn, ctx);
    return arbel_outbox_write(s, cmd, ctx, sizeof(ctx));
}

/**
 * arbel_cmd_map_eq - MAP_EQ: route the event types of in_param to an EQ
 * @s: the device
 * @cmd: the command (in_mod: eqn, bit 31 set to unmap)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_map_eq(ArbelState *s, ArbelCmd *cmd)
{
    bool unmap = cmd->in_mod & BIT(31);
    uint32_t eqn = cmd->in_mod & ~BIT(31);
    int i;

    if (eqn >= (1u << arbel_icm_table(s, ARBEL_TBL_EQC)->log_num)) {
        return ARBEL_ST_BAD_INDEX;
    }
    for (i = 0; i < ARRAY_SIZE(s->eqs.ev_eq); i++) {
        if (!(cmd->in_param & BIT_ULL(i))) {
            continue;
        }
        if (!unmap) {
            s->eqs.ev_eq[i] = eqn;
        } else if (s->eqs.ev_eq[i] == (int8_t)eqn) {
            s->eqs.ev_eq[i] = -1;
        }
    }
    return ARBEL_ST_OK;
}

/* raise EQ @eqn's interrupt and disarm it; @how: what was raised */
static void arbel_eq_fire(ArbelState *s, uint32_t eqn, char *how, size_t n)
{
    ArbelEq *eq = &s->eqs.eq[eqn];

    eq->armed = false;
    if (!arbel_irq_raise(s, eq->intr, how, n)) {
        arbel_unconfirmed(s, "EQ %u interrupt 0x%x raised as %s: MSI-X "
                          "off, or not QUERY_ADAPTER's INTA pin %u (INTA# "
                          "asserted only by that pin)", eqn,
                          (unsigned int)eq->intr, how,
                          (unsigned int)arbel_irq_inta_pin(s));
    }
}

/* an error status (bits 31:28 of the context's first dword) into ICM */
static void arbel_eq_set_status(ArbelState *s, int eqn, uint32_t status)
{
    uint8_t f[4];
    uint64_t va;

    s->eqs.eq[eqn].status = status;
    if (arbel_eq_find(s, eqn, &va)) {
        return;
    }
    if (!arbel_icm_read(s, va, f, sizeof(f))) {
        uint32_t v = ldl_be_p(f);

        v &= ~(ARBEL_EQC_STATUS_MASK << ARBEL_EQC_STATUS_SHIFT);
        stl_be_p(f, v | status << ARBEL_EQC_STATUS_SHIFT);
        arbel_icm_write(s, va, f, sizeof(f));
    }
}

/**
 * arbel_eq_post - write an EQE of subtype 0 (arbel_eq_post_event)
 * @s: the device
 * @type: the event type
 * @data24: the 24 bytes of event data (EQE bytes 0x04..0x1b)
 */
void arbel_eq_post(ArbelState *s, uint8_t type, const uint8_t *data24)
{
    arbel_eq_post_event(s, type, 0, data24);
}

/**
 * arbel_eq_post_event - write an EQE on the EQ that MAP_EQ routed @type to
 * @s: the device
 * @type: the event type (EQE byte 1)
 * @subtype: its subtype (EQE byte 3)
 * @data24: the 24 bytes of event data (EQE bytes 0x04..0x1b)
 *
 * Without a mapped, hardware-owned EQ the event is lost, as on the device.
 */
void arbel_eq_post_event(ArbelState *s, uint8_t type, uint8_t subtype,
                         const uint8_t *data24)
{
    int eqn = type < ARRAY_SIZE(s->eqs.ev_eq) ? s->eqs.ev_eq[type] : -1;

    arbel_eq_post_to(s, eqn, type, subtype, data24);
}

/**
 * arbel_eq_post_to - write an EQE on EQ @eqn
 * @s: the device
 * @eqn: the EQ (a completion event goes to its CQ's comp_eqn, not through
 *       MAP_EQ); < 0 or past the table: the event is lost
 * @type: the event type (EQE byte 1)
 * @subtype: its subtype (EQE byte 3)
 * @data24: the 24 bytes of event data (EQE bytes 0x04..0x1b)
 *
 * Without a hardware-owned EQ @eqn the event is lost, as on the device.
 */
void arbel_eq_post_to(ArbelState *s, int eqn, uint8_t type, uint8_t subtype,
                      const uint8_t *data24)
{
    uint8_t eqe[ARBEL_EQE_SIZE] = { 0 };
    ArbelXlReq req = { 0 };
    char how[16] = "none";
    ArbelEq *eq;
    uint32_t r;

    if (eqn < 0 || eqn >= ARBEL_MAX_EQS || !s->eqs.eq[eqn].hw ||
        s->eqs.eq[eqn].status) {
        trace_arbel_eq_event_lost(arbel_trace_seq(s), type, eqn);
        return;
    }
    eq = &s->eqs.eq[eqn];
    if (eq->prod - eq->cons >= (1u << eq->log_size)) {
        /* every entry holds an EQE software has not consumed */
        uint8_t d[24] = { 0 };

        arbel_eq_set_status(s, eqn, ARBEL_EQC_STATUS_OVERFLOW);
        trace_arbel_eq_overflow(arbel_trace_seq(s), eqn, type);
        /* the EQ overrun event (mthca's type 0x0f), on the EQ it maps to */
        stl_be_p(d, eqn);
        arbel_eq_post_event(s, ARBEL_EV_EQ_OVERFLOW, 0, d);
        return;
    }
    eqe[ARBEL_EQE_TYPE] = type;
    eqe[ARBEL_EQE_SUBTYPE] = subtype;
    memcpy(eqe + ARBEL_EQE_DATA, data24, 24);
    eqe[ARBEL_EQE_OWNER] = 0;     /* software owns it now */

    req.key = eq->lkey;
    req.access = ARBEL_XL_ACC_LOCAL_WRITE;
    req.va = eq->start +
             (uint64_t)(eq->prod & ((1u << eq->log_size) - 1)) * ARBEL_EQE_SIZE;
    req.len = ARBEL_EQE_SIZE;
    req.to_region = true;
    r = arbel_xlate_rw(s, &req, eqe);
    if (r != ARBEL_XL_OK) {
        /* the EQ stops: status WRITE_FAIL */
        arbel_eq_set_status(s, eqn, ARBEL_EQC_STATUS_WRITE_FAIL);
        trace_arbel_eq_write_fail(arbel_trace_seq(s), eqn, r);
        return;
    }
    eq->prod++;
    eq->posted++;
    if (eq->armed) {
        arbel_eq_fire(s, eqn, how, sizeof(how));
    }
    trace_arbel_eqe(arbel_trace_seq(s), eqn, type, how);
}

/**
 * arbel_eq_cmd_done - complete an event-mode command with an EQE of type 0x0a
 * @s: the device
 * @cmd: the command (token, immediate out_param)
 * @status: its status
 */
void arbel_eq_cmd_done(ArbelState *s, ArbelCmd *cmd, uint8_t status)
{
    uint8_t d[24] = { 0 };

    stw_be_p(d + ARBEL_EQE_CMD_TOKEN, cmd->token);
    d[ARBEL_EQE_CMD_STATUS] = status;
    if (cmd->out_imm && status == ARBEL_ST_OK) {
        stq_be_p(d + ARBEL_EQE_CMD_OUT_PARAM, cmd->imm);
    }
    arbel_eq_post(s, ARBEL_EV_CMD, d);
}

/**
 * arbel_eq_arm_write - the EQ arm doorbell
 * @s: the device
 * @word: 0 for EQs 63..32, 1 for EQs 31..0
 * @mask: the EQs to arm, bit n for EQ n (mod 32)
 *
 * An EQ armed while it holds EQEs software has not consumed fires at once.
 */
void arbel_eq_arm_write(ArbelState *s, unsigned int word, uint32_t mask)
{
    unsigned int i;

    for (i = 0; i < 32; i++) {
        uint32_t eqn = i + (word ? 0 : 32);
        ArbelEq *eq = &s->eqs.eq[eqn];

        if (!(mask & BIT(i))) {
            continue;
        }
        if (!eq->hw) {
            arbel_unconfirmed(s, "arm of EQ %u not in hardware "
                              "(mask 0x%x) ignored", eqn, mask);
            continue;
        }
        eq->armed = true;
        if (eq->prod != eq->cons) {
            char how[16];

            arbel_eq_fire(s, eqn, how, sizeof(how));
            trace_arbel_eq_arm(arbel_trace_seq(s), eqn,
                               eq->prod - eq->cons, how);
        }
    }
}

/**
 * arbel_eq_set_ci_write - the set-CI doorbell of one EQ
 * @s: the device
 * @eqn: the EQ
 * @ci: the new consumer index
 */
void arbel_eq_set_ci_write(ArbelState *s, unsigned int eqn, uint32_t ci)
{
    ArbelEq *eq = &s->eqs.eq[eqn];

    if (!eq->hw) {
        arbel_unconfirmed(s, "set-CI of EQ %u not in hardware "
                          "(ci 0x%x) ignored", eqn, ci);
        return;
    }
    if (ci - eq->cons > eq->prod - eq->cons) {
        arbel_unconfirmed(s, "set-CI of EQ %u past the producer "
                          "(ci 0x%x)", eqn, ci);
    }
    eq->cons = ci;
}
