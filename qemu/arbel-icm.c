/*
 * arbel-stub: ICM address translation, a shared service.
 *
 * ICM is the HCA's context memory, living in host (guest) RAM.  MAP_ICM
 * (arbel-fwmem.c) records ICM-virtual -> guest-physical translations for
 * 4 KiB pages here; all context accesses (MPT, MTT, EQ contexts) go through
 * them with DMA.  The table layout INIT_HCA set is kept here too, for the
 * object modules that find their contexts in it.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-life.h"

/*
 * The page map: a leaf per 512 consecutive ICM pages (2 MiB of ICM), found
 * by its number in a hash table, holding each page's guest-physical
 * address with bit 0 set when mapped.  ICM is mapped in runs, so a few
 * leaves hold it all and a lookup is one probe of a small table, where a
 * table of single pages, hundreds of entries, cost every context access
 * a longer probe (Documentation/benchmarks.rst, "The ICM page map").
 */
#define ARBEL_ICM_LEAF_SHIFT    9
#define ARBEL_ICM_LEAF_PAGES    (1u << ARBEL_ICM_LEAF_SHIFT)
#define ARBEL_ICM_MAPPED        1ULL

typedef struct ArbelIcmLeaf {
    uint64_t pa[ARBEL_ICM_LEAF_PAGES];  /* PA | ARBEL_ICM_MAPPED, or 0 */
    uint32_t mapped;                    /* entries mapped */
} ArbelIcmLeaf;

static gpointer arbel_icm_leaf_key(uint64_t vpn)
{
    return (gpointer)(uintptr_t)(vpn >> ARBEL_ICM_LEAF_SHIFT);
}

/* the leaf of ICM page @vpn; NULL if none of its pages is mapped */
static ArbelIcmLeaf *arbel_icm_leaf(ArbelState *s, uint64_t vpn, bool create)
{
    ArbelIcmLeaf *leaf = g_hash_table_lookup(s->icm.pages,
                                             arbel_icm_leaf_key(vpn));

    if (!leaf && create) {
        leaf = g_new0(ArbelIcmLeaf, 1);
        g_hash_table_insert(s->icm.pages, arbel_icm_leaf_key(vpn), leaf);
    }
    return leaf;
}

static unsigned int arbel_icm_slot_in_leaf(uint64_t vpn)
{
    return vpn & (ARBEL_ICM_LEAF_PAGES - 1);
}

/**
 * arbel_icm_init - create the (empty) ICM page map
 * @s: the device
 */
void arbel_icm_init(ArbelState *s)
{
    s->icm.pages = g_hash_table_new_full(arbel_hash_direct, g_direct_equal,
                                         NULL, g_free);
    s->icm.mapped = 0;
}

/**
 * arbel_icm_fini - free the ICM page map
 * @s: the device
 */
void arbel_icm_fini(ArbelState *s)
{
    g_hash_table_destroy(s->icm.pages);
}

/**
 * arbel_icm_reset - unmap every ICM page
 * @s: the device
 */
void arbel_icm_reset(ArbelState *s)
{
    g_hash_table_remove_all(s->icm.pages);
    s->icm.mapped = 0;
    arbel_life_disown_all(s, ARBEL_OWN_ICM);
}

/**
 * arbel_icm_pages - the number of mapped ICM pages
 * @s: the device
 *
 * Return: 4 KiB pages mapped.
 */
uint64_t arbel_icm_pages(ArbelState *s)
{
    return s->icm.mapped;
}

/* whether the ICM page holding @va is mapped; its guest-physical address */
static bool arbel_icm_lookup(ArbelState *s, uint64_t va, uint64_t *pa)
{
    uint64_t vpn = va / ARBEL_ICM_PAGE;
    const ArbelIcmLeaf *leaf = arbel_icm_leaf(s, vpn, false);
    uint64_t e = leaf ? leaf->pa[arbel_icm_slot_in_leaf(vpn)] : 0;

    *pa = e & ~ARBEL_ICM_MAPPED;
    return e & ARBEL_ICM_MAPPED;
}

