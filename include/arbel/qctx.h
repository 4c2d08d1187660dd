/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Queue contexts: the CQ, SRQ and QP contexts the firmware takes in
 * SW2HW_CQ, SW2HW_SRQ and the QP transition commands, and the work queue
 * sizes libmthca and the driver must agree on.
 *
 * Layouts: the PRM's arbelprm_completion_queue_context_st,
 * arbelprm_srq_context_st, arbelprm_queue_pair_ee_context_entry_st,
 * arbelprm_address_path_st and arbelprm_qp_ee_state_transitions_st (iPXE's
 * PRM header for the MT25218); fields are listed LSB-first in big-endian dwords, the
 * byte offsets below are those of each dword.  Pure: UML-testable.
 */
#ifndef _ARBEL_QCTX_H
#define _ARBEL_QCTX_H

#include <linux/bits.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

/* ---- CQ context (SW2HW_CQ inbox) -------------------------------------- */

#define ARBEL_CQC_SIZE			0x40
#define ARBEL_CQC_FLAGS			0x00	/* st 11:8, status 31:28: 0 */
#define ARBEL_CQC_START			0x04	/* be64 */
#define ARBEL_CQC_LOGSIZE_UAR		0x0c
#define ARBEL_CQC_LOG_SIZE		GENMASK(28, 24)
#define ARBEL_CQC_USR_PAGE		GENMASK(23, 0)
#define ARBEL_CQC_COMP_EQN		0x14	/* bits 7:0 */
#define ARBEL_CQC_PD			0x18
#define ARBEL_CQC_LKEY			0x1c
#define ARBEL_CQC_CONSUMER		0x28
#define ARBEL_CQC_PRODUCER		0x2c
#define ARBEL_CQC_CQN			0x30
#define ARBEL_CQC_CI_DB			0x34
#define ARBEL_CQC_STATE_DB		0x38
#define ARBEL_CQ_LOG_MAX		17	/* log_cq_size's maximum */
#define ARBEL_RESIZE_CQ_OP_MOD		1	/* mthca's */

/**
 * struct arbel_cqc - the fields of a CQ context the driver sets
 * @start: address of the first CQE in the buffer's region
 * @log_size: log2 of the number of CQEs
 * @uar: the UAR page whose doorbells arm and update the CQ
 * @eqn: the EQ completion events go to
 * @pd: PD of the buffer's region
 * @lkey: lkey of the buffer's region
 * @cqn: the CQ number
 * @ci_db: consumer-counter doorbell record (index in the UAR context)
 * @state_db: arm-state doorbell record (index in the UAR context)
 */
struct arbel_cqc {
	u64 start;
	u8 log_size;
	u32 uar;
	u8 eqn;
	u32 pd;
	u32 lkey;
	u32 cqn;
	u32 ci_db;
	u32 state_db;
};

/* ---- SRQ context (SW2HW_SRQ inbox) ------------------------------------ */

#define ARBEL_SRQC_SIZE			0x20
#define ARBEL_SRQC_SRQN_LOG		0x00
#define ARBEL_SRQC_LOG_SIZE		GENMASK(27, 24)
#define ARBEL_SRQC_SRQN			GENMASK(23, 0)
#define ARBEL_SRQC_LKEY			0x04
#define ARBEL_SRQC_DB			0x08
#define ARBEL_SRQC_STRIDE_UAR		0x0c
#define ARBEL_SRQC_LOG_STRIDE		GENMASK(31, 29)
#define ARBEL_SRQC_USR_PAGE		GENMASK(23, 0)
#define ARBEL_SRQC_EQ_PD		0x18
#define ARBEL_SRQC_EQN			GENMASK(31, 24)
#define ARBEL_SRQC_PD			GENMASK(23, 0)
#define ARBEL_SRQC_LIMIT		0x1c	/* lwm 31:16, wqe_cnt 15:0 */
#define ARBEL_SRQC_LWM			GENMASK(31, 16)

