/*
 * arbel-stub: the HCR and its completion model (arbel-hcr.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_HCR_H
#define HW_ARBEL_HCR_H

#include "arbel-state.h"

void arbel_hcr_init(ArbelState *s);
void arbel_hcr_fini(ArbelState *s);
void arbel_hcr_reset(ArbelState *s);
uint32_t arbel_hcr_read(ArbelState *s, unsigned int dw);
void arbel_hcr_write(ArbelState *s, unsigned int dw, uint32_t val);
void arbel_hcr_release(ArbelState *s);

#endif
