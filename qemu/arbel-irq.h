/*
 * arbel-stub: interrupt raising (arbel-irq.c), a shared service.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_IRQ_H
#define HW_ARBEL_IRQ_H

#include "arbel-state.h"

/*
 * raise interrupt @intr (INTx pin, or 128 + MSI-X vector); false, with
 * @how saying why, when no source shows what the card does: MSI-X asked
 * for with MSI-X off (QUERY_ADAPTER's INTA pin raised instead), or a pin
 * that is not the INTA pin (raised, INTA# not asserted)
 */
bool arbel_irq_raise(ArbelState *s, uint8_t intr, char *how, size_t n);
void arbel_irq_clear_write(ArbelState *s, unsigned int word, uint32_t mask);
void arbel_irq_reset(ArbelState *s);
uint8_t arbel_irq_inta_pin(ArbelState *s);
/* false if @pin is no pin (ARBEL_INTX_PINS or more) */
bool arbel_irq_set_inta_pin(ArbelState *s, uint32_t pin);

#endif
