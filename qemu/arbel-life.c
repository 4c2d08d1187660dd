/*
 * arbel-stub: the card's life cycle and the pages it owns, a leaf.
 *
 * Pulled from its slot (debug window LC_PULLED) the card answers nothing;
 * the counters say what it did since its last reset (LC_ACCESSES,
 * LC_DMAS, LC_IRQS), so a test can tell that a driver left it alone.
 *
 * Ownership: the guest pages the driver handed to the HCA -- the firmware
 * area (MAP_FA), aux ICM (MAP_ICM_AUX) and ICM (MAP_ICM), until their
 * UNMAP or a reset -- are the HCA's.  A driver that frees such a page
 * without unmapping it first, or unmaps it after freeing it, lets the
 * kernel give it out again; when it comes back as a mailbox, as a page a
 * region or queue translates to, or handed over a second time, the HCA
 * would read or write memory someone else now owns.  Each such touch is
 * reported, "arbel-stub: ownership: ..." (a guest error: the VM harness
 * fails the run on it), and counted in LC_STRAYS; the HCA still does what
 * it was told, as real silicon would.  A test that provokes one on
 * purpose sets LC_OWN_EXPECT first: then the report says "(expected)".
 * Documentation/arbel-stub.rst, "The card's life cycle".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "arbel-state.h"
#include "arbel-life.h"

QEMU_BUILD_BUG_ON(ARBEL_LIFE_NR != ARBEL_LIFE_COUNTS);

typedef struct ArbelOwned {
    ArbelOwner who;
    uint64_t va;            /* ICM: the virtual address it backs */
} ArbelOwned;

static gpointer arbel_frame_key(uint64_t pa)
{
    return (gpointer)(uintptr_t)(pa / ARBEL_ICM_PAGE);
}

/**
 * arbel_life_init - create the (empty) record of owned pages
 * @s: the device
 */
void arbel_life_init(ArbelState *s)
{
    s->life.owned = g_hash_table_new_full(arbel_hash_direct, g_direct_equal,
                                          NULL, g_free);
}

/**
 * arbel_life_fini - free the record of owned pages
 * @s: the device
 */
void arbel_life_fini(ArbelState *s)
{
    g_hash_table_destroy(s->life.owned);
}

/**
 * arbel_life_reset - what a reset does to the life cycle's state
 * @s: the device
 *
 * The counters start again from 0 and every page is given back; a pulled
 * card stays pulled, a test's expectation stays set.
 */
void arbel_life_reset(ArbelState *s)
{
    memset(s->life.count, 0, sizeof(s->life.count));
    g_hash_table_remove_all(s->life.owned);
}

/**
 * arbel_life_pulled - whether the card is out of its slot
 * @s: the device
 *
 * Return: true while pulled.
 */
bool arbel_life_pulled(ArbelState *s)
{
    return s->life.pulled;
}

/**
 * arbel_life_set_pulled - pull the card or put it back
 * @s: the device
 * @pulled: out of its slot
 */
void arbel_life_set_pulled(ArbelState *s, bool pulled)
{
    s->life.pulled = pulled;
}

/**
 * arbel_life_count - count one event
 * @s: the device
 * @c: which
 */
void arbel_life_count(ArbelState *s, ArbelLifeCount c)
{
    s->life.count[c]++;
}

/**
 * arbel_life_get - a counter
 * @s: the device
 * @c: which
 *
 * Return: events since the last reset.
 */
uint32_t arbel_life_get(ArbelState *s, ArbelLifeCount c)
{
    return s->life.count[c];
}

/**
 * arbel_life_expect - mark the ownership reports that follow as expected
 * @s: the device
 * @expect: a test provokes them on purpose
 */
void arbel_life_expect(ArbelState *s, bool expect)
{
    s->life.expect = expect;
}

/**
 * arbel_life_expecting - whether ownership reports are expected
 * @s: the device
 *
 * Return: what arbel_life_expect() set last.
 */
bool arbel_life_expecting(ArbelState *s)
{
    return s->life.expect;
}

/* "ICM at va 0x..", "the firmware area", "aux ICM": g_free() it */
static char *arbel_owner_desc(ArbelOwner who, uint64_t va)
{
    switch (who) {
    case ARBEL_OWN_FA:
        return g_strdup("the firmware area");
    case ARBEL_OWN_AUX:
        return g_strdup("aux ICM");
    case ARBEL_OWN_ICM:
        return g_strdup_printf("ICM at va 0x%" PRIx64, va);
    default:
        return g_strdup("nobody");
    }
}

