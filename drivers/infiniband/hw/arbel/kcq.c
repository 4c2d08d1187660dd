// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel completion queues: the CQEs in a buffer of the driver's (kbuf.c),
 * every entry handed to the HCA before the CQ is, the consumer counter and
 * the arm state in two of the kernel's doorbell records.  Polling takes
 * the entries the HCA has written (owner bit clear), finds each one's QP
 * by number and its work request by the WQE's address, gives the entry
 * back and publishes the consumer counter in its record.  Arming writes
 * the arm record, then rings the CQ doorbell with the event count the CQ
 * has seen (arm_sn), so that an arm racing a completion event is not lost.
 */

#include <linux/log2.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

/**
 * arbel_kcq_create() - the driver's half of a kernel CQ
 * @adev: the HCA
 * @cq: the CQ, its number taken and its context's ICM held
 * @nent: CQEs (a power of two)
 *
 * Allocates the CQEs (all the HCA's) and the two doorbell records, and
 * fills nothing else: the caller builds the context.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left.
 */
int arbel_kcq_create(struct arbel_dev *adev, struct arbel_cq *cq, u32 nent)
{
	int err, ci, arm;
	u32 i;

	spin_lock_init(&cq->lock);
	INIT_LIST_HEAD(&cq->sq_qps);
	INIT_LIST_HEAD(&cq->rq_qps);
	err = arbel_kbuf_alloc(adev, &cq->buf, nent * ARBEL_CQE_SIZE,
			       adev->driver_pd);
	if (err)
		return err;
	for (i = 0; i < nent; i++)
		arbel_cqe_give(arbel_kbuf_at(&cq->buf, i * ARBEL_CQE_SIZE));
	ci = arbel_kdb_alloc(adev, ARBEL_DBREC_CQ_CI, cq->cqn,
			     &cq->set_ci_rec);
	if (ci < 0) {
		err = ci;
		goto err_buf;
	}
	arm = arbel_kdb_alloc(adev, ARBEL_DBREC_CQ_ARM, cq->cqn, &cq->arm_rec);
	if (arm < 0) {
		err = arm;
		goto err_ci;
	}
	cq->set_ci_db = ci;
	cq->arm_db = arm;
	return 0;

err_ci:
	arbel_kdb_free(adev, ci);
err_buf:
	arbel_kbuf_free(adev, &cq->buf);
	return err;
}

/**
 * arbel_kcq_destroy() - free what arbel_kcq_create() took
 * @adev: the HCA
 * @cq: the CQ, the software's again (HW2SW_CQ done, or the device reset)
 *
 * Context: process; sleeps.
 * Return: 0.
 */
int arbel_kcq_destroy(struct arbel_dev *adev, struct arbel_cq *cq)
{
	arbel_kdb_free(adev, cq->arm_db);
	arbel_kdb_free(adev, cq->set_ci_db);
	arbel_kbuf_free(adev, &cq->buf);
	return 0;
}

static void *arbel_kcq_entry(struct arbel_cq *cq, u32 n)
{
	return arbel_kbuf_at(&cq->buf, (n & cq->ibcq.cqe) * ARBEL_CQE_SIZE);
}

/* the work queue a CQE is of, and its WQE's index in it */
static struct arbel_kwq *arbel_kcq_wq(struct arbel_qp *qp,
				      const struct arbel_cqe_info *ci,
				      u32 *idx)
{
	struct arbel_kwq *wq = ci->is_send ? &qp->sq : &qp->rq;

	*idx = ((ci->wqe_addr - wq->base) >> wq->shift) & (wq->max - 1);
	return wq;
}

static void arbel_kcq_fill_recv(struct arbel_qp *qp,
				const struct arbel_cqe_info *ci,
				struct ib_wc *wc)
{
	wc->byte_len = ci->byte_cnt;
	wc->src_qp = ci->rqpn;
	wc->slid = ci->rlid;
	wc->sl = ci->sl;
	wc->dlid_path_bits = ci->path_bits;
	wc->pkey_index = ci->imm >> 16;
	wc->port_num = qp->hw.port;
	if (ci->grh)
		wc->wc_flags |= IB_WC_GRH;
	if (wc->wc_flags & IB_WC_WITH_IMM)
		wc->ex.imm_data = cpu_to_be32(ci->imm);
}

