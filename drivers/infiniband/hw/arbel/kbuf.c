// SPDX-License-Identifier: GPL-2.0-only
/*
 * What kernel queues are made of: buffers and doorbell records.
 *
 * A kernel CQ's CQEs and a kernel QP's or SRQ's WQEs live in a buffer of
 * DMA-coherent pages which the HCA reaches through a region of its own
 * (an MPT entry and MTT entries, as every mem-free consumer's buffers:
 * mthca's and libmthca's), zero-based like libmthca's, so that a queue's
 * context holds offsets and a kernel QP is encoded exactly as a user one.
 * The pages are described to the MR layer as a pinned region is: an
 * ib_umem whose SG table lists their DMA addresses (nothing is pinned; the
 * umem is never given to ib_umem_release()).
 *
 * The doorbell records of kernel queues are in pages of the kernel's UAR
 * context (the UAR the driver keeps for itself, whose page also takes the
 * send and CQ doorbells): page i is MAP_ICMed at uarc_base + uar *
 * uarc_size + i * 4 KiB when its first record is taken, and stays until
 * the ib_device goes.
 */

#include <linux/bitmap.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/slab.h>

#include "arbel.h"
#include "kq.h"

/**
 * arbel_kbuf_alloc() - a zero-filled buffer the HCA reaches by an lkey
 * @adev: the HCA
 * @buf: receives the buffer
 * @size: bytes (rounded up to pages)
 * @pdn: PD of its region
 *
 * Context: process; sleeps.
 * Return: 0, or a negative errno with nothing left allocated.
 */
int arbel_kbuf_alloc(struct arbel_dev *adev, struct arbel_kbuf *buf,
		     size_t size, u32 pdn)
{
	struct device *dev = &adev->pdev->dev;
	struct scatterlist *sg;
	u32 i;
	int err;

	memset(buf, 0, sizeof(*buf));
	buf->npages = DIV_ROUND_UP(size, PAGE_SIZE);
	buf->page = kcalloc(buf->npages, sizeof(*buf->page), GFP_KERNEL);
	if (!buf->page)
		return -ENOMEM;
	err = sg_alloc_table(&buf->umem.sgt_append.sgt, buf->npages,
			     GFP_KERNEL);
	if (err)
		goto err_pages;
	for_each_sgtable_sg(&buf->umem.sgt_append.sgt, sg, i) {
		dma_addr_t dma;

		buf->page[i] = dma_alloc_coherent(dev, PAGE_SIZE, &dma,
						  GFP_KERNEL);
		if (!buf->page[i]) {
			err = -ENOMEM;
			goto err_free;
		}
		sg_set_page(sg, NULL, PAGE_SIZE, 0);
		sg_dma_address(sg) = dma;
		sg_dma_len(sg) = PAGE_SIZE;
	}
	buf->umem.length = (u64)buf->npages * PAGE_SIZE;

	buf->mr.pdn = pdn;
	buf->mr.iova = 0;
	buf->mr.length = buf->umem.length;
	buf->mr.access = IB_ACCESS_LOCAL_WRITE;
	buf->mr.mtt.page_shift = PAGE_SHIFT;
	err = arbel_mr_register(adev, &buf->mr, &buf->umem);
	if (err)
		goto err_free;
	return 0;

err_free:
	arbel_kbuf_free_pages(adev, buf);
	return err;
err_pages:
	kfree(buf->page);
	return err;
}

/**
 * arbel_kbuf_free_pages() - free a buffer's pages (its region is gone)
 * @adev: the HCA
 * @buf: the buffer
 *
 * Context: process.
 */
void arbel_kbuf_free_pages(struct arbel_dev *adev, struct arbel_kbuf *buf)
{
	struct scatterlist *sg;
	u32 i;

	for_each_sgtable_sg(&buf->umem.sgt_append.sgt, sg, i)
		if (buf->page[i])
			dma_free_coherent(&adev->pdev->dev, PAGE_SIZE,
					  buf->page[i], sg_dma_address(sg));
	sg_free_table(&buf->umem.sgt_append.sgt);
	kfree(buf->page);
	buf->page = NULL;
}

