// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands, one typed wrapper each.  The wrappers fill and read
 * the PRM's bytes and leave the rest to arbel_fw_mbox() (mailboxes) and
 * the transport (cmd.c).  This file holds the HCA's own commands:
 * bring-up (QUERY_FW, ENABLE_LAM, RUN_FW, QUERY_DEV_LIM, QUERY_ADAPTER,
 * INIT_HCA, CLOSE_HCA) and MAD_IFC; fw_icm.c maps memory, fw_tpt.c holds
 * the MPT and MTT commands, fw_eq.c the event queue's.
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include <arbel/vsd.h>
#include "compat.h"
#include "fw.h"

/**
 * arbel_fw_mbox() - run a command whose input and output are mailboxes
 * @cmd: transport
 * @opcode: the command
 * @op_mod: opcode modifier
 * @in_mod: input modifier
 * @in: bytes for an input mailbox, copied into it; NULL: no inbox
 * @in_len: their number, at most %ARBEL_MAILBOX_SIZE
 * @out: receives the first @out_len bytes of an output mailbox if the
 *	 command succeeds; NULL: no outbox
 * @out_len: at most %ARBEL_MAILBOX_SIZE
 *
 * The mailboxes are zeroed, so bytes past @in_len are zero; a command
 * that writes an outbox always gets a whole mailbox to write.
 *
 * Context: process; sleeps.
 * Return: 0, -ENOMEM, or the transport's errno (arbel_cmd_exec()).
 */
int arbel_fw_mbox(struct arbel_cmd_transport *cmd, u16 opcode, u8 op_mod,
		  u32 in_mod, const void *in, size_t in_len, void *out,
		  size_t out_len)
{
	struct arbel_mailbox *inbox = NULL, *outbox = NULL;
	int err;

	if (in) {
		inbox = arbel_mailbox_alloc(cmd);
		if (IS_ERR(inbox))
			return PTR_ERR(inbox);
		memcpy(inbox->buf, in, in_len);
	}
	if (out) {
		outbox = arbel_mailbox_alloc(cmd);
		if (IS_ERR(outbox)) {
			err = PTR_ERR(outbox);
			goto out;
		}
	}
	err = arbel_cmd_box(cmd, inbox, outbox, in_mod, op_mod, opcode);
	if (!err && out)
		memcpy(out, outbox->buf, out_len);
out:
	arbel_mailbox_free(cmd, outbox);
	arbel_mailbox_free(cmd, inbox);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_mbox);

/* A command whose only output is (the first @len bytes of) an outbox. */
static int arbel_fw_query(struct arbel_cmd_transport *cmd, u16 opcode,
			  void *out, size_t len)
{
	return arbel_fw_mbox(cmd, opcode, 0, 0, NULL, 0, out, len);
}

/**
 * arbel_fw_query_fw() - QUERY_FW
 * @cmd: transport
 * @fw: filled with the version, firmware-area size, command limit and
 *	register addresses
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_fw(struct arbel_cmd_transport *cmd, struct arbel_fw_info *fw)
{
	u8 out[ARBEL_QUERY_FW_OUT_SIZE];
	int err;

	err = arbel_fw_query(cmd, ARBEL_CMD_QUERY_FW, out, sizeof(out));
	if (err)
		return err;
	fw->fw_pages = get_unaligned_be16(out + ARBEL_QUERY_FW_FW_PAGES);
	fw->major = get_unaligned_be16(out + ARBEL_QUERY_FW_MAJOR);
	fw->minor = get_unaligned_be16(out + ARBEL_QUERY_FW_MINOR);
	fw->subminor = get_unaligned_be16(out + ARBEL_QUERY_FW_SUBMINOR);
	fw->log_max_cmds = out[ARBEL_QUERY_FW_LOG_MAX_CMDS];
	fw->clr_int_base = get_unaligned_be64(out + ARBEL_QUERY_FW_CLR_INT_BASE);
	fw->catas_base = get_unaligned_be64(out + ARBEL_QUERY_FW_CATAS_BASE);
	fw->catas_size = get_unaligned_be32(out + ARBEL_QUERY_FW_CATAS_SIZE);
	fw->eq_arm_base = get_unaligned_be64(out + ARBEL_QUERY_FW_EQ_ARM_BASE);
	fw->eq_set_ci_base = get_unaligned_be64(out +
						ARBEL_QUERY_FW_EQ_SET_CI_BASE);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_fw);

/**
 * arbel_fw_enable_lam() - ENABLE_LAM: turn on HCA-attached memory
 * @cmd: transport
 *
 * On a mem-free HCA the firmware refuses with LAM_NOT_PRE, which the
 * transport reports as -EAGAIN.  The outbox (the attached memory's range)
 * is not used.
 *
 * Context: process.
 * Return: 0, or a negative errno (-EAGAIN: no attached memory).
 */
