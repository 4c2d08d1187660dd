// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue pairs.  A user QP's buffer (receive queue first, then the send
 * queue) is a region libmthca registers itself, based at 0, and its two
 * doorbell records are in the process's doorbell pages; the driver
 * computes the same geometry (arbel_qp_wq_sizes()), numbers the QP, maps the
 * ICM of its context, extended context and RDMA-read buffer, and moves it
 * through its states with the firmware's transition commands, each
 * carrying the context arbel_qp_encode() builds.
 *
 * A kernel QP's buffer and records are the driver's, and so are its post
 * verbs (kqp.c); the special QPs are kernel QPs whose sends are MLX
 * (mlx.c).
 */

#include <rdma/ib_cache.h>
#include <rdma/mthca-abi.h>
#include <rdma/uverbs_ioctl.h>

#include <arbel/qctx.h>
#include "arbel.h"
#include "mad.h"
#include "queue.h"
#include "verbs.h"

static const enum arbel_icm_table_id arbel_qp_tables[] = {
	ARBEL_ICM_QPC, ARBEL_ICM_EQPC, ARBEL_ICM_RDB,
};

static void arbel_qp_put_icm(struct arbel_dev *adev, u32 qpn, int n)
{
	while (n--)
		arbel_icm_table_put_range(&adev->icm[arbel_qp_tables[n]], qpn,
					  qpn);
}

static int arbel_qp_get_icm(struct arbel_dev *adev, u32 qpn)
{
	int i, err;

	for (i = 0; i < ARRAY_SIZE(arbel_qp_tables); i++) {
		err = arbel_icm_table_get_range(&adev->icm[arbel_qp_tables[i]],
						qpn, qpn);
		if (err) {
			arbel_qp_put_icm(adev, qpn, i);
			return err;
		}
	}
	return 0;
}

static u8 arbel_qp_st(enum ib_qp_type type)
{
	switch (type) {
	case IB_QPT_RC:
		return ARBEL_QP_ST_RC;
	case IB_QPT_UC:
		return ARBEL_QP_ST_UC;
	case IB_QPT_UD:
		return ARBEL_QP_ST_UD;
	default:
		return ARBEL_QP_ST_MLX;
	}
}

static void arbel_qp_fill_static(struct arbel_dev *adev, struct arbel_qp *qp,
				 const struct ib_qp_init_attr *init, u32 uar,
				 u32 lkey)
{
	const struct arbel_icm_place *rdb = &adev->layout.t[ARBEL_ICM_RDB];
	struct arbel_qp_static *hw = &qp->hw;

	hw->st = arbel_qp_st(init->qp_type);
	hw->uar = uar;
	hw->pd = to_apd(qp->ibqp.pd)->pdn;
	hw->wqe_lkey = lkey;
	hw->sq_log_size = qp->sz.sq_max ? ilog2(qp->sz.sq_max) : 0;
	hw->sq_wqe_shift = qp->sz.sq_wqe_shift;
	hw->rq_log_size = qp->sz.rq_max ? ilog2(qp->sz.rq_max) : 0;
	hw->rq_wqe_shift = qp->sz.rq_wqe_shift;
	hw->sq_base = qp->sz.sq_base;
	hw->cqn_snd = to_acq(init->send_cq)->cqn;
	hw->cqn_rcv = to_acq(init->recv_cq)->cqn;
	if (init->srq) {
		hw->has_srq = true;
		hw->srqn = to_asrq(init->srq)->srqn;
	}
	hw->sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	hw->user = !!qp->db;
	hw->ra_buff = rdb->base + (u64)hw->qpn * rdb->entry_size;
}

/* a user QP's doorbell records, from its request */
static int arbel_uqp_records(struct arbel_dev *adev, struct arbel_qp *qp,
			     struct ib_udata *udata, u32 *lkey)
{
	struct arbel_ucontext *ctx = rdma_udata_to_drv_context(udata,
			struct arbel_ucontext, ibucontext);
	struct mthca_create_qp ucmd;
	int err;

