// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel queue pairs: the WQE buffer (the receive queue, then the send
 * queue, then the special QPs' MLX headers) in a buffer of the driver's,
 * laid out as libmthca lays out a user QP's, and the two doorbell records
 * in the kernel's UAR context.
 *
 * Posting a receive fills the WQE's scatter list (ended by an entry with
 * the invalid lkey when shorter than the stride allows) and publishes the
 * new count in the receive record: receive WQEs were chained once, when
 * the QP was made.  Posting sends writes each WQE's segments, links it
 * into the previous WQE's next segment, then publishes the count in the
 * send record and rings the send doorbell with the first WQE's opcode and
 * size, at most 255 WQEs a doorbell (the counter field's width).  Fast
 * registration's requests are NOP WQEs the driver executes (kqp_fr.c): a
 * LOCAL_INV holds the doorbell back until its SYNC_TPT is done.
 */

#include <linux/completion.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

static void arbel_kwq_init(struct arbel_kwq *wq, u32 max, u8 shift,
			   u32 base, u32 max_gs)
{
	spin_lock_init(&wq->lock);
	wq->max = max;
	wq->shift = shift;
	wq->base = base;
	wq->max_gs = max_gs;
	arbel_kqp_reset_wq(wq);
}

/**
 * arbel_kqp_reset_wq() - a work queue as a new QP's
 * @wq: the queue; nothing posts to it
 *
 * Context: any.
 */
void arbel_kqp_reset_wq(struct arbel_kwq *wq)
{
	wq->head = 0;
	wq->tail = 0;
	wq->last_comp = wq->max - 1;
	wq->hw_head = 0;
	wq->gen++;
	wq->prev = NULL;
	if (wq->rec)
		wq->rec[0] = 0;
}

static void *arbel_kwq_wqe(struct arbel_qp *qp, struct arbel_kwq *wq, u32 i)
{
	return arbel_kbuf_at(&qp->buf, wq->base + ((i & (wq->max - 1)) <<
						   wq->shift));
}

/* every receive WQE chained to the next, its scatter list empty */
static void arbel_kqp_init_rq(struct arbel_qp *qp)
{
	struct arbel_kwq *rq = &qp->rq;
	u32 i, off;

	for (i = 0; i < rq->max; i++) {
		void *wqe = arbel_kwq_wqe(qp, rq, i);

		arbel_wqe_link_recv(wqe, rq->base + (((i + 1) & (rq->max - 1)) <<
						     rq->shift),
				    (ARBEL_SEG_NEXT_SIZE +
				     rq->max_gs * ARBEL_SEG_DATA_SIZE) /
				    ARBEL_WQE_UNIT);
		for (off = ARBEL_SEG_NEXT_SIZE; off < (1U << rq->shift);
		     off += ARBEL_SEG_DATA_SIZE)
			arbel_wqe_set_data(wqe + off, 0, ARBEL_INVAL_LKEY, 0);
	}
}

/**
 * arbel_kqp_create() - the driver's half of a kernel QP
 * @adev: the HCA
 * @qp: the QP: number, geometry (@qp->sz) and PD set
 * @init: the request (its capacities already checked)
 *
 * Allocates the WQE buffer, the work request IDs and the two doorbell
 * records, and chains the receive WQEs.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left.
 */
int arbel_kqp_create(struct arbel_dev *adev, struct arbel_qp *qp,
		     struct ib_qp_init_attr *init)
{
	bool mlx = init->qp_type == IB_QPT_SMI || init->qp_type == IB_QPT_GSI;
	u32 size = qp->sz.buf_size, nwr = qp->sz.rq_max + qp->sz.sq_max;
	int err, rq, sq;

	qp->hdr_base = ALIGN(size, ARBEL_MLX_HDR_SIZE);
	if (mlx)
		size = qp->hdr_base + qp->sz.sq_max * ARBEL_MLX_HDR_SIZE;
	err = arbel_kbuf_alloc(adev, &qp->buf, max_t(u32, size, 1),
			       to_apd(qp->ibqp.pd)->pdn);
	if (err)
		return err;
	qp->rq.wrid = kcalloc(max_t(u32, nwr, 1), sizeof(u64), GFP_KERNEL);
	if (!qp->rq.wrid) {
		err = -ENOMEM;
		goto err_buf;
	}
	qp->sq.wrid = qp->rq.wrid + qp->sz.rq_max;
	qp->sq.send = kcalloc(max_t(u32, qp->sz.sq_max, 1),
			      sizeof(*qp->sq.send), GFP_KERNEL);
	if (!qp->sq.send) {
		err = -ENOMEM;
		goto err_wrid;
	}
	rq = arbel_kdb_alloc(adev, ARBEL_DBREC_RQ, qp->hw.qpn, &qp->rq.rec);
	if (rq < 0) {
		err = rq;
		goto err_wrid;
	}
	sq = arbel_kdb_alloc(adev, ARBEL_DBREC_SQ, qp->hw.qpn, &qp->sq.rec);
	if (sq < 0) {
		err = sq;
		goto err_rq;
	}
	qp->rq.rec_index = rq;
	qp->sq.rec_index = sq;
	qp->hw.rq_db = rq;
	qp->hw.sq_db = sq;
	arbel_kwq_init(&qp->rq, qp->sz.rq_max, qp->sz.rq_wqe_shift, 0,
		       qp->sz.max_recv_sge);
	arbel_kwq_init(&qp->sq, qp->sz.sq_max, qp->sz.sq_wqe_shift,
		       qp->sz.sq_base, qp->sz.max_send_sge);
	if (qp->rq.max)
		arbel_kqp_init_rq(qp);
	arbel_kqp_fr_init(qp);
	arbel_kcq_track(qp, true);
	return 0;

err_rq:
	arbel_kdb_free(adev, rq);
err_wrid:
	kfree(qp->sq.send);
	kfree(qp->rq.wrid);
err_buf:
	arbel_kbuf_free(adev, &qp->buf);
	return err;
}

/* the QP's unpolled CQEs go (with their SRQ WQEs back on its list) */
static void arbel_kqp_clean(struct arbel_qp *qp)
{
	struct arbel_srq *srq = qp->ibqp.srq ? to_asrq(qp->ibqp.srq) : NULL;

	arbel_kcq_clean(to_acq(qp->ibqp.recv_cq), qp->hw.qpn, srq);
	if (qp->ibqp.recv_cq != qp->ibqp.send_cq)
		arbel_kcq_clean(to_acq(qp->ibqp.send_cq), qp->hw.qpn, NULL);
}

/**
 * arbel_kqp_free() - free what arbel_kqp_create() took
 * @adev: the HCA
 * @qp: the QP, reset (or the device reset) and out of the QP table
 *
 * Context: process; sleeps.
 */
void arbel_kqp_free(struct arbel_dev *adev, struct arbel_qp *qp)
{
	/* a LOCAL_INV still waiting is done (its region made invalid) */
	flush_work(&qp->fr_work);
	arbel_kcq_track(qp, false);
	arbel_kqp_clean(qp);
	arbel_kdb_free(adev, qp->sq.rec_index);
	arbel_kdb_free(adev, qp->rq.rec_index);
	kfree(qp->sq.send);
	kfree(qp->rq.wrid);
	arbel_kbuf_free(adev, &qp->buf);
}

/**
 * arbel_kqp_reset() - a kernel QP moved to the reset state
 * @qp: the QP
 *
 * Its unpolled completions go, and both queues start again from their
 * first WQE (mthca's reset of a kernel QP).
 *
 * Context: process.
 */
void arbel_kqp_reset(struct arbel_qp *qp)
{
	unsigned long flags;

	flush_work(&qp->fr_work);
	arbel_kqp_clean(qp);
	spin_lock_irqsave(&qp->sq.lock, flags);
	arbel_kqp_reset_wq(&qp->sq);
	spin_unlock_irqrestore(&qp->sq.lock, flags);
	spin_lock_irqsave(&qp->rq.lock, flags);
	arbel_kqp_reset_wq(&qp->rq);
	spin_unlock_irqrestore(&qp->rq.lock, flags);
}

/*
 * Whether @nreq more WQEs overflow @wq; the tail moves under the CQ's
 * lock (polling), so it is read again under it before saying so.
 */
static bool arbel_kwq_full(struct arbel_kwq *wq, u32 nreq, struct ib_cq *ibcq)
{
	struct arbel_cq *cq = to_acq(ibcq);
	unsigned long flags;
	u32 cur;

	/* pairs with the release in arbel_kcq_poll_one() */
	if (wq->head - smp_load_acquire(&wq->tail) + nreq < wq->max)
		return false;
	spin_lock_irqsave(&cq->lock, flags);
	cur = wq->head - wq->tail;
	spin_unlock_irqrestore(&cq->lock, flags);
	return cur + nreq >= wq->max;
}

/**
 * arbel_post_recv() - post receive work requests to a kernel QP
 * @ibqp: the QP
 * @wr: the requests
 * @bad_wr: receives the first one not posted
 *
 * Context: any.
 * Return: 0; -EIO once the device failed; -ENOMEM when the queue is
 * full; -EINVAL for too many scatter entries.  The requests before
 * @bad_wr are posted.
 */
int arbel_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
		    const struct ib_recv_wr **bad_wr)
{
	struct arbel_qp *qp = to_aqp(ibqp);
	struct arbel_kwq *rq = &qp->rq;
	unsigned long flags;
	u32 nreq = 0;
	int err, i;

	spin_lock_irqsave(&rq->lock, flags);
	err = arbel_dev_posting(to_adev(ibqp->device));
	for (; wr && !err; wr = wr->next, nreq++) {
		void *wqe, *seg;

		if (arbel_kwq_full(rq, nreq, ibqp->recv_cq)) {
			err = -ENOMEM;
			break;
		}
		if (wr->num_sge > rq->max_gs) {
			err = -EINVAL;
			break;
		}
		wqe = arbel_kwq_wqe(qp, rq, rq->head + nreq);
		seg = wqe + ARBEL_SEG_NEXT_SIZE;
		for (i = 0; i < wr->num_sge; i++)
			seg += arbel_wqe_set_data(seg, wr->sg_list[i].length,
						  wr->sg_list[i].lkey,
						  wr->sg_list[i].addr);
		if (i < rq->max_gs)
			arbel_wqe_set_data(seg, 0, ARBEL_INVAL_LKEY, 0);
		rq->wrid[(rq->head + nreq) & (rq->max - 1)] = wr->wr_id;
	}
	if (nreq) {
		rq->head += nreq;
		/* the WQEs are written before the HCA may count them */
		wmb();
		rq->rec[0] = cpu_to_be32(rq->head & 0xffff);
	}
	if (err)
		*bad_wr = wr;
	spin_unlock_irqrestore(&rq->lock, flags);
	return err;
}

