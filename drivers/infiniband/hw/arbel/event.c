// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue events from the EQ: completion events to the CQ's completion
 * handler, CQ, QP and SRQ errors and notices to the object's event
 * handler.  The EQ's interrupt handler calls in with the EQ's lock held;
 * an object is found by its number in the device's xarrays, and is taken
 * out of them (arbel_queue_forget()) before it is freed, after the HCA
 * has given it back, so that no event can reach it afterwards.
 */

#include "arbel.h"
#include "queue.h"

static enum ib_event_type arbel_qp_event_type(u8 type)
{
	switch (type) {
	case ARBEL_EV_PATH_MIG: return IB_EVENT_PATH_MIG;
	case ARBEL_EV_COMM_EST: return IB_EVENT_COMM_EST;
	case ARBEL_EV_SQ_DRAINED: return IB_EVENT_SQ_DRAINED;
	case ARBEL_EV_WQ_CATAS_ERROR: return IB_EVENT_QP_FATAL;
	case ARBEL_EV_PATH_MIG_FAILED: return IB_EVENT_PATH_MIG_ERR;
	case ARBEL_EV_WQ_INVAL_REQ_ERROR: return IB_EVENT_QP_REQ_ERR;
	case ARBEL_EV_WQ_ACCESS_ERROR: return IB_EVENT_QP_ACCESS_ERR;
	default: return IB_EVENT_QP_LAST_WQE_REACHED;
	}
}

static void arbel_cq_event(struct arbel_dev *adev,
			   const struct arbel_eqe_info *info)
{
	struct arbel_cq *cq = xa_load(&adev->cq_xa, info->obj);
	struct ib_event ev = { .event = IB_EVENT_CQ_ERR };

	if (!cq) {
		dev_warn_ratelimited(&adev->pdev->dev,
				     "event %s for unknown CQ %u\n",
				     arbel_event_name(info->type), info->obj);
		return;
	}
	if (info->type == ARBEL_EV_COMP) {
		/* the next arm names this event (kernel CQs; mthca's arm_sn) */
		WRITE_ONCE(cq->arm_sn, cq->arm_sn + 1);
		if (cq->ibcq.comp_handler)
			cq->ibcq.comp_handler(&cq->ibcq, cq->ibcq.cq_context);
		return;
	}
	dev_warn_ratelimited(&adev->pdev->dev, "CQ %u error, syndrome 0x%x\n",
			     info->obj, info->syndrome);
	ev.device = cq->ibcq.device;
	ev.element.cq = &cq->ibcq;
	if (cq->ibcq.event_handler)
		cq->ibcq.event_handler(&ev, cq->ibcq.cq_context);
}

static void arbel_qp_event(struct arbel_dev *adev,
			   const struct arbel_eqe_info *info)
{
	struct arbel_qp *qp = xa_load(&adev->qp_xa, info->obj);
	struct ib_event ev = { .event = arbel_qp_event_type(info->type) };

	if (!qp) {
		dev_warn_ratelimited(&adev->pdev->dev,
				     "event %s for unknown QP %u\n",
				     arbel_event_name(info->type), info->obj);
		return;
	}
	ev.device = qp->ibqp.device;
	ev.element.qp = &qp->ibqp;
	if (qp->ibqp.event_handler)
		qp->ibqp.event_handler(&ev, qp->ibqp.qp_context);
}

static void arbel_srq_event(struct arbel_dev *adev,
			    const struct arbel_eqe_info *info)
{
	struct arbel_srq *srq = xa_load(&adev->srq_xa, info->obj);
	struct ib_event ev = {
		.event = info->type == ARBEL_EV_SRQ_LIMIT ?
			 IB_EVENT_SRQ_LIMIT_REACHED : IB_EVENT_SRQ_ERR,
	};

	if (!srq) {
		dev_warn_ratelimited(&adev->pdev->dev,
				     "event %s for unknown SRQ %u\n",
				     arbel_event_name(info->type), info->obj);
		return;
	}
	ev.device = srq->ibsrq.device;
	ev.element.srq = &srq->ibsrq;
	if (srq->ibsrq.event_handler)
		srq->ibsrq.event_handler(&ev, srq->ibsrq.srq_context);
}

