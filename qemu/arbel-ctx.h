/*
 * arbel-stub: the life cycle of an ICM object context (arbel-ctx.c), a
 * service of the object modules: SW2HW / HW2SW / QUERY of CQs and SRQs,
 * the context lookup of EQs and CQs.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_CTX_H
#define HW_ARBEL_CTX_H

#include "arbel-state.h"

void arbel_ctx_reset(ArbelState *s);
void arbel_ctx_fini(ArbelState *s);
uint8_t arbel_ctx_find(ArbelState *s, ArbelCtxKind kind, uint32_t num,
                       int want_hw, uint64_t *va);
bool arbel_ctx_read_hw(ArbelState *s, ArbelCtxKind kind, uint32_t num,
                       uint8_t *ctx, uint64_t *va, const char *what);
uint8_t arbel_cmd_ctx(ArbelState *s, ArbelCmd *cmd);

#endif
