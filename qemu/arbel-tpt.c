/*
 * arbel-stub: the translation and protection tables, a shared service.
 *
 * MPT entries live in ICM at the MPT base + index * 64.  MTT entries live
 * in ICM too; the MPT's mtt_adr field and WRITE_MTT's target are absolute
 * ICM virtual addresses (mthca's convention).  The MTT area is
 * [MTT base, next table base above it or ICM size); its first
 * 2^log_rsvd_mtt entries belong to the firmware.  INIT_HCA sets the
 * geometry (arbel_tpt_init), CLOSE_HCA drops the ownership (the geometry
 * stays readable through the debug window until reset).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitmap.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"

/* the TPT cache goes with the tables (INIT_HCA makes it, reset drops it) */
static void arbel_tpt_cache_free(ArbelState *s)
{
    if (s->tpt.mpt_cache) {
        g_hash_table_destroy(s->tpt.mpt_cache);
        g_hash_table_destroy(s->tpt.mtt_cache);
        g_hash_table_destroy(s->tpt.mpt_fw);
        s->tpt.mpt_cache = s->tpt.mtt_cache = s->tpt.mpt_fw = NULL;
    }
}

/**
 * arbel_tpt_init - the tables INIT_HCA accepted; no slot hardware-owned
 * @s: the device
 * @mpt_base: ICM address of MPT entry 0
 * @log_mpt_sz: log2 of the MPT entries
 * @mtt_base: ICM address of MTT entry 0
 * @mtt_end: end of the MTT area (exclusive)
 */
void arbel_tpt_init(ArbelState *s, uint64_t mpt_base, uint32_t log_mpt_sz,
                    uint64_t mtt_base, uint64_t mtt_end)
{
    ArbelTpt *t = &s->tpt;

    t->mpt_base = mpt_base;
    t->log_mpt_sz = log_mpt_sz;
    t->mtt_base = mtt_base;
    t->mtt_end = mtt_end;
    g_free(t->hw_mpt);
    t->hw_mpt = bitmap_new(1u << log_mpt_sz);
    arbel_tpt_cache_free(s);
    t->mpt_cache = g_hash_table_new_full(arbel_hash_direct, g_direct_equal,
                                         NULL, g_free);
    t->mtt_cache = g_hash_table_new_full(arbel_hash_u64, g_int64_equal, g_free,
                                         g_free);
    t->mpt_fw = g_hash_table_new_full(arbel_hash_direct, g_direct_equal, NULL,
                                      g_free);
}

/**
 * arbel_tpt_reset - forget the tables and every hardware-owned slot
 * @s: the device
 */
void arbel_tpt_reset(ArbelState *s)
{
    arbel_mpt_drop_all(s);
    arbel_tpt_cache_free(s);
    s->tpt.cache_hits = s->tpt.cache_misses = s->tpt.cache_syncs = 0;
    s->tpt.mpt_base = 0;
    s->tpt.log_mpt_sz = 0;
    s->tpt.mtt_base = 0;
    s->tpt.mtt_end = 0;
}

/**
 * arbel_tpt_active - whether the tables are in use (INIT_HCA done)
 * @s: the device
 *
 * Return: true between INIT_HCA and CLOSE_HCA or reset.
 */
bool arbel_tpt_active(ArbelState *s)
{
    return s->tpt.hw_mpt;
}

/**
 * arbel_tpt_log_mpt - log2 of the MPT entries
 * @s: the device
 *
 * Return: the value INIT_HCA set.
 */
uint32_t arbel_tpt_log_mpt(ArbelState *s)
{
    return s->tpt.log_mpt_sz;
}

/**
 * arbel_tpt_mpt_base - ICM address of MPT entry 0
 * @s: the device
 *
 * Return: the value INIT_HCA set.
 */
uint64_t arbel_tpt_mpt_base(ArbelState *s)
{
    return s->tpt.mpt_base;
}

/**
 * arbel_tpt_mtt_base - ICM address of MTT entry 0
 * @s: the device
 *
 * Return: the value INIT_HCA set.
 */
uint64_t arbel_tpt_mtt_base(ArbelState *s)
{
    return s->tpt.mtt_base;
}

