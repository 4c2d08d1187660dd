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
 * intr - 128 when intr >= 128 and the guest enabled MSI-X, else the INTx
 * line, which stays asserted until every raised pin is written to the
 * clear-interrupt register.  Sources: mthca's EQ code [L-eq], see
 * Documentation/arbel-stub.rst "Event queues and interrupts".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-irq.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-eq.h"

/* EQ context fields (byte offsets, bits) */
#define EQC_FLAGS               0x00
#define EQC_START               0x04
#define EQC_LOGSIZE             0x0c    /* log size in bits 28:24 */
#define EQC_INTR                0x17
#define EQC_PD                  0x18
#define EQC_LKEY                0x1c
#define EQC_CI                  0x28
#define EQC_PI                  0x2c
#define EQC_STATUS_SHIFT        28
#define EQC_STATUS_OVERFLOW     0x9
#define EQC_STATUS_WRITE_FAIL   0xa
#define EQC_OWNER_SHIFT         24
#define EQC_OWNER_HW            1

/* EQE fields */
#define EQE_TYPE                0x01
#define EQE_SUBTYPE             0x03
#define EQE_DATA                0x04
#define EQE_OWNER               0x1f

static uint64_t arbel_eqc_addr(ArbelState *s, uint32_t eqn)
{
    return arbel_icm_table(s, ARBEL_TBL_EQC)->base +
           (uint64_t)eqn * ARBEL_EQC_SIZE;
}

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
static uint8_t arbel_eq_slot_check(ArbelState *s, uint32_t eqn)
{
    if (eqn >= (1u << arbel_icm_table(s, ARBEL_TBL_EQC)->log_num)) {
        return ST_BAD_INDEX;
    }
    if (!arbel_icm_mapped(s, arbel_eqc_addr(s, eqn), ARBEL_EQC_SIZE)) {
        return ST_BAD_RESOURCE;
    }
    return ST_OK;
}

/* the context as the firmware keeps it, into @ctx */
static void arbel_eq_ctx_fill(ArbelState *s, uint32_t eqn, uint8_t *ctx)
{
    ArbelEq *eq = &s->eqs.eq[eqn];
    uint32_t flags = ldl_be_p(ctx + EQC_FLAGS);

    flags &= ~((0xfu << EQC_OWNER_SHIFT) | (0xfu << EQC_STATUS_SHIFT));
    flags |= (uint32_t)eq->status << EQC_STATUS_SHIFT;
    if (eq->hw) {
        flags |= EQC_OWNER_HW << EQC_OWNER_SHIFT;
    }
    stl_be_p(ctx + EQC_FLAGS, flags);
    stl_be_p(ctx + EQC_CI, eq->cons);
    stl_be_p(ctx + EQC_PI, eq->prod);
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
    uint8_t st;

    if (cmd->op_mod) {
        return ST_BAD_OP;
    }
    st = arbel_eq_slot_check(s, eqn);
    if (st) {
        return st;
    }
    eq = &s->eqs.eq[eqn];
    if (eq->hw) {
        return ST_BAD_RES_STATE;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_EQC_SIZE);
    if (st) {
        return st;
    }
    memcpy(ctx, cmd->inbox, sizeof(ctx));
    eq->start = ldq_be_p(ctx + EQC_START);
    eq->log_size = (ldl_be_p(ctx + EQC_LOGSIZE) >> 24) & 0x1f;
    eq->intr = ctx[EQC_INTR];
    eq->lkey = ldl_be_p(ctx + EQC_LKEY);
    eq->cons = ldl_be_p(ctx + EQC_CI);
    eq->prod = ldl_be_p(ctx + EQC_PI);
    /* state field 11:8: 1 = armed (mthca sets 1 | the Arbel bit 8) */
    eq->armed = ((ldl_be_p(ctx + EQC_FLAGS) >> 8) & 0x3) == 1;
    eq->posted = 0;
    eq->status = 0;
    eq->hw = true;
    arbel_eq_ctx_fill(s, eqn, ctx);
    st = arbel_icm_write(s, arbel_eqc_addr(s, eqn), ctx, sizeof(ctx));
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
    uint8_t st;

    if (cmd->op_mod > 1) {
        return ST_BAD_OP;
    }
    st = arbel_eq_slot_check(s, eqn);
    if (st) {
        return st;
    }
    if (!s->eqs.eq[eqn].hw) {
        return ST_BAD_RES_STATE;
    }
    st = arbel_icm_read(s, arbel_eqc_addr(s, eqn), ctx, sizeof(ctx));
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
    return arbel_icm_write(s, arbel_eqc_addr(s, eqn), ctx, sizeof(ctx));
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
    uint8_t st;

    st = arbel_eq_slot_check(s, eqn);
    if (st) {
        return st;
    }
    st = arbel_icm_read(s, arbel_eqc_addr(s, eqn), ctx, sizeof(ctx));
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
        return ST_BAD_INDEX;
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
    return ST_OK;
}

