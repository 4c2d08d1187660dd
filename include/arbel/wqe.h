/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Work queue entries, completion queue entries and doorbells of kernel
 * queues: the segments a send or receive WQE is made of, the CQE the HCA
 * writes, the doorbell records and the two UAR doorbells, and their pure
 * encoding and decoding (wqe.c).  Pure: UML-testable.
 *
 * Layouts: iPXE's PRM header for the MT25218 (named in arbel-hw.rst):
 * arbelprm_wqe_segment_next_st, _ctrl_send_st, _ctrl_mlx_st,
 * _remote_address_st, _atomic_st, _ud_st with arbelprm_ud_address_vector_st,
 * _data_ptr_st, _data_inline_st, arbelprm_recv_wqe_segment_next_st,
 * arbelprm_completion_queue_entry_st, arbelprm_completion_with_error_st,
 * arbelprm_send_doorbell_st, arbelprm_cq_cmd_doorbell_st,
 * arbelprm_qp_db_record_st, arbelprm_cq_arm_db_record_st and
 * arbelprm_cq_ci_db_record_st.  Fields are listed LSB-first in big-endian
 * dwords; the offsets below are byte offsets of each dword.
 */
#ifndef _ARBEL_WQE_H
#define _ARBEL_WQE_H

#include <linux/bits.h>
#include <linux/types.h>
#include <rdma/ib_verbs.h>

/* ---- WQE opcodes (the next segment's nopcode; the send doorbell's) ---- */

#define ARBEL_OP_NOP			0x00
#define ARBEL_OP_RDMA_WRITE		0x08
#define ARBEL_OP_RDMA_WRITE_IMM		0x09
#define ARBEL_OP_SEND			0x0a
#define ARBEL_OP_SEND_IMM		0x0b
#define ARBEL_OP_RDMA_READ		0x10
#define ARBEL_OP_ATOMIC_CS		0x11
#define ARBEL_OP_ATOMIC_FA		0x12
#define ARBEL_OP_BIND			0x18

/* ---- the first 16 bytes of a send WQE: next segment, then control ---- */

#define ARBEL_WQE_UNIT			16	/* sizes count these */
#define ARBEL_WQE_ALIGN			64	/* nda: bits 31:6 */
#define ARBEL_SEG_NEXT_SIZE		16	/* next (8) + ctrl or recv (8) */
#define ARBEL_NEXT_NDA_OP		0x00	/* nda 31:6, nopcode 4:0 */
#define ARBEL_NEXT_NOPCODE		GENMASK(4, 0)
#define ARBEL_NEXT_EE_NDS		0x04
#define ARBEL_NEXT_NDS			GENMASK(5, 0)
#define ARBEL_NEXT_F			BIT(6)	/* fence the next WQE */
#define ARBEL_NEXT_ALWAYS1		BIT(7)	/* mthca's DBD */
#define ARBEL_CTRL_FLAGS		0x08
#define ARBEL_CTRL_ALWAYS1		BIT(0)
#define ARBEL_CTRL_S			BIT(1)	/* solicited event */
#define ARBEL_CTRL_E			BIT(2)
#define ARBEL_CTRL_C			BIT(3)	/* write a CQE */
#define ARBEL_CTRL_SO			BIT(7)
#define ARBEL_CTRL_IMM			0x0c
/* MLX control: the same 8 bytes, other fields */
#define ARBEL_MLX_C			BIT(3)
#define ARBEL_MLX_ICRC			GENMASK(5, 4)	/* 0: the HCA computes */
#define ARBEL_MLX_SL			GENMASK(11, 8)
#define ARBEL_MLX_STATRATE		GENMASK(15, 12)
#define ARBEL_MLX_SLR			BIT(16)	/* SLID from the headers */
#define ARBEL_MLX_V15			BIT(17)	/* over VL15 */
#define ARBEL_MLX_RLID_VCRC		0x0c	/* rlid 31:16, vcrc 15:0 */

/* ---- segments after it ------------------------------------------------ */

#define ARBEL_SEG_RADDR_SIZE		16	/* va be64, rkey, reserved */
#define ARBEL_SEG_ATOMIC_SIZE		16	/* swap/add be64, compare be64 */
#define ARBEL_SEG_DATA_SIZE		16	/* count, lkey, address be64 */
#define ARBEL_DATA_INLINE		BIT(31)	/* in the count: data follows */
#define ARBEL_DATA_INLINE_MAX		GENMASK(9, 0)	/* its byte_count */
#define ARBEL_INVAL_LKEY		0x00000100	/* ends a scatter list */
#define ARBEL_SEG_UD_SIZE		48	/* AV 32, dest QPN, Q_Key, 8 */
#define ARBEL_UD_DQPN			0x20
#define ARBEL_UD_QKEY			0x24

