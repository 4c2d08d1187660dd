/*
 * arbel-stub: interrupts.
 *
 * An interrupt number below 128 is an INTx pin: the line stays asserted
 * until every raised pin is written to the clear-interrupt register.  128
 * and above is MSI-X vector intr - 128, when the guest enabled MSI-X; else
 * INTx pin 0 (not confirmed by a source; the caller notes it).  Sources:
 * Documentation/arbel-stub.rst "Event queues and interrupts".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "hw/pci/msix.h"
#include "arbel-state.h"
#include "arbel-irq.h"

/**
 * arbel_irq_raise - raise one interrupt
 * @s: the device
 * @intr: INTx pin (< 128) or 128 + MSI-X vector
 * @how: out: what was raised ("msix:N" or "intx:N"), for the trace
 * @n: size of @how
 *
 * Return: false when an MSI-X vector was asked for while MSI-X is off.
 */
bool arbel_irq_raise(ArbelState *s, uint8_t intr, char *how, size_t n)
{
    PCIDevice *pdev = PCI_DEVICE(s);
    unsigned int pin = intr < 64 ? intr : 0;

    if (intr >= ARBEL_EQ_INTR_MSIX && msix_enabled(pdev)) {
        msix_notify(pdev, intr - ARBEL_EQ_INTR_MSIX);
        snprintf(how, n, "msix:%u", intr - ARBEL_EQ_INTR_MSIX);
        return true;
    }
    s->irq.int_pending |= BIT_ULL(pin);
    pci_set_irq(pdev, 1);
    snprintf(how, n, "intx:%u", pin);
    return intr < ARBEL_EQ_INTR_MSIX;
}

/**
 * arbel_irq_clear_write - the clear-interrupt register
 * @s: the device
 * @word: 0 for pins 63..32, 1 for pins 31..0
 * @mask: the pins to clear
 *
 * INTx is deasserted when no raised pin is left.
 */
void arbel_irq_clear_write(ArbelState *s, unsigned int word, uint32_t mask)
{
    uint64_t bits = word ? mask : (uint64_t)mask << 32;

    if (!s->irq.int_pending) {
        return;
    }
    s->irq.int_pending &= ~bits;
    if (!s->irq.int_pending) {
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
