/*
 * arbel-stub: the command trace (arbel-trace.c), a leaf.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_TRACE_H
#define HW_ARBEL_TRACE_H

#include "arbel-state.h"

void arbel_trace_open(ArbelState *s, Error **errp);
void arbel_trace_close(ArbelState *s);
/* one command (@cmd NULL: "#N @note") */
void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note);
/* a free-form line "#N <text>" */
void arbel_trace_note(ArbelState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);
/* a rule no source states: "#N unconfirmed: <text>", no refusal */
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
    G_GNUC_PRINTF(2, 3);

#endif