static void G_GNUC_PRINTF(2, 3) arbel_life_report(ArbelState *s,
                                                  const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    arbel_life_count(s, ARBEL_LIFE_STRAYS);
    qemu_log_mask(LOG_GUEST_ERROR, "arbel-stub: ownership%s: %s\n",
                  s->life.expect ? " (expected)" : "", msg);
}

/* the first page of [@pa, @pa + @len) some owner holds, or NULL */
static const ArbelOwned *arbel_owned_in(ArbelState *s, uint64_t pa,
                                        uint64_t len, uint64_t *page)
{
    uint64_t p;

    if (!len || !g_hash_table_size(s->life.owned)) {
        return NULL;
    }
    for (p = QEMU_ALIGN_DOWN(pa, ARBEL_ICM_PAGE); p < pa + len;
         p += ARBEL_ICM_PAGE) {
        const ArbelOwned *o = g_hash_table_lookup(s->life.owned,
                                                  arbel_frame_key(p));

        if (o) {
            *page = p;
            return o;
        }
    }
    return NULL;
}

/**
 * arbel_life_own - pages handed over to the HCA
 * @s: the device
 * @who: as what
 * @pa: guest-physical start (4 KiB aligned)
 * @len: bytes (a multiple of 4 KiB)
 * @va: ICM virtual address of @pa (ICM only)
 *
 * A page some owner holds already stays with it, and is reported: the
 * driver freed it without taking it back from the HCA.
 */
void arbel_life_own(ArbelState *s, ArbelOwner who, uint64_t pa, uint64_t len,
                    uint64_t va)
{
    uint64_t p;

    for (p = 0; p < len; p += ARBEL_ICM_PAGE) {
        gpointer key = arbel_frame_key(pa + p);
        const ArbelOwned *old = g_hash_table_lookup(s->life.owned, key);
        ArbelOwned *o;

        if (old) {
            g_autofree char *was = arbel_owner_desc(old->who, old->va);
            g_autofree char *now = arbel_owner_desc(who, va + p);

            arbel_life_report(s, "page 0x%" PRIx64 " handed over as %s is "
                              "the HCA's already, as %s: freed while the "
                              "HCA owned it?", pa + p, now, was);
            continue;
        }
        o = g_new(ArbelOwned, 1);
        o->who = who;
        o->va = va + p;
        g_hash_table_insert(s->life.owned, key, o);
    }
}

/**
 * arbel_life_disown - pages given back by their owner
 * @s: the device
 * @who: the owner
 * @pa: guest-physical start
 * @len: bytes
 * @va: where @who had @pa (ICM; 0 else)
 *
 * A page another owner holds, or the same one elsewhere (ICM mapped twice:
 * the first mapping owns it), stays.
 */
void arbel_life_disown(ArbelState *s, ArbelOwner who, uint64_t pa,
                       uint64_t len, uint64_t va)
{
    uint64_t p;

    for (p = 0; p < len; p += ARBEL_ICM_PAGE) {
        gpointer key = arbel_frame_key(pa + p);
        const ArbelOwned *o = g_hash_table_lookup(s->life.owned, key);

        if (o && o->who == who && o->va == va + p) {
            g_hash_table_remove(s->life.owned, key);
        }
    }
}

static gboolean arbel_owned_by(gpointer key, gpointer value, gpointer who)
{
    return ((ArbelOwned *)value)->who == (ArbelOwner)(uintptr_t)who;
}

/**
 * arbel_life_disown_all - every page of one owner given back
 * @s: the device
 * @who: the owner
 */
void arbel_life_disown_all(ArbelState *s, ArbelOwner who)
{
    g_hash_table_foreach_remove(s->life.owned, arbel_owned_by,
                                (gpointer)(uintptr_t)who);
}

/**
 * arbel_life_check - a touch of guest memory that must miss the HCA's
 * @s: the device
 * @pa: guest-physical start
 * @len: bytes
 * @what: the touch, for the report ("QUERY_FW's outbox", "a data read")
 *
 * A mailbox or a data DMA into a page the HCA owns is reported once (the
 * first such page): the memory was freed while the HCA owned it.
 */
void arbel_life_check(ArbelState *s, uint64_t pa, uint64_t len,
                      const char *what)
{
    const ArbelOwned *o;
    uint64_t page;

    o = arbel_owned_in(s, pa, len, &page);
    if (o) {
        g_autofree char *was = arbel_owner_desc(o->who, o->va);

        arbel_life_report(s, "%s [0x%" PRIx64 ", +0x%" PRIx64 ") touches "
                          "page 0x%" PRIx64 ", the HCA's as %s: freed while "
                          "the HCA owned it?", what, pa, len, page, was);
    }
}