/**
 * struct arbel_srqc - the fields of an SRQ context the driver sets
 * @srqn: the SRQ number
 * @log_size: log2 of the number of WQEs
 * @lkey: lkey of the WQE buffer's region (WQE addresses start at 0)
 * @db: doorbell record (index in the UAR context)
 * @wqe_shift: log2 of the WQE stride in bytes (6 or more)
 * @uar: the UAR page of the doorbell record
 * @eqn: the EQ the SRQ's events go to (mthca's eq_pd: bits 31:24)
 * @pd: protection domain
 */
struct arbel_srqc {
	u32 srqn;
	u8 log_size;
	u32 lkey;
	u32 db;
	u8 wqe_shift;
	u32 uar;
	u8 eqn;
	u32 pd;
};

/* ---- QP context (the transitions' inbox: mask, reserved, context) ----- */

#define ARBEL_QP_MBOX_SIZE		0x108	/* 8 + the 0x100 context */
#define ARBEL_QP_MBOX_OPTMASK		0x00
#define ARBEL_QP_MBOX_CTX		0x08
#define ARBEL_QPC_SIZE			0x100

/* context byte offsets (dword starts) */
#define ARBEL_QPC_FLAGS			0x00
#define ARBEL_QPC_STATE			GENMASK(31, 28)
#define ARBEL_QPC_ST			GENMASK(18, 16)
#define ARBEL_QPC_PM_STATE		GENMASK(12, 11)
#define ARBEL_QPC_DE			BIT(8)
#define ARBEL_QPC_SIZES			0x08
#define ARBEL_QPC_MTU			GENMASK(31, 29)
#define ARBEL_QPC_MSG_MAX		GENMASK(28, 24)
#define ARBEL_QPC_LOG_RQ_SIZE		GENMASK(22, 19)
#define ARBEL_QPC_LOG_RQ_STRIDE		GENMASK(18, 16)
#define ARBEL_QPC_LOG_SQ_SIZE		GENMASK(14, 11)
#define ARBEL_QPC_LOG_SQ_STRIDE		GENMASK(10, 8)
#define ARBEL_QPC_SCHED_QUEUE		GENMASK(3, 0)
#define ARBEL_QPC_USR_PAGE		0x0c
#define ARBEL_QPC_LOCAL_QPN		0x10
#define ARBEL_QPC_REMOTE_QPN		0x14
#define ARBEL_QPC_PRI_PATH		0x20
#define ARBEL_QPC_ALT_PATH		0x40
#define ARBEL_QPC_PD			0x64
#define ARBEL_QPC_WQE_BASE		0x68
#define ARBEL_QPC_WQE_LKEY		0x6c
#define ARBEL_QPC_PARAMS1		0x70
#define ARBEL_QPC_ACK_REQ_FREQ		GENMASK(31, 28)
#define ARBEL_QPC_FLIGHT_LIM		GENMASK(27, 24)
#define ARBEL_QPC_SRA_MAX		GENMASK(23, 21)
#define ARBEL_QPC_RETRY_COUNT		GENMASK(18, 16)
#define ARBEL_QPC_SRE			BIT(15)
#define ARBEL_QPC_SWE			BIT(14)
#define ARBEL_QPC_SAE			BIT(13)
#define ARBEL_QPC_SSC			BIT(3)
#define ARBEL_QPC_NEXT_SEND_PSN		0x78
#define ARBEL_QPC_CQN_SND		0x7c
#define ARBEL_QPC_SND_WQE_BASE		0x80
#define ARBEL_QPC_SND_DB		0x84
#define ARBEL_QPC_PARAMS2		0x90
#define ARBEL_QPC_RRA_MAX		GENMASK(23, 21)
#define ARBEL_QPC_RRE			BIT(15)
#define ARBEL_QPC_RWE			BIT(14)
#define ARBEL_QPC_RAE			BIT(13)
#define ARBEL_QPC_RIC			BIT(4)
#define ARBEL_QPC_RSC			BIT(3)
#define ARBEL_QPC_RNR_RCV_PSN		0x94
#define ARBEL_QPC_MIN_RNR		GENMASK(28, 24)
#define ARBEL_QPC_PSN			GENMASK(23, 0)
#define ARBEL_QPC_RA_BUFF		0x98
#define ARBEL_QPC_CQN_RCV		0x9c
#define ARBEL_QPC_RCV_WQE_BASE		0xa0
#define ARBEL_QPC_RCV_DB		0xa4
#define ARBEL_QPC_QKEY			0xa8
#define ARBEL_QPC_SRQN			0xac
#define ARBEL_QPC_HAS_SRQ		BIT(24)

