// SPDX-License-Identifier: GPL-2.0-only
/*
 * WQE segments, CQEs and doorbells of kernel queues: encoders and the
 * decoder (include/arbel/wqe.h).  Pure: no device, UML-testable.
 *
 * How a send WQE chains on mem-free Arbel (mthca's and libmthca's arbel
 * post paths): the HCA takes the first WQE of a doorbell's batch from the
 * doorbell itself (opcode and size) and each following one from the next
 * segment of the WQE before it, so posting a WQE means writing its own
 * segments, then linking it into the previous WQE's next segment.
 */

#include <linux/bitfield.h>
#include <linux/string.h>
#include <kunit/visibility.h>
#include <asm/byteorder.h>

#include <arbel/wqe.h>

static void put32(void *buf, unsigned int off, u32 val)
{
	*(__be32 *)(buf + off) = cpu_to_be32(val);
}

static void put64(void *buf, unsigned int off, u64 val)
{
	put32(buf, off, upper_32_bits(val));
	put32(buf, off + 4, lower_32_bits(val));
}

static u32 get32(const void *buf, unsigned int off)
{
	return be32_to_cpu(*(const __be32 *)(buf + off));
}

/**
 * arbel_wqe_set_raddr() - a remote address segment
 * @seg: where it goes
 * @va: the remote virtual address
 * @rkey: its key
 *
 * Return: %ARBEL_SEG_RADDR_SIZE.
 */
size_t arbel_wqe_set_raddr(void *seg, u64 va, u32 rkey)
{
	put64(seg, 0, va);
	put32(seg, 8, rkey);
	put32(seg, 12, 0);
	return ARBEL_SEG_RADDR_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_raddr);

/**
 * arbel_wqe_set_atomic() - an atomic segment
 * @seg: where it goes
 * @swap_add: the swap value (compare and swap) or the addend (fetch and add)
 * @compare: the compare value (compare and swap; 0 for fetch and add)
 *
 * Return: %ARBEL_SEG_ATOMIC_SIZE.
 */
size_t arbel_wqe_set_atomic(void *seg, u64 swap_add, u64 compare)
{
	put64(seg, 0, swap_add);
	put64(seg, 8, compare);
	return ARBEL_SEG_ATOMIC_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_atomic);

/**
 * arbel_wqe_set_data() - a data pointer segment (gather or scatter entry)
 * @seg: where it goes
 * @len: bytes (31 bits)
 * @lkey: the lkey of the region holding them (%ARBEL_INVAL_LKEY ends a
 *	  receive WQE's scatter list)
 * @addr: their address in that region
 *
 * Return: %ARBEL_SEG_DATA_SIZE.
 */
size_t arbel_wqe_set_data(void *seg, u32 len, u32 lkey, u64 addr)
{
	put32(seg, 0, len & ~ARBEL_DATA_INLINE);
	put32(seg, 4, lkey);
	put64(seg, 8, addr);
	return ARBEL_SEG_DATA_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_data);

/**
 * arbel_wqe_set_inline_hdr() - the byte count of an inline data segment
 * @seg: where it goes; the @len bytes follow at @seg + 4
 * @len: bytes of inline data
 *
 * Return: the segment's size with its data, padded to 16 bytes.
 */
size_t arbel_wqe_set_inline_hdr(void *seg, u32 len)
{
	put32(seg, 0, ARBEL_DATA_INLINE | len);
	return ALIGN(4 + len, ARBEL_WQE_UNIT);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_inline_hdr);

/**
 * arbel_av_encode() - an address vector as the UD segment carries it
 * @av: the fields
 * @buf: %ARBEL_AV_SIZE bytes
 *
 * Without a GRH the remote GID is zero but for its last dword, 2, as the
 * PRM requires.  The message size is the largest, 2048 bytes (mthca's).
 */
