/*
 * arbel-stub: command dispatch (arbel-cmd.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_CMD_H
#define HW_ARBEL_CMD_H

#include "arbel-state.h"

uint8_t arbel_cmd_execute(ArbelState *s, ArbelCmd *cmd);
uint32_t arbel_cmd_count(ArbelState *s);

#endif
