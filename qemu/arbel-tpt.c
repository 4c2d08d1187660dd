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
#include "arbel-state.h"
#include "arbel-tpt.h"

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
}

/**
 * arbel_tpt_reset - forget the tables and every hardware-owned slot
 * @s: the device
 */
void arbel_tpt_reset(ArbelState *s)
{
    arbel_mpt_drop_all(s);
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
