// SPDX-License-Identifier: GPL-2.0-only
/*
 * Queue contexts in the PRM's layouts (include/arbel/qctx.h), and the work
 * queue geometry libmthca builds its buffers with.  Pure: no device.
 *
 * What goes into a QP transition's context follows what mthca sends the
 * firmware: every transition carries the whole static part (queue sizes,
 * UAR, PD, CQs, doorbell records), the attributes the verbs mask names,
 * and an optional-parameter bit for each optional one.
 */

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "compat.h"
#include <arbel/prm.h>
#include <arbel/qctx.h>

/* WQE segment sizes (the PRM's wqe_segment_*_st) */
#define ARBEL_SEG_NEXT		16
#define ARBEL_SEG_DATA		16
#define ARBEL_SEG_RADDR		16
#define ARBEL_SEG_ATOMIC	16
#define ARBEL_SEG_BIND		32
#define ARBEL_SEG_UD		48	/* mem-free: the address vector inline */
#define ARBEL_SEG_INLINE_HDR	4
#define ARBEL_MIN_WQE_SHIFT	6

static void or_be32(u8 *p, u32 bits)
{
	put_unaligned_be32(get_unaligned_be32(p) | bits, p);
}

/* @val into the field @mask (one contiguous run of bits) of a dword */
static void put_field(u8 *p, u32 mask, u32 val)
{
	or_be32(p, val << __ffs(mask) & mask);
}

/**
 * arbel_cqc_encode() - build a CQ context
 * @cqc: the fields
 * @ctx: %ARBEL_CQC_SIZE bytes, written whole
 *
 * State disarmed and status OK (0), as SW2HW_CQ requires.
 */
void arbel_cqc_encode(const struct arbel_cqc *cqc, u8 *ctx)
{
	memset(ctx, 0, ARBEL_CQC_SIZE);
	put_unaligned_be64(cqc->start, ctx + ARBEL_CQC_START);
	put_unaligned_be32(FIELD_PREP(ARBEL_CQC_LOG_SIZE, cqc->log_size) |
			   FIELD_PREP(ARBEL_CQC_USR_PAGE, cqc->uar),
			   ctx + ARBEL_CQC_LOGSIZE_UAR);
	put_unaligned_be32(cqc->eqn, ctx + ARBEL_CQC_COMP_EQN);
	put_unaligned_be32(cqc->pd, ctx + ARBEL_CQC_PD);
	put_unaligned_be32(cqc->lkey, ctx + ARBEL_CQC_LKEY);
	put_unaligned_be32(cqc->cqn, ctx + ARBEL_CQC_CQN);
	put_unaligned_be32(cqc->ci_db, ctx + ARBEL_CQC_CI_DB);
	put_unaligned_be32(cqc->state_db, ctx + ARBEL_CQC_STATE_DB);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqc_encode);

/**
 * arbel_srqc_encode() - build an SRQ context
 * @srqc: the fields
 * @ctx: %ARBEL_SRQC_SIZE bytes, written whole
 *
 * State 0 (hardware ownership) and no limit armed.
 */
void arbel_srqc_encode(const struct arbel_srqc *srqc, u8 *ctx)
{
	memset(ctx, 0, ARBEL_SRQC_SIZE);
	put_unaligned_be32(FIELD_PREP(ARBEL_SRQC_LOG_SIZE, srqc->log_size) |
			   FIELD_PREP(ARBEL_SRQC_SRQN, srqc->srqn),
			   ctx + ARBEL_SRQC_SRQN_LOG);
	put_unaligned_be32(srqc->lkey, ctx + ARBEL_SRQC_LKEY);
	put_unaligned_be32(srqc->db, ctx + ARBEL_SRQC_DB);
	put_unaligned_be32(FIELD_PREP(ARBEL_SRQC_LOG_STRIDE,
				      srqc->wqe_shift - 4) |
			   FIELD_PREP(ARBEL_SRQC_USR_PAGE, srqc->uar),
			   ctx + ARBEL_SRQC_STRIDE_UAR);
	put_unaligned_be32(FIELD_PREP(ARBEL_SRQC_EQN, srqc->eqn) |
			   FIELD_PREP(ARBEL_SRQC_PD, srqc->pd),
			   ctx + ARBEL_SRQC_EQ_PD);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_srqc_encode);

