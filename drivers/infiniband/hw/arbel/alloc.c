// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPT keys and MTT ranges.
 *
 * Keys: a key is the hardware index rotated left by 8 bits; the hardware
 * index is the MPT slot in its low log2(num_mpts) bits and a tag above
 * them.  Each time a slot is freed its tag advances by num_mpts (wrapping
 * at 2^32), so the next key for that slot differs from every key it had
 * in the last 2^32 / num_mpts uses: a stale lkey or rkey held by anyone
 * no longer matches the MPT and the HCA refuses it.  The tags live in one
 * array, a u32 per slot, allocated with the allocator: freeing a key
 * only stores into it, so it needs no memory and cannot fail.  (An
 * xarray of tags, filled as slots are first used, cost about 2 % of a
 * 4 KiB registration cycle in its lookups and stores, and more memory
 * than the array once most slots have been used:
 * Documentation/benchmarks.rst, "Guest instructions".)
 *
 * MTT: the MTT table is handed out in segments of ARBEL_MTT_SEG_ENTRIES
 * (8 entries, 64 bytes, a cache line) by the kernel's genalloc, first fit,
 * so that the live ranges stay packed at the start of the table and few
 * MTT ICM chunks are mapped.  genalloc's own first fit scans the bitmap
 * from bit 0 on every allocation, a cost that grows with the number of
 * live regions; arbel_mtt_fit() starts at a hint below which every
 * segment is taken (lowered by each free), which finds the same range.
 * The firmware-reserved entries are rounded up to a whole segment and
 * never handed out.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/alloc.h>
#include <arbel/mpt.h>
#include <arbel/prm.h>

/**
 * arbel_keys_init() - set up the key allocator
 * @keys: the allocator
 * @num_mpts: MPT table size, a power of two
 * @reserved: firmware-reserved slots at the start of the table
 * @first_tag: every slot's first tag (its bits below @num_mpts are
 *	       dropped): arbel_keys_next_tag() of the allocator before, so
 *	       that no key of an earlier life of the device comes back
 *
 * Context: process.
 * Return: 0 or -ENOMEM (the tag array: 4 bytes per slot).
 */
int arbel_keys_init(struct arbel_keys *keys, u32 num_mpts, u32 reserved,
		    u32 first_tag)
{
	u32 i;

	keys->tags = kvmalloc_array(num_mpts, sizeof(*keys->tags), GFP_KERNEL);
	if (!keys->tags)
		return -ENOMEM;
	keys->first_tag = first_tag & ~(num_mpts - 1);
	for (i = 0; i < num_mpts; i++)
		keys->tags[i] = keys->first_tag;
	ida_init(&keys->slots);
	keys->num_mpts = num_mpts;
	keys->reserved = reserved;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_keys_init);

/**
 * arbel_keys_next_tag() - a tag no key of this allocator has had
 * @keys: the allocator, every key freed
 *
 * The tag after the most any slot advanced from the first one: a slot
 * used more than 2^32 / num_mpts times wraps, and only then can a key
 * come back (the tag space is spent).
 *
 * Context: any.
 * Return: the tag, a multiple of the table size.
 */
u32 arbel_keys_next_tag(const struct arbel_keys *keys)
{
	u32 i, most = 0;

	for (i = keys->reserved; i < keys->num_mpts; i++)
		most = max(most, keys->tags[i] - keys->first_tag);
	return keys->first_tag + most;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_keys_next_tag);

/**
 * arbel_keys_destroy() - free the allocator's memory
 * @keys: the allocator; every key must have been freed
 *
 * Context: process.
 */
void arbel_keys_destroy(struct arbel_keys *keys)
{
	WARN_ON(!ida_is_empty(&keys->slots));
	ida_destroy(&keys->slots);
	kvfree(keys->tags);
	keys->tags = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_keys_destroy);

/**
 * arbel_key_alloc() - take a free MPT slot and the key it carries now
 * @keys: the allocator
 * @key: receives the key (lkey/rkey form)
 *
 * Context: process (may sleep for memory).
 * Return: 0, or -ENOMEM when every slot is taken or the IDA cannot
 * allocate (then nothing is taken).
 */
