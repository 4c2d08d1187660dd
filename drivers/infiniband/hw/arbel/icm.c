// SPDX-License-Identifier: GPL-2.0-only
/*
 * ICM management.  Every block handed to the HCA is zeroed (firmware is
 * known to assume cleared pages) and naturally aligned, which
 * dma_alloc_coherent() guarantees for power-of-two sizes.
 *
 * Tables are mapped in chunks of 256 KiB: a chunk is allocated and
 * MAP_ICM'd when its first object is taken and UNMAP_ICM'd and freed when
 * its last one is released.  The chunks holding the firmware-reserved
 * objects are taken once at init and released at cleanup.
 */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include <arbel/prm.h>
#include "icm.h"

static int arbel_icm_mem_alloc(struct device *dev, struct arbel_icm_mem *m,
			       size_t size)
{
	m->buf = dma_alloc_coherent(dev, size, &m->dma, GFP_KERNEL);
	if (!m->buf)
		return -ENOMEM;
	m->size = size;
	return 0;
}

static void arbel_icm_mem_free(struct device *dev, struct arbel_icm_mem *m)
{
	if (!m->buf)
		return;
	dma_free_coherent(dev, m->size, m->buf, m->dma);
	m->buf = NULL;
}

/**
 * arbel_icm_area_map() - allocate memory and hand it to the firmware whole
 * @cmd: transport
 * @dev: device for DMA allocations
 * @area: receives the blocks
 * @pages: 4 KiB pages wanted; rounded up to whole blocks
 * @opcode: %ARBEL_CMD_MAP_FA or %ARBEL_CMD_MAP_ICM_AUX
 *
 * The memory is split into blocks of at most one ICM chunk (256 KiB);
 * the last block is the smallest power of two that holds the rest.
 *
 * Context: process.
 * Return: 0; -ENOMEM with nothing allocated; or the firmware's errno, with
 * the memory still in @area: the caller sends UNMAP_FA / UNMAP_ICM_AUX
 * (blocks accepted before the failed command are mapped), then calls
 * arbel_icm_area_free().
 */
int arbel_icm_area_map(struct arbel_cmd_transport *cmd, struct device *dev,
		       struct arbel_icm_area *area, u64 pages, u16 opcode)
{
	u64 left = pages * ARBEL_ICM_PAGE_SIZE;
	struct arbel_map_chunk *chunks;
	int n, i, err;

	n = DIV_ROUND_UP_ULL(left, ARBEL_ICM_CHUNK_SIZE);
	area->n = 0;
	area->mem = kcalloc(n, sizeof(*area->mem), GFP_KERNEL);
	chunks = kcalloc(n, sizeof(*chunks), GFP_KERNEL);
	if (!area->mem || !chunks) {
		err = -ENOMEM;
		goto err_free;
	}

	for (i = 0; i < n; i++) {
		size_t size = min_t(u64, ARBEL_ICM_CHUNK_SIZE,
				    roundup_pow_of_two(left));

		err = arbel_icm_mem_alloc(dev, &area->mem[i], size);
		if (err)
			goto err_free;
		area->n++;
		chunks[i].dma = area->mem[i].dma;
		chunks[i].log_pages = ilog2(size / ARBEL_ICM_PAGE_SIZE);
		left -= min_t(u64, left, size);
	}

	/*
	 * If the firmware refuses a later command, earlier ones stay mapped:
	 * the memory must outlive the caller's UNMAP_FA / UNMAP_ICM_AUX, so
	 * it stays in @area for arbel_icm_area_free() after that.
	 */
	err = arbel_fw_map(cmd, opcode, chunks, n);
	kfree(chunks);
	return err;

err_free:
	kfree(chunks);
	arbel_icm_area_free(dev, area);
	return err;
}

/**
 * arbel_icm_area_free() - free memory the firmware no longer holds
 * @dev: device for DMA allocations
 * @area: from arbel_icm_area_map(), after UNMAP_FA / UNMAP_ICM_AUX
 *
 * Context: process.
 */
void arbel_icm_area_free(struct device *dev, struct arbel_icm_area *area)
{
	int i;

	for (i = 0; i < area->n; i++)
		arbel_icm_mem_free(dev, &area->mem[i]);
	kfree(area->mem);
	area->mem = NULL;
	area->n = 0;
}

/**
 * arbel_icm_area_size() - bytes of host memory in an area
 * @area: from arbel_icm_area_map()
 *
 * Context: any.
 * Return: the sum of the block sizes.
 */
u64 arbel_icm_area_size(const struct arbel_icm_area *area)
{
	u64 bytes = 0;
	int i;

	for (i = 0; i < area->n; i++)
		bytes += area->mem[i].size;
	return bytes;
}

static int arbel_icm_chunk_get(struct arbel_icm_table *t, u32 i)
{
	struct arbel_map_chunk chunk;
	int err;

	if (t->refcount[i]++)
		return 0;

	err = arbel_icm_mem_alloc(t->dev, &t->mem[i], t->chunk_size);
	if (err)
		goto err_ref;
	chunk.va = t->place.base + (u64)i * t->chunk_size;
	chunk.dma = t->mem[i].dma;
	chunk.log_pages = ilog2(t->chunk_size / ARBEL_ICM_PAGE_SIZE);
	err = arbel_fw_map(t->cmd, ARBEL_CMD_MAP_ICM, &chunk, 1);
	if (err)
		goto err_free;
	return 0;

err_free:
	arbel_icm_mem_free(t->dev, &t->mem[i]);
err_ref:
	t->refcount[i]--;
	return err;
}