/**
 * arbel_icm_map_page - map the ICM page at @va to guest-physical @pa
 * @s: the device
 * @va: ICM virtual address (4 KiB aligned)
 * @pa: guest-physical address
 *
 * The page becomes the HCA's (arbel_life_own()).
 *
 * Return: true if @va was mapped already (the new translation replaces it).
 */
bool arbel_icm_map_page(ArbelState *s, uint64_t va, uint64_t pa)
{
    uint64_t vpn = va / ARBEL_ICM_PAGE;
    ArbelIcmLeaf *leaf = arbel_icm_leaf(s, vpn, true);
    uint64_t *e = &leaf->pa[arbel_icm_slot_in_leaf(vpn)];
    bool old = *e & ARBEL_ICM_MAPPED;

    if (old) {
        arbel_life_disown(s, ARBEL_OWN_ICM, *e & ~ARBEL_ICM_MAPPED,
                          ARBEL_ICM_PAGE, va);
    } else {
        leaf->mapped++;
        s->icm.mapped++;
    }
    arbel_life_own(s, ARBEL_OWN_ICM, pa, ARBEL_ICM_PAGE, va);
    *e = pa | ARBEL_ICM_MAPPED;
    return old;
}

/**
 * arbel_icm_unmap_page - unmap the ICM page at @va
 * @s: the device
 * @va: ICM virtual address
 */
void arbel_icm_unmap_page(ArbelState *s, uint64_t va)
{
    uint64_t vpn = va / ARBEL_ICM_PAGE;
    ArbelIcmLeaf *leaf = arbel_icm_leaf(s, vpn, false);
    uint64_t *e = leaf ? &leaf->pa[arbel_icm_slot_in_leaf(vpn)] : NULL;

    if (e && *e & ARBEL_ICM_MAPPED) {
        arbel_life_disown(s, ARBEL_OWN_ICM, *e & ~ARBEL_ICM_MAPPED,
                          ARBEL_ICM_PAGE, vpn * ARBEL_ICM_PAGE);
        *e = 0;
        s->icm.mapped--;
        if (!--leaf->mapped) {
            g_hash_table_remove(s->icm.pages, arbel_icm_leaf_key(vpn));
        }
    }
}

/**
 * arbel_icm_mapped - whether every page of [@va, @va + @len) is mapped
 * @s: the device
 * @va: ICM virtual address
 * @len: bytes (0: true)
 *
 * Return: true if all are.
 */
bool arbel_icm_mapped(ArbelState *s, uint64_t va, uint64_t len)
{
    uint64_t p;

    if (!len) {
        return true;
    }
    for (p = va & ~(ARBEL_ICM_PAGE - 1); p < va + len; p += ARBEL_ICM_PAGE) {
        uint64_t pa;

        if (!arbel_icm_lookup(s, p, &pa)) {
            return false;
        }
    }
    return true;
}

static uint8_t arbel_icm_rw(ArbelState *s, uint64_t va, void *buf,
                            uint64_t len, bool write)
{
    uint8_t *b = buf;

    if (!arbel_icm_mapped(s, va, len)) {
        return ARBEL_ST_BAD_RESOURCE;
    }
    while (len) {
        uint64_t off = va & (ARBEL_ICM_PAGE - 1);
        uint64_t chunk = MIN(len, ARBEL_ICM_PAGE - off);
        MemTxResult r;
        uint64_t pa = 0;

        arbel_icm_lookup(s, va, &pa);
        if (write) {
            r = arbel_dma_write(s, pa + off, b, chunk);
        } else {
            r = arbel_dma_read(s, pa + off, b, chunk);
        }
        if (r != MEMTX_OK) {
            return ARBEL_ST_INTERNAL_ERR;
        }
        va += chunk;
        b += chunk;
        len -= chunk;
    }
    return ARBEL_ST_OK;
}

/**
 * arbel_icm_read - read ICM through its page map
 * @s: the device
 * @va: ICM virtual address
 * @buf: where to
 * @len: bytes
 *
 * Return: 0, ARBEL_ST_BAD_RESOURCE if a page is unmapped (nothing is read),
 * ARBEL_ST_INTERNAL_ERR on a DMA error.
 */
