// SPDX-License-Identifier: GPL-2.0-only
/*
 * MTT entries: ranges of the MTT table, filled with the bus addresses of
 * pinned pages.  The regions that own the ranges are mr.c's; this file
 * knows only ranges.
 *
 * An MTT entry is a big-endian 64-bit word: the page's bus address in
 * bits 63:12 and the present bit, bit 0 (Documentation/arbel-hw.rst, "MTT
 * entries").  The HCA reads a region's entries from ICM, at the MPT
 * entry's mtt_adr, when it translates an access.
 *
 * By default the driver writes them itself, with CPU stores into the
 * MTT table's ICM chunks (the pages it allocated and handed to the HCA
 * with MAP_ICM), as mthca does on mem-free HCAs: a registration of any
 * size is then one command (SW2HW_MPT).  The chunks come from
 * dma_alloc_coherent() (icm.c), so the stores need no dma_sync_*(); a
 * write barrier orders them before the SW2HW_MPT that hands the entry
 * to the HCA.  With debugfs arbel/<bdf>/write_mtt set the entries go
 * through the firmware instead, with WRITE_MTT in full mailboxes of 510
 * entries: 1 + ceil(entries / 510) commands a registration.
 *
 * The chunks of the MTT table a registration uses are taken once and kept
 * mapped until the driver lets go of the HCA (arbel_mtt_icm_release()):
 * otherwise a region whose entries lie beyond the firmware-reserved
 * chunk would cost a MAP_ICM and an UNMAP_ICM per chunk on every
 * registration and deregistration.  The cost is memory: the MTT table's
 * ICM grows to the most entries ever in use at once (8 bytes an entry,
 * 256 KiB a chunk) and stays there.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "arbel.h"
#include "mtt.h"

/**
 * arbel_mtt_icm_init() - set up the record of held MTT chunks
 * @adev: the HCA, its MTT ICM table set up
 *
 * Context: process.
 * Return: 0 or -ENOMEM.
 */
int arbel_mtt_icm_init(struct arbel_dev *adev)
{
	struct arbel_mtt_icm *mi = &adev->mtt_icm;
	struct arbel_icm_table *tbl = &adev->icm[ARBEL_ICM_MTT];

	mi->nchunks = tbl->nchunks;
	mi->per_chunk = tbl->chunk_size / ARBEL_MTT_ENTRY_SIZE;
	mi->buf = kcalloc(mi->nchunks, sizeof(*mi->buf), GFP_KERNEL);
	if (!mi->buf)
		return -ENOMEM;
	mutex_init(&mi->lock);
	return 0;
}

/**
 * arbel_mtt_icm_release() - unmap the held MTT chunks, free the record
 * @adev: the HCA; no region may be registered any more
 *
 * Context: process.
 */
void arbel_mtt_icm_release(struct arbel_dev *adev)
{
	struct arbel_mtt_icm *mi = &adev->mtt_icm;
	u32 i, obj;

	for (i = 0; i < mi->nchunks; i++) {
		if (!mi->buf[i])
			continue;
		obj = i * mi->per_chunk;
		arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_MTT], obj, obj);
		mi->buf[i] = NULL;
	}
	kfree(mi->buf);
	mi->buf = NULL;
	mutex_destroy(&mi->lock);
}

static int arbel_mtt_icm_take(struct arbel_dev *adev, u32 i)
{
	struct arbel_mtt_icm *mi = &adev->mtt_icm;
	struct arbel_icm_table *tbl = &adev->icm[ARBEL_ICM_MTT];
	u32 obj = i * mi->per_chunk;
	void *buf;
	int err = 0;

	mutex_lock(&mi->lock);
	if (mi->buf[i])
		goto out;
	err = arbel_icm_table_get_range(tbl, obj, obj);
	if (err)
		goto out;
	buf = arbel_icm_table_find(tbl, obj, NULL, NULL);
	if (WARN_ON(!buf)) {
		arbel_icm_table_put_range(tbl, obj, obj);
		err = -EIO;
		goto out;
	}
	/* pairs with the acquire in arbel_mtt_icm_hold() */
	smp_store_release(&mi->buf[i], buf);
out:
	mutex_unlock(&mi->lock);
	return err;
}

/**
 * arbel_mtt_icm_hold() - make sure the chunks of MTT entries are mapped
 * @adev: the HCA
 * @first: first entry
 * @n: entries, at least 1
 *
 * A chunk not held yet is mapped (MAP_ICM) and stays mapped until
 * arbel_mtt_icm_release(); one already held costs nothing.  A chunk taken
 * for a registration that fails later stays held too: it is the table's,
 * not the registration's, so nothing is leaked.
 *
 * Context: process; sleeps.
 * Return: 0, or the errno of the chunk that could not be mapped.
 */
