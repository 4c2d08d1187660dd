// SPDX-License-Identifier: GPL-2.0-only
/*
 * Shared receive queues (a kernel SRQ's WQEs: ksrq.c).  As for CQs, a
 * user SRQ's WQE buffer is a region
 * libmthca registers itself (based at 0) and its doorbell record is in the
 * process's doorbell pages; the driver numbers it, maps the ICM of its
 * context and hands it over with SW2HW_SRQ.  The limit event is armed with
 * ARM_SRQ and arrives through the EQ (event.c).  The PRM has no SRQ
 * resize.
 */

#include <linux/bitfield.h>
#include <linux/log2.h>
#include <rdma/mthca-abi.h>
#include <rdma/uverbs_ioctl.h>

#include <arbel/qctx.h>
#include "arbel.h"
#include "compat.h"
#include "queue.h"
#include "verbs.h"

/* a user SRQ's doorbell record, from its request */
static int arbel_usrq_record(struct arbel_dev *adev, struct arbel_srq *srq,
			     struct ib_udata *udata, struct arbel_srqc *srqc)
{
	struct arbel_ucontext *ctx = rdma_udata_to_drv_context(udata,
			struct arbel_ucontext, ibucontext);
	struct mthca_create_srq ucmd;
	int err;

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	srq->db = ctx->db;
	err = arbel_db_map(adev, srq->ibsrq.device, ctx->db, ucmd.db_index,
			   ucmd.db_page);
	if (err)
		return err;
	srq->db_index = ucmd.db_index;
	srqc->lkey = ucmd.lkey;
	srqc->uar = ctx->uar;
	return 0;
}

static void arbel_srq_free_records(struct arbel_dev *adev,
				   struct arbel_srq *srq)
{
	if (srq->db)
		arbel_db_unmap(adev, srq->db, srq->db_index);
	else
		arbel_ksrq_free(adev, srq);
}

/**
 * arbel_create_srq() - create an SRQ
 * @ibsrq: core object
 * @init: size and scatter entries wanted (written back: what it holds)
 * @udata: struct mthca_create_srq in, struct mthca_create_srq_resp out;
 *	   NULL for a kernel SRQ (its WQEs are the driver's: ksrq.c)
 *
 * The SRQ holds the smallest power of two WQEs above max_wr (libmthca
 * keeps one empty), each with room for max_sge entries.
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left behind.
 */
int arbel_create_srq(struct ib_srq *ibsrq, struct ib_srq_init_attr *init,
		     struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibsrq->device);
	struct mthca_create_srq_resp resp = {};
	struct arbel_srq *srq = to_asrq(ibsrq);
	struct arbel_srqc srqc = {};
	struct arbel_wq_limits lim = {
		.max_wqes = 1U << adev->lim.log_max_srq_sz,
		.max_sg = adev->lim.max_sg_rq,
		.max_desc_sz = adev->lim.max_desc_sz_rq,
	};
	u8 ctxb[ARBEL_SRQC_SIZE];
	int srqn, shift, err;

	if (init->srq_type != IB_SRQT_BASIC)
		return -EOPNOTSUPP;
	if (!init->attr.max_wr || init->attr.max_wr >= lim.max_wqes)
		return -EINVAL;
	shift = arbel_srq_wqe_shift(&lim, init->attr.max_sge);
	if (shift < 0)
		return shift;
	srq->shift = shift;
	srq->max = roundup_pow_of_two(init->attr.max_wr + 1);
	srq->max_gs = min_t(u32, lim.max_sg, ((1U << shift) - 16) / 16);

	srqn = ida_alloc_range(&adev->srq_ida, adev->rsvd_srqs,
			       adev->num_srqs - 1, GFP_KERNEL);
	if (srqn < 0)
		return srqn == -ENOSPC ? -ENOMEM : srqn;
	srq->srqn = srqn;
	err = arbel_icm_table_get_range(&adev->icm[ARBEL_ICM_SRQC], srqn,
					srqn);
	if (err)
		goto err_ida;
	if (udata) {
		err = arbel_usrq_record(adev, srq, udata, &srqc);
	} else {
		err = arbel_ksrq_create(adev, srq);
		srqc.lkey = srq->buf.mr.key;
		srqc.uar = adev->kq.uar;
	}
	if (err)
		goto err_icm;

	srqc.srqn = srqn;
	srqc.log_size = ilog2(srq->max);
	srqc.db = srq->db_index;
	srqc.wqe_shift = shift;
	srqc.eqn = adev->eq.eqn;
	srqc.pd = to_apd(ibsrq->pd)->pdn;
	arbel_srqc_encode(&srqc, ctxb);
	err = xa_insert_irq(&adev->srq_xa, srqn, srq, GFP_KERNEL);
	if (err)
		goto err_db;
	err = arbel_fw_sw2hw_srq(&adev->cmd, srqn, ctxb);
	if (err)
		goto err_xa;

	resp.srqn = srqn;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (err)
			goto err_hw;
	}
	init->attr.max_wr = srq->max - 1;
	init->attr.max_sge = srq->max_gs;
	return 0;