/**
 * arbel_kbuf_free() - take a buffer's region back and free the buffer
 * @adev: the HCA
 * @buf: the buffer; the queue using it is the software's again
 *
 * arbel_mr_unregister() resets the HCA before it returns if HW2SW_MPT
 * fails, so the pages are free to go in every case.
 *
 * Context: process; sleeps.
 */
void arbel_kbuf_free(struct arbel_dev *adev, struct arbel_kbuf *buf)
{
	arbel_mr_unregister(adev, &buf->mr);
	arbel_kbuf_free_pages(adev, buf);
}

/* ---- the kernel's doorbell records ------------------------------------ */

#define ARBEL_KDB_PER_PAGE	(ARBEL_ICM_PAGE_SIZE / ARBEL_DBREC_SIZE)

static u64 arbel_kdb_va(struct arbel_dev *adev, u32 i)
{
	const struct arbel_icm_place *p = &adev->layout.t[ARBEL_ICM_UARC];

	return p->base + (u64)adev->kq.uar * p->entry_size +
	       (u64)i * ARBEL_ICM_PAGE_SIZE;
}

/**
 * arbel_kdb_alloc() - take a doorbell record for a kernel queue
 * @adev: the HCA
 * @type: what it counts (its second dword says so)
 * @num: the queue's number
 * @rec: receives the record's address; its counter is 0
 *
 * Context: process; sleeps.
 * Return: the record's index in the kernel's UAR context, or -ENOMEM, or
 * the errno of MAP_ICM.
 */
int arbel_kdb_alloc(struct arbel_dev *adev, enum arbel_dbrec_type type,
		    u32 num, __be32 **rec)
{
	struct arbel_kq *kq = &adev->kq;
	struct arbel_kdb_page *pg;
	u32 i, j;
	int err;

	mutex_lock(&kq->db_lock);
	for (i = 0; i < kq->db_npages; i++) {
		pg = &kq->db[i];
		if (!pg->buf)
			break;
		j = find_first_zero_bit(pg->used, ARBEL_KDB_PER_PAGE);
		if (j < ARBEL_KDB_PER_PAGE)
			goto found;
	}
	err = -ENOMEM;
	if (i == kq->db_npages)
		goto out;
	pg = &kq->db[i];
	pg->buf = dma_alloc_coherent(&adev->pdev->dev, ARBEL_ICM_PAGE_SIZE,
				     &pg->dma, GFP_KERNEL);
	if (!pg->buf)
		goto out;
	err = arbel_fw_map_icm_page(&adev->cmd, arbel_kdb_va(adev, i),
				    pg->dma);
	if (err) {
		/* a timed-out MAP_ICM failed the device: it was reset */
		dma_free_coherent(&adev->pdev->dev, ARBEL_ICM_PAGE_SIZE,
				  pg->buf, pg->dma);
		pg->buf = NULL;
		goto out;
	}
	j = 0;
found:
	set_bit(j, pg->used);
	*rec = &pg->buf[j * 2];
	(*rec)[0] = 0;
	(*rec)[1] = arbel_dbrec_tag(type, num);
	err = i * ARBEL_KDB_PER_PAGE + j;
out:
	mutex_unlock(&kq->db_lock);
	return err;
}

/**
 * arbel_kdb_free() - give a kernel doorbell record back
 * @adev: the HCA
 * @index: what arbel_kdb_alloc() returned
 *
 * The page stays mapped for the next record.
 *
 * Context: process; sleeps.
 */
void arbel_kdb_free(struct arbel_dev *adev, u32 index)
{
	struct arbel_kq *kq = &adev->kq;
	struct arbel_kdb_page *pg = &kq->db[index / ARBEL_KDB_PER_PAGE];

	mutex_lock(&kq->db_lock);
	pg->buf[(index % ARBEL_KDB_PER_PAGE) * 2 + 1] = 0;
	clear_bit(index % ARBEL_KDB_PER_PAGE, pg->used);
	mutex_unlock(&kq->db_lock);
}

