/*
 * arbel-stub: port state changes and the catastrophic-error buffer
 * (arbel-catas.c), an object module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_CATAS_H
#define HW_ARBEL_CATAS_H

#include "exec/hwaddr.h"
#include "arbel-state.h"

void arbel_catas_reset(ArbelState *s);
uint32_t arbel_catas_read(ArbelState *s, unsigned int dw);
uint64_t arbel_catas_dbg_read(ArbelState *s, hwaddr off);
bool arbel_catas_dbg_write(ArbelState *s, hwaddr off, uint32_t val);

#endif