/* address path (0x20 bytes) byte offsets */
#define ARBEL_PATH_PORT_PKEY		0x00
#define ARBEL_PATH_PORT			GENMASK(25, 24)
#define ARBEL_PATH_PKEY_INDEX		GENMASK(6, 0)
#define ARBEL_PATH_RLID			0x04
#define ARBEL_PATH_RNR_RETRY		GENMASK(31, 29)
#define ARBEL_PATH_G			BIT(23)
#define ARBEL_PATH_MY_LID_BITS		GENMASK(22, 16)
#define ARBEL_PATH_DLID			GENMASK(15, 0)
#define ARBEL_PATH_TIMEOUT		0x08
#define ARBEL_PATH_ACK_TIMEOUT		GENMASK(31, 27)
#define ARBEL_PATH_MGID_INDEX		GENMASK(21, 16)
#define ARBEL_PATH_STAT_RATE		GENMASK(10, 8)
#define ARBEL_PATH_HOP_LIMIT		GENMASK(7, 0)
#define ARBEL_PATH_SL_TC_FL		0x0c
#define ARBEL_PATH_SL			GENMASK(31, 28)
#define ARBEL_PATH_TCLASS		GENMASK(27, 20)
#define ARBEL_PATH_FLOW_LABEL		GENMASK(19, 0)
#define ARBEL_PATH_RGID			0x10

/* QP states (the context's state field) and service types */
enum arbel_qp_hw_state {
	ARBEL_QPS_RST = 0,
	ARBEL_QPS_INIT = 1,
	ARBEL_QPS_RTR = 2,
	ARBEL_QPS_RTS = 3,
	ARBEL_QPS_SQE = 4,
	ARBEL_QPS_SQD = 5,
	ARBEL_QPS_ERR = 6,
	ARBEL_QPS_DRAINING = 7,
};

enum arbel_qp_st {
	ARBEL_QP_ST_RC = 0,
	ARBEL_QP_ST_UC = 1,
	ARBEL_QP_ST_UD = 3,
	ARBEL_QP_ST_MLX = 7,
};

/* the optional-parameter mask (mthca's MTHCA_QP_OPTPAR_*) */
#define ARBEL_OPT_ALT_PATH		BIT(0)
#define ARBEL_OPT_RRE			BIT(1)
#define ARBEL_OPT_RAE			BIT(2)
#define ARBEL_OPT_RWE			BIT(3)
#define ARBEL_OPT_PKEY_INDEX		BIT(4)
#define ARBEL_OPT_Q_KEY			BIT(5)
#define ARBEL_OPT_RNR_TIMEOUT		BIT(6)
#define ARBEL_OPT_PRIMARY_PATH		BIT(7)
#define ARBEL_OPT_SRA_MAX		BIT(8)
#define ARBEL_OPT_RRA_MAX		BIT(9)
#define ARBEL_OPT_PM_STATE		BIT(10)
#define ARBEL_OPT_PORT_NUM		BIT(11)
#define ARBEL_OPT_RETRY_COUNT		BIT(12)
#define ARBEL_OPT_ALT_RNR_RETRY		BIT(13)
#define ARBEL_OPT_ACK_TIMEOUT		BIT(14)
#define ARBEL_OPT_RNR_RETRY		BIT(15)
#define ARBEL_OPT_SCHED_QUEUE		BIT(16)

/* RTS2SQD: in_mod bit 31 asks for the SQ-drained event */
#define ARBEL_QP_SQD_EVENT		BIT(31)
/* ERR2RST: op_mod 3, no outbox */
#define ARBEL_QP_2RST_NO_OUTBOX		3

/* mthca's fixed requester parameters: ACK every 2^1, 2^12 in flight */
#define ARBEL_QP_ACK_REQ_FREQ		10
#define ARBEL_QP_FLIGHT_LIMIT		9
/* RDB entries are 32 bytes */
#define ARBEL_RDB_ENTRY_SIZE		32