static u8 arbel_wqe_shift(u32 bytes)
{
	return max_t(u8, ARBEL_MIN_WQE_SHIFT, order_base_2(bytes));
}

/**
 * arbel_qp_wq_sizes() - the work queues of a new QP
 * @lim: the device's limits
 * @type: RC, UC, UD, or SMI or GSI (MLX; others: -EOPNOTSUPP)
 * @cap: what was asked for
 * @sz: the geometry, and the capacities to report back
 *
 * libmthca lays out a user QP's buffer itself (its mthca_alloc_qp_buf())
 * and tells the kernel only the region's lkey, so the strides here are
 * computed the same way: queues of a power of two WQEs, the receive queue
 * first, each WQE the next segment plus what its largest request needs,
 * at least 64 bytes.
 *
 * Return: 0, or -EINVAL when @cap exceeds @lim.
 */
int arbel_qp_wq_sizes(const struct arbel_wq_limits *lim,
		      enum ib_qp_type type, const struct ib_qp_cap *cap,
		      struct arbel_wq_sizes *sz)
{
	u32 tseg, size, sq_sge, max_data;

	switch (type) {
	case IB_QPT_RC:
	case IB_QPT_UC:
		tseg = ARBEL_SEG_RADDR;
		break;
	case IB_QPT_UD:
		tseg = ARBEL_SEG_UD;
		break;
	case IB_QPT_SMI:
	case IB_QPT_GSI:
		/* MLX: a pointer to the headers, an inline ICRC (mthca's) */
		tseg = 2 * ARBEL_SEG_DATA;
		break;
	default:
		return -EOPNOTSUPP;
	}
	if (lim->max_desc_sz < ARBEL_SEG_NEXT + tseg + ARBEL_SEG_INLINE_HDR)
		return -EINVAL;
	max_data = lim->max_desc_sz - ARBEL_SEG_NEXT - tseg;
	if (cap->max_send_wr > lim->max_wqes ||
	    cap->max_recv_wr > lim->max_wqes ||
	    cap->max_send_sge > lim->max_sg || cap->max_recv_sge > lim->max_sg ||
	    cap->max_inline_data > max_data - ARBEL_SEG_INLINE_HDR)
		return -EINVAL;

	memset(sz, 0, sizeof(*sz));
	sz->sq_max = cap->max_send_wr ?
		     roundup_pow_of_two(cap->max_send_wr) : 0;
	sz->rq_max = cap->max_recv_wr ?
		     roundup_pow_of_two(cap->max_recv_wr) : 0;
	sz->rq_wqe_shift = arbel_wqe_shift(ARBEL_SEG_NEXT + cap->max_recv_sge *
					   ARBEL_SEG_DATA);

	sq_sge = DIV_ROUND_UP(cap->max_inline_data + ARBEL_SEG_INLINE_HDR,
			      ARBEL_SEG_DATA);
	size = max(sq_sge, cap->max_send_sge) * ARBEL_SEG_DATA + tseg;
	if (type == IB_QPT_RC)	/* an atomic: its segment and one gather */
		size = max_t(u32, size, ARBEL_SEG_ATOMIC + ARBEL_SEG_RADDR +
			     ARBEL_SEG_DATA);
	size = max_t(u32, size, ARBEL_SEG_BIND);
	sz->sq_wqe_shift = arbel_wqe_shift(size + ARBEL_SEG_NEXT);
	if ((1U << sz->sq_wqe_shift) > lim->max_desc_sz &&
	    size + ARBEL_SEG_NEXT > lim->max_desc_sz)
		return -EINVAL;

