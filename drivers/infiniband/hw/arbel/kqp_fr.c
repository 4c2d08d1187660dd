// SPDX-License-Identifier: GPL-2.0-only
/*
 * A kernel QP's fast-registration work requests (IB_WR_REG_MR,
 * IB_WR_LOCAL_INV), in the send queue's order.
 *
 * Each is posted as a NOP WQE, which gives its completion in order with
 * the others (its slot remembers what it stands for: kcq.c reports
 * IB_WC_REG_MR or IB_WC_LOCAL_INV), while the driver does the work
 * itself (frmr.c).  A REG_MR is done as it is posted, before the
 * doorbell that hands its NOP and the WQEs behind it to the HCA: no WQE
 * posted after it can find the region invalid.  A LOCAL_INV needs a
 * SYNC_TPT, a command, which sleeps: the send queue stops handing WQEs
 * to the HCA at the LOCAL_INV (@hw_head stays behind @head), and a work
 * item marks the region's entry software-owned, issues SYNC_TPT and only
 * then rings the doorbell for the NOP and what follows it.  So the
 * LOCAL_INV's completion comes after the old key stopped working, and
 * the requests posted after it (a REG_MR of the same region too) are
 * done after it.  Consecutive LOCAL_INVs share one SYNC_TPT.
 */

#include <linux/workqueue.h>

#include "arbel.h"
#include "frmr.h"
#include "queue.h"
#include "verbs.h"

/* where the LOCAL_INVs' work runs (arbel_kqp_fr_wq_init()) */
struct workqueue_struct *arbel_fr_wq;

static struct arbel_ksend *arbel_kqp_send(struct arbel_kwq *sq, u32 i)
{
	return &sq->send[i & (sq->max - 1)];
}

/**
 * arbel_kqp_fr_wqe() - write the NOP WQE of a REG_MR or LOCAL_INV
 * @qp: the QP (RC or UC)
 * @wr: the request
 * @s: its slot's record, filled in here
 * @wqe: the WQE
 * @stalled: a LOCAL_INV posted before it still waits: a REG_MR waits too
 *
 * A REG_MR that does not wait is done here.
 *
 * Context: any (the send queue's lock held).
 * Return: the WQE's size in bytes, or -EINVAL: another QP type, or what
 * arbel_fr_check_reg() or arbel_fr_check_inv() refuses.
 */
int arbel_kqp_fr_wqe(struct arbel_qp *qp, const struct ib_send_wr *wr,
		     struct arbel_ksend *s, void *wqe, bool stalled)
{
	struct arbel_dev *adev = to_adev(qp->ibqp.device);

	if (qp->ibqp.qp_type != IB_QPT_RC && qp->ibqp.qp_type != IB_QPT_UC)
		return -EINVAL;
	if (wr->opcode == IB_WR_REG_MR) {
		const struct ib_reg_wr *reg = reg_wr(wr);

		if (arbel_fr_check_reg(qp->ibqp.pd, reg))
			return -EINVAL;
		s->fr = ARBEL_KFR_REG;
		s->mr = to_amr(reg->mr);
		s->key = reg->key;
		s->access = reg->access;
		if (!stalled)
			arbel_fr_map(s->mr, s->key, s->access);
	} else {
		s->mr = arbel_fr_check_inv(adev, qp->ibqp.pd,
					   wr->ex.invalidate_rkey);
		if (!s->mr)
			return -EINVAL;
		s->fr = ARBEL_KFR_INV;
	}
	arbel_wqe_set_ctrl(wqe, wr->send_flags & IB_SEND_SIGNALED, false, 0);
	return ARBEL_SEG_NEXT_SIZE;
}

/*
 * Runs the waiting part of the send queue: LOCAL_INVs (their entries
 * software-owned, one SYNC_TPT), REG_MRs, the doorbells.
 */
static void arbel_kqp_fr_work(struct work_struct *work)
{
	struct arbel_qp *qp = container_of(work, struct arbel_qp, fr_work);
	struct arbel_dev *adev = to_adev(qp->ibqp.device);
	struct arbel_kwq *sq = &qp->sq;
	struct arbel_ksend *s;
	unsigned long flags;
	int err = 0;
	u32 i;

	spin_lock_irqsave(&sq->lock, flags);
	while (sq->hw_head != sq->head) {
		/*
		 * A failed device completes what is left flushed (kcq.c), and
		 * its consumer may free the regions: touch none of them.
		 */
		if (arbel_dev_posting(adev)) {
			sq->hw_head = sq->head;
			break;
		}
		i = sq->hw_head;
		if (arbel_kqp_send(sq, i)->fr == ARBEL_KFR_INV) {
			u32 gen = sq->gen;

			for (; i != sq->head; i++) {
				s = arbel_kqp_send(sq, i);
				if (s->fr != ARBEL_KFR_INV)
					break;
				arbel_fr_unmap(s->mr);
			}
			spin_unlock_irqrestore(&sq->lock, flags);
			/* the entries software-owned before the cache goes */
			wmb();
			err = arbel_fw_sync_tpt(&adev->cmd);
			spin_lock_irqsave(&sq->lock, flags);
			if (err) {
				/* its reset completes them, flushed */
				sq->hw_head = sq->head;
				break;
			}
			/* reset meanwhile: the queue starts again */
			if (gen != sq->gen)
				continue;
		} else {
			for (; i != sq->head; i++) {
				s = arbel_kqp_send(sq, i);
				if (s->fr == ARBEL_KFR_INV)
					break;
				if (s->fr == ARBEL_KFR_REG)
					arbel_fr_map(s->mr, s->key, s->access);
			}
		}
		/* a QP being reset takes no doorbell */
		if (READ_ONCE(qp->state) == IB_QPS_RESET)
			sq->hw_head = i;
		else
			arbel_kqp_hand(adev, qp, i);
	}
	spin_unlock_irqrestore(&sq->lock, flags);
	if (err)
		arbel_dev_fail(adev, "SYNC_TPT failed");
}

/**
 * arbel_kqp_fr_wq_init() - the workqueue of the send queues' LOCAL_INVs
 *
 * WQ_MEM_RECLAIM: storage I/O waits for their completions, also while
 * memory is reclaimed, and its teardown flushes them from reclaim-safe
 * work.
 *
 * Context: process (module load).
 * Return: 0 or -ENOMEM.
 */
int arbel_kqp_fr_wq_init(void)
{
	arbel_fr_wq = alloc_workqueue("arbel_fr", WQ_MEM_RECLAIM, 0);
	return arbel_fr_wq ? 0 : -ENOMEM;
}

/**
 * arbel_kqp_fr_wq_exit() - undo arbel_kqp_fr_wq_init()
 *
 * Context: process (module unload; no QP left).
 */
void arbel_kqp_fr_wq_exit(void)
{
	destroy_workqueue(arbel_fr_wq);
}

/**
 * arbel_kqp_fr_init() - set up a kernel QP's fast-registration work
 * @qp: the QP
 *
 * Context: any.
 */
void arbel_kqp_fr_init(struct arbel_qp *qp)
{
	INIT_WORK(&qp->fr_work, arbel_kqp_fr_work);
}
