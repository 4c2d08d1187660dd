/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Allocators for memory registration: MPT keys with tag rotation, MTT
 * entry ranges and the range of PD numbers.  Pure code (no firmware, no ICM): UML-testable.
 */
#ifndef _ARBEL_ALLOC_H
#define _ARBEL_ALLOC_H

#include <linux/genalloc.h>
#include <linux/idr.h>
#include <linux/spinlock.h>
#include <linux/types.h>

/**
 * struct arbel_keys - MPT slots and the tag each slot's next key carries
 * @slots: free slots in [@reserved, @num_mpts)
 * @tags: per slot, the tag bits of its next key (@first_tag until it is
 *	  first freed); written only by the slot's owner, in
 *	  arbel_key_free()
 * @first_tag: every slot's first tag, a multiple of @num_mpts
 * @num_mpts: MPT table size, a power of two
 * @reserved: slots the firmware keeps (0 .. @reserved - 1)
 */
struct arbel_keys {
	struct ida slots;
	u32 *tags;
	u32 first_tag;
	u32 num_mpts;
	u32 reserved;
};

int arbel_keys_init(struct arbel_keys *keys, u32 num_mpts, u32 reserved,
		    u32 first_tag);
u32 arbel_keys_next_tag(const struct arbel_keys *keys);
void arbel_keys_destroy(struct arbel_keys *keys);
int arbel_key_alloc(struct arbel_keys *keys, u32 *key);
void arbel_key_free(struct arbel_keys *keys, u32 key);

/**
 * struct arbel_mtt_pool - free MTT entries of the MTT table
 * @pool: first-fit allocator over the table, one bit per segment; its
 *	  addresses are entry indices (never 0: segment 0 is reserved)
 * @lock: serialises allocations and frees with @hint
 * @hint: no segment below this one (counted from @first) is free: the
 *	  first-fit search starts here, not at the table's start
 * @num_entries: MTT table size in entries
 * @first: first entry past the reserved ones, segment aligned
 */
struct arbel_mtt_pool {
	struct gen_pool *pool;
	spinlock_t lock;	/* @hint with the allocations and frees */
	unsigned long hint;
	u32 num_entries;
	u32 first;
};

int arbel_mtt_pool_init(struct arbel_mtt_pool *mtt, u32 num_entries,
			u32 reserved);
void arbel_mtt_pool_destroy(struct arbel_mtt_pool *mtt);
int arbel_mtt_alloc(struct arbel_mtt_pool *mtt, u32 n, u32 *first);
void arbel_mtt_free(struct arbel_mtt_pool *mtt, u32 first, u32 n);

int arbel_pd_range(u8 log_max_pds, u32 num_rsvd_pds, u32 *first, u32 *end);

#endif /* _ARBEL_ALLOC_H */