	sz->sq_base = ALIGN(sz->rq_max << sz->rq_wqe_shift,
			    1U << sz->sq_wqe_shift);
	sz->buf_size = sz->sq_base + (sz->sq_max << sz->sq_wqe_shift);

	/* What the strides hold, as mthca reports it back. */
	max_data = min_t(u32, lim->max_desc_sz, 1U << sz->sq_wqe_shift) -
		   ARBEL_SEG_NEXT - tseg;
	sz->max_inline = max_data - ARBEL_SEG_INLINE_HDR;
	sz->max_send_sge = min(lim->max_sg, max_data / ARBEL_SEG_DATA);
	sz->max_recv_sge = min(lim->max_sg,
			       (min_t(u32, lim->max_desc_sz,
				      1U << sz->rq_wqe_shift) -
				ARBEL_SEG_NEXT) / ARBEL_SEG_DATA);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_qp_wq_sizes);

/**
 * arbel_srq_wqe_shift() - the stride of an SRQ's WQEs
 * @lim: the device's limits
 * @max_sge: scatter entries per WQE
 *
 * As libmthca's mthca_alloc_srq_buf(): the next segment and the scatter
 * entries, at least 64 bytes, a power of two.
 *
 * Return: log2 of the stride, or -EINVAL when @max_sge is too many.
 */
int arbel_srq_wqe_shift(const struct arbel_wq_limits *lim, u32 max_sge)
{
	if (max_sge > lim->max_sg ||
	    ARBEL_SEG_NEXT + max_sge * ARBEL_SEG_DATA > lim->max_desc_sz)
		return -EINVAL;
	return arbel_wqe_shift(ARBEL_SEG_NEXT + max_sge * ARBEL_SEG_DATA);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_srq_wqe_shift);

/**
 * arbel_qp_opcode() - the firmware command of a QP state transition
 * @cur: the current state
 * @next: the state asked for
 *
 * Return: the opcode, or 0 when the PRM has no command for it.
 */
