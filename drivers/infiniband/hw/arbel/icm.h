/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ICM: host memory handed to the HCA - the firmware area, auxiliary ICM,
 * and the context tables mapped chunk by chunk with reference counts.
 */
#ifndef _ARBEL_ICM_H
#define _ARBEL_ICM_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <arbel/profile.h>
#include "fw.h"

/**
 * struct arbel_icm_mem - one DMA-coherent, naturally aligned block
 * @buf: CPU address
 * @dma: bus address
 * @size: bytes, a power of two of at least 4 KiB
 */
struct arbel_icm_mem {
	void *buf;
	dma_addr_t dma;
	size_t size;
};

/**
 * struct arbel_icm_area - memory mapped as a whole (firmware area, aux ICM)
 * @mem: the blocks
 * @n: number of blocks
 */
struct arbel_icm_area {
	struct arbel_icm_mem *mem;
	int n;
};

/**
 * struct arbel_icm_table - one ICM table, mapped on demand in chunks
 * @cmd: transport for MAP_ICM / UNMAP_ICM
 * @dev: device for DMA allocations
 * @place: where the table lies, its object size and count
 * @chunk_size: bytes per chunk (256 KiB, or the table size if smaller)
 * @nchunks: chunks in the table
 * @mem: the blocks of each chunk (one, or several of equal size when
 *	 256 KiB of contiguous memory was not to be had); none while unmapped
 * @refcount: users of each chunk
 * @max_block: largest block tried for a chunk (0: the chunk size); a
 *	       smaller value forces the fallback to smaller blocks
 * @split: chunks made of more than one block, mapped or held (read
 *	   without @lock for debugfs)
 * @held: chunks without users that the HCA may still own (their
 *	  UNMAP_ICM was refused, or their MAP_ICM timed out): kept, with
 *	  @mem set, until arbel_icm_table_hca_reset()
 * @rsvd_taken: the firmware-reserved objects' chunks are taken
 * @hca_reset: the HCA has been reset and owns nothing: a chunk whose
 *	       UNMAP_ICM fails is freed at once
 * @lock: protects @mem, @refcount, @split, @held and @hca_reset
 */
struct arbel_icm_table {
	struct arbel_cmd_transport *cmd;
	struct device *dev;
	struct arbel_icm_place place;
	u32 chunk_size;
	u32 nchunks;
	struct arbel_icm_area *mem;
	u32 *refcount;
	u32 max_block;
	u32 split;
	u32 held;
	bool rsvd_taken;
	bool hca_reset;
	struct mutex lock;	/* @mem, @refcount, @held, @hca_reset */
};

int arbel_icm_area_map(struct arbel_cmd_transport *cmd, struct device *dev,
		       struct arbel_icm_area *area, u64 pages, u16 opcode);
void arbel_icm_area_free(struct device *dev, struct arbel_icm_area *area);
u64 arbel_icm_area_size(const struct arbel_icm_area *area);

int arbel_icm_table_init(struct arbel_icm_table *table,
			 struct arbel_cmd_transport *cmd, struct device *dev,
			 const struct arbel_icm_place *place);
void arbel_icm_table_release(struct arbel_icm_table *table);
void arbel_icm_table_cleanup(struct arbel_icm_table *table);
int arbel_icm_table_get_range(struct arbel_icm_table *table, u32 first,
			      u32 last);
void arbel_icm_table_put_range(struct arbel_icm_table *table, u32 first,
			       u32 last);
u64 arbel_icm_table_mapped_pages(struct arbel_icm_table *table);
void arbel_icm_table_hca_reset(struct arbel_icm_table *table);
void *arbel_icm_table_find(struct arbel_icm_table *table, u32 obj,
			   dma_addr_t *dma, size_t *run);

#endif /* _ARBEL_ICM_H */