/**
 * arbel_queue_event() - hand one queue event to its object
 * @adev: the HCA
 * @info: the decoded EQE (a completion, CQ, QP or SRQ event)
 *
 * Context: the EQ's interrupt, its lock held.
 */
void arbel_queue_event(struct arbel_dev *adev,
		       const struct arbel_eqe_info *info)
{
	switch (info->type) {
	case ARBEL_EV_COMP:
	case ARBEL_EV_CQ_ERROR:
		arbel_cq_event(adev, info);
		break;
	case ARBEL_EV_SRQ_CATAS_ERROR:
	case ARBEL_EV_SRQ_LIMIT:
		arbel_srq_event(adev, info);
		break;
	default:
		arbel_qp_event(adev, info);
		break;
	}
}

/**
 * arbel_queue_forget() - no event reaches a queue any more
 * @adev: the HCA
 * @xa: the queue's table (cq_xa, qp_xa or srq_xa)
 * @n: its number
 *
 * Takes the queue out of @xa, then waits for an EQ interrupt that may
 * have found it before to finish.
 *
 * Context: process.
 */
void arbel_queue_forget(struct arbel_dev *adev, struct xarray *xa, u32 n)
{
	unsigned long flags;

	xa_erase_irq(xa, n);
	spin_lock_irqsave(&adev->eq.lock, flags);
	spin_unlock_irqrestore(&adev->eq.lock, flags);
}

static void arbel_queue_table(const struct arbel_icm_place *p, u32 *num,
			      u32 *rsvd)
{
	*num = 1U << p->log_num;
	*rsvd = 1U << p->log_rsvd;
}

/**
 * arbel_queues_init() - the number spaces and lookups of the queues
 * @adev: the HCA, its ICM layout set
 *
 * CQ, QP and SRQ numbers are taken above the firmware's reserved ones
 * (and, for QPs, the special QPs' block) and below the table's size.
 *
 * Context: process.
 */
void arbel_queues_init(struct arbel_dev *adev)
{
	const struct arbel_icm_place *t = adev->layout.t;

	arbel_queue_table(&t[ARBEL_ICM_CQC], &adev->num_cqs, &adev->rsvd_cqs);
	arbel_queue_table(&t[ARBEL_ICM_QPC], &adev->num_qps, &adev->rsvd_qps);
	arbel_queue_table(&t[ARBEL_ICM_SRQC], &adev->num_srqs,
			  &adev->rsvd_srqs);
	ida_init(&adev->cq_ida);
	ida_init(&adev->qp_ida);
	ida_init(&adev->srq_ida);
	xa_init_flags(&adev->cq_xa, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&adev->qp_xa, XA_FLAGS_LOCK_IRQ);
	xa_init_flags(&adev->srq_xa, XA_FLAGS_LOCK_IRQ);
	xa_init(&adev->fr_xa);
	arbel_mcg_init(adev);
}

/**
 * arbel_queues_cleanup() - undo arbel_queues_init()
 * @adev: the HCA; every queue has been destroyed
 *
 * Context: process.
 */
void arbel_queues_cleanup(struct arbel_dev *adev)
{
	WARN_ON(!xa_empty(&adev->cq_xa) || !xa_empty(&adev->qp_xa) ||
		!xa_empty(&adev->srq_xa) || !xa_empty(&adev->fr_xa));
	arbel_mcg_cleanup(adev);
	xa_destroy(&adev->fr_xa);
	xa_destroy(&adev->srq_xa);
	xa_destroy(&adev->qp_xa);
	xa_destroy(&adev->cq_xa);
	ida_destroy(&adev->srq_ida);
	ida_destroy(&adev->qp_ida);
	ida_destroy(&adev->cq_ida);
}