u16 arbel_qp_opcode(enum ib_qp_state cur, enum ib_qp_state next)
{
	if (cur > IB_QPS_ERR || next > IB_QPS_ERR)
		return 0;
	if (next == IB_QPS_RESET)
		return ARBEL_CMD_ERR2RST_QPEE;
	if (next == IB_QPS_ERR)
		return ARBEL_CMD_2ERR_QPEE;
	switch (cur) {
	case IB_QPS_RESET:
		return next == IB_QPS_INIT ? ARBEL_CMD_RST2INIT_QPEE : 0;
	case IB_QPS_INIT:
		return next == IB_QPS_INIT ? ARBEL_CMD_INIT2INIT_QPEE :
		       next == IB_QPS_RTR ? ARBEL_CMD_INIT2RTR_QPEE : 0;
	case IB_QPS_RTR:
		return next == IB_QPS_RTS ? ARBEL_CMD_RTR2RTS_QPEE : 0;
	case IB_QPS_RTS:
		return next == IB_QPS_RTS ? ARBEL_CMD_RTS2RTS_QPEE :
		       next == IB_QPS_SQD ? ARBEL_CMD_RTS2SQD_QPEE : 0;
	case IB_QPS_SQD:
		return next == IB_QPS_RTS ? ARBEL_CMD_SQD2RTS_QPEE :
		       next == IB_QPS_SQD ? ARBEL_CMD_SQD2SQD_QPEE : 0;
	case IB_QPS_SQE:
		return next == IB_QPS_RTS ? ARBEL_CMD_SQERR2RTS_QPEE : 0;
	default:
		return 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_qp_opcode);

static u8 arbel_state_to_hw(enum ib_qp_state s)
{
	static const u8 hw[] = {
		[IB_QPS_RESET] = ARBEL_QPS_RST, [IB_QPS_INIT] = ARBEL_QPS_INIT,
		[IB_QPS_RTR] = ARBEL_QPS_RTR, [IB_QPS_RTS] = ARBEL_QPS_RTS,
		[IB_QPS_SQD] = ARBEL_QPS_SQD, [IB_QPS_SQE] = ARBEL_QPS_SQE,
		[IB_QPS_ERR] = ARBEL_QPS_ERR,
	};

	return hw[s];
}

/**
 * arbel_qp_state_from_hw() - a context's state field as a verbs state
 * @hw: the field (enum arbel_qp_hw_state)
 *
 * Return: the state; draining counts as SQD.  A reserved value reads
 * as the error state.
 */
enum ib_qp_state arbel_qp_state_from_hw(u8 hw)
{
	switch (hw) {
	case ARBEL_QPS_RST: return IB_QPS_RESET;
	case ARBEL_QPS_INIT: return IB_QPS_INIT;
	case ARBEL_QPS_RTR: return IB_QPS_RTR;
	case ARBEL_QPS_RTS: return IB_QPS_RTS;
	case ARBEL_QPS_SQE: return IB_QPS_SQE;
	case ARBEL_QPS_SQD:
	case ARBEL_QPS_DRAINING: return IB_QPS_SQD;
	default: return IB_QPS_ERR;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_qp_state_from_hw);

static u8 arbel_pm_state(enum ib_mig_state m)
{
	/* PRM: 11 migrated, 00 armed, 01 rearm */
	return m == IB_MIG_ARMED ? 0 : m == IB_MIG_REARM ? 1 : 3;
}

static int arbel_path_encode(const struct rdma_ah_attr *ah, u8 *path)
{
	u32 w = FIELD_PREP(ARBEL_PATH_MY_LID_BITS,
			   rdma_ah_get_path_bits(ah)) |
		FIELD_PREP(ARBEL_PATH_DLID, rdma_ah_get_dlid(ah));
	u32 sl = FIELD_PREP(ARBEL_PATH_SL, rdma_ah_get_sl(ah));

	if (rdma_ah_get_ah_flags(ah) & IB_AH_GRH) {
		const struct ib_global_route *grh = rdma_ah_read_grh(ah);

		if (grh->sgid_index > FIELD_MAX(ARBEL_PATH_MGID_INDEX))
			return -EINVAL;
		w |= ARBEL_PATH_G;
		put_field(path + ARBEL_PATH_TIMEOUT, ARBEL_PATH_MGID_INDEX,
			  grh->sgid_index);
		put_field(path + ARBEL_PATH_TIMEOUT, ARBEL_PATH_HOP_LIMIT,
			  grh->hop_limit);
		sl |= FIELD_PREP(ARBEL_PATH_TCLASS, grh->traffic_class) |
		      FIELD_PREP(ARBEL_PATH_FLOW_LABEL, grh->flow_label);
		memcpy(path + ARBEL_PATH_RGID, grh->dgid.raw, 16);
	}
	or_be32(path + ARBEL_PATH_RLID, w);
	or_be32(path + ARBEL_PATH_SL_TC_FL, sl);
	return 0;
}

/* the remote access bits, as mthca: none but write without resources */
static u32 arbel_qp_access(const struct arbel_qp_static *qs,
			   const struct ib_qp_attr *attr, int mask)
{
	int access = mask & IB_QP_ACCESS_FLAGS ? attr->qp_access_flags :
			qs->access;
	u8 depth = mask & IB_QP_MAX_DEST_RD_ATOMIC ? attr->max_dest_rd_atomic :
		   qs->resp_depth;
	u32 hw = 0;

	if (!depth)
		access &= IB_ACCESS_REMOTE_WRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		hw |= ARBEL_QPC_RRE;
	if (access & IB_ACCESS_REMOTE_ATOMIC)
		hw |= ARBEL_QPC_RAE;
	if (access & IB_ACCESS_REMOTE_WRITE)
		hw |= ARBEL_QPC_RWE;
	return hw;
}

/* the static part every transition carries */
static void arbel_qp_encode_static(const struct arbel_qp_static *qs, u8 *c)
{
	if (qs->rq_log_size)
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_LOG_RQ_SIZE,
			  qs->rq_log_size);
	put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_LOG_RQ_STRIDE,
		  qs->rq_wqe_shift - 4);
	if (qs->sq_log_size)
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_LOG_SQ_SIZE,
			  qs->sq_log_size);
	put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_LOG_SQ_STRIDE,
		  qs->sq_wqe_shift - 4);
	put_unaligned_be32(qs->uar, c + ARBEL_QPC_USR_PAGE);
	put_unaligned_be32(qs->qpn, c + ARBEL_QPC_LOCAL_QPN);
	put_unaligned_be32(qs->pd, c + ARBEL_QPC_PD);
	put_unaligned_be32(qs->wqe_lkey, c + ARBEL_QPC_WQE_LKEY);
	put_unaligned_be32(FIELD_PREP(ARBEL_QPC_ACK_REQ_FREQ,
				      ARBEL_QP_ACK_REQ_FREQ) |
			   FIELD_PREP(ARBEL_QPC_FLIGHT_LIM,
				      ARBEL_QP_FLIGHT_LIMIT) |
			   ARBEL_QPC_SWE | (qs->sig_all ? ARBEL_QPC_SSC : 0),
			   c + ARBEL_QPC_PARAMS1);
	put_unaligned_be32(qs->cqn_snd, c + ARBEL_QPC_CQN_SND);
	put_unaligned_be32(qs->sq_base, c + ARBEL_QPC_SND_WQE_BASE);
	put_unaligned_be32(qs->sq_db, c + ARBEL_QPC_SND_DB);
	put_unaligned_be32(ARBEL_QPC_RSC | (qs->has_srq ? ARBEL_QPC_RIC : 0),
			   c + ARBEL_QPC_PARAMS2);
	put_unaligned_be32(qs->ra_buff, c + ARBEL_QPC_RA_BUFF);
	put_unaligned_be32(qs->cqn_rcv, c + ARBEL_QPC_CQN_RCV);
	put_unaligned_be32(qs->rq_db, c + ARBEL_QPC_RCV_DB);
	if (qs->has_srq)
		put_unaligned_be32(ARBEL_QPC_HAS_SRQ | qs->srqn,
				   c + ARBEL_QPC_SRQN);
}