/*
 * Take the next CQE.  Return: 0 with @wc filled, 1 for an entry of a QP
 * that is gone (consumed, nothing to report), -EAGAIN if the HCA has
 * written none.
 */
static int arbel_kcq_poll_one(struct arbel_dev *adev, struct arbel_cq *cq,
			      struct ib_wc *wc)
{
	void *cqe = arbel_kcq_entry(cq, cq->cons_index);
	struct arbel_cqe_info ci;
	struct arbel_kwq *wq;
	struct arbel_qp *qp;
	u8 fr = ARBEL_KFR_NONE;
	int flags;
	u32 idx;

	if (arbel_cqe_hw_owned(cqe))
		return -EAGAIN;
	/* the entry's other bytes are read after its owner bit */
	rmb();
	arbel_cqe_decode(cqe, &ci);
	arbel_cqe_give(cqe);
	cq->cons_index++;

	qp = xa_load(&adev->qp_xa, ci.qpn);
	if (!qp || qp->db)
		return 1;
	memset(wc, 0, sizeof(*wc));
	if (!ci.is_send && qp->ibqp.srq) {
		struct arbel_srq *srq = to_asrq(qp->ibqp.srq);

		idx = (ci.wqe_addr >> srq->shift) & (srq->max - 1);
		wc->wr_id = srq->wrid[idx];
		arbel_ksrq_free_wqe(srq, ci.wqe_addr);
	} else {
		wq = arbel_kcq_wq(qp, &ci, &idx);
		wc->wr_id = wq->wrid[idx];
		if (ci.is_send)
			fr = wq->send[idx].fr;
		/*
		 * The slot read before the tail frees it for posting: pairs
		 * with the acquire in arbel_kwq_full().
		 */
		smp_store_release(&wq->tail, wq->tail +
				  (idx - wq->last_comp - 1) % wq->max + 1);
		wq->last_comp = idx;
	}
	wc->qp = &qp->ibqp;
	if (ci.error) {
		wc->status = arbel_cqe_status(ci.syndrome);
		wc->vendor_err = ci.vendor;
		return 0;
	}
	wc->status = IB_WC_SUCCESS;
	/* a NOP the driver posted for fast registration (kqp_fr.c) */
	if (fr != ARBEL_KFR_NONE) {
		wc->opcode = fr == ARBEL_KFR_REG ? IB_WC_REG_MR : IB_WC_LOCAL_INV;
		return 0;
	}
	if (arbel_cqe_wc_opcode(&ci, &wc->opcode, &flags)) {
		wc->status = IB_WC_GENERAL_ERR;
		return 0;
	}
	wc->wc_flags = flags;
	if (!ci.is_send)
		arbel_kcq_fill_recv(qp, &ci, wc);
	else if (wc->opcode == IB_WC_COMP_SWAP || wc->opcode == IB_WC_FETCH_ADD)
		wc->byte_len = 8;
	else if (wc->opcode == IB_WC_RDMA_READ)
		wc->byte_len = ci.byte_cnt;
	return 0;
}

/* the outstanding WQEs of @wq, completed in software as flushed */
static int arbel_kcq_flush_wq(struct arbel_qp *qp, struct arbel_kwq *wq,
			      int num_entries, struct ib_wc *wc)
{
	int n = 0;

	for (; n < num_entries && wq->tail != wq->head; n++, wq->tail++) {
		memset(wc + n, 0, sizeof(*wc));
		wc[n].wr_id = wq->wrid[wq->tail & (wq->max - 1)];
		wc[n].status = IB_WC_WR_FLUSH_ERR;
		wc[n].qp = &qp->ibqp;
	}
	return n;
}

/*
 * The HCA has been reset (the device failed): it completes nothing any
 * more, so every WQE still outstanding on a kernel QP of this CQ is
 * completed here, flushed, as the QP's error state would have (mlx5 does
 * the same after an internal error).  SRQ WQEs are not: they belong to no
 * QP.  Called with @cq->lock held, which guards the CQ's lists of kernel
 * QPs: a QP leaves them before it is freed (arbel_kcq_track()), so only
 * this CQ's own QPs are read, each alive.
 */
