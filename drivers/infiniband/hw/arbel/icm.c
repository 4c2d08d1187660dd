// SPDX-License-Identifier: GPL-2.0-only
/*
 * ICM management.  Every block handed to the HCA is zeroed (firmware is
 * known to assume cleared pages) and naturally aligned, which
 * dma_alloc_coherent() guarantees for power-of-two sizes.
 *
 * Tables are mapped in chunks of 256 KiB: a chunk is allocated and
 * MAP_ICM'd when its first object is taken and UNMAP_ICM'd and freed when
 * its last one is released.  A chunk is one block of 256 KiB when the page
 * allocator has one; under fragmentation it is made of smaller blocks
 * (halving down to 4 KiB), all in one MAP_ICM.  The chunks holding the
 * firmware-reserved
 * objects are taken once at init and released at cleanup.
 *
 * Memory the HCA may still own is never freed: a chunk whose UNMAP_ICM is
 * refused, or whose MAP_ICM timed out, is held until the HCA has been
 * reset (arbel_icm_table_hca_reset()); see "Failure policy" in
 * Documentation/arbel.rst.
 */

#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "icm.h"

static int arbel_icm_mem_alloc(struct device *dev, struct arbel_icm_mem *m,
			       size_t size, gfp_t gfp)
{
	m->buf = dma_alloc_coherent(dev, size, &m->dma, gfp);
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

		err = arbel_icm_mem_alloc(dev, &area->mem[i], size, GFP_KERNEL);
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

/*
 * The memory of chunk i: one block of chunk_size if the allocator has it,
 * else (or above max_block) the largest power of two, down to 4 KiB, of
 * which chunk_size / block blocks can be had.  Every block is naturally
 * aligned (dma_alloc_coherent() of a power of two), as MAP_ICM wants.
 */
static int arbel_icm_chunk_alloc(struct arbel_icm_table *t,
				 struct arbel_icm_area *c)
{
	u32 blk = t->chunk_size, n, k;

	if (t->max_block && t->max_block < blk)
		blk = max_t(u32, rounddown_pow_of_two(t->max_block),
			    ARBEL_ICM_PAGE_SIZE);
	for (; blk >= ARBEL_ICM_PAGE_SIZE; blk /= 2) {
		/* a block that has a smaller fallback may fail quietly */
		gfp_t gfp = blk > ARBEL_ICM_PAGE_SIZE ?
			    GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY :
			    GFP_KERNEL;

		n = t->chunk_size / blk;
		c->mem = kcalloc(n, sizeof(*c->mem), GFP_KERNEL);
		if (!c->mem)
			return -ENOMEM;
		for (k = 0; k < n; k++)
			if (arbel_icm_mem_alloc(t->dev, &c->mem[k], blk, gfp))
				break;
		c->n = k;
		if (k == n)
			return 0;
		arbel_icm_area_free(t->dev, c);
	}
	return -ENOMEM;
}

/* Free chunk i's memory (the HCA no longer owns it). */
static void arbel_icm_chunk_free(struct arbel_icm_table *t, u32 i)
{
	if (t->mem[i].n > 1)
		t->split--;
	arbel_icm_area_free(t->dev, &t->mem[i]);
}

static int arbel_icm_chunk_get(struct arbel_icm_table *t, u32 i)
{
	struct arbel_icm_area *c = &t->mem[i];
	struct arbel_map_chunk *map;
	int k, err;

	if (t->refcount[i]) {
		t->refcount[i]++;
		return 0;
	}
	/* held for a failed HCA (see arbel_icm_chunk_put()): not reusable */
	if (c->n)
		return -EIO;

	err = arbel_icm_chunk_alloc(t, c);
	if (err)
		return err;
	if (c->n > 1)
		t->split++;
	map = kcalloc(c->n, sizeof(*map), GFP_KERNEL);
	if (!map) {
		arbel_icm_chunk_free(t, i);
		return -ENOMEM;
	}
	for (k = 0; k < c->n; k++) {
		map[k].va = t->place.base + (u64)i * t->chunk_size +
			    (u64)k * c->mem[0].size;
		map[k].dma = c->mem[k].dma;
		map[k].log_pages = ilog2(c->mem[k].size / ARBEL_ICM_PAGE_SIZE);
	}
	err = arbel_fw_map(t->cmd, ARBEL_CMD_MAP_ICM, map, c->n);
	kfree(map);
	/*
	 * Lost (timed out), aborted by a failure meanwhile (event mode) or
	 * cut off by the device leaving the bus: the firmware may have
	 * mapped it.  Kept until the HCA is reset.
	 */
	if (err && !t->hca_reset && arbel_cmd_failed(t->cmd)) {
		t->held++;
		return err;
	}
	if (err) {
		arbel_icm_chunk_free(t, i);
		return err;
	}
	t->refcount[i] = 1;
	return 0;
}

/*
 * A chunk whose UNMAP_ICM fails may still be the HCA's: it is not freed
 * but held, and the device is marked failed so that its owner resets the
 * HCA (a refused teardown command escalates to a reset); the reset then
 * frees it through arbel_icm_table_hca_reset().  Once the HCA has been
 * reset, nothing is the HCA's any more and the chunk is freed at once.
 */
static void arbel_icm_chunk_put(struct arbel_icm_table *t, u32 i)
{
	u64 va = t->place.base + (u64)i * t->chunk_size;
	int err;

	if (WARN_ON(!t->refcount[i]) || --t->refcount[i])
		return;
	err = arbel_fw_unmap_icm(t->cmd, va,
				 t->chunk_size / ARBEL_ICM_PAGE_SIZE);
	if (err && !t->hca_reset) {
		if (!arbel_cmd_fail(t->cmd))
			dev_warn(t->dev, "UNMAP_ICM of ICM 0x%llx failed: %d; the chunk is kept until the HCA is reset\n",
				 va, err);
		t->held++;
		return;
	}
	arbel_icm_chunk_free(t, i);
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
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_table_get_range);

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
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_table_put_range);