/**
 * arbel_kq_init() - the kernel's UAR and doorbell pages, and special QPs
 * @adev: the HCA, its ib_device being registered
 *
 * Takes a UAR page for the kernel (its send and CQ doorbells are mapped),
 * and tells the firmware where the special QPs are (CONF_SPECIAL_QP).
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left.
 */
int arbel_kq_init(struct arbel_dev *adev)
{
	struct arbel_kq *kq = &adev->kq;
	u32 uarc = adev->layout.t[ARBEL_ICM_UARC].entry_size;
	int uar, err;

	mutex_init(&kq->db_lock);
	kq->db_npages = min_t(u32, uarc / ARBEL_ICM_PAGE_SIZE, ARBEL_KDB_PAGES);
	uar = ida_alloc_range(&adev->uar_ida, adev->rsvd_uar,
			      adev->layout.num_uars - 1, GFP_KERNEL);
	if (uar < 0)
		return uar == -ENOSPC ? -ENOMEM : uar;
	kq->uar = uar;
	kq->uar_map = ioremap(pci_resource_start(adev->pdev, ARBEL_UAR_BAR) +
			      (u64)uar * PAGE_SIZE, PAGE_SIZE);
	if (!kq->uar_map) {
		err = -ENOMEM;
		goto err_uar;
	}
	kq->sqp_base = ALIGN(adev->rsvd_qps, 2);
	err = arbel_fw_conf_special_qp(&adev->cmd, 0, kq->sqp_base);
	if (err)
		goto err_map;
	err = arbel_fw_conf_special_qp(&adev->cmd, 1, kq->sqp_base + 2);
	if (err)
		goto err_qp0;
	return 0;

err_qp0:
	arbel_fw_conf_special_qp(&adev->cmd, 0, 0);
err_map:
	iounmap(kq->uar_map);
err_uar:
	ida_free(&adev->uar_ida, uar);
	mutex_destroy(&kq->db_lock);
	return err;
}

/**
 * arbel_kq_cleanup() - undo arbel_kq_init(); every kernel queue is gone
 * @adev: the HCA
 *
 * A doorbell page whose UNMAP_ICM is refused or lost fails the device
 * (the HCA is reset, as after any refused teardown command) before the
 * page is freed.
 *
 * Context: process; sleeps.
 */
void arbel_kq_cleanup(struct arbel_dev *adev)
{
	struct arbel_kq *kq = &adev->kq;
	u32 i;

	arbel_fw_conf_special_qp(&adev->cmd, 1, 0);
	arbel_fw_conf_special_qp(&adev->cmd, 0, 0);
	for (i = 0; i < kq->db_npages; i++) {
		struct arbel_kdb_page *pg = &kq->db[i];

		if (!pg->buf)
			continue;
		WARN_ON(!bitmap_empty(pg->used, ARBEL_KDB_PER_PAGE));
		/* refused or lost, the HCA may still use it: reset it first */
		if (arbel_fw_unmap_icm(&adev->cmd, arbel_kdb_va(adev, i), 1))
			arbel_dev_fail(adev, "UNMAP_ICM of a kernel doorbell page");
		dma_free_coherent(&adev->pdev->dev, ARBEL_ICM_PAGE_SIZE,
				  pg->buf, pg->dma);
		pg->buf = NULL;
	}
	iounmap(kq->uar_map);
	ida_free(&adev->uar_ida, kq->uar);
	mutex_destroy(&kq->db_lock);
}

/**
 * arbel_uar_write64() - ring a doorbell of the kernel's UAR page
 * @adev: the HCA
 * @db: the two dwords, in order
 * @off: %ARBEL_UAR_SEND_DB or %ARBEL_UAR_CQ_DB
 *
 * One 64-bit store: the HCA sees both halves at once (the driver is 64-bit
 * only).
 *
 * Context: any.
 */
void arbel_uar_write64(struct arbel_dev *adev, const __be32 db[2], u32 off)
{
	__raw_writeq(*(const u64 *)db, adev->kq.uar_map + off);
}
