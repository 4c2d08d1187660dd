// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel shared receive queues.  The WQEs are in a buffer of the driver's
 * (kbuf.c) behind a zero-based region of the SRQ's PD, the counter in a
 * doorbell record of the kernel's UAR context.  The HCA takes WQEs by
 * following their next segments (address, valid bit 0); the free ones
 * form a list threaded through the same WQEs (each one's immediate field
 * names the next free index, -1 ends it), so that a WQE completed out of
 * order can be posted again: freeing one appends it to the list and links
 * the list's last WQE to it (mthca's and libmthca's mem-free SRQs).  One
 * WQE is always kept on the list, as the HCA may still follow it.
 */

#include <linux/slab.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

#define ARBEL_SRQ_NDA_VALID	BIT(0)
/* the free list's link: the next segment's immediate field */
#define ARBEL_SRQ_LINK		12

static void *arbel_ksrq_wqe(struct arbel_srq *srq, u32 i)
{
	return arbel_kbuf_at(&srq->buf, i << srq->shift);
}

static __be32 *arbel_ksrq_link(struct arbel_srq *srq, u32 i)
{
	return arbel_ksrq_wqe(srq, i) + ARBEL_SRQ_LINK;
}

/**
 * arbel_ksrq_create() - the driver's half of a kernel SRQ
 * @adev: the HCA
 * @srq: the SRQ: number, @srq->max, @srq->max_gs and @srq->shift set
 *
 * Allocates the WQEs, chains them all (the free list holds them all), and
 * takes the doorbell record.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left.
 */
int arbel_ksrq_create(struct arbel_dev *adev, struct arbel_srq *srq)
{
	u32 i, off;
	int err, rec;

	spin_lock_init(&srq->lock);
	err = arbel_kbuf_alloc(adev, &srq->buf, srq->max << srq->shift,
			       to_apd(srq->ibsrq.pd)->pdn);
	if (err)
		return err;
	srq->wrid = kcalloc(srq->max, sizeof(u64), GFP_KERNEL);
	if (!srq->wrid) {
		err = -ENOMEM;
		goto err_buf;
	}
	rec = arbel_kdb_alloc(adev, ARBEL_DBREC_SRQ, srq->srqn, &srq->rec);
	if (rec < 0) {
		err = rec;
		goto err_wrid;
	}
	srq->db_index = rec;
	for (i = 0; i < srq->max; i++) {
		void *wqe = arbel_ksrq_wqe(srq, i);
		bool last = i == srq->max - 1;

		*(__be32 *)wqe = last ? 0 : cpu_to_be32(((i + 1) << srq->shift) |
							ARBEL_SRQ_NDA_VALID);
		*arbel_ksrq_link(srq, i) = cpu_to_be32(last ? -1 : i + 1);
		for (off = ARBEL_SEG_NEXT_SIZE; off < (1U << srq->shift);
		     off += ARBEL_SEG_DATA_SIZE)
			arbel_wqe_set_data(wqe + off, 0, ARBEL_INVAL_LKEY, 0);
	}
	srq->first_free = 0;
	srq->last_free = srq->max - 1;
	srq->counter = 0;
	return 0;

err_wrid:
	kfree(srq->wrid);
err_buf:
	arbel_kbuf_free(adev, &srq->buf);
	return err;
}

/**
 * arbel_ksrq_free() - free what arbel_ksrq_create() took
 * @adev: the HCA
 * @srq: the SRQ, the software's again
 *
 * Context: process; sleeps.
 */
void arbel_ksrq_free(struct arbel_dev *adev, struct arbel_srq *srq)
{
	arbel_kdb_free(adev, srq->db_index);
	kfree(srq->wrid);
	arbel_kbuf_free(adev, &srq->buf);
}

/**
 * arbel_ksrq_free_wqe() - a completed WQE goes back on the free list
 * @srq: the SRQ
 * @wqe_addr: the WQE's address (a CQE's)
 *
 * Context: any (under the CQ's lock).
 */
void arbel_ksrq_free_wqe(struct arbel_srq *srq, u32 wqe_addr)
{
	u32 ind = (wqe_addr >> srq->shift) & (srq->max - 1);
	unsigned long flags;

	spin_lock_irqsave(&srq->lock, flags);
	*arbel_ksrq_link(srq, srq->last_free) = cpu_to_be32(ind);
	*(__be32 *)arbel_ksrq_wqe(srq, srq->last_free) =
		cpu_to_be32((ind << srq->shift) | ARBEL_SRQ_NDA_VALID);
	*arbel_ksrq_link(srq, ind) = cpu_to_be32(-1);
	srq->last_free = ind;
	spin_unlock_irqrestore(&srq->lock, flags);
}

/**
 * arbel_post_srq_recv() - post receive work requests to a kernel SRQ
 * @ibsrq: the SRQ
 * @wr: the requests
 * @bad_wr: receives the first one not posted
 *
 * Context: any.
 * Return: 0; -EIO once the device failed; -ENOMEM when no WQE is free;
 * -EINVAL for too many scatter entries.  The requests before @bad_wr are
 * posted.
 */
int arbel_post_srq_recv(struct ib_srq *ibsrq, const struct ib_recv_wr *wr,
			const struct ib_recv_wr **bad_wr)
{
	struct arbel_srq *srq = to_asrq(ibsrq);
	unsigned long flags;
	u32 nreq = 0;
	int err, i;

	spin_lock_irqsave(&srq->lock, flags);
	err = arbel_dev_posting(to_adev(ibsrq->device));
	for (; wr && !err; wr = wr->next, nreq++) {
		int ind = srq->first_free;
		int next = (int)be32_to_cpu(*arbel_ksrq_link(srq, ind));
		void *seg;

		if (next < 0) {
			err = -ENOMEM;
			break;
		}
		if (wr->num_sge > srq->max_gs) {
			err = -EINVAL;
			break;
		}
		seg = arbel_ksrq_wqe(srq, ind) + ARBEL_SEG_NEXT_SIZE;
		for (i = 0; i < wr->num_sge; i++)
			seg += arbel_wqe_set_data(seg, wr->sg_list[i].length,
						  wr->sg_list[i].lkey,
						  wr->sg_list[i].addr);
		if (i < srq->max_gs)
			arbel_wqe_set_data(seg, 0, ARBEL_INVAL_LKEY, 0);
		srq->wrid[ind] = wr->wr_id;
		srq->first_free = next;
	}
	if (nreq) {
		srq->counter += nreq;
		/* the WQEs are written before the HCA may count them */
		wmb();
		srq->rec[0] = cpu_to_be32(srq->counter);
	}
	if (err)
		*bad_wr = wr;
	spin_unlock_irqrestore(&srq->lock, flags);
	return err;
}