static int arbel_kcq_flush(struct arbel_cq *cq, int num_entries,
			   struct ib_wc *wc)
{
	struct arbel_qp *qp;
	int n = 0;

	list_for_each_entry(qp, &cq->sq_qps, scq_node) {
		if (n == num_entries)
			return n;
		n += arbel_kcq_flush_wq(qp, &qp->sq, num_entries - n, wc + n);
	}
	list_for_each_entry(qp, &cq->rq_qps, rcq_node) {
		if (n == num_entries)
			return n;
		n += arbel_kcq_flush_wq(qp, &qp->rq, num_entries - n, wc + n);
	}
	return n;
}

/**
 * arbel_kcq_track() - a kernel QP's queues join or leave their CQs' lists
 * @qp: the QP, its CQs and SRQ set
 * @add: true once the QP is made, false before it is freed
 *
 * The lists are what a failed device's poll flushes (arbel_kcq_flush());
 * a receive queue on an SRQ has no WQE of its own to flush.
 *
 * Context: process.
 */
void arbel_kcq_track(struct arbel_qp *qp, bool add)
{
	struct arbel_cq *scq = to_acq(qp->ibqp.send_cq);
	struct arbel_cq *rcq = to_acq(qp->ibqp.recv_cq);
	unsigned long flags;

	spin_lock_irqsave(&scq->lock, flags);
	if (add)
		list_add_tail(&qp->scq_node, &scq->sq_qps);
	else
		list_del(&qp->scq_node);
	spin_unlock_irqrestore(&scq->lock, flags);
	if (qp->ibqp.srq)
		return;
	spin_lock_irqsave(&rcq->lock, flags);
	if (add)
		list_add_tail(&qp->rcq_node, &rcq->rq_qps);
	else
		list_del(&qp->rcq_node);
	spin_unlock_irqrestore(&rcq->lock, flags);
}

/**
 * arbel_kq_fatal() - kernel queues after the HCA's reset on a fatal error
 * @adev: the HCA, %ARBEL_GONE
 *
 * Waits for posts that began before the device failed (posts refuse a
 * failed device), then calls the completion handler of every kernel CQ,
 * so that its consumer polls and gets its outstanding work requests back
 * flushed (arbel_poll_cq()).  Consumers such as the MAD layer wait for
 * every send to complete before they let the device go.  Holding the
 * tables' locks keeps the queues from being freed meanwhile.
 *
 * Context: process.
 */
void arbel_kq_fatal(struct arbel_dev *adev)
{
	unsigned long i, flags;
	struct arbel_qp *qp;
	struct arbel_cq *cq;

	xa_lock_irqsave(&adev->qp_xa, flags);
	xa_for_each(&adev->qp_xa, i, qp) {
		if (qp->db)
			continue;
		spin_lock(&qp->sq.lock);
		spin_unlock(&qp->sq.lock);
		spin_lock(&qp->rq.lock);
		spin_unlock(&qp->rq.lock);
	}
	xa_unlock_irqrestore(&adev->qp_xa, flags);

	xa_lock_irqsave(&adev->cq_xa, flags);
	xa_for_each(&adev->cq_xa, i, cq)
		if (!cq->db && cq->ibcq.comp_handler &&
		    cq->ibcq.poll_ctx != IB_POLL_DIRECT)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
	xa_unlock_irqrestore(&adev->cq_xa, flags);
}

/**
 * arbel_poll_cq() - take completions of a kernel CQ
 * @ibcq: the CQ
 * @num_entries: room in @wc
 * @wc: receives them
 *
 * Once the HCA has been reset after a fatal error, the work requests it
 * did not complete are returned flushed (IB_WC_WR_FLUSH_ERR).
 *
 * Context: any.
 * Return: the number taken.
 */