	if (ib_copy_from_udata(&ucmd, udata, sizeof(ucmd)))
		return -EFAULT;
	qp->db = ctx->db;
	err = arbel_db_map(adev, qp->ibqp.device, ctx->db, ucmd.sq_db_index,
			   ucmd.sq_db_page);
	if (err)
		return err;
	qp->hw.sq_db = ucmd.sq_db_index;
	err = arbel_db_map(adev, qp->ibqp.device, ctx->db, ucmd.rq_db_index,
			   ucmd.rq_db_page);
	if (err) {
		arbel_db_unmap(adev, ctx->db, qp->hw.sq_db);
		return err;
	}
	qp->hw.rq_db = ucmd.rq_db_index;
	*lkey = ucmd.lkey;
	return 0;
}

/* free a QP's records and buffer, user or kernel; the HCA has let go */
static void arbel_qp_free_records(struct arbel_dev *adev, struct arbel_qp *qp)
{
	if (!qp->db) {
		arbel_kqp_free(adev, qp);
		return;
	}
	arbel_db_unmap(adev, qp->db, qp->hw.rq_db);
	arbel_db_unmap(adev, qp->db, qp->hw.sq_db);
}

/* a QP number: the special QP of the port asked for, or a free one */
static int arbel_qp_number(struct arbel_dev *adev,
			   const struct ib_qp_init_attr *init)
{
	switch (init->qp_type) {
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		if (init->port_num < 1 || init->port_num > adev->num_ports)
			return -EINVAL;
		return adev->kq.sqp_base + init->port_num - 1 +
		       (init->qp_type == IB_QPT_GSI ? 2 : 0);
	default:
		return ida_alloc_range(&adev->qp_ida,
				       adev->rsvd_qps + ARBEL_SPECIAL_QPS,
				       adev->num_qps - 1, GFP_KERNEL);
	}
}

static void arbel_qp_number_free(struct arbel_dev *adev, struct arbel_qp *qp)
{
	if (qp->hw.st != ARBEL_QP_ST_MLX)
		ida_free(&adev->qp_ida, qp->hw.qpn);
}

/**
 * arbel_create_qp() - create a QP (in the reset state)
 * @ibqp: core object (its PD, CQs and SRQ set by the core)
 * @init: type, CQs, SRQ, capacities (written back: what the QP holds)
 * @udata: struct mthca_create_qp in, nothing out; NULL for a kernel QP
 *
 * A user QP is RC, UC or UD; a kernel one may also be a special QP (QP0,
 * QP1: one each per port, their numbers set by CONF_SPECIAL_QP).
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno with nothing left behind; -EBUSY for a
 * special QP the port already has.
 */
int arbel_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init,
		    struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_qp *qp = to_aqp(ibqp);
	struct arbel_wq_limits lim = {
		.max_wqes = 1U << adev->lim.log_max_qp_sz,
		.max_sg = min(adev->lim.max_sg, adev->lim.max_sg_rq),
		.max_desc_sz = min(adev->lim.max_desc_sz,
				   adev->lim.max_desc_sz_rq),
	};
	bool special = init->qp_type == IB_QPT_SMI ||
		       init->qp_type == IB_QPT_GSI;
	u32 lkey = 0;
	int qpn, err;

	if (init->create_flags)
		return -EOPNOTSUPP;
	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UC &&
	    init->qp_type != IB_QPT_UD && (udata || !special))
		return -EOPNOTSUPP;
	err = arbel_qp_wq_sizes(&lim, init->qp_type, &init->cap, &qp->sz);
	if (err)
		return err;

	qpn = arbel_qp_number(adev, init);
	if (qpn < 0)
		return qpn == -ENOSPC ? -ENOMEM : qpn;
	qp->hw.qpn = qpn;
	qp->hw.st = arbel_qp_st(init->qp_type);
	err = xa_insert_irq(&adev->qp_xa, qpn, NULL, GFP_KERNEL);
	if (err)
		goto err_number;
	err = arbel_qp_get_icm(adev, qpn);
	if (err)
		goto err_xa;
	if (udata)
		err = arbel_uqp_records(adev, qp, udata, &lkey);
	else
		err = arbel_kqp_create(adev, qp, init);
	if (err)
		goto err_icm;
	if (!udata)
		lkey = qp->buf.mr.key;
	arbel_qp_fill_static(adev, qp, init, udata ? qp->db->uar :
			     adev->kq.uar, lkey);
	if (special)
		qp->hw.port = init->port_num;
	mutex_init(&qp->mutex);
	qp->state = IB_QPS_RESET;
	ibqp->qp_num = special ? init->qp_type == IB_QPT_GSI : qpn;
	init->cap.max_send_wr = qp->sz.sq_max;
	init->cap.max_recv_wr = qp->sz.rq_max;
	init->cap.max_send_sge = qp->sz.max_send_sge;
	init->cap.max_recv_sge = qp->sz.max_recv_sge;
	init->cap.max_inline_data = qp->sz.max_inline;
	/* events and completions may find it from here on */
	xa_store_irq(&adev->qp_xa, qpn, qp, GFP_KERNEL);
	return 0;