static void arbel_icm_chunk_put(struct arbel_icm_table *t, u32 i)
{
	int err;

	if (WARN_ON(!t->refcount[i]) || --t->refcount[i])
		return;
	err = arbel_fw_unmap_icm(t->cmd, t->place.base + (u64)i * t->chunk_size,
				 t->chunk_size / ARBEL_ICM_PAGE_SIZE);
	if (err)
		dev_warn(t->dev, "UNMAP_ICM of ICM 0x%llx failed: %d\n",
			 t->place.base + (u64)i * t->chunk_size, err);
	arbel_icm_mem_free(t->dev, &t->mem[i]);
}

/**
 * arbel_icm_table_get_range() - map the chunks holding objects first..last
 * @table: the table
 * @first: first object
 * @last: last object (inclusive)
 *
 * Context: process.
 * Return: 0, or a negative errno with nothing taken.
 */
int arbel_icm_table_get_range(struct arbel_icm_table *table, u32 first,
			      u32 last)
{
	u32 lo = arbel_icm_chunk_index(&table->place, table->chunk_size, first);
	u32 hi = arbel_icm_chunk_index(&table->place, table->chunk_size, last);
	u32 i;
	int err = 0;

	mutex_lock(&table->lock);
	for (i = lo; i <= hi; i++) {
		err = arbel_icm_chunk_get(table, i);
		if (err)
			break;
	}
	if (err)
		while (i-- > lo)
			arbel_icm_chunk_put(table, i);
	mutex_unlock(&table->lock);
	return err;
}

/**
 * arbel_icm_table_put_range() - release what arbel_icm_table_get_range()
 * took
 * @table: the table
 * @first: first object
 * @last: last object (inclusive)
 *
 * Context: process.
 */
void arbel_icm_table_put_range(struct arbel_icm_table *table, u32 first,
			       u32 last)
{
	u32 lo = arbel_icm_chunk_index(&table->place, table->chunk_size, first);
	u32 hi = arbel_icm_chunk_index(&table->place, table->chunk_size, last);
	u32 i;

	mutex_lock(&table->lock);
	for (i = lo; i <= hi; i++)
		arbel_icm_chunk_put(table, i);
	mutex_unlock(&table->lock);
}

/**
 * arbel_icm_table_find() - where an object of a mapped chunk lies
 * @table: the table
 * @obj: the object; the caller holds a reference on its chunk
 *	 (arbel_icm_table_get_range()), which keeps the address valid
 * @dma: if not NULL, receives the object's bus address
 *
 * The chunks are DMA-coherent (dma_alloc_coherent()): CPU stores at the
 * address need no dma_sync_*(), only a write barrier before the command
 * that makes the HCA read them.
 *
 * Context: process.
 * Return: the object's CPU address, or NULL if its chunk is not mapped.
 */
void *arbel_icm_table_find(struct arbel_icm_table *table, u32 obj,
			   dma_addr_t *dma)
{
	u32 i = arbel_icm_chunk_index(&table->place, table->chunk_size, obj);
	u64 off = (u64)(obj & ((1ULL << table->place.log_num) - 1)) *
		  table->place.entry_size - (u64)i * table->chunk_size;
	void *buf = NULL;

	mutex_lock(&table->lock);
	if (table->refcount[i] && table->mem[i].buf) {
		buf = table->mem[i].buf + off;
		if (dma)
			*dma = table->mem[i].dma + off;
	}
	mutex_unlock(&table->lock);
	return buf;
}

/**
 * arbel_icm_table_init() - set up a table and map its reserved objects
 * @table: the table
 * @cmd: transport
 * @dev: device for DMA allocations
 * @place: where the table lies (from the profile)
 *
 * Context: process.
 * Return: 0, or a negative errno with nothing left mapped or allocated.
 */
int arbel_icm_table_init(struct arbel_icm_table *table,
			 struct arbel_cmd_transport *cmd, struct device *dev,
			 const struct arbel_icm_place *place)
{
	int err;

	table->cmd = cmd;
	table->dev = dev;
	table->place = *place;
	table->chunk_size = min_t(u64, ARBEL_ICM_CHUNK_SIZE, place->size);
	table->nchunks = place->size / table->chunk_size;
	mutex_init(&table->lock);
	table->mem = kcalloc(table->nchunks, sizeof(*table->mem), GFP_KERNEL);
	table->refcount = kcalloc(table->nchunks, sizeof(*table->refcount),
				  GFP_KERNEL);
	if (!table->mem || !table->refcount) {
		err = -ENOMEM;
		goto err_free;
	}

	err = arbel_icm_table_get_range(table, 0,
					(1U << place->log_rsvd) - 1);
	if (err)
		goto err_free;
	return 0;

err_free:
	kfree(table->refcount);
	kfree(table->mem);
	mutex_destroy(&table->lock);
	return err;
}

/**
 * arbel_icm_table_cleanup() - release the reserved objects and the table
 * @table: the table; every other reference must have been released
 *
 * Context: process.
 */
void arbel_icm_table_cleanup(struct arbel_icm_table *table)
{
	u32 i;

	arbel_icm_table_put_range(table, 0, (1U << table->place.log_rsvd) - 1);
	for (i = 0; i < table->nchunks; i++)
		WARN_ON(table->refcount[i]);
	kfree(table->refcount);
	kfree(table->mem);
	mutex_destroy(&table->lock);
}

/**
 * arbel_icm_table_mapped_pages() - 4 KiB pages of the table now mapped
 * @table: the table
 *
 * Context: process.
 * Return: the count.
 */
u64 arbel_icm_table_mapped_pages(struct arbel_icm_table *table)
{
	u64 pages = 0;
	u32 i;

	mutex_lock(&table->lock);
	for (i = 0; i < table->nchunks; i++)
		if (table->refcount[i])
			pages += table->chunk_size / ARBEL_ICM_PAGE_SIZE;
	mutex_unlock(&table->lock);
	return pages;
}
