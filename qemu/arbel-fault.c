/*
 * arbel-stub: fault injection, a leaf (calls nothing of the stub).
 *
 * Fail an opcode with a status (next time, or every Nth time), hold the go
 * bit, corrupt an outbox (XOR 0xff over a byte range).  Armed by device
 * properties at reset and through the debug window (arbel_fault_get/set).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-fault.h"

/* one-shot when every == 0, else every Nth matching event */
static bool arbel_fault_trigger(uint32_t *opcode, uint32_t every,
                                uint32_t *seen)
{
    (*seen)++;
    if (!every) {
        *opcode = 0;    /* disarm */
        return true;
    }
    return (*seen % every) == 0;
}

/**
 * arbel_fault_fail - whether to fail this command with an injected status
 * @s: the device
 * @opcode: the command's opcode
 * @status: out: the status to answer
 *
 * Return: true to fail it.
 */
bool arbel_fault_fail(ArbelState *s, uint16_t opcode, uint8_t *status)
{
    ArbelFaults *f = &s->faults;

    if (!f->fail_opcode || f->fail_opcode != opcode) {
        return false;
    }
    if (!arbel_fault_trigger(&f->fail_opcode, f->fail_every, &f->fail_seen)) {
        return false;
    }
    f->failed++;
    *status = f->fail_status;
    return true;
}

/**
 * arbel_fault_hold_ms - how long to hold the go bit for this command
 * @s: the device
 * @opcode: the command's opcode
 *
 * Return: milliseconds, 0 not at all, UINT32_MAX until released.
 */
uint32_t arbel_fault_hold_ms(ArbelState *s, uint16_t opcode)
{
    ArbelFaults *f = &s->faults;

    if (!f->hold_ms || (f->hold_opcode && f->hold_opcode != opcode)) {
        return 0;
    }
    return f->hold_ms;
}

/**
 * arbel_fault_corrupt - corrupt an outbox as fault injection says
 * @s: the device
 * @cmd: the command (its note tells the trace)
 * @buf: the outbox copy
 * @len: its length
 */
void arbel_fault_corrupt(ArbelState *s, ArbelCmd *cmd, uint8_t *buf,
                         uint32_t len)
{
    ArbelFaults *f = &s->faults;
    uint32_t i;

    if (!f->corrupt_opcode || f->corrupt_opcode != cmd->opcode) {
        return;
    }
    if (!arbel_fault_trigger(&f->corrupt_opcode, f->corrupt_every,
                             &f->corrupt_seen)) {
        return;
    }
    for (i = f->corrupt_offset;
         i < len && i - f->corrupt_offset < f->corrupt_len; i++) {
        buf[i] ^= 0xff;
    }
    f->corrupted++;
    cmd->note = "corrupted-outbox";
}

/**
 * arbel_fault_reset - arm the faults the device properties set
 * @s: the device
 */
void arbel_fault_reset(ArbelState *s)
{
    s->faults = s->props.faults;
}

/* where each knob lives, and whether writing it restarts its count */
static uint32_t *arbel_fault_knob(ArbelFaults *f, ArbelFaultKnob k,
                                  uint32_t **seen)
{
    *seen = NULL;
    switch (k) {
    case ARBEL_FI_FAIL_OPCODE:
        *seen = &f->fail_seen;
        return &f->fail_opcode;
    case ARBEL_FI_FAIL_STATUS:
        return &f->fail_status;
    case ARBEL_FI_FAIL_EVERY:
        *seen = &f->fail_seen;
        return &f->fail_every;
    case ARBEL_FI_FAILED:
        return &f->failed;
    case ARBEL_FI_HOLD_MS:
        return &f->hold_ms;
    case ARBEL_FI_HOLD_OPCODE:
        return &f->hold_opcode;
    case ARBEL_FI_CORRUPT_OPCODE:
        *seen = &f->corrupt_seen;
        return &f->corrupt_opcode;
    case ARBEL_FI_CORRUPT_OFFSET:
        return &f->corrupt_offset;
    case ARBEL_FI_CORRUPT_LEN:
        return &f->corrupt_len;
    case ARBEL_FI_CORRUPT_EVERY:
        *seen = &f->corrupt_seen;
        return &f->corrupt_every;
    case ARBEL_FI_CORRUPTED:
        return &f->corrupted;
    default:
        return NULL;
    }
}

/**
 * arbel_fault_get - the value of one fault injection knob
 * @s: the device
 * @k: the knob
 *
 * Return: its value, 0 for an unknown knob.
 */
uint32_t arbel_fault_get(ArbelState *s, ArbelFaultKnob k)
{
    uint32_t *seen;
    uint32_t *v = arbel_fault_knob(&s->faults, k, &seen);

    return v ? *v : 0;
}

/**
 * arbel_fault_set - set one fault injection knob
 * @s: the device
 * @k: the knob (the counters ARBEL_FI_FAILED and ARBEL_FI_CORRUPTED are
 *     read-only: false)
 * @val: its new value; an opcode or a period restarts the count
 *
 * Return: true if @k can be written.
 */
bool arbel_fault_set(ArbelState *s, ArbelFaultKnob k, uint32_t val)
{
    uint32_t *seen;
    uint32_t *v = arbel_fault_knob(&s->faults, k, &seen);

    if (!v || k == ARBEL_FI_FAILED || k == ARBEL_FI_CORRUPTED) {
        return false;
    }
    *v = val;
    if (seen) {
        *seen = 0;
    }
    return true;
}

/**
 * arbel_fault_clear - every fault off; the counters of injected faults stay
 * @s: the device
 */
void arbel_fault_clear(ArbelState *s)
{
    ArbelFaults *f = &s->faults;
    uint32_t failed = f->failed, corrupted = f->corrupted;

    memset(f, 0, sizeof(*f));
    f->failed = failed;
    f->corrupted = corrupted;
}