err_icm:
	arbel_qp_put_icm(adev, qpn, ARRAY_SIZE(arbel_qp_tables));
err_xa:
	xa_erase_irq(&adev->qp_xa, qpn);
err_number:
	arbel_qp_number_free(adev, qp);
	return err;
}

/**
 * arbel_max_rd_atom() - RDMA reads and atomics a QP may take in at once
 * @adev: the HCA
 *
 * The RDB entries each QP has in ICM, at most what QUERY_DEV_LIM allows.
 *
 * Return: the number.
 */
u32 arbel_max_rd_atom(struct arbel_dev *adev)
{
	return min_t(u32, ARBEL_PROFILE_RDB_PER_QP,
		     1U << adev->lim.log_max_ra_res_qp);
}

static int arbel_qp_check_attr(struct arbel_dev *adev,
			       const struct ib_qp_attr *attr, int mask)
{
	if ((mask & IB_QP_PORT) &&
	    (attr->port_num < 1 || attr->port_num > adev->num_ports))
		return -EINVAL;
	if ((mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= arbel_pkey_table_len(adev))
		return -EINVAL;
	if ((mask & IB_QP_ALT_PATH) &&
	    (attr->alt_port_num < 1 || attr->alt_port_num > adev->num_ports ||
	     attr->alt_pkey_index >= arbel_pkey_table_len(adev)))
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > 1U << adev->lim.log_max_ra_req_qp)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > arbel_max_rd_atom(adev))
		return -EINVAL;
	return 0;
}

/**
 * arbel_modify_qp() - move a QP to another state, or change attributes
 * @ibqp: the QP
 * @attr: the attributes
 * @mask: which are given (IB_QP_*)
 * @udata: the user's (nothing is read from it)
 *
 * Context: process; sleeps.
 * Return: 0; -EOPNOTSUPP for an attribute outside IBTA's; -EINVAL for a
 * transition or attribute set IBTA forbids or the device cannot hold; or
 * the errno of the firmware's command (the QP is then where it was).
 */