int arbel_key_alloc(struct arbel_keys *keys, u32 *key)
{
	int slot;

	slot = ida_alloc_range(&keys->slots, keys->reserved,
			       keys->num_mpts - 1, GFP_KERNEL);
	if (slot < 0)
		return slot == -ENOSPC ? -ENOMEM : slot;
	/* the slot is ours until arbel_key_free(): so is its tag */
	*key = arbel_hw_to_key(slot | keys->tags[slot]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_key_alloc);

/**
 * arbel_key_free() - give a slot back and advance its tag
 * @keys: the allocator
 * @key: a key from arbel_key_alloc()
 *
 * Context: process.
 */
void arbel_key_free(struct arbel_keys *keys, u32 key)
{
	u32 slot = arbel_key_slot(key, keys->num_mpts);

	/* before the slot is free again: ida_free() orders the store */
	keys->tags[slot] = arbel_key_tag(key, keys->num_mpts) + keys->num_mpts;
	ida_free(&keys->slots, slot);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_key_free);

/* genpool_algo_t: first fit, from the pool's hint on */
static unsigned long arbel_mtt_fit(unsigned long *map, unsigned long size,
				   unsigned long start, unsigned int nr,
				   void *data, struct gen_pool *pool,
				   unsigned long start_addr)
{
	struct arbel_mtt_pool *mtt = data;

	return bitmap_find_next_zero_area(map, size, max(start, mtt->hint),
					  nr, 0);
}

/**
 * arbel_mtt_pool_init() - set up the MTT allocator
 * @mtt: the allocator
 * @num_entries: MTT table size in entries, a multiple of a segment
 * @reserved: firmware-reserved entries at the start of the table
 *
 * Context: process.
 * Return: 0, -EINVAL if nothing is left past the reserved entries, or
 * -ENOMEM.
 */
int arbel_mtt_pool_init(struct arbel_mtt_pool *mtt, u32 num_entries,
			u32 reserved)
{
	int err;

	/* At least one reserved segment: genalloc cannot hand out 0. */
	mtt->first = round_up(max_t(u32, reserved, 1), ARBEL_MTT_SEG_ENTRIES);
	mtt->num_entries = num_entries;
	if (mtt->first >= num_entries)
		return -EINVAL;
	mtt->pool = gen_pool_create(ilog2(ARBEL_MTT_SEG_ENTRIES), -1);
	if (!mtt->pool)
		return -ENOMEM;
	spin_lock_init(&mtt->lock);
	mtt->hint = 0;
	gen_pool_set_algo(mtt->pool, arbel_mtt_fit, mtt);
	err = gen_pool_add(mtt->pool, mtt->first, num_entries - mtt->first,
			   -1);
	if (err) {
		gen_pool_destroy(mtt->pool);
		return err;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_pool_init);

/**
 * arbel_mtt_pool_destroy() - free the allocator
 * @mtt: the allocator; every range must have been freed
 *
 * Context: process.
 */
void arbel_mtt_pool_destroy(struct arbel_mtt_pool *mtt)
{
	gen_pool_destroy(mtt->pool);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_pool_destroy);

/**
 * arbel_mtt_alloc() - take a range of MTT entries
 * @mtt: the allocator
 * @n: entries wanted (rounded up to whole segments)
 * @first: receives the index of the first entry
 *
 * Context: any.
 * Return: 0, -EINVAL for @n of 0, or -ENOMEM.
 */
int arbel_mtt_alloc(struct arbel_mtt_pool *mtt, u32 n, u32 *first)
{
	unsigned long addr, seg, flags;

	if (!n)
		return -EINVAL;
	spin_lock_irqsave(&mtt->lock, flags);
	addr = gen_pool_alloc(mtt->pool, round_up(n, ARBEL_MTT_SEG_ENTRIES));
	if (addr) {
		/* taken right at the hint: everything up to its end is taken */
		seg = (addr - mtt->first) / ARBEL_MTT_SEG_ENTRIES;
		if (seg == mtt->hint)
			mtt->hint += DIV_ROUND_UP(n, ARBEL_MTT_SEG_ENTRIES);
	}
	spin_unlock_irqrestore(&mtt->lock, flags);
	if (!addr)
		return -ENOMEM;
	*first = addr;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_alloc);

/**
 * arbel_mtt_free() - give a range back
 * @mtt: the allocator
 * @first: from arbel_mtt_alloc()
 * @n: the count passed to arbel_mtt_alloc()
 *
 * Context: any.
 */
void arbel_mtt_free(struct arbel_mtt_pool *mtt, u32 first, u32 n)
{
	unsigned long flags;

	spin_lock_irqsave(&mtt->lock, flags);
	gen_pool_free(mtt->pool, first, round_up(n, ARBEL_MTT_SEG_ENTRIES));
	mtt->hint = min_t(unsigned long, mtt->hint,
			  (first - mtt->first) / ARBEL_MTT_SEG_ENTRIES);
	spin_unlock_irqrestore(&mtt->lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_free);

/**
 * arbel_pd_range() - the PD numbers a driver may hand out
 * @log_max_pds: log2 of the PD numbers in all (QUERY_DEV_LIM)
 * @num_rsvd_pds: how many PD numbers the firmware keeps (QUERY_DEV_LIM's
 *	reserved-PD nibble, a count: Documentation/arbel-hw.rst)
 * @first: receives the first free number (@num_rsvd_pds)
 * @end: receives one past the last, capped at the MPT's 24-bit pd field
 *
 * Context: any.
 * Return: 0, or -EINVAL if the firmware keeps every number (or more),
 * which would make max_pd - rsvd_pd wrap.
 */
int arbel_pd_range(u8 log_max_pds, u32 num_rsvd_pds, u32 *first, u32 *end)
{
	u8 log_end = min_t(u8, log_max_pds, ilog2(ARBEL_PD_LIMIT));

	if (num_rsvd_pds >= 1U << log_end)
		return -EINVAL;
	*first = num_rsvd_pds;
	*end = 1U << log_end;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_pd_range);
