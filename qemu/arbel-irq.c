/*
 * arbel-stub: interrupts.
 *
 * An interrupt number below 64 is an interrupt pin; 128 and above is MSI-X
 * vector intr - 128, when the guest enabled MSI-X, else QUERY_ADAPTER's
 * INTA pin (not confirmed by a source; the caller notes it).  Only the
 * INTA pin (QUERY_ADAPTER byte 0x10, which mthca puts in the EQ context's
 * intr and clears through the clear-interrupt register in INTx mode)
 * asserts INTA#, which stays asserted until that pin is written to the
 * clear-interrupt register.  A pulled card raises nothing.  Sources:
 * Documentation/arbel-stub.rst "Event queues and interrupts".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "arbel-state.h"
#include "arbel-irq.h"
#include "arbel-life.h"

/**
 * arbel_irq_raise - raise one interrupt
 * @s: the device
 * @intr: interrupt pin (< 64) or 128 + MSI-X vector
 * @how: out: what was raised ("msix:N", "intx:N", "pin:N", "none"), for
 *       the trace and the caller's note
 * @n: size of @how
 *
 * Return: false when no source shows what the card does: an MSI-X vector
 * asked for while MSI-X is off, or a pin that is not the INTA pin.
 */
bool arbel_irq_raise(ArbelState *s, uint8_t intr, char *how, size_t n)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    unsigned int pin = intr < ARBEL_INTX_PINS ? intr : s->irq.inta_pin;

    if (arbel_life_pulled(s)) {
        snprintf(how, n, "none");
        return true;
    }
    arbel_life_count(s, ARBEL_LIFE_IRQS);
    if (intr >= ARBEL_EQ_INTR_MSIX && msix_enabled(pdev)) {
        msix_notify(pdev, intr - ARBEL_EQ_INTR_MSIX);
        snprintf(how, n, "msix:%u", intr - ARBEL_EQ_INTR_MSIX);
        return true;
    }
    s->irq.int_pending |= BIT_ULL(pin);
    if (pin != s->irq.inta_pin) {
        snprintf(how, n, "pin:%u", pin);
        return false;
    }
    pci_set_irq(pdev, 1);
    snprintf(how, n, "intx:%u", pin);
    return intr < ARBEL_INTX_PINS;
}

/**
 * arbel_irq_clear_write - the clear-interrupt register
 * @s: the device
 * @word: 0 for pins 63..32, 1 for pins 31..0
 * @mask: the pins to clear
 *
 * INTA# is deasserted once the INTA pin is cleared.
 */
void arbel_irq_clear_write(ArbelState *s, unsigned int word, uint32_t mask)
{
    uint64_t bits = word ? mask : (uint64_t)mask << 32;

    if (!s->irq.int_pending) {
        return;
    }
    s->irq.int_pending &= ~bits;
    if (!(s->irq.int_pending & BIT_ULL(s->irq.inta_pin))) {
        pci_set_irq(PCI_DEVICE(s), 0);
    }
}

/**
 * arbel_irq_reset - drop every raised INTx pin
 * @s: the device
 */
void arbel_irq_reset(ArbelState *s)
{
    if (s->irq.int_pending) {
        s->irq.int_pending = 0;
        pci_set_irq(PCI_DEVICE(s), 0);
    }
}

/**
 * arbel_irq_inta_pin - the pin wired to INTA# (QUERY_ADAPTER byte 0x10)
 * @s: the device
 *
 * Return: the pin, below ARBEL_INTX_PINS.
 */
uint8_t arbel_irq_inta_pin(ArbelState *s)
{
    return s->irq.inta_pin;
}

/**
 * arbel_irq_set_inta_pin - wire another pin to INTA# (tests)
 * @s: the device
 * @pin: the pin
 *
 * Return: false, and nothing changed, if @pin is ARBEL_INTX_PINS or more.
 */
bool arbel_irq_set_inta_pin(ArbelState *s, uint32_t pin)
{
    if (pin >= ARBEL_INTX_PINS) {
        return false;
    }
    s->irq.inta_pin = pin;
    return true;
}