/**
 * arbel_qp_encode() - build a QP transition's inbox
 * @qs: the QP's static part
 * @attr: the verbs attributes
 * @mask: which of @attr are given (IB_QP_*)
 * @cur: the current state
 * @next: the new state
 * @mbox: %ARBEL_QP_MBOX_SIZE bytes: optional-parameter mask, reserved,
 *	  context; written whole
 *
 * Return: 0, or -EINVAL for an attribute the context cannot hold.
 */
int arbel_qp_encode(const struct arbel_qp_static *qs,
		    const struct ib_qp_attr *attr, int mask,
		    enum ib_qp_state cur, enum ib_qp_state next, u8 *mbox)
{
	u8 *c = mbox + ARBEL_QP_MBOX_CTX;
	u8 *pri = c + ARBEL_QPC_PRI_PATH, *alt = c + ARBEL_QPC_ALT_PATH;
	u32 opt = 0;

	memset(mbox, 0, ARBEL_QP_MBOX_SIZE);
	put_unaligned_be32(FIELD_PREP(ARBEL_QPC_STATE,
				      arbel_state_to_hw(next)) |
			   FIELD_PREP(ARBEL_QPC_ST, qs->st) | ARBEL_QPC_DE |
			   FIELD_PREP(ARBEL_QPC_PM_STATE,
				      arbel_pm_state(mask & IB_QP_PATH_MIG_STATE ?
						     attr->path_mig_state :
						     IB_MIG_MIGRATED)),
			   c + ARBEL_QPC_FLAGS);
	if (mask & IB_QP_PATH_MIG_STATE)
		opt |= ARBEL_OPT_PM_STATE;

