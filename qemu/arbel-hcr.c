/*
 * arbel-stub: the HCR (host command register) and its completion model.
 *
 * Writing dword 6 with the go bit posts a command: go stays set (status 0)
 * while it runs, then the dispatch (arbel-cmd.c) executes it.  Fault
 * injection may hold the go bit for some milliseconds, or until the debug
 * window releases it (arbel_hcr_release).
 *
 * Polling mode: go clears with the status in bits 31:24 of dword 6 and an
 * immediate result in dwords 3..4.  Event mode (the e bit): go clears as
 * soon as the command is taken and its status, token and immediate result
 * arrive as a command-completion EQE (type 0x0a) on the EQ MAP_EQ routed
 * event 10 to (arbel_eq_cmd_done); with no such EQ the completion is lost
 * and the driver times out.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "arbel-state.h"
#include "arbel-fault.h"
#include "arbel-eq.h"
#include "arbel-cmd.h"
#include "arbel-hcr.h"

static void arbel_hcr_complete(ArbelState *s)
{
    ArbelHcr *h = &s->hcr;
    ArbelCmd *cmd = &h->pending;
    uint8_t status;

    timer_del(h->hold_timer);
    status = arbel_cmd_execute(s, cmd);
    if (cmd->out_imm && status == ARBEL_ST_OK && !cmd->e) {
        h->reg[ARBEL_HCR_OUT_PARAM_H] = cmd->imm >> 32;
        h->reg[ARBEL_HCR_OUT_PARAM_L] = (uint32_t)cmd->imm;
    }
    if (cmd->e) {
        h->reg[ARBEL_HCR_CTRL] &= ~(ARBEL_HCR_GO_BIT | (ARBEL_HCR_STATUS_MASK <<
                                                    ARBEL_HCR_STATUS_SHIFT));
        arbel_eq_cmd_done(s, cmd, status);
    } else {
        uint32_t ctrl = h->reg[ARBEL_HCR_CTRL];

        ctrl &= ~(ARBEL_HCR_GO_BIT |
                  (ARBEL_HCR_STATUS_MASK << ARBEL_HCR_STATUS_SHIFT));
        ctrl |= (uint32_t)status << ARBEL_HCR_STATUS_SHIFT;
        h->reg[ARBEL_HCR_CTRL] = ctrl;
    }
    h->busy = false;
}

static void arbel_hold_expired(void *opaque)
{
    ArbelState *s = opaque;

    if (s->hcr.busy) {
        arbel_hcr_complete(s);
    }
}

/**
 * arbel_hcr_release - fault injection stopped holding the go bit
 * @s: the device
 *
 * A command held until release completes now.
 */
void arbel_hcr_release(ArbelState *s)
{
    if (s->hcr.busy && !timer_pending(s->hcr.hold_timer)) {
        arbel_hcr_complete(s);
    }
}

static void arbel_hcr_post(ArbelState *s, uint32_t val)
{
    ArbelHcr *h = &s->hcr;
    ArbelCmd *cmd = &h->pending;
    uint32_t hold;

    memset(cmd, 0, sizeof(*cmd));
    cmd->in_param = (uint64_t)h->reg[ARBEL_HCR_IN_PARAM_H] << 32 |
                    h->reg[ARBEL_HCR_IN_PARAM_L];
    cmd->in_mod = h->reg[ARBEL_HCR_IN_MOD];
    cmd->out_param = (uint64_t)h->reg[ARBEL_HCR_OUT_PARAM_H] << 32 |
                     h->reg[ARBEL_HCR_OUT_PARAM_L];
    cmd->token = h->reg[ARBEL_HCR_TOKEN] >> ARBEL_HCR_TOKEN_SHIFT;
    cmd->opcode = val & ARBEL_HCR_OPCODE_MASK;
    cmd->op_mod = (val >> ARBEL_HCR_OPMOD_SHIFT) & ARBEL_HCR_OPMOD_MASK;
    cmd->e = !!(val & ARBEL_HCR_E_BIT);

    /* go stays set (status 0) while the command runs */
    h->reg[ARBEL_HCR_CTRL] = val & ~(ARBEL_HCR_STATUS_MASK <<
                                     ARBEL_HCR_STATUS_SHIFT);
    h->busy = true;

    hold = arbel_fault_hold_ms(s, cmd->opcode);
    if (hold == UINT32_MAX) {
        return;     /* held until released through the debug window */
    }
    if (hold) {
        timer_mod(h->hold_timer,
                  qemu_clock_get_ms(QEMU_CLOCK_VIRTUAL) + hold);
        return;
    }
    arbel_hcr_complete(s);
}

/**
 * arbel_hcr_read - read an HCR dword
 * @s: the device
 * @dw: the dword, 0 .. 6
 *
 * Return: its value.
 */
uint32_t arbel_hcr_read(ArbelState *s, unsigned int dw)
{
    return s->hcr.reg[dw];
}

/**
 * arbel_hcr_write - write an HCR dword; dword 6 with go posts a command
 * @s: the device
 * @dw: the dword, 0 .. 6
 * @val: the value
 */
void arbel_hcr_write(ArbelState *s, unsigned int dw, uint32_t val)
{
    if (s->hcr.busy) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "arbel-stub: HCR dword %u written while go is set "
                      "(0x%08x ignored)\n", dw, val);
        return;
    }
    if (dw == 6 && (val & ARBEL_HCR_GO_BIT)) {
        arbel_hcr_post(s, val);
        return;
    }
    s->hcr.reg[dw] = val;
}

/**
 * arbel_hcr_init - create the hold timer
 * @s: the device
 */
void arbel_hcr_init(ArbelState *s)
{
    s->hcr.hold_timer = timer_new_ms(QEMU_CLOCK_VIRTUAL, arbel_hold_expired,
                                     s);
}

/**
 * arbel_hcr_fini - free the hold timer
 * @s: the device
 */
void arbel_hcr_fini(ArbelState *s)
{
    timer_free(s->hcr.hold_timer);
    s->hcr.hold_timer = NULL;
}

/**
 * arbel_hcr_reset - drop a pending command, clear the HCR
 * @s: the device
 */
void arbel_hcr_reset(ArbelState *s)
{
    timer_del(s->hcr.hold_timer);
    s->hcr.busy = false;
    memset(s->hcr.reg, 0, sizeof(s->hcr.reg));
}
