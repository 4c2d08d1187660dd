/*
 * arbel-stub: the debug window's functions (arbel-dbgwin.c).  Its register
 * map is arbel-dbgwin.h, shared with the tests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_DEBUG_H
#define HW_ARBEL_DEBUG_H

#include "exec/hwaddr.h"
#include "arbel-state.h"

void arbel_dbg_reset(ArbelState *s);
uint64_t arbel_dbg_read(ArbelState *s, hwaddr off);
void arbel_dbg_write(ArbelState *s, hwaddr off, uint32_t val);

#endif
