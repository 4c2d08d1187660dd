/*
 * arbel-stub: the firmware object module: state machine and bring-up
 * commands (arbel-fw.c), the memory the firmware is given (arbel-fwmem.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_FW_H
#define HW_ARBEL_FW_H

#include "arbel-state.h"

/* arbel-fw.c */
void arbel_fw_reset(ArbelState *s);
void arbel_fw_fini(ArbelState *s);
ArbelFwState arbel_fw_state(ArbelState *s);
uint64_t arbel_fw_fa_pages(ArbelState *s);
uint64_t arbel_fw_aux_pages(ArbelState *s);
uint64_t arbel_fw_icm_size(ArbelState *s);
uint8_t arbel_cmd_query_fw(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_enable_lam(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_disable_lam(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_run_fw(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_dev_lim(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_adapter(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_init_hca(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_close_hca(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_nop(ArbelState *s, ArbelCmd *cmd);

/* arbel-fwmem.c: FA, aux ICM, ICM size and ICM mappings */
void arbel_fwmem_init(ArbelState *s);
void arbel_fwmem_fini(ArbelState *s);
void arbel_fwmem_reset(ArbelState *s);
uint8_t arbel_cmd_map_fa(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_fa(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_set_icm_size(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_icm_aux(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_icm_aux(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_icm(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_unmap_icm(ArbelState *s, ArbelCmd *cmd);

#endif