	if (qs->st == ARBEL_QP_ST_UD || qs->st == ARBEL_QP_ST_MLX) {
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_MTU, IB_MTU_2048);
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_MSG_MAX, 11);
	} else if (mask & IB_QP_PATH_MTU) {
		if (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_2048)
			return -EINVAL;
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_MTU, attr->path_mtu);
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_MSG_MAX, 31);
	}
	arbel_qp_encode_static(qs, c);

	if (mask & IB_QP_DEST_QPN)
		put_unaligned_be32(attr->dest_qp_num, c + ARBEL_QPC_REMOTE_QPN);
	if (qs->st == ARBEL_QP_ST_MLX) {
		put_field(pri + ARBEL_PATH_PORT_PKEY, ARBEL_PATH_PORT, qs->port);
	} else if (mask & IB_QP_PORT) {
		put_field(pri + ARBEL_PATH_PORT_PKEY, ARBEL_PATH_PORT,
			  attr->port_num);
		opt |= ARBEL_OPT_PORT_NUM;
	}
	if (mask & IB_QP_PKEY_INDEX) {
		if (attr->pkey_index > FIELD_MAX(ARBEL_PATH_PKEY_INDEX))
			return -EINVAL;
		put_field(pri + ARBEL_PATH_PORT_PKEY, ARBEL_PATH_PKEY_INDEX,
			  attr->pkey_index);
		opt |= ARBEL_OPT_PKEY_INDEX;
	}
	if (mask & IB_QP_RNR_RETRY) {
		put_field(pri + ARBEL_PATH_RLID, ARBEL_PATH_RNR_RETRY,
			  attr->rnr_retry);
		put_field(alt + ARBEL_PATH_RLID, ARBEL_PATH_RNR_RETRY,
			  attr->rnr_retry);
		opt |= ARBEL_OPT_RNR_RETRY | ARBEL_OPT_ALT_RNR_RETRY;
	}
	if (mask & IB_QP_AV) {
		if (arbel_path_encode(&attr->ah_attr, pri))
			return -EINVAL;
		opt |= ARBEL_OPT_PRIMARY_PATH;
	}
	if (qs->st == ARBEL_QP_ST_RC && cur == IB_QPS_INIT &&
	    next == IB_QPS_RTR) {
		put_field(c + ARBEL_QPC_SIZES, ARBEL_QPC_SCHED_QUEUE,
			  qs->user ? 2 : 1);
		opt |= ARBEL_OPT_SCHED_QUEUE;
	}
	if (mask & IB_QP_TIMEOUT) {
		put_field(pri + ARBEL_PATH_TIMEOUT, ARBEL_PATH_ACK_TIMEOUT,
			  attr->timeout);
		opt |= ARBEL_OPT_ACK_TIMEOUT;
	}
	if (mask & IB_QP_ALT_PATH) {
		if (attr->alt_pkey_index > FIELD_MAX(ARBEL_PATH_PKEY_INDEX) ||
		    arbel_path_encode(&attr->alt_ah_attr, alt))
			return -EINVAL;
		put_field(alt + ARBEL_PATH_PORT_PKEY, ARBEL_PATH_PKEY_INDEX,
			  attr->alt_pkey_index);
		put_field(alt + ARBEL_PATH_PORT_PKEY, ARBEL_PATH_PORT,
			  attr->alt_port_num);
		put_field(alt + ARBEL_PATH_TIMEOUT, ARBEL_PATH_ACK_TIMEOUT,
			  attr->alt_timeout);
		opt |= ARBEL_OPT_ALT_PATH;
	}
	if (mask & IB_QP_RETRY_CNT) {
		put_field(c + ARBEL_QPC_PARAMS1, ARBEL_QPC_RETRY_COUNT,
			  attr->retry_cnt);
		opt |= ARBEL_OPT_RETRY_COUNT;
	}
	if (mask & IB_QP_MAX_QP_RD_ATOMIC) {
		if (attr->max_rd_atomic)
			or_be32(c + ARBEL_QPC_PARAMS1,
				FIELD_PREP(ARBEL_QPC_SRA_MAX,
					   fls(attr->max_rd_atomic - 1)) |
				ARBEL_QPC_SRE | ARBEL_QPC_SAE);
		opt |= ARBEL_OPT_SRA_MAX;
	}
	if (mask & IB_QP_SQ_PSN)
		put_unaligned_be32(attr->sq_psn, c + ARBEL_QPC_NEXT_SEND_PSN);
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC) {
		if (attr->max_dest_rd_atomic)
			put_field(c + ARBEL_QPC_PARAMS2, ARBEL_QPC_RRA_MAX,
				  fls(attr->max_dest_rd_atomic - 1));
		opt |= ARBEL_OPT_RRA_MAX;
	}
	if (mask & (IB_QP_ACCESS_FLAGS | IB_QP_MAX_DEST_RD_ATOMIC)) {
		or_be32(c + ARBEL_QPC_PARAMS2, arbel_qp_access(qs, attr, mask));
		opt |= ARBEL_OPT_RWE | ARBEL_OPT_RRE | ARBEL_OPT_RAE;
	}
	if (mask & IB_QP_MIN_RNR_TIMER) {
		put_field(c + ARBEL_QPC_RNR_RCV_PSN, ARBEL_QPC_MIN_RNR,
			  attr->min_rnr_timer);
		opt |= ARBEL_OPT_RNR_TIMEOUT;
	}
	if (mask & IB_QP_RQ_PSN)
		put_field(c + ARBEL_QPC_RNR_RCV_PSN, ARBEL_QPC_PSN,
			  attr->rq_psn);
	if (mask & IB_QP_QKEY) {
		put_unaligned_be32(attr->qkey, c + ARBEL_QPC_QKEY);
		opt |= ARBEL_OPT_Q_KEY;
	}
	put_unaligned_be32(opt, mbox + ARBEL_QP_MBOX_OPTMASK);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_qp_encode);

