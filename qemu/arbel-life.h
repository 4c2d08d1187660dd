/*
 * arbel-stub: the card's life cycle and the pages it owns (arbel-life.c),
 * a leaf.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_LIFE_H
#define HW_ARBEL_LIFE_H

#include "arbel-state.h"

/* What the card did since its last reset (debug window LC_*) */
typedef enum ArbelLifeCount {
    ARBEL_LIFE_ACCESSES,    /* BAR0 (not the window) and BAR2 accesses */
    ARBEL_LIFE_DMAS,        /* DMA reads and writes */
    ARBEL_LIFE_IRQS,        /* interrupts raised */
    ARBEL_LIFE_STRAYS,      /* ownership reports (arbel_life_check()) */
    ARBEL_LIFE_NR,
} ArbelLifeCount;

/* Who in the HCA owns a guest page the driver handed over */
typedef enum ArbelOwner {
    ARBEL_OWN_NONE, ARBEL_OWN_FA, ARBEL_OWN_AUX, ARBEL_OWN_ICM,
} ArbelOwner;

void arbel_life_init(ArbelState *s);
void arbel_life_fini(ArbelState *s);
/* a reset: the counters from 0, every page given back (not unpulled) */
void arbel_life_reset(ArbelState *s);
bool arbel_life_pulled(ArbelState *s);
void arbel_life_set_pulled(ArbelState *s, bool pulled);
void arbel_life_count(ArbelState *s, ArbelLifeCount c);
uint32_t arbel_life_get(ArbelState *s, ArbelLifeCount c);
/* tests: the ownership reports that follow are expected (traced so) */
void arbel_life_expect(ArbelState *s, bool expect);
bool arbel_life_expecting(ArbelState *s);
/* [@pa, @pa + @len) handed over as @who (ICM at @va): a report per page
 * that some owner holds already (it stays with that one) */
void arbel_life_own(ArbelState *s, ArbelOwner who, uint64_t pa, uint64_t len,
                    uint64_t va);
/* the pages of [@pa, @pa + @len) @who holds at @va given back */
void arbel_life_disown(ArbelState *s, ArbelOwner who, uint64_t pa,
                       uint64_t len, uint64_t va);
/* every page @who holds given back (UNMAP_FA, UNMAP_ICM_AUX) */
void arbel_life_disown_all(ArbelState *s, ArbelOwner who);
/* a DMA or mailbox (@what) that must not touch the pages the HCA owns */
void arbel_life_check(ArbelState *s, uint64_t pa, uint64_t len,
                      const char *what);

#endif