/**
 * arbel_tpt_mtt_end - end of the MTT area (exclusive)
 * @s: the device
 *
 * Return: the value INIT_HCA set.
 */
uint64_t arbel_tpt_mtt_end(ArbelState *s)
{
    return s->tpt.mtt_end;
}

/**
 * arbel_mpt_addr - ICM address of an MPT entry
 * @s: the device
 * @index: the slot
 *
 * Return: its ICM virtual address.
 */
uint64_t arbel_mpt_addr(ArbelState *s, uint32_t index)
{
    return s->tpt.mpt_base + (uint64_t)index * ARBEL_MPT_ENTRY_SIZE;
}

/**
 * arbel_mtt_rsvd_end - end of the firmware's reserved MTT entries
 * @s: the device
 *
 * Return: the first ICM address software may use for MTT entries.
 */
uint64_t arbel_mtt_rsvd_end(ArbelState *s)
{
    return s->tpt.mtt_base +
           ((uint64_t)ARBEL_MTT_ENTRY_SIZE << ARBEL_LOG_RSVD_MTT);
}

/**
 * arbel_mtt_range_ok - whether [@va, @va + @len) lies in the MTT area
 * @s: the device
 * @va: ICM address
 * @len: bytes
 *
 * Return: true if it does.
 */
bool arbel_mtt_range_ok(ArbelState *s, uint64_t va, uint64_t len)
{
    return va >= s->tpt.mtt_base && va < s->tpt.mtt_end &&
           len <= s->tpt.mtt_end - va;
}

/**
 * arbel_mpt_hw_owned - whether hardware owns MPT slot @index
 * @s: the device
 * @index: the slot
 * @dword0: the entry's first dword as ICM holds it
 *
 * Return: true if SW2HW_MPT gave it and its status is not software-owned.
 */
bool arbel_mpt_hw_owned(ArbelState *s, uint32_t index, uint32_t dword0)
{
    if (!s->tpt.hw_mpt || index >= (1u << s->tpt.log_mpt_sz) ||
        !test_bit(index, s->tpt.hw_mpt)) {
        return false;
    }
    return (dword0 >> ARBEL_MPT_D0_STATUS_SHIFT) != ARBEL_MPT_STATUS_SW;
}

/**
 * arbel_mpt_set_hw - record that SW2HW_MPT / HW2SW_MPT moved slot @index
 * @s: the device
 * @index: the slot (below 2^log_mpt_sz)
 * @hw: true: hardware owns it now
 */
void arbel_mpt_set_hw(ArbelState *s, uint32_t index, bool hw)
{
    if (hw) {
        set_bit(index, s->tpt.hw_mpt);
    } else {
        clear_bit(index, s->tpt.hw_mpt);
    }
}

/**
 * arbel_mpt_hw_count - the number of hardware-owned MPT slots
 * @s: the device
 *
 * Return: that number.
 */
uint32_t arbel_mpt_hw_count(ArbelState *s)
{
    if (!s->tpt.hw_mpt) {
        return 0;
    }
    return bitmap_count_one(s->tpt.hw_mpt, 1u << s->tpt.log_mpt_sz);
}

/**
 * arbel_mpt_drop_all - hardware owns no slot any more (CLOSE_HCA, reset)
 * @s: the device
 */
void arbel_mpt_drop_all(ArbelState *s)
{
    g_free(s->tpt.hw_mpt);
    s->tpt.hw_mpt = NULL;
}

/*
 * The TPT cache.  The HCA keeps the MPT and MTT entries it used; a CPU
 * store into ICM does not reach them.  The firmware's own writes do
 * (SW2HW_MPT, WRITE_MTT), HW2SW_MPT drops the entry and the cached MTT
 * entries (mthca reuses an MTT range after HW2SW_MPT without SYNC_TPT and
 * rewrites it with the CPU: mthca_arbel_write_mtt_seg), SYNC_TPT drops
 * everything (mthca's FMR unmap: "SYNC_TPT before memory is reused").
 * An MPT entry read software-owned is not kept (mthca's FMR map makes it
 * hardware-owned again by CPU stores alone).
 */