static void arbel_path_decode(const u8 *path, struct rdma_ah_attr *ah)
{
	u32 w = get_unaligned_be32(path + ARBEL_PATH_RLID);
	u32 t = get_unaligned_be32(path + ARBEL_PATH_TIMEOUT);
	u32 sl = get_unaligned_be32(path + ARBEL_PATH_SL_TC_FL);
	u32 port = FIELD_GET(ARBEL_PATH_PORT,
			     get_unaligned_be32(path + ARBEL_PATH_PORT_PKEY));

	memset(ah, 0, sizeof(*ah));
	ah->type = RDMA_AH_ATTR_TYPE_IB;
	rdma_ah_set_port_num(ah, port);
	rdma_ah_set_dlid(ah, FIELD_GET(ARBEL_PATH_DLID, w));
	rdma_ah_set_path_bits(ah, FIELD_GET(ARBEL_PATH_MY_LID_BITS, w));
	rdma_ah_set_sl(ah, FIELD_GET(ARBEL_PATH_SL, sl));
	if (w & ARBEL_PATH_G) {
		rdma_ah_set_grh(ah, NULL, FIELD_GET(ARBEL_PATH_FLOW_LABEL, sl),
				FIELD_GET(ARBEL_PATH_MGID_INDEX, t),
				FIELD_GET(ARBEL_PATH_HOP_LIMIT, t),
				FIELD_GET(ARBEL_PATH_TCLASS, sl));
		memcpy(rdma_ah_retrieve_grh(ah)->dgid.raw,
		       path + ARBEL_PATH_RGID, 16);
	}
}

/**
 * arbel_qp_decode() - a QUERY_QPEE context as verbs attributes
 * @ctx: the context (%ARBEL_QPC_SIZE bytes)
 * @attr: filled: state, MTU, migration state, Q_Key, PSNs, remote QPN,
 *	  access, both paths, P_Key index, port, RDMA depths, timers and
 *	  retry counts
 */