int arbel_fw_enable_lam(struct arbel_cmd_transport *cmd)
{
	u8 out[ARBEL_ENABLE_LAM_OUT_SIZE];

	return arbel_fw_query(cmd, ARBEL_CMD_ENABLE_LAM, out, sizeof(out));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_enable_lam);

/**
 * arbel_fw_run_fw() - RUN_FW: start the firmware from the mapped area
 * @cmd: transport
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_run_fw(struct arbel_cmd_transport *cmd)
{
	return arbel_cmd_exec(cmd, 0, NULL, 0, 0, ARBEL_CMD_RUN_FW);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_run_fw);

/* The device limits in a QUERY_DEV_LIM outbox; "log" fields are log2. */
static int arbel_dev_lim_parse(struct device *dev, const u8 *out,
			       struct arbel_dev_lim *lim)
{
	const struct {
		unsigned int off;
		u16 *val;
	} sizes[] = {
		{ ARBEL_DEV_LIM_EEC_ENTRY_SZ, &lim->eec_entry_sz },
		{ ARBEL_DEV_LIM_EEEC_ENTRY_SZ, &lim->eeec_entry_sz },
		{ ARBEL_DEV_LIM_QPC_ENTRY_SZ, &lim->qpc_entry_sz },
		{ ARBEL_DEV_LIM_EQPC_ENTRY_SZ, &lim->eqpc_entry_sz },
		{ ARBEL_DEV_LIM_EQC_ENTRY_SZ, &lim->eqc_entry_sz },
		{ ARBEL_DEV_LIM_CQC_ENTRY_SZ, &lim->cqc_entry_sz },
		{ ARBEL_DEV_LIM_SRQ_ENTRY_SZ, &lim->srq_entry_sz },
		{ ARBEL_DEV_LIM_UAR_SCR_ENTRY_SZ, &lim->uar_scratch_entry_sz },
		{ ARBEL_DEV_LIM_MTT_ENTRY_SZ, &lim->mtt_entry_sz },
		{ ARBEL_DEV_LIM_MPT_ENTRY_SZ, &lim->mpt_entry_sz },
		{ ARBEL_DEV_LIM_MAX_DESC_SZ, &lim->max_desc_sz },
		{ ARBEL_DEV_LIM_MAX_DESC_SZ_RQ, &lim->max_desc_sz_rq },
	};
	unsigned int log_uar, i;

#define LOG3(off)	FIELD_GET(ARBEL_DEV_LIM_LOG3_MASK, out[off])
#define LOG4(off)	FIELD_GET(ARBEL_DEV_LIM_LOG4_MASK, out[off])
#define LOG5(off)	FIELD_GET(ARBEL_DEV_LIM_LOG5_MASK, out[off])
#define LOG6(off)	FIELD_GET(ARBEL_DEV_LIM_LOG6_MASK, out[off])
#define HIGH4(off)	FIELD_GET(ARBEL_DEV_LIM_HIGH4_MASK, out[off])
	lim->log_rsvd_qps = LOG4(ARBEL_DEV_LIM_RSVD_QP);
	lim->log_max_qps = LOG5(ARBEL_DEV_LIM_MAX_QP);
	lim->log_rsvd_srqs = HIGH4(ARBEL_DEV_LIM_RSVD_SRQ);
	lim->log_max_srqs = LOG5(ARBEL_DEV_LIM_MAX_SRQ);
	lim->log_rsvd_eecs = LOG4(ARBEL_DEV_LIM_RSVD_EEC);
	lim->log_rsvd_cqs = LOG4(ARBEL_DEV_LIM_RSVD_CQ);
	lim->log_max_cqs = LOG5(ARBEL_DEV_LIM_MAX_CQ);
	lim->log_max_mpts = LOG6(ARBEL_DEV_LIM_MAX_MPT);
	lim->log_rsvd_eqs = LOG4(ARBEL_DEV_LIM_RSVD_EQ);
	lim->log_max_eqs = LOG3(ARBEL_DEV_LIM_MAX_EQ);
	lim->log_rsvd_mtts = HIGH4(ARBEL_DEV_LIM_RSVD_MTT);
	lim->log_max_mr_size = LOG6(ARBEL_DEV_LIM_MAX_MR_SIZE);
	lim->log_rsvd_mrws = LOG4(ARBEL_DEV_LIM_RSVD_MRW);
	lim->log_max_mtt_segs = LOG6(ARBEL_DEV_LIM_MAX_MTT_SEG);
	lim->flags = get_unaligned_be32(out + ARBEL_DEV_LIM_FLAGS);
	lim->num_ports = LOG4(ARBEL_DEV_LIM_VL_PORT);
	lim->num_rsvd_uars = HIGH4(ARBEL_DEV_LIM_RSVD_UAR);
	log_uar = out[ARBEL_DEV_LIM_UAR_SIZE] + ARBEL_DEV_LIM_UAR_SIZE_SHIFT;
	lim->log_min_page_size = out[ARBEL_DEV_LIM_MIN_PAGE_SZ];
	lim->num_rsvd_pds = HIGH4(ARBEL_DEV_LIM_RSVD_PD);
	lim->log_max_pds = LOG6(ARBEL_DEV_LIM_MAX_PD);
	lim->log_max_srq_sz = out[ARBEL_DEV_LIM_MAX_SRQ_SZ];
	lim->log_max_qp_sz = out[ARBEL_DEV_LIM_MAX_QP_SZ];
	lim->log_max_cq_sz = out[ARBEL_DEV_LIM_MAX_CQ_SZ];
	lim->log_max_ra_req_qp = LOG6(ARBEL_DEV_LIM_MAX_REQ_QP);
	lim->log_max_ra_res_qp = LOG6(ARBEL_DEV_LIM_MAX_RES_QP);
	lim->local_ca_ack_delay = LOG5(ARBEL_DEV_LIM_ACK_DELAY);
	lim->max_sg = out[ARBEL_DEV_LIM_MAX_SG];
	lim->max_sg_rq = out[ARBEL_DEV_LIM_MAX_SG_RQ];
	lim->mtu_cap = FIELD_GET(ARBEL_DEV_LIM_HIGH4_MASK,
				 out[ARBEL_DEV_LIM_MTU_WIDTH]);
	lim->port_width_cap = LOG4(ARBEL_DEV_LIM_MTU_WIDTH);
	lim->vl_cap = HIGH4(ARBEL_DEV_LIM_VL_PORT);
	lim->log_max_gids = LOG4(ARBEL_DEV_LIM_MAX_GID);
	lim->log_max_pkeys = LOG4(ARBEL_DEV_LIM_MAX_PKEY);
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		*sizes[i].val = get_unaligned_be16(out + sizes[i].off);
	lim->max_icm_sz = get_unaligned_be64(out + ARBEL_DEV_LIM_MAX_ICM_SZ);
#undef LOG3
#undef LOG4
#undef LOG5
#undef LOG6
#undef HIGH4