int arbel_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct arbel_dev *adev = to_adev(ibcq->device);
	struct arbel_cq *cq = to_acq(ibcq);
	unsigned long flags;
	u32 start;
	int n = 0, ret;

	spin_lock_irqsave(&cq->lock, flags);
	start = cq->cons_index;
	while (n < num_entries) {
		ret = arbel_kcq_poll_one(adev, cq, wc + n);
		if (ret < 0)
			break;
		if (!ret)
			n++;
	}
	/* the CQEs written before a reset first, then the flushed rest */
	if (n < num_entries && READ_ONCE(adev->cmd.state) == ARBEL_GONE)
		n += arbel_kcq_flush(cq, num_entries - n, wc + n);
	if (cq->cons_index != start) {
		/* the entries are the HCA's again before it may count them */
		wmb();
		cq->set_ci_rec[0] = cpu_to_be32(cq->cons_index);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

/**
 * arbel_req_notify_cq() - arm a kernel CQ
 * @ibcq: the CQ
 * @flags: IB_CQ_SOLICITED or IB_CQ_NEXT_COMP, maybe with
 *	   IB_CQ_REPORT_MISSED_EVENTS
 *
 * Context: any.
 * Return: 0 (also on a failed device, which is not rung), or 1 when
 * missed events were asked about and a CQE is already there.
 */
int arbel_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct arbel_dev *adev = to_adev(ibcq->device);
	struct arbel_cq *cq = to_acq(ibcq);
	u8 cmd = (flags & IB_CQ_SOLICITED_MASK) == IB_CQ_SOLICITED ?
		 ARBEL_CQ_ARM_SOLICITED : ARBEL_CQ_ARM_NEXT;
	unsigned long irqflags;
	__be32 db[2];
	u8 sn;
	int ret = 0;

	/*
	 * A failed HCA is rung no more (nor after a shutdown): its consumers'
	 * handlers were called (arbel_kq_fatal()), their work comes back
	 * flushed from polling.
	 */
	if (READ_ONCE(adev->cmd.state) != ARBEL_ALIVE)
		return 0;
	spin_lock_irqsave(&cq->lock, irqflags);
	sn = READ_ONCE(cq->arm_sn) & 3;
	cq->arm_rec[0] = cpu_to_be32(cq->cons_index);
	/* the counter before the command that makes the record an arm */
	wmb();
	cq->arm_rec[1] = arbel_dbrec_arm(ARBEL_DBREC_CQ_ARM, cq->cqn, cmd, sn);
	/* the record before the doorbell */
	wmb();
	arbel_cq_db(db, cq->cqn, cmd, sn, cq->cons_index);
	arbel_uar_write64(adev, db, ARBEL_UAR_CQ_DB);
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) &&
	    !arbel_cqe_hw_owned(arbel_kcq_entry(cq, cq->cons_index)))
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqflags);
	return ret;
}

/**
 * arbel_kcq_clean() - drop a destroyed QP's unpolled CQEs
 * @cq: a kernel CQ
 * @qpn: the QP, reset and out of the QP table
 * @srq: its SRQ, or NULL
 *
 * Its entries are marked with a QP number no QP has, so that a new QP
 * given the same number never sees them; the poll loop consumes them
 * silently.  The SRQ WQEs its receive entries completed go back on the
 * SRQ's free list.  Holding the lock also waits for a poller that still
 * holds the QP.
 *
 * Context: any.
 */
void arbel_kcq_clean(struct arbel_cq *cq, u32 qpn, struct arbel_srq *srq)
{
	unsigned long flags;
	u32 n;

	if (cq->db)
		return;
	spin_lock_irqsave(&cq->lock, flags);
	for (n = cq->cons_index; n != cq->cons_index + cq->ibcq.cqe + 1; n++) {
		__be32 *cqe = arbel_kcq_entry(cq, n);

		if (arbel_cqe_hw_owned(cqe))
			break;
		if ((be32_to_cpu(cqe[0]) & GENMASK(23, 0)) != qpn)
			continue;
		if (srq) {
			struct arbel_cqe_info ci;

			arbel_cqe_decode(cqe, &ci);
			if (!ci.is_send)
				arbel_ksrq_free_wqe(srq, ci.wqe_addr);
		}
		cqe[0] = cpu_to_be32(GENMASK(23, 0));
	}
	spin_unlock_irqrestore(&cq->lock, flags);
}
