// SPDX-License-Identifier: GPL-2.0-only
/*
 * Completion queues.  A user CQ's buffer is a region libmthca registers
 * itself (based at 0, so the context's start address is 0) and its two
 * doorbell records, consumer counter and arm state, are in the process's
 * doorbell pages (db.c).  The driver gives it a number, maps the ICM of
 * its context, and hands it over with SW2HW_CQ; completion and error
 * events come back through the EQ (event.c).
 *
 * A kernel CQ's buffer and records are the driver's; its poll and arm
 * verbs are in kcq.c.
 */

#include <linux/log2.h>
#include <rdma/mthca-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

static u32 arbel_cq_max_entries(struct arbel_dev *adev)
{
	return (1U << min_t(u8, adev->lim.log_max_cq_sz, ARBEL_CQ_LOG_MAX)) - 1;
}

/* a user CQ's doorbell records and buffer, from its request */
static int arbel_ucq_create(struct arbel_dev *adev, struct arbel_cq *cq,
			    struct ib_udata *udata, struct arbel_cqc *cqc)
{
	struct arbel_ucontext *ctx = rdma_udata_to_drv_context(udata,
			struct arbel_ucontext, ibucontext);
	struct mthca_create_cq ucmd;
	int err;

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	/*
	 * The buffer's PD must be one of this context's: the HCA checks the
	 * lkey against it, so another process's PD and lkey would let this
	 * one have CQEs written into that process's memory (mthca takes the
	 * number as it comes).
	 */
	if (!xa_load(&ctx->pds, ucmd.pdn))
		return -EINVAL;
	cq->db = ctx->db;
	err = arbel_db_map(adev, cq->ibcq.device, ctx->db, ucmd.set_db_index,
			   ucmd.set_db_page);
	if (err)
		return err;
	cq->set_ci_db = ucmd.set_db_index;
	err = arbel_db_map(adev, cq->ibcq.device, ctx->db, ucmd.arm_db_index,
			   ucmd.arm_db_page);
	if (err) {
		arbel_db_unmap(adev, ctx->db, cq->set_ci_db);
		return err;
	}
	cq->arm_db = ucmd.arm_db_index;
	cqc->uar = ctx->uar;
	cqc->pd = ucmd.pdn;
	cqc->lkey = ucmd.lkey;
	return 0;
}

/* free a CQ's records and buffer, user or kernel; the HCA has let go */
static void arbel_cq_free_records(struct arbel_dev *adev, struct arbel_cq *cq)
{
	if (!cq->db) {
		arbel_kcq_destroy(adev, cq);
		return;
	}
	arbel_db_unmap(adev, cq->db, cq->arm_db);
	arbel_db_unmap(adev, cq->db, cq->set_ci_db);
}

/**
 * arbel_create_cq() - create a CQ
 * @ibcq: core object
 * @attr: entries wanted, completion vector, flags
 * @attrs: the udata (6.11 on: the uverbs attribute bundle holding it):
 *	   struct mthca_create_cq in, struct mthca_create_cq_resp out; none
 *	   for a kernel CQ
 *
 * The CQ gets the smallest power of two entries above @attr->cqe (one is
 * kept empty), as libmthca sized its buffer.  A kernel CQ's buffer and
 * records are the driver's (kcq.c).
 *
 * Context: process; sleeps.
 * Return: 0, -EINVAL for a PD not the context's (or a bad size or doorbell
 * record), or another negative errno; nothing left behind.
 */