	if (log_uar >= BITS_PER_LONG_LONG) {
		dev_err(dev, "QUERY_DEV_LIM: impossible UAR size 2^%u\n",
			log_uar);
		return -EIO;
	}
	lim->uar_size = 1ULL << log_uar;
	return 0;
}

/**
 * arbel_fw_query_dev_lim() - QUERY_DEV_LIM
 * @cmd: transport
 * @lim: filled with the device limits
 *
 * Context: process.
 * Return: 0, -EIO for a UAR size no 64-bit value holds, or a negative
 * errno from the command.
 */
int arbel_fw_query_dev_lim(struct arbel_cmd_transport *cmd,
			   struct arbel_dev_lim *lim)
{
	u8 out[ARBEL_QUERY_DEV_LIM_OUT_SIZE];
	int err;

	err = arbel_fw_query(cmd, ARBEL_CMD_QUERY_DEV_LIM, out, sizeof(out));
	return err ?: arbel_dev_lim_parse(cmd->dev, out, lim);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_dev_lim);

/**
 * arbel_fw_query_adapter() - QUERY_ADAPTER: the board ID and the INTA pin
 * @cmd: transport
 * @board_id: receives the NUL-terminated board ID
 * @len: size of @board_id
 * @inta_pin: if not NULL, receives the interrupt pin wired to INTA#: the
 *	      EQ context's intr and the clear-interrupt bit in INTx mode
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_adapter(struct arbel_cmd_transport *cmd, char *board_id,
			   size_t len, u8 *inta_pin)
{
	u8 out[ARBEL_QUERY_ADAPTER_OUT_SIZE];
	int err;

	err = arbel_fw_query(cmd, ARBEL_CMD_QUERY_ADAPTER, out, sizeof(out));
	if (err)
		return err;
	arbel_vsd_board_id(out + ARBEL_QUERY_ADAPTER_VSD, board_id, len);
	if (inta_pin)
		*inta_pin = out[ARBEL_QUERY_ADAPTER_INTA_PIN];
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_adapter);

/**
 * arbel_fw_init_hca() - INIT_HCA with the ICM layout
 * @cmd: transport
 * @layout: where each table lies and how many objects it holds
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_init_hca(struct arbel_cmd_transport *cmd,
		      const struct arbel_icm_layout *layout)
{
	const struct arbel_icm_place *t = layout->t;
	u8 in[ARBEL_INIT_HCA_IN_SIZE] = {};

#define BASE(off, table)	put_unaligned_be64(t[table].base, in + (off))
	/* Bit 1 of flags2 (big-endian host) stays clear: little-endian. */
	BASE(ARBEL_INIT_HCA_QPC_BASE, ARBEL_ICM_QPC);
	in[ARBEL_INIT_HCA_LOG_QP] = t[ARBEL_ICM_QPC].log_num;
	BASE(ARBEL_INIT_HCA_EEC_BASE, ARBEL_ICM_EEC);
	in[ARBEL_INIT_HCA_LOG_EEC] = t[ARBEL_ICM_EEC].log_num;
	BASE(ARBEL_INIT_HCA_EQPC_BASE, ARBEL_ICM_EQPC);
	BASE(ARBEL_INIT_HCA_EEEC_BASE, ARBEL_ICM_EEEC);
	BASE(ARBEL_INIT_HCA_RDB_BASE, ARBEL_ICM_RDB);
	BASE(ARBEL_INIT_HCA_SRQC_BASE, ARBEL_ICM_SRQC);
	in[ARBEL_INIT_HCA_LOG_SRQ] = t[ARBEL_ICM_SRQC].log_num;
	BASE(ARBEL_INIT_HCA_CQC_BASE, ARBEL_ICM_CQC);
	in[ARBEL_INIT_HCA_LOG_CQ] = t[ARBEL_ICM_CQC].log_num;
	BASE(ARBEL_INIT_HCA_EQC_BASE, ARBEL_ICM_EQC);
	in[ARBEL_INIT_HCA_LOG_EQ] = t[ARBEL_ICM_EQC].log_num;
	BASE(ARBEL_INIT_HCA_MC_BASE, ARBEL_ICM_MCG);
	put_unaligned_be16(ilog2(t[ARBEL_ICM_MCG].entry_size),
			   in + ARBEL_INIT_HCA_MC_LOG_ENTRY_SZ);
	put_unaligned_be16(1 << (t[ARBEL_ICM_MCG].log_num - 1),
			   in + ARBEL_INIT_HCA_MC_HASH_SZ);
	in[ARBEL_INIT_HCA_MC_LOG_SIZE] = t[ARBEL_ICM_MCG].log_num;
	BASE(ARBEL_INIT_HCA_MPT_BASE, ARBEL_ICM_MPT);
	in[ARBEL_INIT_HCA_LOG_MPT_SZ] = t[ARBEL_ICM_MPT].log_num;
	BASE(ARBEL_INIT_HCA_MTT_BASE, ARBEL_ICM_MTT);
	in[ARBEL_INIT_HCA_UARC_LOG_SZ] = ilog2(t[ARBEL_ICM_UARC].entry_size) -
					 ARBEL_ICM_PAGE_SHIFT;
	in[ARBEL_INIT_HCA_LOG_UARS] = t[ARBEL_ICM_UARC].log_num;
	in[ARBEL_INIT_HCA_UAR_PAGE_SZ] = PAGE_SHIFT - ARBEL_ICM_PAGE_SHIFT;
	BASE(ARBEL_INIT_HCA_UAR_SCR_BASE, ARBEL_ICM_UAR_SCR);
	BASE(ARBEL_INIT_HCA_UARC_BASE, ARBEL_ICM_UARC);