err_hw:
	if (arbel_fw_hw2sw_srq(&adev->cmd, srqn)) {
		arbel_queue_forget(adev, &adev->srq_xa, srqn);
		return err;
	}
err_xa:
	arbel_queue_forget(adev, &adev->srq_xa, srqn);
err_db:
	arbel_srq_free_records(adev, srq);
err_icm:
	arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_SRQC], srqn, srqn);
err_ida:
	ida_free(&adev->srq_ida, srqn);
	return err;
}

/**
 * arbel_modify_srq() - arm an SRQ's limit event
 * @ibsrq: the SRQ
 * @attr: the limit
 * @mask: %IB_SRQ_LIMIT only (the PRM has no SRQ resize)
 * @udata: the user's (unused)
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a resize or a limit beyond the SRQ, or the
 * errno of ARM_SRQ.
 */
int arbel_modify_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr,
		     enum ib_srq_attr_mask mask, struct ib_udata *udata)
{
	struct arbel_srq *srq = to_asrq(ibsrq);

	if (mask & IB_SRQ_MAX_WR)
		return -EINVAL;
	if (!(mask & IB_SRQ_LIMIT))
		return 0;
	if (attr->srq_limit >= srq->max)
		return -EINVAL;
	return arbel_fw_arm_srq(&to_adev(ibsrq->device)->cmd, srq->srqn,
				attr->srq_limit);
}

/**
 * arbel_query_srq() - an SRQ's size and armed limit
 * @ibsrq: the SRQ
 * @attr: filled
 *
 * Context: process; sleeps.
 * Return: 0 or the errno of QUERY_SRQ.
 */
int arbel_query_srq(struct ib_srq *ibsrq, struct ib_srq_attr *attr)
{
	struct arbel_srq *srq = to_asrq(ibsrq);
	u8 ctx[ARBEL_SRQC_SIZE];
	int err;

	err = arbel_fw_query_srq(&to_adev(ibsrq->device)->cmd, srq->srqn,
				 ctx);
	if (err)
		return err;
	attr->srq_limit = FIELD_GET(ARBEL_SRQC_LWM,
				    get_unaligned_be32(ctx + ARBEL_SRQC_LIMIT));
	attr->max_wr = srq->max - 1;
	attr->max_sge = srq->max_gs;
	return 0;
}

/**
 * arbel_destroy_srq() - take an SRQ back and free it
 * @ibsrq: the SRQ; no QP uses it any more
 * @udata: the user's (unused)
 *
 * Context: process; sleeps.
 * Return: 0, or the errno of HW2SW_SRQ with the SRQ left whole.
 */
int arbel_destroy_srq(struct ib_srq *ibsrq, struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibsrq->device);
	struct arbel_srq *srq = to_asrq(ibsrq);
	int err;

	err = arbel_fw_hw2sw_srq(&adev->cmd, srq->srqn);
	if (err && !arbel_cmd_failed(&adev->cmd))
		return err;
	arbel_queue_forget(adev, &adev->srq_xa, srq->srqn);
	arbel_srq_free_records(adev, srq);
	arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_SRQC], srq->srqn,
				  srq->srqn);
	ida_free(&adev->srq_ida, srq->srqn);
	return 0;
}