/**
 * arbel_tpt_cached_read - read a TPT entry through the TPT cache
 * @s: the device
 * @mpt: an MPT entry (keyed by @key, its slot), else an MTT entry
 * @key: the MPT slot, or the MTT entry's ICM address
 * @va: the entry's ICM address
 * @buf: receives it (64 or 8 bytes)
 * @len: its size
 *
 * Return: 0, or the ICM read's status on a miss.
 */
uint8_t arbel_tpt_cached_read(ArbelState *s, bool mpt, uint64_t key,
                              uint64_t va, void *buf, uint64_t len)
{
    ArbelTpt *t = &s->tpt;
    gpointer hit;
    uint8_t st;

    if (!t->mpt_cache) {
        return arbel_icm_read(s, va, buf, len);
    }
    hit = mpt ? g_hash_table_lookup(t->mpt_cache, GUINT_TO_POINTER(key)) :
                g_hash_table_lookup(t->mtt_cache, &key);
    if (hit) {
        t->cache_hits++;
        memcpy(buf, hit, len);
        return 0;
    }
    t->cache_misses++;
    st = arbel_icm_read(s, va, buf, len);
    if (st) {
        return st;
    }
    if (mpt) {
        /*
         * An entry found software-owned is not kept: mthca's FMR map
         * (mthca_arbel_map_phys_fmr) makes one hardware-owned again with
         * CPU stores and no SYNC_TPT, so the HCA reads such an entry
         * from ICM each time.
         */
        if (((uint32_t)ldl_be_p(buf) >> ARBEL_MPT_D0_STATUS_SHIFT) !=
            ARBEL_MPT_STATUS_SW) {
            g_hash_table_insert(t->mpt_cache, GUINT_TO_POINTER(key),
                                g_memdup2(buf, len));
        }
    } else {
        g_hash_table_insert(t->mtt_cache, g_memdup2(&key, sizeof(key)),
                            g_memdup2(buf, len));
    }
    return 0;
}

/**
 * arbel_tpt_cache_drop_mpt - HW2SW_MPT / SW2HW_MPT: the cache forgets MPT
 * slot @index and, with @mtts, every MTT entry
 * @s: the device
 * @index: the slot
 * @mtts: drop the cached MTT entries too
 */
void arbel_tpt_cache_drop_mpt(ArbelState *s, uint32_t index, bool mtts)
{
    if (!s->tpt.mpt_cache) {
        return;
    }
    g_hash_table_remove(s->tpt.mpt_cache, GUINT_TO_POINTER(index));
    if (mtts) {
        g_hash_table_remove_all(s->tpt.mtt_cache);
    }
}

/**
 * arbel_tpt_cache_drop_mtt - WRITE_MTT: the cache forgets @n entries
 * @s: the device
 * @va: the first entry's ICM address
 * @n: the number of entries
 */
void arbel_tpt_cache_drop_mtt(ArbelState *s, uint64_t va, uint64_t n)
{
    uint64_t i, key;

    if (!s->tpt.mtt_cache) {
        return;
    }
    for (i = 0; i < n; i++) {
        key = va + i * ARBEL_MTT_ENTRY_SIZE;
        g_hash_table_remove(s->tpt.mtt_cache, &key);
    }
}

/**
 * arbel_tpt_sync - SYNC_TPT: the cache forgets everything
 * @s: the device
 */
void arbel_tpt_sync(ArbelState *s)
{
    if (!s->tpt.mpt_cache) {
        return;
    }
    g_hash_table_remove_all(s->tpt.mpt_cache);
    g_hash_table_remove_all(s->tpt.mtt_cache);
    s->tpt.cache_syncs++;
}

/**
 * arbel_tpt_cache_stats - the TPT cache's counters, for the debug window
 * @s: the device
 * @hits: lookups the cache answered
 * @misses: lookups that read ICM
 * @syncs: SYNC_TPT commands
 */
void arbel_tpt_cache_stats(ArbelState *s, uint64_t *hits, uint64_t *misses,
                           uint64_t *syncs)
{
    *hits = s->tpt.cache_hits;
    *misses = s->tpt.cache_misses;
    *syncs = s->tpt.cache_syncs;
}