/* address vector (32 bytes): what a kernel AH holds */
#define ARBEL_AV_SIZE			32
#define ARBEL_AV_PORT_PD		0x00
#define ARBEL_AV_PORT			GENMASK(25, 24)
#define ARBEL_AV_PD			GENMASK(23, 0)
#define ARBEL_AV_G_RLID			0x04
#define ARBEL_AV_G			BIT(23)
#define ARBEL_AV_PATH_BITS		GENMASK(22, 16)
#define ARBEL_AV_RLID			GENMASK(15, 0)
#define ARBEL_AV_GID_MSG_HOP		0x08
#define ARBEL_AV_MGID_INDEX		GENMASK(21, 16)
#define ARBEL_AV_MSG			GENMASK(13, 12)	/* 256 << msg bytes */
#define ARBEL_AV_STAT_RATE		GENMASK(10, 8)
#define ARBEL_AV_HOP_LIMIT		GENMASK(7, 0)
#define ARBEL_AV_SL_TC_FL		0x0c
#define ARBEL_AV_SL			GENMASK(31, 28)
#define ARBEL_AV_TCLASS			GENMASK(27, 20)
#define ARBEL_AV_FLOW_LABEL		GENMASK(19, 0)
#define ARBEL_AV_RGID			0x10
#define ARBEL_AV_RGID_NO_GRH		2	/* rgid[31:0] without a GRH */

/**
 * struct arbel_av - an address vector, as a kernel AH describes it
 * @port: 1 or 2
 * @pd: the AH's PD
 * @dlid: destination LID
 * @path_bits: source LID path bits
 * @grh: a GRH goes out (the fields below it count)
 * @mgid_index: the source GID's index in the HCA's GID table
 * @hop_limit: GRH hop limit
 * @tclass: GRH traffic class
 * @flow_label: GRH flow label
 * @sl: service level
 * @stat_rate: static rate (0: full)
 * @dgid: destination GID
 */
struct arbel_av {
	u8 port;
	u32 pd;
	u16 dlid;
	u8 path_bits;
	bool grh;
	u8 mgid_index;
	u8 hop_limit;
	u8 tclass;
	u32 flow_label;
	u8 sl;
	u8 stat_rate;
	u8 dgid[16];
};

/* ---- completion queue entries (32 bytes) ------------------------------ */

#define ARBEL_CQE_SIZE			32
#define ARBEL_CQE_MY_QPN		0x00	/* bits 23:0 */
#define ARBEL_CQE_RQPN			0x08	/* bits 23:0 */
#define ARBEL_CQE_RLID_PATH		0x0c
#define ARBEL_CQE_SL			GENMASK(31, 28)
#define ARBEL_CQE_G			BIT(23)
#define ARBEL_CQE_ML_PATH		GENMASK(22, 16)
#define ARBEL_CQE_RLID			GENMASK(15, 0)
#define ARBEL_CQE_IMM			0x10	/* immediate, P_Key index */
#define ARBEL_CQE_SYNDROME		0x10	/* error CQE: syndrome 31:24 */
#define ARBEL_CQE_BYTE_CNT		0x14
#define ARBEL_CQE_WQE_ADDR		0x18	/* bits 31:6 */
#define ARBEL_CQE_OP_OWNER		0x1c
#define ARBEL_CQE_OPCODE		GENMASK(31, 24)
#define ARBEL_CQE_S			BIT(23)	/* a send queue's */
#define ARBEL_CQE_OWNER_HW		BIT(7)
#define ARBEL_CQE_ERR_RECV		0xfe
#define ARBEL_CQE_ERR_SEND		0xff

/**
 * struct arbel_cqe_info - what a CQE says
 * @qpn: the QP it completes a WQE of
 * @is_send: a send queue's WQE
 * @error: a completion with error (@syndrome, @vendor)
 * @opcode: the send WQE's nopcode, or the last received packet's opcode
 * @syndrome: error syndrome
 * @vendor: vendor error code
 * @wqe_addr: address of the WQE (bits 31:6)
 * @byte_cnt: bytes received (receive completions)
 * @imm: immediate data, or bits 31:16: the P_Key index (QP1)
 * @rqpn: source QP (UD receive)
 * @rlid: source LID (UD receive)
 * @sl: service level (UD receive)
 * @path_bits: destination LID path bits (UD receive)
 * @grh: a GRH came with it (UD receive)
 */
