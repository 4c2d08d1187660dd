/*
 * arbel-stub: the command trace (arbel-trace.c), a leaf.  The events
 * themselves are QEMU trace events (trace-events, "trace.h").
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_TRACE_H
#define HW_ARBEL_TRACE_H

#include "arbel-state.h"

/* the next event's sequence number ("#N"), 1 for the device's first */
uint64_t arbel_trace_seq(ArbelState *s);
/* the events of one command: arbel_cmd and its details */
void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note);
/* a rule no source states: "#N unconfirmed: <text>", no refusal */
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

#endif