int arbel_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		    struct arbel_cq_attrs *attrs)
{
	struct ib_udata *udata = arbel_cq_udata(attrs);
	struct arbel_dev *adev = to_adev(ibcq->device);
	struct mthca_create_cq_resp resp = {};
	struct arbel_cq *cq = to_acq(ibcq);
	struct arbel_cqc cqc = {};
	u8 ctxb[ARBEL_CQC_SIZE];
	u32 nent;
	int cqn, err;

	if (attr->flags)
		return -EOPNOTSUPP;
	if (attr->cqe < 1 || attr->cqe > arbel_cq_max_entries(adev))
		return -EINVAL;
	nent = roundup_pow_of_two(attr->cqe + 1);

	cqn = ida_alloc_range(&adev->cq_ida, adev->rsvd_cqs,
			      adev->num_cqs - 1, GFP_KERNEL);
	if (cqn < 0)
		return cqn == -ENOSPC ? -ENOMEM : cqn;
	cq->cqn = cqn;
	ibcq->cqe = nent - 1;
	err = arbel_icm_table_get_range(&adev->icm[ARBEL_ICM_CQC], cqn, cqn);
	if (err)
		goto err_ida;
	if (udata) {
		err = arbel_ucq_create(adev, cq, udata, &cqc);
	} else {
		err = arbel_kcq_create(adev, cq, nent);
		cqc.uar = adev->kq.uar;
		cqc.pd = adev->driver_pd;
		cqc.lkey = cq->buf.mr.key;
	}
	if (err)
		goto err_icm;

	cqc.log_size = ilog2(nent);
	cqc.eqn = adev->eq.eqn;
	cqc.cqn = cqn;
	cqc.ci_db = cq->set_ci_db;
	cqc.state_db = cq->arm_db;
	arbel_cqc_encode(&cqc, ctxb);
	err = xa_insert_irq(&adev->cq_xa, cqn, cq, GFP_KERNEL);
	if (err)
		goto err_records;
	err = arbel_fw_sw2hw_cq(&adev->cmd, cqn, ctxb);
	if (err)
		goto err_xa;

	resp.cqn = cqn;
	if (udata) {
		err = ib_copy_to_udata(udata, &resp,
				       min(udata->outlen, sizeof(resp)));
		if (err)
			goto err_hw;
	}
	mutex_init(&cq->mutex);
	return 0;

err_hw:
	if (arbel_fw_hw2sw_cq(&adev->cmd, cqn))
		goto err_held;
err_xa:
	arbel_queue_forget(adev, &adev->cq_xa, cqn);
err_records:
	arbel_cq_free_records(adev, cq);
err_icm:
	arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_CQC], cqn, cqn);
err_ida:
	ida_free(&adev->cq_ida, cqn);
	return err;
err_held:
	/* the HCA keeps the CQ: its number and records stay taken */
	arbel_queue_forget(adev, &adev->cq_xa, cqn);
	return err;
}

/**
 * arbel_destroy_cq() - take a CQ back and free it
 * @ibcq: the CQ; no QP uses it any more
 * @udata: the user's (unused)
 *
 * Context: process; sleeps.
 * Return: 0, or the errno of HW2SW_CQ with the CQ left whole (the core
 * tries again, or the device is failed and reset).
 */
int arbel_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibcq->device);
	struct arbel_cq *cq = to_acq(ibcq);
	int err;

	err = arbel_fw_hw2sw_cq(&adev->cmd, cq->cqn);
	if (err && !arbel_cmd_failed(&adev->cmd))
		return err;
	arbel_queue_forget(adev, &adev->cq_xa, cq->cqn);
	arbel_cq_free_records(adev, cq);
	arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_CQC], cq->cqn, cq->cqn);
	ida_free(&adev->cq_ida, cq->cqn);
	mutex_destroy(&cq->mutex);
	return 0;
}

/**
 * arbel_resize_cq() - move a user CQ to a buffer of another size
 * @ibcq: the CQ
 * @entries: entries wanted
 * @udata: struct mthca_resize_cq in (the new buffer's lkey)
 *
 * libmthca registers the new buffer (based at 0) and, once RESIZE_CQ has
 * moved the unpolled CQEs, copies what it had polled ahead.
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL for a size outside the device's or unpolled
 * CQEs that do not fit (the firmware's refusal); -EOPNOTSUPP for a
 * kernel CQ.
 */
int arbel_resize_cq(struct ib_cq *ibcq, int entries, struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibcq->device);
	struct arbel_cq *cq = to_acq(ibcq);
	struct mthca_resize_cq ucmd;
	u32 nent;
	int err;

	if (!udata)
		return -EOPNOTSUPP;
	if (entries < 1 || entries > arbel_cq_max_entries(adev))
		return -EINVAL;
	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	nent = roundup_pow_of_two(entries + 1);
	mutex_lock(&cq->mutex);
	err = 0;
	if (nent != ibcq->cqe + 1) {
		err = arbel_fw_resize_cq(&adev->cmd, cq->cqn, ucmd.lkey,
					 ilog2(nent));
		if (!err)
			ibcq->cqe = nent - 1;
	}
	mutex_unlock(&cq->mutex);
	return err;
}
