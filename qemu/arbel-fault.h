/*
 * arbel-stub: fault injection (arbel-fault.c), a leaf.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_FAULT_H
#define HW_ARBEL_FAULT_H

#include "arbel-state.h"

/* The knobs the debug window reads and writes */
typedef enum ArbelFaultKnob {
    ARBEL_FI_FAIL_OPCODE, ARBEL_FI_FAIL_STATUS, ARBEL_FI_FAIL_EVERY,
    ARBEL_FI_FAILED, ARBEL_FI_HOLD_MS, ARBEL_FI_HOLD_OPCODE,
    ARBEL_FI_CORRUPT_OPCODE, ARBEL_FI_CORRUPT_OFFSET, ARBEL_FI_CORRUPT_LEN,
    ARBEL_FI_CORRUPT_EVERY, ARBEL_FI_CORRUPTED,
} ArbelFaultKnob;

void arbel_fault_reset(ArbelState *s);
uint32_t arbel_fault_get(ArbelState *s, ArbelFaultKnob k);
bool arbel_fault_set(ArbelState *s, ArbelFaultKnob k, uint32_t val);
void arbel_fault_clear(ArbelState *s);
bool arbel_fault_fail(ArbelState *s, uint16_t opcode, uint8_t *status);
uint32_t arbel_fault_hold_ms(ArbelState *s, uint16_t opcode);
void arbel_fault_corrupt(ArbelState *s, ArbelCmd *cmd, uint8_t *buf,
                         uint32_t len);

#endif