/* the gather list, as pointers or copied inline */
static int arbel_kqp_gather(struct arbel_qp *qp, const struct ib_send_wr *wr,
			    void *seg, u32 room)
{
	u32 len = 0, off = 0;
	int i;

	if (!(wr->send_flags & IB_SEND_INLINE)) {
		if (wr->num_sge > qp->sq.max_gs)
			return -EINVAL;
		for (i = 0; i < wr->num_sge; i++)
			off += arbel_wqe_set_data(seg + off,
						  wr->sg_list[i].length,
						  wr->sg_list[i].lkey,
						  wr->sg_list[i].addr);
		return off;
	}
	for (i = 0; i < wr->num_sge; i++) {
		if (wr->sg_list[i].length > qp->sz.max_inline - len ||
		    4 + len + wr->sg_list[i].length > room)
			return -EINVAL;
		memcpy(seg + 4 + len, (void *)(uintptr_t)wr->sg_list[i].addr,
		       wr->sg_list[i].length);
		len += wr->sg_list[i].length;
	}
	return len ? arbel_wqe_set_inline_hdr(seg, len) : 0;
}

/* the transport segments of one send WQE; returns their size */
static int arbel_kqp_transport(struct arbel_dev *adev, struct arbel_qp *qp,
			       const struct ib_send_wr *wr, int op, void *seg,
			       u32 ind)
{
	u32 size;

	switch (qp->ibqp.qp_type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
		if (op == ARBEL_OP_SEND || op == ARBEL_OP_SEND_IMM)
			return 0;
		if (qp->ibqp.qp_type == IB_QPT_UC &&
		    op != ARBEL_OP_RDMA_WRITE && op != ARBEL_OP_RDMA_WRITE_IMM)
			return -EINVAL;
		if (op == ARBEL_OP_ATOMIC_CS || op == ARBEL_OP_ATOMIC_FA) {
			const struct ib_atomic_wr *a = atomic_wr(wr);

			size = arbel_wqe_set_raddr(seg, a->remote_addr, a->rkey);
			if (op == ARBEL_OP_ATOMIC_CS)
				return size + arbel_wqe_set_atomic(seg + size,
								   a->swap,
								   a->compare_add);
			return size + arbel_wqe_set_atomic(seg + size,
							   a->compare_add, 0);
		}
		return arbel_wqe_set_raddr(seg, rdma_wr(wr)->remote_addr,
					   rdma_wr(wr)->rkey);
	case IB_QPT_UD:
		if (op != ARBEL_OP_SEND && op != ARBEL_OP_SEND_IMM)
			return -EINVAL;
		return arbel_wqe_set_ud(seg, &to_aah(ud_wr(wr)->ah)->av,
					ud_wr(wr)->remote_qpn,
					ud_wr(wr)->remote_qkey);
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		if (op != ARBEL_OP_SEND && op != ARBEL_OP_SEND_IMM)
			return -EINVAL;
		return arbel_mlx_build(adev, qp, ind, ud_wr(wr),
				       seg - ARBEL_SEG_NEXT_SIZE, &size) ?:
		       size;
	default:
		return -EINVAL;
	}
}