/* raise EQ @eqn's interrupt and disarm it; @how: what was raised */
static void arbel_eq_fire(ArbelState *s, uint32_t eqn, char *how, size_t n)
{
    ArbelEq *eq = &s->eqs.eq[eqn];

    eq->armed = false;
    if (!arbel_irq_raise(s, eq->intr, how, n)) {
        arbel_unconfirmed(s, "EQ %u interrupt 0x%x with MSI-X off, "
                          "INTx pin 0 used", eqn, (unsigned int)eq->intr);
    }
}

/* an error status (bits 31:28 of the context's first dword) into ICM */
static void arbel_eq_set_status(ArbelState *s, int eqn, uint32_t status)
{
    uint8_t f[4];

    s->eqs.eq[eqn].status = status;
    if (!arbel_icm_read(s, arbel_eqc_addr(s, eqn), f, sizeof(f))) {
        stl_be_p(f, (ldl_be_p(f) & ~(0xfu << EQC_STATUS_SHIFT)) |
                 (status << EQC_STATUS_SHIFT));
        arbel_icm_write(s, arbel_eqc_addr(s, eqn), f, sizeof(f));
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
        arbel_trace_note(s, "EVENT-LOST type=0x%02x eq=%d", type, eqn);
        return;
    }
    eq = &s->eqs.eq[eqn];
    if (eq->prod - eq->cons >= (1u << eq->log_size)) {
        /* every entry holds an EQE software has not consumed */
        arbel_eq_set_status(s, eqn, EQC_STATUS_OVERFLOW);
        arbel_trace_note(s, "EQ-OVERFLOW eq=%d type=0x%02x", eqn, type);
        return;
    }
    eqe[EQE_TYPE] = type;
    eqe[EQE_SUBTYPE] = subtype;
    memcpy(eqe + EQE_DATA, data24, 24);
    eqe[EQE_OWNER] = 0;     /* software owns it now */

    req.key = eq->lkey;
    req.access = ARBEL_XL_ACC_LOCAL_WRITE;
    req.va = eq->start +
             (uint64_t)(eq->prod & ((1u << eq->log_size) - 1)) * ARBEL_EQE_SIZE;
    req.len = ARBEL_EQE_SIZE;
    req.to_region = true;
    r = arbel_xlate_rw(s, &req, eqe);
    if (r != ARBEL_XL_OK) {
        /* the EQ stops: status WRITE_FAIL */
        arbel_eq_set_status(s, eqn, EQC_STATUS_WRITE_FAIL);
        arbel_trace_note(s, "EQ-WRITE-FAIL eq=%d result=%u", eqn, r);
        return;
    }
    eq->prod++;
    eq->posted++;
    if (eq->armed) {
        arbel_eq_fire(s, eqn, how, sizeof(how));
    }
    arbel_trace_note(s, "EQE eq=%d type=0x%02x irq=%s", eqn, type, how);
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

    /* EQE 0x06 token, 0x0f status, 0x10 out_param (data starts at 0x04) */
    stw_be_p(d + 0x02, cmd->token);
    d[0x0b] = status;
    if (cmd->out_imm && status == ST_OK) {
        stq_be_p(d + 0x0c, cmd->imm);
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
            arbel_trace_note(s, "EQ-ARM eq=%u pending=%u irq=%s", eqn,
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