#undef BASE

	return arbel_fw_mbox(cmd, ARBEL_CMD_INIT_HCA, 0, 0, in, sizeof(in),
			     NULL, 0);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_init_hca);

/**
 * arbel_fw_close_hca() - CLOSE_HCA (orderly, not after a panic)
 * @cmd: transport
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_close_hca(struct arbel_cmd_transport *cmd)
{
	return arbel_cmd_exec(cmd, 0, NULL, 0, 0, ARBEL_CMD_CLOSE_HCA);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_close_hca);

/**
 * arbel_fw_init_ib() - INIT_IB: bring a port's link up
 * @cmd: transport
 * @port: the port (1 or 2)
 * @lim: the capabilities the port is brought up with (MTU, width, VLs,
 *	 GID and P_Key tables), QUERY_DEV_LIM's, as mthca passes them
 *
 * The firmware reports the port active with a port-change event.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_init_ib(struct arbel_cmd_transport *cmd, u8 port,
		     const struct arbel_dev_lim *lim)
{
	u8 in[ARBEL_INIT_IB_IN_SIZE] = {};

	put_unaligned_be32(FIELD_PREP(ARBEL_INIT_IB_VL_CAP, lim->vl_cap) |
			   FIELD_PREP(ARBEL_INIT_IB_WIDTH_CAP,
				      lim->port_width_cap) |
			   FIELD_PREP(ARBEL_INIT_IB_MTU_CAP, lim->mtu_cap),
			   in + ARBEL_INIT_IB_FLAGS);
	put_unaligned_be16(1U << lim->log_max_gids, in + ARBEL_INIT_IB_MAX_GID);
	put_unaligned_be16(1U << lim->log_max_pkeys,
			   in + ARBEL_INIT_IB_MAX_PKEY);
	return arbel_fw_mbox(cmd, ARBEL_CMD_INIT_IB, 0, port, in, sizeof(in),
			     NULL, 0);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_init_ib);

/**
 * arbel_fw_set_ib() - SET_IB: a port's capability mask
 * @cmd: transport
 * @port: the port
 * @cap_mask: the capability mask its PortInfo is to report
 * @reset_qkey_viol: also reset its Q_Key violation counter
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_set_ib(struct arbel_cmd_transport *cmd, u8 port, u32 cap_mask,
		    bool reset_qkey_viol)
{
	u8 in[ARBEL_SET_IB_IN_SIZE] = {};

	put_unaligned_be32(reset_qkey_viol ? ARBEL_SET_IB_FLAG_RQK : 0,
			   in + ARBEL_SET_IB_FLAGS);
	put_unaligned_be32(cap_mask, in + ARBEL_SET_IB_CAP_MASK);
	return arbel_fw_mbox(cmd, ARBEL_CMD_SET_IB, 0, port, in, sizeof(in),
			     NULL, 0);
}

/**
 * arbel_fw_close_ib() - CLOSE_IB: take a port's link down
 * @cmd: transport
 * @port: the port
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_close_ib(struct arbel_cmd_transport *cmd, u8 port)
{
	return arbel_cmd_exec(cmd, 0, NULL, port, 0, ARBEL_CMD_CLOSE_IB);
}

/**
 * arbel_fw_mad_ifc() - MAD_IFC: let the firmware's agent answer a MAD
 * @cmd: transport
 * @port: port number
 * @in_mad: the 256-byte request
 * @out_mad: receives the 256-byte response
 *
 * M_Key and B_Key checks are skipped (opcode modifier bits 0 and 1).
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_mad_ifc(struct arbel_cmd_transport *cmd, u8 port,
		     const void *in_mad, void *out_mad)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_MAD_IFC,
			     ARBEL_MAD_IFC_IGNORE_MKEY |
			     ARBEL_MAD_IFC_IGNORE_BKEY, port,
			     in_mad, ARBEL_MAD_SIZE, out_mad, ARBEL_MAD_SIZE);
}