void arbel_av_encode(const struct arbel_av *av, void *buf)
{
	put32(buf, ARBEL_AV_PORT_PD, FIELD_PREP(ARBEL_AV_PORT, av->port) |
				     FIELD_PREP(ARBEL_AV_PD, av->pd));
	put32(buf, ARBEL_AV_G_RLID,
	      (av->grh ? ARBEL_AV_G : 0) |
	      FIELD_PREP(ARBEL_AV_PATH_BITS, av->path_bits) |
	      FIELD_PREP(ARBEL_AV_RLID, av->dlid));
	put32(buf, ARBEL_AV_GID_MSG_HOP,
	      FIELD_PREP(ARBEL_AV_MGID_INDEX, av->mgid_index) |
	      FIELD_PREP(ARBEL_AV_MSG, 3) |
	      FIELD_PREP(ARBEL_AV_STAT_RATE, av->stat_rate) |
	      FIELD_PREP(ARBEL_AV_HOP_LIMIT, av->hop_limit));
	put32(buf, ARBEL_AV_SL_TC_FL,
	      FIELD_PREP(ARBEL_AV_SL, av->sl) |
	      FIELD_PREP(ARBEL_AV_TCLASS, av->tclass) |
	      FIELD_PREP(ARBEL_AV_FLOW_LABEL, av->flow_label));
	if (av->grh) {
		memcpy(buf + ARBEL_AV_RGID, av->dgid, 16);
	} else {
		memset(buf + ARBEL_AV_RGID, 0, 12);
		put32(buf, ARBEL_AV_RGID + 12, ARBEL_AV_RGID_NO_GRH);
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_av_encode);

/**
 * arbel_wqe_set_ud() - a UD segment: address vector, destination, Q_Key
 * @seg: where it goes
 * @av: the destination
 * @dqpn: the destination QP
 * @qkey: the Q_Key
 *
 * Return: %ARBEL_SEG_UD_SIZE.
 */
size_t arbel_wqe_set_ud(void *seg, const struct arbel_av *av, u32 dqpn,
			u32 qkey)
{
	arbel_av_encode(av, seg);
	put32(seg, ARBEL_UD_DQPN, dqpn & GENMASK(23, 0));
	put32(seg, ARBEL_UD_QKEY, qkey);
	put64(seg, ARBEL_UD_QKEY + 4, 0);
	return ARBEL_SEG_UD_SIZE;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_ud);

/**
 * arbel_wqe_set_ctrl() - a send WQE's control segment
 * @wqe: the WQE (the segment is at byte 8)
 * @signaled: write a CQE for it (the QP signals on request)
 * @solicited: set SE in the message
 * @imm: immediate data (big-endian, as the verbs give it), or 0
 */
void arbel_wqe_set_ctrl(void *wqe, bool signaled, bool solicited,
			__be32 imm)
{
	put32(wqe, ARBEL_CTRL_FLAGS, ARBEL_CTRL_ALWAYS1 |
				     (signaled ? ARBEL_CTRL_C : 0) |
				     (solicited ? ARBEL_CTRL_S : 0));
	*(__be32 *)(wqe + ARBEL_CTRL_IMM) = imm;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_ctrl);

/**
 * arbel_wqe_set_mlx() - an MLX WQE's control segment (special QPs)
 * @wqe: the WQE
 * @signaled: write a CQE for it
 * @sl: the LRH's service level
 * @vl15: send over VL15 (QP0)
 * @slr: take the source LID from the headers (a permissive DLID)
 * @rlid: the LRH's destination LID
 *
 * The ICRC is the HCA's to compute (icrc 0: the WQE's last dword is 0), the
 * VCRC too (0).  Bit 0 is set as in every other control segment (mthca).
 */
void arbel_wqe_set_mlx(void *wqe, bool signaled, u8 sl, bool vl15,
		       bool slr, u16 rlid)
{
	put32(wqe, ARBEL_CTRL_FLAGS, ARBEL_CTRL_ALWAYS1 |
				     (signaled ? ARBEL_MLX_C : 0) |
				     FIELD_PREP(ARBEL_MLX_SL, sl) |
				     (slr ? ARBEL_MLX_SLR : 0) |
				     (vl15 ? ARBEL_MLX_V15 : 0));
	put32(wqe, ARBEL_MLX_RLID_VCRC, (u32)rlid << 16);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_set_mlx);

/**
 * arbel_wqe_link() - make a send WQE the one after @prev
 * @prev: the previous WQE (its next segment is written)
 * @nda: the new WQE's address (64-byte aligned; low 32 bits)
 * @opcode: its opcode (ARBEL_OP_*)
 * @size16: its size in 16-byte units
 * @fence: it waits for the RDMA reads and atomics before it
 */
void arbel_wqe_link(void *prev, u32 nda, u8 opcode, u8 size16, bool fence)
{
	put32(prev, ARBEL_NEXT_NDA_OP, (nda & ~(ARBEL_WQE_ALIGN - 1)) |
				       FIELD_PREP(ARBEL_NEXT_NOPCODE, opcode));
	put32(prev, ARBEL_NEXT_EE_NDS, ARBEL_NEXT_ALWAYS1 |
				       (fence ? ARBEL_NEXT_F : 0) |
				       FIELD_PREP(ARBEL_NEXT_NDS, size16));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_link);

/**
 * arbel_wqe_link_recv() - a receive WQE's next segment, set once
 * @wqe: the WQE
 * @nda: the next WQE's address (the ring wraps)
 * @size16: the size of every receive WQE in 16-byte units
 *
 * Receive WQEs are chained once, when the queue is made (mthca's and
 * libmthca's mem-free receive queues); the control half is reserved.
 */
void arbel_wqe_link_recv(void *wqe, u32 nda, u8 size16)
{
	put32(wqe, 0, nda & ~(ARBEL_WQE_ALIGN - 1));
	put32(wqe, 4, FIELD_PREP(ARBEL_NEXT_NDS, size16));
	put64(wqe, 8, 0);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_link_recv);

/**
 * arbel_wqe_opcode() - the WQE opcode of a kernel work request
 * @op: the verbs opcode
 *
 * Return: ARBEL_OP_*, or -EINVAL for one the device has no opcode for.
 */
int arbel_wqe_opcode(enum ib_wr_opcode op)
{
	switch (op) {
	case IB_WR_SEND:
		return ARBEL_OP_SEND;
	case IB_WR_SEND_WITH_IMM:
		return ARBEL_OP_SEND_IMM;
	case IB_WR_RDMA_WRITE:
		return ARBEL_OP_RDMA_WRITE;
	case IB_WR_RDMA_WRITE_WITH_IMM:
		return ARBEL_OP_RDMA_WRITE_IMM;
	case IB_WR_RDMA_READ:
		return ARBEL_OP_RDMA_READ;
	case IB_WR_ATOMIC_CMP_AND_SWP:
		return ARBEL_OP_ATOMIC_CS;
	case IB_WR_ATOMIC_FETCH_AND_ADD:
		return ARBEL_OP_ATOMIC_FA;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_wqe_opcode);

/**
 * arbel_cqe_hw_owned() - the HCA has not written this CQE yet
 * @cqe: the entry
 *
 * Return: true while the owner bit is set.
 */
bool arbel_cqe_hw_owned(const void *cqe)
{
	return get32(cqe, ARBEL_CQE_OP_OWNER) & ARBEL_CQE_OWNER_HW;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqe_hw_owned);

/**
 * arbel_cqe_give() - hand a CQE (back) to the HCA
 * @cqe: the entry; only its owner bit is set
 */
void arbel_cqe_give(void *cqe)
{
	put32(cqe, ARBEL_CQE_OP_OWNER,
	      get32(cqe, ARBEL_CQE_OP_OWNER) | ARBEL_CQE_OWNER_HW);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqe_give);

/**
 * arbel_cqe_decode() - read a CQE the software owns
 * @cqe: the entry
 * @ci: what it says
 */
void arbel_cqe_decode(const void *cqe, struct arbel_cqe_info *ci)
{
	u32 op_owner = get32(cqe, ARBEL_CQE_OP_OWNER);
	u32 path = get32(cqe, ARBEL_CQE_RLID_PATH);

	memset(ci, 0, sizeof(*ci));
	ci->qpn = get32(cqe, ARBEL_CQE_MY_QPN) & GENMASK(23, 0);
	ci->opcode = FIELD_GET(ARBEL_CQE_OPCODE, op_owner);
	ci->wqe_addr = get32(cqe, ARBEL_CQE_WQE_ADDR) &
		       ~(ARBEL_WQE_ALIGN - 1);
	if (ci->opcode == ARBEL_CQE_ERR_SEND ||
	    ci->opcode == ARBEL_CQE_ERR_RECV) {
		u32 syn = get32(cqe, ARBEL_CQE_SYNDROME);

		ci->error = true;
		ci->is_send = ci->opcode == ARBEL_CQE_ERR_SEND;
		ci->syndrome = syn >> 24;
		ci->vendor = syn >> 16;
		return;
	}
	ci->is_send = op_owner & ARBEL_CQE_S;
	ci->rqpn = get32(cqe, ARBEL_CQE_RQPN) & GENMASK(23, 0);
	ci->sl = FIELD_GET(ARBEL_CQE_SL, path);
	ci->grh = path & ARBEL_CQE_G;
	ci->path_bits = FIELD_GET(ARBEL_CQE_ML_PATH, path);
	ci->rlid = FIELD_GET(ARBEL_CQE_RLID, path);
	ci->imm = get32(cqe, ARBEL_CQE_IMM);
	ci->byte_cnt = get32(cqe, ARBEL_CQE_BYTE_CNT);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqe_decode);

/**
 * arbel_cqe_status() - the work completion status of an error syndrome
 * @syndrome: the error CQE's syndrome (the PRM's table)
 *
 * Return: the status; IB_WC_GENERAL_ERR for a reserved syndrome.
 */
enum ib_wc_status arbel_cqe_status(u8 syndrome)
{
	static const u8 status[] = {
		[0x01] = IB_WC_LOC_LEN_ERR,
		[0x02] = IB_WC_LOC_QP_OP_ERR,
		[0x03] = IB_WC_LOC_EEC_OP_ERR,
		[0x04] = IB_WC_LOC_PROT_ERR,
		[0x05] = IB_WC_WR_FLUSH_ERR,
		[0x06] = IB_WC_MW_BIND_ERR,
		[0x10] = IB_WC_BAD_RESP_ERR,
		[0x11] = IB_WC_LOC_ACCESS_ERR,
		[0x12] = IB_WC_REM_INV_REQ_ERR,
		[0x13] = IB_WC_REM_ACCESS_ERR,
		[0x14] = IB_WC_REM_OP_ERR,
		[0x15] = IB_WC_RETRY_EXC_ERR,
		[0x16] = IB_WC_RNR_RETRY_EXC_ERR,
		[0x20] = IB_WC_LOC_RDD_VIOL_ERR,
		[0x21] = IB_WC_REM_INV_RD_REQ_ERR,
		[0x22] = IB_WC_REM_ABORT_ERR,
		[0x23] = IB_WC_INV_EECN_ERR,
		[0x24] = IB_WC_INV_EEC_STATE_ERR,
	};

	if (syndrome >= ARRAY_SIZE(status) || !status[syndrome])
		return IB_WC_GENERAL_ERR;
	return status[syndrome];
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqe_status);

/* IBTA BTH opcodes, the low five bits (any transport) */
#define BTH_SEND_LAST_IMM		0x03
#define BTH_SEND_ONLY_IMM		0x05
#define BTH_WRITE_LAST_IMM		0x09
#define BTH_WRITE_ONLY_IMM		0x0b

/**
 * arbel_cqe_wc_opcode() - the work completion opcode and flags of a CQE
 * @ci: a decoded successful CQE
 * @op: receives the opcode
 * @wc_flags: receives IB_WC_WITH_IMM where immediate data came
 *
 * A send CQE carries its WQE's opcode; a receive CQE the opcode of the
 * message's last packet (IBTA 9.2 BTH opcodes; the transport's bits are
 * ignored).
 *
 * Return: 0, or -EINVAL for a send opcode the driver never posts.
 */
int arbel_cqe_wc_opcode(const struct arbel_cqe_info *ci,
			enum ib_wc_opcode *op, int *wc_flags)
{
	*wc_flags = 0;
	if (!ci->is_send) {
		switch (ci->opcode & 0x1f) {
		case BTH_SEND_LAST_IMM:
		case BTH_SEND_ONLY_IMM:
			*wc_flags = IB_WC_WITH_IMM;
			fallthrough;
		default:
			*op = IB_WC_RECV;
			break;
		case BTH_WRITE_LAST_IMM:
		case BTH_WRITE_ONLY_IMM:
			*wc_flags = IB_WC_WITH_IMM;
			*op = IB_WC_RECV_RDMA_WITH_IMM;
			break;
		}
		return 0;
	}
	switch (ci->opcode) {
	case ARBEL_OP_RDMA_WRITE_IMM:
		*wc_flags = IB_WC_WITH_IMM;
		fallthrough;
	case ARBEL_OP_RDMA_WRITE:
		*op = IB_WC_RDMA_WRITE;
		return 0;
	case ARBEL_OP_SEND_IMM:
		*wc_flags = IB_WC_WITH_IMM;
		fallthrough;
	case ARBEL_OP_SEND:
		*op = IB_WC_SEND;
		return 0;
	case ARBEL_OP_RDMA_READ:
		*op = IB_WC_RDMA_READ;
		return 0;
	case ARBEL_OP_ATOMIC_CS:
		*op = IB_WC_COMP_SWAP;
		return 0;
	case ARBEL_OP_ATOMIC_FA:
		*op = IB_WC_FETCH_ADD;
		return 0;
	case ARBEL_OP_BIND:
		*op = IB_WC_BIND_MW;
		return 0;
	default:
		return -EINVAL;
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cqe_wc_opcode);

/**
 * arbel_send_db() - the send doorbell of a batch of WQEs
 * @db: the two dwords, written to UAR + %ARBEL_UAR_SEND_DB in order
 * @counter: WQEs posted before the batch (mod 2^16)
 * @nreq: WQEs in the batch (1 to 255)
 * @op: the first WQE's opcode
 * @fence: the first WQE is fenced
 * @size16: the first WQE's size in 16-byte units
 * @qpn: the QP
 */
void arbel_send_db(__be32 db[2], u16 counter, u8 nreq, u8 op, bool fence,
		   u8 size16, u32 qpn)
{
	db[0] = cpu_to_be32(FIELD_PREP(ARBEL_SDB_CNT, nreq) |
			    FIELD_PREP(ARBEL_SDB_COUNTER, counter) |
			    (fence ? ARBEL_SDB_F : 0) |
			    FIELD_PREP(ARBEL_SDB_NOPCODE, op));
	db[1] = cpu_to_be32(FIELD_PREP(ARBEL_SDB_QPN, qpn) |
			    FIELD_PREP(ARBEL_SDB_NDS, size16));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_send_db);

/**
 * arbel_cq_db() - the CQ doorbell that arms a CQ
 * @db: the two dwords, written to UAR + %ARBEL_UAR_CQ_DB in order
 * @cqn: the CQ
 * @cmd: %ARBEL_CQ_ARM_NEXT or %ARBEL_CQ_ARM_SOLICITED
 * @sn: the arm sequence number (mod 4)
 * @ci: the consumer counter
 */
void arbel_cq_db(__be32 db[2], u32 cqn, u8 cmd, u8 sn, u32 ci)
{
	db[0] = cpu_to_be32(FIELD_PREP(ARBEL_CQDB_CMD_SN, sn) |
			    FIELD_PREP(ARBEL_CQDB_CMD, cmd) |
			    FIELD_PREP(ARBEL_CQDB_CQN, cqn));
	db[1] = cpu_to_be32(ci);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cq_db);

/**
 * arbel_dbrec_tag() - the second dword of a doorbell record
 * @type: what the record counts
 * @num: the CQ, QP or SRQ number
 *
 * Return: the dword, big-endian.
 */
__be32 arbel_dbrec_tag(enum arbel_dbrec_type type, u32 num)
{
	return cpu_to_be32(FIELD_PREP(ARBEL_DBREC_NUM, num) |
			   FIELD_PREP(ARBEL_DBREC_TYPE, type));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_dbrec_tag);

/**
 * arbel_dbrec_arm() - the second dword of a CQ arm record
 * @type: %ARBEL_DBREC_CQ_ARM
 * @num: the CQ
 * @cmd: %ARBEL_CQ_ARM_NEXT or %ARBEL_CQ_ARM_SOLICITED
 * @sn: the arm sequence number (mod 4)
 *
 * Return: the dword, big-endian.
 */
__be32 arbel_dbrec_arm(enum arbel_dbrec_type type, u32 num, u8 cmd, u8 sn)
{
	return cpu_to_be32(FIELD_PREP(ARBEL_DBREC_NUM, num) |
			   FIELD_PREP(ARBEL_DBREC_TYPE, type) |
			   FIELD_PREP(ARBEL_DBREC_ARM_SN, sn) |
			   FIELD_PREP(ARBEL_DBREC_ARM_CMD, cmd));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_dbrec_arm);