/*
 * One send WQE, written at index @ind, its opcode into @s; returns its
 * size in bytes.  IB_WR_SEND_WITH_INV goes as a SEND: no source gives
 * this HCA's send-with-invalidate opcode, and a receiver that sees no
 * IB_WC_WITH_INVALIDATE invalidates the key itself (Documentation/
 * arbel.rst, "Fast registration").
 */
static int arbel_kqp_write_send(struct arbel_dev *adev, struct arbel_qp *qp,
				const struct ib_send_wr *wr,
				struct arbel_ksend *s, u32 ind, bool stalled)
{
	void *wqe = arbel_kwq_wqe(qp, &qp->sq, ind);
	u32 room = 1U << qp->sq.shift;
	bool mlx = qp->hw.st == ARBEL_QP_ST_MLX;
	__be32 imm = 0;
	int off, n, op;

	s->fr = ARBEL_KFR_NONE;
	if (wr->opcode == IB_WR_REG_MR || wr->opcode == IB_WR_LOCAL_INV) {
		s->op = ARBEL_OP_NOP;
		return arbel_kqp_fr_wqe(qp, wr, s, wqe, stalled);
	}
	op = arbel_wqe_opcode(wr->opcode == IB_WR_SEND_WITH_INV ?
			      IB_WR_SEND : wr->opcode);
	if (op < 0)
		return op;
	s->op = op;
	if (op == ARBEL_OP_SEND_IMM || op == ARBEL_OP_RDMA_WRITE_IMM)
		imm = wr->ex.imm_data;
	arbel_wqe_set_ctrl(wqe, wr->send_flags & IB_SEND_SIGNALED,
			   wr->send_flags & IB_SEND_SOLICITED, imm);
	off = arbel_kqp_transport(adev, qp, wr, op,
				  wqe + ARBEL_SEG_NEXT_SIZE, ind);
	if (off < 0)
		return off;
	off += ARBEL_SEG_NEXT_SIZE;
	n = arbel_kqp_gather(qp, wr, wqe + off, room - off -
			     (mlx ? ARBEL_SEG_DATA_SIZE : 0));
	if (n < 0)
		return n;
	off += n;
	if (mlx) {
		/* the ICRC: a zero dword the HCA replaces (mthca's) */
		off += arbel_wqe_set_inline_hdr(wqe + off, 4);
		*(__be32 *)(wqe + off - ARBEL_WQE_UNIT + 4) = 0;
	}
	return off;
}