/**
 * struct arbel_qp_static - what a QP's context holds in every transition
 * @st: service type (enum arbel_qp_st)
 * @qpn: the QP number
 * @uar: UAR page of the doorbells (and doorbell records)
 * @pd: protection domain
 * @wqe_lkey: lkey of the WQE buffer's region (based at 0)
 * @sq_log_size: log2 of the SQ's WQEs (0 with none)
 * @sq_wqe_shift: log2 of the SQ's stride
 * @rq_log_size: log2 of the RQ's WQEs (0 with none)
 * @rq_wqe_shift: log2 of the RQ's stride
 * @sq_base: offset of the first send WQE in the buffer
 * @sq_db: SQ doorbell record index
 * @rq_db: RQ doorbell record index
 * @cqn_snd: the send CQ
 * @cqn_rcv: the receive CQ
 * @srqn: the SRQ
 * @has_srq: @srqn is valid
 * @sig_all: every send WQE completes (SSC)
 * @user: a user QP (RC sched queue 2 instead of 1)
 * @port: the port (MLX: always in the context)
 * @ra_buff: ICM address of the QP's RDB entries
 * @access: the IB remote access flags in force (for a transition that
 *	    changes only the responder resources)
 * @resp_depth: the responder resources in force
 */
struct arbel_qp_static {
	u8 st;
	u32 qpn;
	u32 uar;
	u32 pd;
	u32 wqe_lkey;
	u8 sq_log_size;
	u8 sq_wqe_shift;
	u8 rq_log_size;
	u8 rq_wqe_shift;
	u32 sq_base;
	u32 sq_db;
	u32 rq_db;
	u32 cqn_snd;
	u32 cqn_rcv;
	u32 srqn;
	bool has_srq;
	bool sig_all;
	bool user;
	u8 port;
	u32 ra_buff;
	int access;
	u8 resp_depth;
};

/**
 * struct arbel_wq_sizes - one QP's work queues as libmthca lays them out
 * @sq_max: send WQEs (a power of two, or 0)
 * @rq_max: receive WQEs (a power of two, or 0)
 * @sq_wqe_shift: log2 of the send stride
 * @rq_wqe_shift: log2 of the receive stride
 * @sq_base: byte offset of the SQ (after the RQ, stride-aligned)
 * @buf_size: bytes of the whole buffer
 * @max_send_sge: gather entries a send WQE holds
 * @max_recv_sge: scatter entries a receive WQE holds
 * @max_inline: inline bytes a send WQE holds
 */
struct arbel_wq_sizes {
	u32 sq_max;
	u32 rq_max;
	u8 sq_wqe_shift;
	u8 rq_wqe_shift;
	u32 sq_base;
	u32 buf_size;
	u32 max_send_sge;
	u32 max_recv_sge;
	u32 max_inline;
};

/**
 * struct arbel_wq_limits - what QUERY_DEV_LIM allows a work queue
 * @max_wqes: WQEs per queue
 * @max_sg: gather/scatter entries per WQE
 * @max_desc_sz: bytes per WQE
 */
struct arbel_wq_limits {
	u32 max_wqes;
	u32 max_sg;
	u32 max_desc_sz;
};

void arbel_cqc_encode(const struct arbel_cqc *cqc, u8 *ctx);
void arbel_srqc_encode(const struct arbel_srqc *srqc, u8 *ctx);
int arbel_qp_wq_sizes(const struct arbel_wq_limits *lim,
		      enum ib_qp_type type, const struct ib_qp_cap *cap,
		      struct arbel_wq_sizes *sz);
int arbel_srq_wqe_shift(const struct arbel_wq_limits *lim, u32 max_sge);
u16 arbel_qp_opcode(enum ib_qp_state cur, enum ib_qp_state next);
int arbel_qp_encode(const struct arbel_qp_static *qs,
		    const struct ib_qp_attr *attr, int mask,
		    enum ib_qp_state cur, enum ib_qp_state next, u8 *mbox);
enum ib_qp_state arbel_qp_state_from_hw(u8 hw);
void arbel_qp_decode(const u8 *ctx, struct ib_qp_attr *attr);

#endif /* _ARBEL_QCTX_H */