/**
 * arbel_icm_table_find() - where an object of a mapped chunk lies
 * @table: the table
 * @obj: the object; the caller holds a reference on its chunk
 *	 (arbel_icm_table_get_range()), which keeps the address valid
 * @dma: if not NULL, receives the object's bus address
 * @run: if not NULL, receives the bytes from the object to the end of the
 *	 block it lies in (a chunk may be several blocks), the most the
 *	 caller may address from the returned pointer
 *
 * The blocks are DMA-coherent (dma_alloc_coherent()): CPU stores at the
 * address need no dma_sync_*(), only a write barrier before the command
 * that makes the HCA read them.
 *
 * Context: process.
 * Return: the object's CPU address, or NULL if its chunk is not mapped.
 */
void *arbel_icm_table_find(struct arbel_icm_table *table, u32 obj,
			   dma_addr_t *dma, size_t *run)
{
	u32 i = arbel_icm_chunk_index(&table->place, table->chunk_size, obj);
	u64 off = (u64)(obj & ((1ULL << table->place.log_num) - 1)) *
		  table->place.entry_size - (u64)i * table->chunk_size;
	struct arbel_icm_area *c = &table->mem[i];
	void *buf = NULL;
	size_t bsz;
	u32 b;

	mutex_lock(&table->lock);
	if (table->refcount[i] && c->n) {
		/* the blocks of a chunk are all of one size */
		bsz = c->mem[0].size;
		b = div64_u64(off, bsz);
		off -= (u64)b * bsz;
		buf = c->mem[b].buf + off;
		if (dma)
			*dma = c->mem[b].dma + off;
		if (run)
			*run = bsz - off;
	}
	mutex_unlock(&table->lock);
	return buf;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_table_find);

/**
 * arbel_icm_table_init() - set up a table and map its reserved objects
 * @table: the table, zeroed
 * @cmd: transport
 * @dev: device for DMA allocations
 * @place: where the table lies (from the profile)
 *
 * Context: process.
 * Return: 0; -ENOMEM with nothing set up; or the errno of MAP_ICM with the
 * table set up but its reserved objects not taken (a chunk whose MAP_ICM
 * timed out is held in it): the caller still calls
 * arbel_icm_table_release() and arbel_icm_table_cleanup(), after
 * resetting a failed HCA.
 */