void arbel_qp_decode(const u8 *ctx, struct ib_qp_attr *attr)
{
	u32 flags = get_unaligned_be32(ctx + ARBEL_QPC_FLAGS);
	u32 p1 = get_unaligned_be32(ctx + ARBEL_QPC_PARAMS1);
	u32 p2 = get_unaligned_be32(ctx + ARBEL_QPC_PARAMS2);
	u32 rnr = get_unaligned_be32(ctx + ARBEL_QPC_RNR_RCV_PSN);
	const u8 *pri = ctx + ARBEL_QPC_PRI_PATH, *alt = ctx + ARBEL_QPC_ALT_PATH;
	u8 pm = FIELD_GET(ARBEL_QPC_PM_STATE, flags);

	attr->qp_state = arbel_qp_state_from_hw(FIELD_GET(ARBEL_QPC_STATE,
							  flags));
	attr->sq_draining = FIELD_GET(ARBEL_QPC_STATE, flags) ==
			    ARBEL_QPS_DRAINING;
	attr->path_mtu = FIELD_GET(ARBEL_QPC_MTU,
				   get_unaligned_be32(ctx + ARBEL_QPC_SIZES));
	attr->path_mig_state = pm == 0 ? IB_MIG_ARMED :
			       pm == 1 ? IB_MIG_REARM : IB_MIG_MIGRATED;
	attr->qkey = get_unaligned_be32(ctx + ARBEL_QPC_QKEY);
	attr->rq_psn = FIELD_GET(ARBEL_QPC_PSN, rnr);
	attr->sq_psn = get_unaligned_be32(ctx + ARBEL_QPC_NEXT_SEND_PSN) &
		       ARBEL_QPC_PSN;
	attr->dest_qp_num = get_unaligned_be32(ctx + ARBEL_QPC_REMOTE_QPN) &
			    ARBEL_QPC_PSN;
	attr->qp_access_flags =
		(p2 & ARBEL_QPC_RRE ? IB_ACCESS_REMOTE_READ : 0) |
		(p2 & ARBEL_QPC_RWE ? IB_ACCESS_REMOTE_WRITE : 0) |
		(p2 & ARBEL_QPC_RAE ? IB_ACCESS_REMOTE_ATOMIC : 0);
	arbel_path_decode(pri, &attr->ah_attr);
	arbel_path_decode(alt, &attr->alt_ah_attr);
	attr->pkey_index = FIELD_GET(ARBEL_PATH_PKEY_INDEX,
				     get_unaligned_be32(pri));
	attr->port_num = FIELD_GET(ARBEL_PATH_PORT, get_unaligned_be32(pri));
	attr->alt_pkey_index = FIELD_GET(ARBEL_PATH_PKEY_INDEX,
					 get_unaligned_be32(alt));
	attr->alt_port_num = FIELD_GET(ARBEL_PATH_PORT,
				       get_unaligned_be32(alt));
	attr->max_rd_atomic = p1 & ARBEL_QPC_SRE ?
			      1 << FIELD_GET(ARBEL_QPC_SRA_MAX, p1) : 0;
	attr->max_dest_rd_atomic = 1 << FIELD_GET(ARBEL_QPC_RRA_MAX, p2);
	attr->min_rnr_timer = FIELD_GET(ARBEL_QPC_MIN_RNR, rnr);
	attr->timeout = FIELD_GET(ARBEL_PATH_ACK_TIMEOUT,
				  get_unaligned_be32(pri + ARBEL_PATH_TIMEOUT));
	attr->alt_timeout = FIELD_GET(ARBEL_PATH_ACK_TIMEOUT,
				      get_unaligned_be32(alt +
							 ARBEL_PATH_TIMEOUT));
	attr->retry_cnt = FIELD_GET(ARBEL_QPC_RETRY_COUNT, p1);
	attr->rnr_retry = FIELD_GET(ARBEL_PATH_RNR_RETRY,
				    get_unaligned_be32(pri + ARBEL_PATH_RLID));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_qp_decode);