struct arbel_cqe_info {
	u32 qpn;
	bool is_send;
	bool error;
	u8 opcode;
	u8 syndrome;
	u8 vendor;
	u32 wqe_addr;
	u32 byte_cnt;
	u32 imm;
	u32 rqpn;
	u16 rlid;
	u8 sl;
	u8 path_bits;
	bool grh;
};

/* ---- doorbells --------------------------------------------------------- */

/* UAR page offsets (64-bit writes: two big-endian dwords) */
#define ARBEL_UAR_SEND_DB		0x10
#define ARBEL_UAR_CQ_DB			0x20
/* send doorbell */
#define ARBEL_SDB_NOPCODE		GENMASK(4, 0)
#define ARBEL_SDB_F			BIT(5)
#define ARBEL_SDB_COUNTER		GENMASK(23, 8)
#define ARBEL_SDB_CNT			GENMASK(31, 24)
#define ARBEL_SDB_NDS			GENMASK(5, 0)
#define ARBEL_SDB_QPN			GENMASK(31, 8)
/* CQ doorbell */
#define ARBEL_CQDB_CQN			GENMASK(23, 0)
#define ARBEL_CQDB_CMD			GENMASK(26, 24)
#define ARBEL_CQDB_CMD_SN		GENMASK(29, 28)
#define ARBEL_CQ_ARM_SOLICITED		1
#define ARBEL_CQ_ARM_NEXT		2
/* doorbell records (8 bytes): counter dword, then type and number */
#define ARBEL_DBREC_SIZE		8
#define ARBEL_DBREC_TYPE		GENMASK(7, 5)
#define ARBEL_DBREC_NUM			GENMASK(31, 8)
#define ARBEL_DBREC_ARM_CMD		GENMASK(2, 0)
#define ARBEL_DBREC_ARM_SN		GENMASK(4, 3)

enum arbel_dbrec_type {
	ARBEL_DBREC_CQ_CI = 1,
	ARBEL_DBREC_CQ_ARM = 2,
	ARBEL_DBREC_SQ = 3,
	ARBEL_DBREC_RQ = 4,
	ARBEL_DBREC_SRQ = 5,
};

/* Return: the segment's size in bytes */
size_t arbel_wqe_set_raddr(void *seg, u64 va, u32 rkey);
size_t arbel_wqe_set_atomic(void *seg, u64 swap_add, u64 compare);
size_t arbel_wqe_set_data(void *seg, u32 len, u32 lkey, u64 addr);
size_t arbel_wqe_set_inline_hdr(void *seg, u32 len);
size_t arbel_wqe_set_ud(void *seg, const struct arbel_av *av, u32 dqpn,
			u32 qkey);
void arbel_av_encode(const struct arbel_av *av, void *buf);

void arbel_wqe_set_ctrl(void *wqe, bool signaled, bool solicited,
			__be32 imm);
void arbel_wqe_set_mlx(void *wqe, bool signaled, u8 sl, bool vl15,
		       bool slr, u16 rlid);
void arbel_wqe_link(void *prev, u32 nda, u8 opcode, u8 size16, bool fence);
void arbel_wqe_link_recv(void *wqe, u32 nda, u8 size16);

int arbel_wqe_opcode(enum ib_wr_opcode op);

bool arbel_cqe_hw_owned(const void *cqe);
void arbel_cqe_give(void *cqe);
void arbel_cqe_decode(const void *cqe, struct arbel_cqe_info *ci);
enum ib_wc_status arbel_cqe_status(u8 syndrome);
int arbel_cqe_wc_opcode(const struct arbel_cqe_info *ci,
			enum ib_wc_opcode *op, int *wc_flags);

void arbel_send_db(__be32 db[2], u16 counter, u8 nreq, u8 op, bool fence,
		   u8 size16, u32 qpn);
void arbel_cq_db(__be32 db[2], u32 cqn, u8 cmd, u8 sn, u32 ci);
__be32 arbel_dbrec_tag(enum arbel_dbrec_type type, u32 num);
__be32 arbel_dbrec_arm(enum arbel_dbrec_type type, u32 num, u8 cmd, u8 sn);

#endif /* _ARBEL_WQE_H */
