/*
 * arbel-stub: MPT and MTT commands (arbel-mpt.c), an object module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_MPT_H
#define HW_ARBEL_MPT_H

#include "arbel-state.h"

uint8_t arbel_cmd_sw2hw_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_hw2sw_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_mpt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_write_mtt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_read_mtt(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_sync_tpt(ArbelState *s, ArbelCmd *cmd);

#endif
