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
 * @mem: one block per chunk, NULL buf while unmapped
 * @refcount: users of each chunk
 * @lock: protects @mem and @refcount
 */
struct arbel_icm_table {
	struct arbel_cmd_transport *cmd;
	struct device *dev;
	struct arbel_icm_place place;
	u32 chunk_size;
	u32 nchunks;
	struct arbel_icm_mem *mem;
	u32 *refcount;
	struct mutex lock;	/* @mem and @refcount */
};

int arbel_icm_area_map(struct arbel_cmd_transport *cmd, struct device *dev,
		       struct arbel_icm_area *area, u64 pages, u16 opcode);
void arbel_icm_area_free(struct device *dev, struct arbel_icm_area *area);
u64 arbel_icm_area_size(const struct arbel_icm_area *area);

int arbel_icm_table_init(struct arbel_icm_table *table,
			 struct arbel_cmd_transport *cmd, struct device *dev,
			 const struct arbel_icm_place *place);
void arbel_icm_table_cleanup(struct arbel_icm_table *table);
int arbel_icm_table_get_range(struct arbel_icm_table *table, u32 first,
			      u32 last);
void arbel_icm_table_put_range(struct arbel_icm_table *table, u32 first,
			       u32 last);
u64 arbel_icm_table_mapped_pages(struct arbel_icm_table *table);
void *arbel_icm_table_find(struct arbel_icm_table *table, u32 obj,
			   dma_addr_t *dma);

#endif /* _ARBEL_ICM_H */