int arbel_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		    struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_qp *qp = to_aqp(ibqp);
	enum ib_qp_state cur, next;
	u32 flags = 0;
	u16 opcode;
	u8 *mbox;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	err = arbel_qp_check_attr(adev, attr, mask);
	if (err)
		return err;
	mbox = kzalloc(ARBEL_QP_MBOX_SIZE, GFP_KERNEL);
	if (!mbox)
		return -ENOMEM;

	mutex_lock(&qp->mutex);
	cur = mask & IB_QP_CUR_STATE ? attr->cur_qp_state : qp->state;
	next = mask & IB_QP_STATE ? attr->qp_state : cur;
	err = -EINVAL;
	if (!ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask))
		goto out;
	if (cur == IB_QPS_RESET && next == IB_QPS_RESET) {
		err = 0;
		goto out;
	}
	opcode = arbel_qp_opcode(cur, next);
	if (!opcode)
		goto out;
	err = arbel_qp_encode(&qp->hw, attr, mask, cur, next, mbox);
	if (err)
		goto out;
	if (cur == IB_QPS_RTS && next == IB_QPS_SQD &&
	    (mask & IB_QP_EN_SQD_ASYNC_NOTIFY) && attr->en_sqd_async_notify)
		flags = ARBEL_QP_SQD_EVENT;
	err = arbel_fw_qp_modify(&adev->cmd, opcode, qp->hw.qpn, flags, mbox);
	if (err)
		goto out;

	qp->state = next;
	if (next == IB_QPS_RESET && !qp->db)
		arbel_kqp_reset(qp);
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->hw.access = attr->qp_access_flags;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->hw.resp_depth = attr->max_dest_rd_atomic;
	if (mask & IB_QP_PORT)
		qp->hw.port = attr->port_num;
out:
	mutex_unlock(&qp->mutex);
	kfree(mbox);
	return err;
}

/**
 * arbel_query_qp() - a QP's attributes as the HCA holds them
 * @ibqp: the QP
 * @attr: filled (all of it, whatever @mask asks)
 * @mask: attributes wanted
 * @init: filled: capacities and signalling
 *
 * Context: process; sleeps.
 * Return: 0 or the errno of QUERY_QPEE.
 */
int arbel_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		   struct ib_qp_init_attr *init)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_qp *qp = to_aqp(ibqp);
	u8 *mbox;
	int err = 0;

	mbox = kzalloc(ARBEL_QP_MBOX_SIZE, GFP_KERNEL);
	if (!mbox)
		return -ENOMEM;
	memset(attr, 0, sizeof(*attr));
	mutex_lock(&qp->mutex);
	if (qp->state == IB_QPS_RESET) {
		attr->qp_state = IB_QPS_RESET;
	} else {
		err = arbel_fw_query_qp(&adev->cmd, qp->hw.qpn, mbox);
		if (err)
			goto out;
		arbel_qp_decode(mbox + ARBEL_QP_MBOX_CTX, attr);
		qp->state = attr->qp_state;
	}
	attr->cur_qp_state = attr->qp_state;
	attr->cap.max_send_wr = qp->sz.sq_max;
	attr->cap.max_recv_wr = qp->sz.rq_max;
	attr->cap.max_send_sge = qp->sz.max_send_sge;
	attr->cap.max_recv_sge = qp->sz.max_recv_sge;
	attr->cap.max_inline_data = qp->sz.max_inline;
	init->cap = attr->cap;
	init->sq_sig_type = qp->hw.sig_all ? IB_SIGNAL_ALL_WR :
					     IB_SIGNAL_REQ_WR;
out:
	mutex_unlock(&qp->mutex);
	kfree(mbox);
	return err;
}

/**
 * arbel_destroy_qp() - reset a QP, take it back and free it
 * @ibqp: the QP
 * @udata: the user's (unused)
 *
 * Context: process; sleeps.
 * Return: 0, or the errno of ERR2RST with the QP left whole.
 */
int arbel_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_qp *qp = to_aqp(ibqp);
	u32 qpn = qp->hw.qpn;
	int err;

	if (qp->state != IB_QPS_RESET) {
		err = arbel_fw_qp_modify(&adev->cmd, ARBEL_CMD_ERR2RST_QPEE,
					 qpn, 0, NULL);
		if (err && !arbel_cmd_failed(&adev->cmd))
			return err;
	}
	arbel_queue_forget(adev, &adev->qp_xa, qpn);
	arbel_qp_free_records(adev, qp);
	arbel_qp_put_icm(adev, qpn, ARRAY_SIZE(arbel_qp_tables));
	arbel_qp_number_free(adev, qp);
	mutex_destroy(&qp->mutex);
	return 0;
}