/**
 * arbel_post_send() - post send work requests to a kernel QP
 * @ibqp: the QP
 * @wr: the requests
 * @bad_wr: receives the first one not posted
 *
 * Context: any.
 * Return: 0; -EIO once the device failed; -ENOMEM when the queue is
 * full; -EINVAL for an opcode the QP type has not, too many gather
 * entries or too much inline data.  The requests before @bad_wr are
 * posted.
 */
int arbel_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		    const struct ib_send_wr **bad_wr)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_qp *qp = to_aqp(ibqp);
	struct arbel_kwq *sq = &qp->sq;
	unsigned long flags;
	bool stalled, was;
	u32 nreq = 0, stop;
	int err;

	spin_lock_irqsave(&sq->lock, flags);
	/* a LOCAL_INV posted before still waits for its SYNC_TPT */
	was = sq->hw_head != sq->head;
	stalled = was;
	stop = sq->head;
	err = arbel_dev_posting(adev);
	for (; wr && !err; wr = wr->next, nreq++) {
		u32 ind = sq->head + nreq;
		struct arbel_ksend *s = &sq->send[ind & (sq->max - 1)];
		int size;

		if (arbel_kwq_full(sq, nreq, ibqp->send_cq)) {
			err = -ENOMEM;
			break;
		}
		size = arbel_kqp_write_send(adev, qp, wr, s, ind, stalled);
		if (size < 0) {
			err = size;
			break;
		}
		s->size16 = size / ARBEL_WQE_UNIT;
		s->fence = !!(wr->send_flags & IB_SEND_FENCE);
		sq->wrid[ind & (sq->max - 1)] = wr->wr_id;
		if (sq->prev)
			arbel_wqe_link(sq->prev, sq->base +
				       ((ind & (sq->max - 1)) << sq->shift),
				       s->op, s->size16, s->fence);
		sq->prev = arbel_kwq_wqe(qp, sq, ind);
		if (!stalled && s->fr == ARBEL_KFR_INV) {
			stalled = true;
			stop = ind;
		}
	}
	sq->head += nreq;
	if (!stalled)
		arbel_kqp_hand(adev, qp, sq->head);
	else if (!was)
		arbel_kqp_hand(adev, qp, stop);
	if (stalled && nreq)
		queue_work(arbel_fr_wq, &qp->fr_work);
	if (err)
		*bad_wr = wr;
	spin_unlock_irqrestore(&sq->lock, flags);
	return err;
}

