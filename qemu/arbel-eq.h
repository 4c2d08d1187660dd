/*
 * arbel-stub: event queues, event-mode completions and the EQ doorbells
 * (arbel-eq.c), an object module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_EQ_H
#define HW_ARBEL_EQ_H

#include "arbel-state.h"

void arbel_eq_reset(ArbelState *s);
uint8_t arbel_cmd_sw2hw_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_hw2sw_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_eq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_map_eq(ArbelState *s, ArbelCmd *cmd);
void arbel_eq_post(ArbelState *s, uint8_t type, const uint8_t *data24);
void arbel_eq_post_event(ArbelState *s, uint8_t type, uint8_t subtype,
                         const uint8_t *data24);
void arbel_eq_post_to(ArbelState *s, int eqn, uint8_t type, uint8_t subtype,
                      const uint8_t *data24);
void arbel_eq_cmd_done(ArbelState *s, ArbelCmd *cmd, uint8_t status);
void arbel_eq_arm_write(ArbelState *s, unsigned int word, uint32_t mask);
void arbel_eq_set_ci_write(ArbelState *s, unsigned int eqn, uint32_t ci);

#endif