int arbel_mtt_icm_hold(struct arbel_dev *adev, u32 first, u32 n)
{
	struct arbel_mtt_icm *mi = &adev->mtt_icm;
	u32 lo = first / mi->per_chunk;
	u32 hi = (first + n - 1) / mi->per_chunk;
	u32 i;
	int err;

	for (i = lo; i <= hi; i++) {
		/* pairs with the release in arbel_mtt_icm_take() */
		if (smp_load_acquire(&mi->buf[i]))
			continue;
		err = arbel_mtt_icm_take(adev, i);
		if (err)
			return err;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_icm_hold);

/**
 * arbel_mtt_addr() - ICM virtual address of an MTT entry
 * @adev: the HCA
 * @first: the entry's index in the MTT table
 *
 * What an MPT entry carries as its mtt_addr, and where WRITE_MTT writes.
 *
 * Context: any.
 * Return: the address.
 */
u64 arbel_mtt_addr(struct arbel_dev *adev, u32 first)
{
	return adev->layout.t[ARBEL_ICM_MTT].base +
	       (u64)first * ARBEL_MTT_ENTRY_SIZE;
}

/**
 * arbel_mtt_entry() - the MTT entry of a page
 * @addr: the page's bus address
 *
 * Context: any.
 * Return: the big-endian entry: the address and the present bit.
 */
__be64 arbel_mtt_entry(u64 addr)
{
	return cpu_to_be64(FIELD_PREP(ARBEL_MTT_ADDR, addr >> 12) |
			   ARBEL_MTT_PRESENT);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_entry);

/*
 * Where MTT entry @idx goes; *@left receives how many entries fit from
 * there to the end of its ICM block.
 */
static __be64 *arbel_mtt_slot(struct arbel_icm_table *tbl, u32 idx,
			      u32 *left)
{
	size_t run = 0;
	__be64 *ent;

	ent = arbel_icm_table_find(tbl, idx, NULL, &run);
	*left = run / ARBEL_MTT_ENTRY_SIZE;
	return ent;
}

/*
 * PAGE_SIZE entries straight from the DMA segments: ib_umem_get() pins
 * whole pages, so every segment starts on a page and holds a whole
 * number of them, and the region's entries are those pages in order.
 * One store per page, where the block iterator costs a call per page
 * (Documentation/benchmarks.rst, "Guest instructions"); mlx4 walks its
 * segments the same way.
 */
static int arbel_mtt_write_pages(struct arbel_icm_table *tbl,
				 const struct arbel_mtt *mtt,
				 struct ib_umem *umem)
{
	u32 idx = mtt->first, end = mtt->first + mtt->n;
	struct scatterlist *sg;
	__be64 *ent = NULL;
	u32 left = 0;
	int i;

	for_each_sgtable_dma_sg(&umem->sgt_append.sgt, sg, i) {
		u64 addr = sg_dma_address(sg);
		u32 n = sg_dma_len(sg) >> PAGE_SHIFT;

		for (; n && idx < end; n--, idx++, left--) {
			if (!left) {
				ent = arbel_mtt_slot(tbl, idx, &left);
				if (WARN_ON(!ent))
					return -EIO;
			}
			*ent++ = arbel_mtt_entry(addr);
			addr += PAGE_SIZE;
		}
	}
	return WARN_ON(idx != end) ? -EIO : 0;
}

/* Entries of pages larger than PAGE_SIZE, through the block iterator. */
static int arbel_mtt_write_blocks(struct arbel_icm_table *tbl,
				  const struct arbel_mtt *mtt,
				  struct ib_umem *umem)
{
	struct ib_block_iter biter;
	u32 idx = mtt->first;
	__be64 *ent = NULL;
	u32 left = 0;

	rdma_umem_for_each_dma_block(umem, &biter, 1UL << mtt->page_shift) {
		if (!left) {
			ent = arbel_mtt_slot(tbl, idx, &left);
			if (WARN_ON(!ent))
				return -EIO;
		}
		*ent++ = arbel_mtt_entry(rdma_block_iter_dma_address(&biter));
		idx++;
		left--;
	}
	return 0;
}

/**
 * arbel_mtt_write_direct() - write a range of MTT entries into ICM
 * @adev: the HCA
 * @mtt: the range, its chunks held (arbel_mtt_icm_hold())
 * @umem: the pinned pages it maps, @mtt->n blocks of its page size
 *
 * CPU stores into the held chunks, which are DMA-coherent; the write
 * barrier at the end orders them before the SW2HW_MPT command that makes
 * the HCA read them.  A chunk may be made of several blocks (icm.c): the
 * entries are written a block at a time.  Regions of PAGE_SIZE pages are
 * written from the DMA segments directly, larger pages through the
 * kernel's block iterator.
 *
 * Context: process.
 * Return: 0, or -EIO if a chunk is not held or the segments do not add
 * up to the range's entries (a bug: warned).
 */
int arbel_mtt_write_direct(struct arbel_dev *adev,
			   const struct arbel_mtt *mtt, struct ib_umem *umem)
{
	struct arbel_icm_table *tbl = &adev->icm[ARBEL_ICM_MTT];
	int err;

	if (mtt->page_shift == PAGE_SHIFT)
		err = arbel_mtt_write_pages(tbl, mtt, umem);
	else
		err = arbel_mtt_write_blocks(tbl, mtt, umem);
	/* the entries reach memory before the command that points at them */
	wmb();
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_write_direct);

/**
 * arbel_mtt_cpu_map() - where each entry of a range lies in ICM
 * @adev: the HCA
 * @mtt: the range, at least one entry
 * @ent: receives the CPU address of each of its @mtt->n entries
 *
 * Holds the range's chunks (they stay held until the driver lets go of
 * the HCA), so that the addresses stay valid: a fast-registration region
 * writes its entries there with the CPU, in any context, at each
 * registration (frmr.c).
 *
 * Context: process; sleeps.
 * Return: 0 or the errno of a chunk that could not be mapped.
 */
int arbel_mtt_cpu_map(struct arbel_dev *adev, const struct arbel_mtt *mtt,
		      __be64 **ent)
{
	struct arbel_icm_table *tbl = &adev->icm[ARBEL_ICM_MTT];
	__be64 *e = NULL;
	u32 i, left = 0;
	int err;

	err = arbel_mtt_icm_hold(adev, mtt->first, mtt->n);
	if (err)
		return err;
	for (i = 0; i < mtt->n; i++, left--) {
		if (!left) {
			e = arbel_mtt_slot(tbl, mtt->first + i, &left);
			if (WARN_ON(!e))
				return -EIO;
		}
		ent[i] = e++;
	}
	return 0;
}

/**
 * arbel_mtt_write_cmd() - write a range of MTT entries with WRITE_MTT
 * @adev: the HCA
 * @mtt: the range, its chunks held
 * @umem: the pinned pages it maps
 *
 * One mailbox, filled with up to %ARBEL_WRITE_MTT_MAX_ENTRIES entries a
 * command.
 *
 * Context: process; sleeps.
 * Return: 0, -ENOMEM, or the firmware's errno.
 */
int arbel_mtt_write_cmd(struct arbel_dev *adev, const struct arbel_mtt *mtt,
			struct ib_umem *umem)
{
	u64 va = arbel_mtt_addr(adev, mtt->first);
	struct ib_block_iter biter;
	struct arbel_mailbox *mbox;
	__be64 *ent;
	u32 n = 0;
	int err = 0;

	mbox = arbel_mailbox_alloc(&adev->cmd);
	if (IS_ERR(mbox))
		return PTR_ERR(mbox);
	ent = (__be64 *)mbox->buf + ARBEL_WRITE_MTT_HDR_QWORDS;

	rdma_umem_for_each_dma_block(umem, &biter, 1UL << mtt->page_shift) {
		ent[n++] = arbel_mtt_entry(rdma_block_iter_dma_address(&biter));
		if (n == ARBEL_WRITE_MTT_MAX_ENTRIES) {
			err = arbel_fw_write_mtt(&adev->cmd, mbox, va, n);
			if (err)
				goto out;
			va += n * ARBEL_MTT_ENTRY_SIZE;
			n = 0;
		}
	}
	if (n)
		err = arbel_fw_write_mtt(&adev->cmd, mbox, va, n);
out:
	arbel_mailbox_free(&adev->cmd, mbox);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mtt_write_cmd);

/**
 * arbel_mtt_write() - write a range of MTT entries the configured way
 * @adev: the HCA
 * @mtt: the range, at least one entry
 * @umem: the pinned pages it maps
 *
 * Holds the chunks the entries lie in, then writes them by CPU stores
 * or, with debugfs write_mtt set (@adev->write_mtt), by WRITE_MTT.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno (nothing to undo: held chunks stay the
 * table's).
 */
int arbel_mtt_write(struct arbel_dev *adev, const struct arbel_mtt *mtt,
		    struct ib_umem *umem)
{
	int err;

	err = arbel_mtt_icm_hold(adev, mtt->first, mtt->n);
	if (err)
		return err;
	if (READ_ONCE(adev->write_mtt))
		return arbel_mtt_write_cmd(adev, mtt, umem);
	return arbel_mtt_write_direct(adev, mtt, umem);
}