struct arbel_drain {
	struct ib_cqe cqe;
	struct completion done;
};

static void arbel_drain_done(struct ib_cq *cq, struct ib_wc *wc)
{
	complete(&container_of(wc->wr_cqe, struct arbel_drain, cqe)->done);
}

/**
 * arbel_drain_rq() - wait until every receive posted to a kernel QP has
 * completed
 * @ibqp: the QP (not on an SRQ)
 *
 * As the core's generic drain, with one more transition: the QP goes to
 * the error state (which flushes the receives posted so far), a receive
 * of no data is posted, and the QP goes to the error state again, which
 * flushes that one too -- a mem-free receive rings no doorbell, so in the
 * error state only a transition makes the HCA see it.  Its completion,
 * behind every other receive's, ends the wait.  The QP may already be in
 * the error state (rdma_disconnect() moves it there first).
 *
 * Context: process; sleeps.
 */
void arbel_drain_rq(struct ib_qp *ibqp)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct arbel_drain d = { .cqe.done = arbel_drain_done };
	struct ib_recv_wr wr = { .wr_cqe = &d.cqe };
	struct ib_cq *cq = ibqp->recv_cq;
	int err;

	init_completion(&d.done);
	err = ib_modify_qp(ibqp, &attr, IB_QP_STATE) ?:
	      ib_post_recv(ibqp, &wr, NULL);
	if (err) {
		WARN_ONCE(1, "arbel: draining QP 0x%x failed: %d\n",
			  ibqp->qp_num, err);
		return;
	}
	/* posted: its completion (on this stack) is waited for, whatever */
	err = ib_modify_qp(ibqp, &attr, IB_QP_STATE);
	WARN_ONCE(err, "arbel: QP 0x%x to the error state again: %d\n",
		  ibqp->qp_num, err);
	if (cq->poll_ctx == IB_POLL_DIRECT)
		while (!wait_for_completion_timeout(&d.done, HZ / 10))
			ib_process_cq_direct(cq, -1);
	else
		wait_for_completion(&d.done);
}
