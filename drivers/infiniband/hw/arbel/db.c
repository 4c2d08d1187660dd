// SPDX-License-Identifier: GPL-2.0-only
/*
 * User doorbell pages.  On mem-free Arbel the doorbell records of a user
 * queue (CQ consumer counter and arm state, SQ and RQ counters, SRQ
 * counter) live in pages of the process's memory that the HCA reads as
 * part of the context's UAR context: page i of the UAR context of UAR u is
 * ICM address uarc_base + u * uarc_size + i * 4 KiB.  libmthca allocates
 * the records (8 bytes, 512 to a page) and passes each one's index and its
 * page's address; the first record used on a page pins the page and
 * MAP_ICMs it there, the last one released UNMAP_ICMs and unpins it.
 *
 * A page whose UNMAP_ICM is refused stays pinned (the HCA may still read
 * it) until the context goes, when the device has been reset or gone.
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include "arbel.h"
#include "queue.h"

#define ARBEL_DB_REC_PER_PAGE	(ARBEL_ICM_PAGE_SIZE / 8)

/**
 * arbel_db_table_alloc() - the doorbell pages of a new user context
 * @uar: the context's UAR
 * @uarc_size: bytes of UAR context per UAR
 *
 * Context: process.
 * Return: the table, or NULL.
 */
struct arbel_db_table *arbel_db_table_alloc(u32 uar, u32 uarc_size)
{
	u32 npages = uarc_size / ARBEL_ICM_PAGE_SIZE;
	struct arbel_db_table *t;

	t = kzalloc(struct_size(t, page, npages), GFP_KERNEL);
	if (!t)
		return NULL;
	mutex_init(&t->lock);
	t->uar = uar;
	t->npages = npages;
	return t;
}

static u64 arbel_db_va(struct arbel_dev *adev, struct arbel_db_table *t,
		       u32 i)
{
	const struct arbel_icm_place *p = &adev->layout.t[ARBEL_ICM_UARC];

	return p->base + (u64)t->uar * p->entry_size +
	       (u64)i * ARBEL_ICM_PAGE_SIZE;
}

static void arbel_db_page_release(struct arbel_dev *adev,
				  struct arbel_db_table *t, u32 i)
{
	struct arbel_db_page *pg = &t->page[i];
	int err;

	err = arbel_fw_unmap_icm(&adev->cmd, arbel_db_va(adev, t, i), 1);
	if (err && !arbel_cmd_failed(&adev->cmd)) {
		dev_warn(&adev->pdev->dev,
			 "UNMAP_ICM of doorbell page %u of UAR %u failed: %d; the page stays pinned\n",
			 i, t->uar, err);
		return;
	}
	ib_umem_release(pg->umem);
	pg->umem = NULL;
	pg->uaddr = 0;
}

/**
 * arbel_db_map() - take one doorbell record of a user context
 * @adev: the HCA
 * @ibdev: the RDMA device (pins the page)
 * @t: the context's table
 * @index: the record (page = @index / 512)
 * @uaddr: the address of the record's page in the process
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL for an index outside the UAR context or a page
 * address that differs from the one mapped there; or the errno of the
 * pin or of MAP_ICM, with nothing taken.
 */
int arbel_db_map(struct arbel_dev *adev, struct ib_device *ibdev,
		 struct arbel_db_table *t, u32 index, u64 uaddr)
{
	u32 i = index / ARBEL_DB_REC_PER_PAGE;
	struct arbel_db_page *pg;
	struct ib_umem *umem;
	int err = 0;

	if (i >= t->npages || !PAGE_ALIGNED(uaddr))
		return -EINVAL;
	pg = &t->page[i];
	mutex_lock(&t->lock);
	if (pg->umem) {
		if (pg->uaddr != uaddr || pg->refcount >= ARBEL_DB_REC_PER_PAGE)
			err = -EINVAL;
		else
			pg->refcount++;
		goto out;
	}
	umem = ib_umem_get(ibdev, uaddr, ARBEL_ICM_PAGE_SIZE,
			   IB_ACCESS_LOCAL_WRITE);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto out;
	}
	err = arbel_fw_map_icm_page(&adev->cmd, arbel_db_va(adev, t, i),
				    sg_dma_address(umem->sgt_append.sgt.sgl));
	if (err) {
		/* a timed-out MAP_ICM fails the device; the HCA is reset */
		ib_umem_release(umem);
		goto out;
	}
	pg->umem = umem;
	pg->uaddr = uaddr;
	pg->refcount = 1;
out:
	mutex_unlock(&t->lock);
	return err;
}

/**
 * arbel_db_unmap() - give one doorbell record back
 * @adev: the HCA
 * @t: the context's table
 * @index: the record arbel_db_map() took
 *
 * Context: process; sleeps.
 */
void arbel_db_unmap(struct arbel_dev *adev, struct arbel_db_table *t,
		    u32 index)
{
	u32 i = index / ARBEL_DB_REC_PER_PAGE;

	if (WARN_ON(i >= t->npages))
		return;
	mutex_lock(&t->lock);
	if (!WARN_ON(!t->page[i].refcount) && !--t->page[i].refcount)
		arbel_db_page_release(adev, t, i);
	mutex_unlock(&t->lock);
}

/**
 * arbel_db_table_free() - a user context is gone
 * @adev: the HCA
 * @t: its table; every queue using it has been destroyed
 *
 * Pages still pinned (a refused UNMAP_ICM) are tried again and released
 * once the device has failed (it was reset then).
 *
 * Context: process; sleeps.
 */
void arbel_db_table_free(struct arbel_dev *adev, struct arbel_db_table *t)
{
	u32 i;

	if (!t)
		return;
	for (i = 0; i < t->npages; i++) {
		if (!t->page[i].umem)
			continue;
		arbel_db_page_release(adev, t, i);
		if (t->page[i].umem) {
			/* the HCA may still read it: never unpinned */
			dev_err(&adev->pdev->dev,
				"doorbell page %u of UAR %u left pinned\n", i,
				t->uar);
		}
	}
	mutex_destroy(&t->lock);
	kfree(t);
}
