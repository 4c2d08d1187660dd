/*
 * arbel-stub: MAD_IFC, the subnet management agent (arbel-mad.c), an
 * object module.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_MAD_H
#define HW_ARBEL_MAD_H

#include "arbel-state.h"

uint8_t arbel_cmd_mad_ifc(ArbelState *s, ArbelCmd *cmd);
uint16_t arbel_mad_attr(ArbelState *s, unsigned int port, uint16_t attr,
                        uint32_t mod, uint8_t *d);

#endif