uint8_t arbel_icm_read(ArbelState *s, uint64_t va, void *buf, uint64_t len)
{
    return arbel_icm_rw(s, va, buf, len, false);
}

/**
 * arbel_icm_write - write ICM through its page map
 * @s: the device
 * @va: ICM virtual address
 * @buf: what
 * @len: bytes
 *
 * Return: 0, ARBEL_ST_BAD_RESOURCE if a page is unmapped (nothing is written),
 * ARBEL_ST_INTERNAL_ERR on a DMA error.
 */
uint8_t arbel_icm_write(ArbelState *s, uint64_t va, const void *buf,
                        uint64_t len)
{
    return arbel_icm_rw(s, va, (void *)buf, len, true);
}

/**
 * arbel_icm_set_tables - record the table layout INIT_HCA accepted
 * @s: the device
 * @t: ARBEL_TBL_NR tables
 */
void arbel_icm_set_tables(ArbelState *s, const ArbelTable *t)
{
    memcpy(s->icm.tbl, t, sizeof(s->icm.tbl));
}

/**
 * arbel_icm_table - one table of the layout INIT_HCA accepted
 * @s: the device
 * @id: the table
 *
 * Return: its base, size and log2 count.
 */
const ArbelTable *arbel_icm_table(ArbelState *s, ArbelTableId id)
{
    return &s->icm.tbl[id];
}

/**
 * arbel_icm_slot - where object @num of table @id has its context
 * @s: the device
 * @id: the table (one INIT_HCA gave a log2 count for)
 * @num: the object number
 * @entry: the context size in bytes
 * @va: receives the ICM address of the context
 *
 * Return: ARBEL_ST_OK; ARBEL_ST_BAD_INDEX if @num is past the 2^log_num
 * objects of the table; ARBEL_ST_BAD_RESOURCE if the context's ICM is not
 * mapped.
 */
uint8_t arbel_icm_slot(ArbelState *s, ArbelTableId id, uint32_t num,
                       uint32_t entry, uint64_t *va)
{
    const ArbelTable *t = &s->icm.tbl[id];

    if (t->log_num >= 32 || num >= (1ull << t->log_num)) {
        return ARBEL_ST_BAD_INDEX;
    }
    *va = t->base + (uint64_t)num * entry;
    if (!arbel_icm_mapped(s, *va, entry)) {
        return ARBEL_ST_BAD_RESOURCE;
    }
    return ARBEL_ST_OK;
}

/**
 * arbel_icm_db_read - the first dword of a doorbell record
 * @s: the device
 * @uar: the UAR whose context pages hold the record
 * @index: the record's index in them (8 bytes each)
 * @val: the dword, host order
 *
 * A record lives at the UARC base + @uar * (the UAR context size INIT_HCA
 * gave) + @index * 8: mthca's memfree code (mthca_uarc_virt,
 * mthca_alloc_db), which maps those pages with MAP_ICM.
 *
 * Return: 0, or the status of an unmapped page or a bad index.
 */
uint8_t arbel_icm_db_read(ArbelState *s, uint32_t uar, uint32_t index,
                          uint32_t *val)
{
    const ArbelTable *t = &s->icm.tbl[ARBEL_TBL_UARC];
    uint64_t per_uar, va;
    uint8_t b[4], st;

    if (t->log_num >= 32 || uar >= (1ull << t->log_num) || !t->size ||
        t->size == UINT64_MAX) {
        return ARBEL_ST_BAD_INDEX;
    }
    per_uar = t->size >> t->log_num;
    if ((uint64_t)index * ARBEL_DB_REC_SIZE >= per_uar) {
        return ARBEL_ST_BAD_INDEX;
    }
    va = t->base + uar * per_uar + (uint64_t)index * ARBEL_DB_REC_SIZE;
    st = arbel_icm_read(s, va, b, sizeof(b));
    if (!st) {
        *val = ldl_be_p(b);
    }
    return st;
}