int arbel_icm_table_init(struct arbel_icm_table *table,
			 struct arbel_cmd_transport *cmd, struct device *dev,
			 const struct arbel_icm_place *place)
{
	int err;

	table->cmd = cmd;
	table->dev = dev;
	table->place = *place;
	/* a table set up again after a recovery starts afresh */
	table->split = 0;
	table->held = 0;
	table->hca_reset = false;
	table->chunk_size = min_t(u64, ARBEL_ICM_CHUNK_SIZE, place->size);
	table->nchunks = place->size / table->chunk_size;
	table->mem = kcalloc(table->nchunks, sizeof(*table->mem), GFP_KERNEL);
	table->refcount = kcalloc(table->nchunks, sizeof(*table->refcount),
				  GFP_KERNEL);
	if (!table->mem || !table->refcount) {
		kfree(table->refcount);
		kfree(table->mem);
		table->refcount = NULL;
		table->mem = NULL;
		return -ENOMEM;
	}
	mutex_init(&table->lock);

	err = arbel_icm_table_get_range(table, 0,
					(1U << place->log_rsvd) - 1);
	table->rsvd_taken = !err;
	return err;
}

/**
 * arbel_icm_table_release() - release the table's reserved objects
 * @table: the table (nothing happens if it is not set up, or they are
 *	   not taken)
 *
 * Their chunks are unmapped; one whose UNMAP_ICM fails is held and the
 * device marked failed (see @held).
 *
 * Context: process.
 */
void arbel_icm_table_release(struct arbel_icm_table *table)
{
	if (!table->mem || !table->rsvd_taken)
		return;
	arbel_icm_table_put_range(table, 0, (1U << table->place.log_rsvd) - 1);
	table->rsvd_taken = false;
}

/**
 * arbel_icm_table_cleanup() - release the reserved objects, free the table
 * @table: the table; every other reference must have been released.  Not
 *	   set up (arbel_icm_table_init() ran out of memory): nothing happens
 *
 * A chunk the HCA may still own (counted in @table->held) is
 * freed only if the HCA has been reset since (arbel_icm_table_hca_reset());
 * otherwise it is left allocated, with a warning: a leak, never memory
 * handed back to the kernel while the HCA may write it.  So the caller
 * calls arbel_icm_table_release() first and resets a failed HCA between
 * the two.
 *
 * Context: process.
 */
void arbel_icm_table_cleanup(struct arbel_icm_table *table)
{
	u32 i;

	if (!table->mem)
		return;
	arbel_icm_table_release(table);
	mutex_lock(&table->lock);
	for (i = 0; i < table->nchunks; i++) {
		WARN_ON(table->refcount[i]);
		if (table->hca_reset)
			arbel_icm_chunk_free(table, i);
	}
	WARN(table->held && !table->hca_reset,
	     "arbel: %u ICM chunks the HCA may own are leaked\n", table->held);
	mutex_unlock(&table->lock);
	kfree(table->refcount);
	kfree(table->mem);
	table->refcount = NULL;
	table->mem = NULL;
	mutex_destroy(&table->lock);
}

/**
 * arbel_icm_table_hca_reset() - the HCA has been reset: free held chunks
 * @table: the table (initialised)
 *
 * Called by whoever reset the HCA.  Frees every chunk that was kept
 * because the HCA might still own it, and from now on frees a chunk even
 * if its UNMAP_ICM fails (the HCA owns nothing after a reset).
 *
 * Context: process.
 */
void arbel_icm_table_hca_reset(struct arbel_icm_table *table)
{
	u32 i;

	mutex_lock(&table->lock);
	table->hca_reset = true;
	for (i = 0; i < table->nchunks; i++)
		if (!table->refcount[i])
			arbel_icm_chunk_free(table, i);
	table->held = 0;
	mutex_unlock(&table->lock);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_table_hca_reset);

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
