// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands of the queues: SW2HW_CQ / HW2SW_CQ, SW2HW_SRQ /
 * HW2SW_SRQ / ARM_SRQ / QUERY_SRQ, the QP state transitions and
 * QUERY_QPEE, and MAP_ICM / UNMAP_ICM of one page (a user doorbell page
 * in the UAR context).  Input modifiers and op_mods as mthca issues them.
 */

#include <linux/bitfield.h>

#include <arbel/prm.h>
#include <arbel/qctx.h>
#include "compat.h"
#include "fw.h"

/**
 * arbel_fw_sw2hw_cq() - SW2HW_CQ: hand a CQ to the HCA
 * @cmd: transport
 * @cqn: the CQ number
 * @ctx: its context (%ARBEL_CQC_SIZE bytes)
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sw2hw_cq(struct arbel_cmd_transport *cmd, u32 cqn, const u8 *ctx)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_SW2HW_CQ, 0, cqn, ctx,
			     ARBEL_CQC_SIZE, NULL, 0);
}

/**
 * arbel_fw_hw2sw_cq() - HW2SW_CQ: take a CQ back
 * @cmd: transport
 * @cqn: the CQ number
 *
 * With an outbox for the context, as mthca issues it; the context is not
 * used.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_hw2sw_cq(struct arbel_cmd_transport *cmd, u32 cqn)
{
	u8 out[ARBEL_CQC_SIZE];

	return arbel_fw_mbox(cmd, ARBEL_CMD_HW2SW_CQ, 0, cqn, NULL, 0, out,
			     sizeof(out));
}

/**
 * arbel_fw_resize_cq() - RESIZE_CQ: move a CQ to another buffer
 * @cmd: transport
 * @cqn: the CQ number
 * @lkey: the new buffer's region (based at 0, as the first)
 * @log_size: log2 of its CQEs
 *
 * op_mod 1 and a 0x40-byte inbox holding the CQ context's log size and
 * lkey fields, as mthca sends it; the firmware moves the CQEs not yet
 * polled, or refuses if they do not fit.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_resize_cq(struct arbel_cmd_transport *cmd, u32 cqn, u32 lkey,
		       u8 log_size)
{
	u8 in[ARBEL_CQC_SIZE] = {};

	put_unaligned_be32(FIELD_PREP(ARBEL_CQC_LOG_SIZE, log_size),
			   in + ARBEL_CQC_LOGSIZE_UAR);
	put_unaligned_be32(lkey, in + ARBEL_CQC_LKEY);
	return arbel_fw_mbox(cmd, ARBEL_CMD_RESIZE_CQ, ARBEL_RESIZE_CQ_OP_MOD,
			     cqn, in, sizeof(in), NULL, 0);
}

/**
 * arbel_fw_sw2hw_srq() - SW2HW_SRQ: hand an SRQ to the HCA
 * @cmd: transport
 * @srqn: the SRQ number
 * @ctx: its context (%ARBEL_SRQC_SIZE bytes)
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sw2hw_srq(struct arbel_cmd_transport *cmd, u32 srqn,
		       const u8 *ctx)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_SW2HW_SRQ, 0, srqn, ctx,
			     ARBEL_SRQC_SIZE, NULL, 0);
}

/**
 * arbel_fw_hw2sw_srq() - HW2SW_SRQ: take an SRQ back
 * @cmd: transport
 * @srqn: the SRQ number
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_hw2sw_srq(struct arbel_cmd_transport *cmd, u32 srqn)
{
	u8 out[ARBEL_SRQC_SIZE];

	return arbel_fw_mbox(cmd, ARBEL_CMD_HW2SW_SRQ, 0, srqn, NULL, 0, out,
			     sizeof(out));
}

/**
 * arbel_fw_query_srq() - QUERY_SRQ: read an SRQ's context
 * @cmd: transport
 * @srqn: the SRQ number
 * @ctx: receives %ARBEL_SRQC_SIZE bytes
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_srq(struct arbel_cmd_transport *cmd, u32 srqn, u8 *ctx)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_QUERY_SRQ, 0, srqn, NULL, 0, ctx,
			     ARBEL_SRQC_SIZE);
}

/**
 * arbel_fw_arm_srq() - ARM_SRQ: set an SRQ's limit watermark
 * @cmd: transport
 * @srqn: the SRQ number
 * @limit: fire the limit event when fewer WQEs remain (0: disarm)
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_arm_srq(struct arbel_cmd_transport *cmd, u32 srqn, u32 limit)
{
	return arbel_cmd_exec(cmd, limit, NULL, srqn, 0, ARBEL_CMD_ARM_SRQ);
}

/**
 * arbel_fw_qp_modify() - one QP state transition
 * @cmd: transport
 * @opcode: the transition (arbel_qp_opcode())
 * @qpn: the QP number
 * @in_mod_flags: bits above the QPN (%ARBEL_QP_SQD_EVENT)
 * @mbox: the inbox (%ARBEL_QP_MBOX_SIZE bytes); unused for ERR2RST,
 *	  which is sent with op_mod 3: no outbox
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_qp_modify(struct arbel_cmd_transport *cmd, u16 opcode, u32 qpn,
		       u32 in_mod_flags, const u8 *mbox)
{
	if (opcode == ARBEL_CMD_ERR2RST_QPEE)
		return arbel_cmd_exec(cmd, 0, NULL, qpn,
				      ARBEL_QP_2RST_NO_OUTBOX, opcode);
	return arbel_fw_mbox(cmd, opcode, 0, qpn | in_mod_flags, mbox,
			     ARBEL_QP_MBOX_SIZE, NULL, 0);
}

/**
 * arbel_fw_query_qp() - QUERY_QPEE: read a QP's context
 * @cmd: transport
 * @qpn: the QP number
 * @mbox: receives %ARBEL_QP_MBOX_SIZE bytes (the context at
 *	  %ARBEL_QP_MBOX_CTX)
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_qp(struct arbel_cmd_transport *cmd, u32 qpn, u8 *mbox)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_QUERY_QPEE, 0, qpn, NULL, 0, mbox,
			     ARBEL_QP_MBOX_SIZE);
}

/**
 * arbel_fw_map_icm_page() - MAP_ICM of one 4 KiB page
 * @cmd: transport
 * @va: ICM virtual address
 * @dma: bus address of the page
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_map_icm_page(struct arbel_cmd_transport *cmd, u64 va,
			  dma_addr_t dma)
{
	struct arbel_map_chunk chunk = { .va = va, .dma = dma };

	return arbel_fw_map(cmd, ARBEL_CMD_MAP_ICM, &chunk, 1);
}

/**
 * arbel_fw_conf_special_qp() - CONF_SPECIAL_QP: where special QPs start
 * @cmd: transport
 * @type: 0 for the QP0s, 1 for the QP1s (mthca's op_mod)
 * @base: the first of them (port 1's; port 2's follows), even; 0 turns
 *	  them off
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_conf_special_qp(struct arbel_cmd_transport *cmd, u8 type,
			     u32 base)
{
	return arbel_cmd_exec(cmd, 0, NULL, base, type,
			      ARBEL_CMD_CONF_SPECIAL_QP);
}
