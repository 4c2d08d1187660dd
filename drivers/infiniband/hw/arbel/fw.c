// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands, one typed wrapper each: they fill and read mailboxes
 * at the PRM's offsets and leave posting to the transport (cmd.c).
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <arbel/eqe.h>
#include <arbel/prm.h>
#include <arbel/status.h>
#include "compat.h"
#include "fw.h"

static u8 mb_u8(const struct arbel_mailbox *mb, unsigned int off)
{
	return ((const u8 *)mb->buf)[off];
}

static u16 mb_u16(const struct arbel_mailbox *mb, unsigned int off)
{
	return be16_to_cpup(mb->buf + off);
}

static u32 mb_u32(const struct arbel_mailbox *mb, unsigned int off)
{
	return be32_to_cpup(mb->buf + off);
}

static u64 mb_u64(const struct arbel_mailbox *mb, unsigned int off)
{
	return be64_to_cpup(mb->buf + off);
}

static void mb_put_u8(struct arbel_mailbox *mb, unsigned int off, u8 v)
{
	((u8 *)mb->buf)[off] = v;
}

static void mb_put_u16(struct arbel_mailbox *mb, unsigned int off, u16 v)
{
	*(__be16 *)(mb->buf + off) = cpu_to_be16(v);
}

static void mb_put_u64(struct arbel_mailbox *mb, unsigned int off, u64 v)
{
	*(__be64 *)(mb->buf + off) = cpu_to_be64(v);
}

/* Run a command whose only output is an outbox. */
static struct arbel_mailbox *arbel_fw_query(struct arbel_cmd_transport *cmd,
					    u16 opcode)
{
	struct arbel_mailbox *out;
	int err;

	out = arbel_mailbox_alloc(cmd);
	if (IS_ERR(out))
		return out;
	err = arbel_cmd_box(cmd, NULL, out, 0, 0, opcode);
	if (err) {
		arbel_mailbox_free(cmd, out);
		return ERR_PTR(err);
	}
	return out;
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
	struct arbel_mailbox *out = arbel_fw_query(cmd, ARBEL_CMD_QUERY_FW);

	if (IS_ERR(out))
		return PTR_ERR(out);
	fw->fw_pages = mb_u16(out, ARBEL_QUERY_FW_FW_PAGES);
	fw->major = mb_u16(out, ARBEL_QUERY_FW_MAJOR);
	fw->minor = mb_u16(out, ARBEL_QUERY_FW_MINOR);
	fw->subminor = mb_u16(out, ARBEL_QUERY_FW_SUBMINOR);
	fw->log_max_cmds = mb_u8(out, ARBEL_QUERY_FW_LOG_MAX_CMDS);
	fw->clr_int_base = mb_u64(out, ARBEL_QUERY_FW_CLR_INT_BASE);
	fw->catas_base = mb_u64(out, ARBEL_QUERY_FW_CATAS_BASE);
	fw->catas_size = mb_u32(out, ARBEL_QUERY_FW_CATAS_SIZE);
	fw->eq_arm_base = mb_u64(out, ARBEL_QUERY_FW_EQ_ARM_BASE);
	fw->eq_set_ci_base = mb_u64(out, ARBEL_QUERY_FW_EQ_SET_CI_BASE);
	arbel_mailbox_free(cmd, out);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_fw);

/**
 * arbel_fw_enable_lam() - ENABLE_LAM: turn on HCA-attached memory
 * @cmd: transport
 *
 * On a mem-free HCA the firmware refuses with LAM_NOT_PRE, which the
 * transport reports as -EAGAIN.
 *
 * Context: process.
 * Return: 0, or a negative errno (-EAGAIN: no attached memory).
 */
int arbel_fw_enable_lam(struct arbel_cmd_transport *cmd)
{
	struct arbel_mailbox *out = arbel_fw_query(cmd, ARBEL_CMD_ENABLE_LAM);

	if (IS_ERR(out))
		return PTR_ERR(out);
	arbel_mailbox_free(cmd, out);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_enable_lam);

/**
 * arbel_fw_map() - MAP_FA, MAP_ICM_AUX or MAP_ICM of memory blocks
 * @cmd: transport
 * @opcode: %ARBEL_CMD_MAP_FA, %ARBEL_CMD_MAP_ICM_AUX or %ARBEL_CMD_MAP_ICM
 * @chunks: the blocks, each aligned to its own size
 * @n: number of blocks
 *
 * Sends as many commands as needed, 256 blocks each.  On failure the
 * blocks mapped by earlier commands stay mapped: the caller undoes the
 * whole set (UNMAP_FA, UNMAP_ICM_AUX, or UNMAP_ICM per block).
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_map(struct arbel_cmd_transport *cmd, u16 opcode,
		 const struct arbel_map_chunk *chunks, int n)
{
	struct arbel_mailbox *in;
	int i = 0, k, err = 0;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);

	while (i < n && !err) {
		memset(in->buf, 0, ARBEL_MAILBOX_SIZE);
		for (k = 0; k < ARBEL_MAP_MAX_ENTRIES && i < n; k++, i++) {
			u64 pa = (chunks[i].dma & ARBEL_MAP_ADDR) |
				 FIELD_PREP(ARBEL_MAP_LOG_SIZE,
					    chunks[i].log_pages);

			mb_put_u64(in, k * ARBEL_MAP_ENTRY_SIZE,
				   opcode == ARBEL_CMD_MAP_ICM ?
				   chunks[i].va : 0);
			mb_put_u64(in, k * ARBEL_MAP_ENTRY_SIZE + 8, pa);
		}
		err = arbel_cmd_box(cmd, in, NULL, k, 0, opcode);
	}
	arbel_mailbox_free(cmd, in);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_map);

/**
 * arbel_fw_unmap_fa() - UNMAP_FA: take back the firmware area
 * @cmd: transport
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_unmap_fa(struct arbel_cmd_transport *cmd)
{
	return arbel_cmd_exec(cmd, 0, NULL, 0, 0, ARBEL_CMD_UNMAP_FA);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_unmap_fa);

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
	struct arbel_mailbox *out;
	unsigned int log_uar;

	out = arbel_fw_query(cmd, ARBEL_CMD_QUERY_DEV_LIM);
	if (IS_ERR(out))
		return PTR_ERR(out);

#define LOG4(off)	FIELD_GET(ARBEL_DEV_LIM_LOG4_MASK, mb_u8(out, off))
#define HIGH4(off)	FIELD_GET(ARBEL_DEV_LIM_HIGH4_MASK, mb_u8(out, off))
	lim->log_rsvd_qps = LOG4(ARBEL_DEV_LIM_RSVD_QP);
	lim->log_max_qps = FIELD_GET(ARBEL_DEV_LIM_LOG5_MASK,
				     mb_u8(out, ARBEL_DEV_LIM_MAX_QP));
	lim->log_rsvd_srqs = HIGH4(ARBEL_DEV_LIM_RSVD_SRQ);
	lim->log_max_srqs = FIELD_GET(ARBEL_DEV_LIM_LOG5_MASK,
				      mb_u8(out, ARBEL_DEV_LIM_MAX_SRQ));
	lim->log_rsvd_eecs = LOG4(ARBEL_DEV_LIM_RSVD_EEC);
	lim->log_rsvd_cqs = LOG4(ARBEL_DEV_LIM_RSVD_CQ);
	lim->log_max_cqs = FIELD_GET(ARBEL_DEV_LIM_LOG5_MASK,
				     mb_u8(out, ARBEL_DEV_LIM_MAX_CQ));
	lim->log_max_mpts = FIELD_GET(ARBEL_DEV_LIM_LOG6_MASK,
				      mb_u8(out, ARBEL_DEV_LIM_MAX_MPT));
	lim->log_rsvd_eqs = LOG4(ARBEL_DEV_LIM_RSVD_EQ);
	lim->log_max_eqs = FIELD_GET(ARBEL_DEV_LIM_LOG3_MASK,
				     mb_u8(out, ARBEL_DEV_LIM_MAX_EQ));
	lim->log_rsvd_mtts = HIGH4(ARBEL_DEV_LIM_RSVD_MTT);
	lim->log_max_mr_size = FIELD_GET(ARBEL_DEV_LIM_LOG6_MASK,
					 mb_u8(out, ARBEL_DEV_LIM_MAX_MR_SIZE));
	lim->log_rsvd_mrws = LOG4(ARBEL_DEV_LIM_RSVD_MRW);
	lim->log_max_mtt_segs = FIELD_GET(ARBEL_DEV_LIM_LOG6_MASK,
					  mb_u8(out, ARBEL_DEV_LIM_MAX_MTT_SEG));
	lim->flags = mb_u32(out, ARBEL_DEV_LIM_FLAGS);
	lim->num_ports = LOG4(ARBEL_DEV_LIM_VL_PORT);
	lim->num_rsvd_uars = HIGH4(ARBEL_DEV_LIM_RSVD_UAR);
	log_uar = mb_u8(out, ARBEL_DEV_LIM_UAR_SIZE) +
		  ARBEL_DEV_LIM_UAR_SIZE_SHIFT;
	if (log_uar >= BITS_PER_LONG_LONG) {
		dev_err(cmd->dev, "QUERY_DEV_LIM: impossible UAR size 2^%u\n",
			log_uar);
		arbel_mailbox_free(cmd, out);
		return -EIO;
	}
	lim->uar_size = 1ULL << log_uar;
	lim->log_min_page_size = mb_u8(out, ARBEL_DEV_LIM_MIN_PAGE_SZ);
	lim->num_rsvd_pds = HIGH4(ARBEL_DEV_LIM_RSVD_PD);
	lim->log_max_pds = FIELD_GET(ARBEL_DEV_LIM_LOG6_MASK,
				     mb_u8(out, ARBEL_DEV_LIM_MAX_PD));
#undef LOG4
#undef HIGH4
	lim->eec_entry_sz = mb_u16(out, ARBEL_DEV_LIM_EEC_ENTRY_SZ);
	lim->eeec_entry_sz = mb_u16(out, ARBEL_DEV_LIM_EEEC_ENTRY_SZ);
	lim->qpc_entry_sz = mb_u16(out, ARBEL_DEV_LIM_QPC_ENTRY_SZ);
	lim->eqpc_entry_sz = mb_u16(out, ARBEL_DEV_LIM_EQPC_ENTRY_SZ);
	lim->eqc_entry_sz = mb_u16(out, ARBEL_DEV_LIM_EQC_ENTRY_SZ);
	lim->cqc_entry_sz = mb_u16(out, ARBEL_DEV_LIM_CQC_ENTRY_SZ);
	lim->srq_entry_sz = mb_u16(out, ARBEL_DEV_LIM_SRQ_ENTRY_SZ);
	lim->uar_scratch_entry_sz = mb_u16(out,
					   ARBEL_DEV_LIM_UAR_SCR_ENTRY_SZ);
	lim->mtt_entry_sz = mb_u16(out, ARBEL_DEV_LIM_MTT_ENTRY_SZ);
	lim->mpt_entry_sz = mb_u16(out, ARBEL_DEV_LIM_MPT_ENTRY_SZ);
	lim->max_icm_sz = mb_u64(out, ARBEL_DEV_LIM_MAX_ICM_SZ);
	arbel_mailbox_free(cmd, out);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_dev_lim);

/**
 * arbel_vsd_board_id() - the board ID in QUERY_ADAPTER's VSD
 * @vsd: the vendor-specific data (outbox + %ARBEL_QUERY_ADAPTER_VSD)
 * @board_id: receives the NUL-terminated ID
 * @len: size of @board_id, at least 1
 *
 * A Mellanox board keeps the ID at VSD + 0xd0, 16 bytes whose dwords the
 * firmware byte-swaps; a Topspin board, marked by both VSD signatures,
 * keeps a plain string at VSD + 0x20 (mthca's get_board_id()).
 *
 * Context: any.
 */
void arbel_vsd_board_id(const u8 *vsd, char *board_id, size_t len)
{
	char id[ARBEL_BOARD_ID_LEN + 1] = { };
	int i;

	if (get_unaligned_be16(vsd + ARBEL_VSD_SIG1) == ARBEL_VSD_SIG_TOPSPIN &&
	    get_unaligned_be16(vsd + ARBEL_VSD_SIG2) == ARBEL_VSD_SIG_TOPSPIN) {
		memcpy(id, vsd + ARBEL_VSD_TS_BOARD_ID, ARBEL_BOARD_ID_LEN);
	} else {
		for (i = 0; i < ARBEL_BOARD_ID_LEN; i += 4)
			put_unaligned_le32(get_unaligned_be32(vsd +
					   ARBEL_VSD_MLX_BOARD_ID + i),
					   id + i);
	}
	strscpy(board_id, id, len);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_vsd_board_id);

/**
 * arbel_fw_query_adapter() - QUERY_ADAPTER: the board ID
 * @cmd: transport
 * @board_id: receives the NUL-terminated board ID
 * @len: size of @board_id
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_adapter(struct arbel_cmd_transport *cmd, char *board_id,
			   size_t len)
{
	struct arbel_mailbox *out;

	out = arbel_fw_query(cmd, ARBEL_CMD_QUERY_ADAPTER);
	if (IS_ERR(out))
		return PTR_ERR(out);
	arbel_vsd_board_id(out->buf + ARBEL_QUERY_ADAPTER_VSD, board_id, len);
	arbel_mailbox_free(cmd, out);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_query_adapter);

/**
 * arbel_fw_set_icm_size() - SET_ICM_SIZE
 * @cmd: transport
 * @icm_size: bytes of ICM the profile lays out
 * @aux_pages: receives the 4 KiB pages of auxiliary ICM the firmware needs
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_set_icm_size(struct arbel_cmd_transport *cmd, u64 icm_size,
			  u64 *aux_pages)
{
	return arbel_cmd_exec(cmd, icm_size, aux_pages, 0, 0,
			      ARBEL_CMD_SET_ICM_SIZE);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_set_icm_size);

/**
 * arbel_fw_unmap_icm_aux() - UNMAP_ICM_AUX
 * @cmd: transport
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_unmap_icm_aux(struct arbel_cmd_transport *cmd)
{
	return arbel_cmd_exec(cmd, 0, NULL, 0, 0, ARBEL_CMD_UNMAP_ICM_AUX);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_unmap_icm_aux);

/**
 * arbel_fw_unmap_icm() - UNMAP_ICM of a range of ICM
 * @cmd: transport
 * @va: ICM virtual address
 * @pages: number of 4 KiB pages
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_unmap_icm(struct arbel_cmd_transport *cmd, u64 va, u32 pages)
{
	return arbel_cmd_exec(cmd, va, NULL, pages, 0, ARBEL_CMD_UNMAP_ICM);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_fw_unmap_icm);

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
	struct arbel_mailbox *in;
	int err;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);

	/* Bit 1 of flags2 (big-endian host) stays clear: little-endian. */
	mb_put_u64(in, ARBEL_INIT_HCA_QPC_BASE, t[ARBEL_ICM_QPC].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_QP, t[ARBEL_ICM_QPC].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_EEC_BASE, t[ARBEL_ICM_EEC].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_EEC, t[ARBEL_ICM_EEC].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_EQPC_BASE, t[ARBEL_ICM_EQPC].base);
	mb_put_u64(in, ARBEL_INIT_HCA_EEEC_BASE, t[ARBEL_ICM_EEEC].base);
	mb_put_u64(in, ARBEL_INIT_HCA_RDB_BASE, t[ARBEL_ICM_RDB].base);
	mb_put_u64(in, ARBEL_INIT_HCA_SRQC_BASE, t[ARBEL_ICM_SRQC].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_SRQ, t[ARBEL_ICM_SRQC].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_CQC_BASE, t[ARBEL_ICM_CQC].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_CQ, t[ARBEL_ICM_CQC].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_EQC_BASE, t[ARBEL_ICM_EQC].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_EQ, t[ARBEL_ICM_EQC].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_MC_BASE, t[ARBEL_ICM_MCG].base);
	mb_put_u16(in, ARBEL_INIT_HCA_MC_LOG_ENTRY_SZ,
		   ilog2(t[ARBEL_ICM_MCG].entry_size));
	mb_put_u16(in, ARBEL_INIT_HCA_MC_HASH_SZ,
		   1 << (t[ARBEL_ICM_MCG].log_num - 1));
	mb_put_u8(in, ARBEL_INIT_HCA_MC_LOG_SIZE, t[ARBEL_ICM_MCG].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_MPT_BASE, t[ARBEL_ICM_MPT].base);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_MPT_SZ, t[ARBEL_ICM_MPT].log_num);
	mb_put_u64(in, ARBEL_INIT_HCA_MTT_BASE, t[ARBEL_ICM_MTT].base);
	mb_put_u8(in, ARBEL_INIT_HCA_UARC_LOG_SZ,
		  ilog2(t[ARBEL_ICM_UARC].entry_size) - ARBEL_ICM_PAGE_SHIFT);
	mb_put_u8(in, ARBEL_INIT_HCA_LOG_UARS, t[ARBEL_ICM_UARC].log_num);
	mb_put_u8(in, ARBEL_INIT_HCA_UAR_PAGE_SZ,
		  PAGE_SHIFT - ARBEL_ICM_PAGE_SHIFT);
	mb_put_u64(in, ARBEL_INIT_HCA_UAR_SCR_BASE, t[ARBEL_ICM_UAR_SCR].base);
	mb_put_u64(in, ARBEL_INIT_HCA_UARC_BASE, t[ARBEL_ICM_UARC].base);

	err = arbel_cmd_box(cmd, in, NULL, 0, 0, ARBEL_CMD_INIT_HCA);
	arbel_mailbox_free(cmd, in);
	return err;
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
 * arbel_fw_sw2hw_mpt() - SW2HW_MPT: hand an MPT entry to the HCA
 * @cmd: transport
 * @slot: MPT table index
 * @entry: the 64-byte entry (see arbel_mpt_encode())
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sw2hw_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       const __be32 entry[ARBEL_MPT_DWORDS])
{
	struct arbel_mailbox *in;
	int err;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);
	memcpy(in->buf, entry, ARBEL_MPT_ENTRY_SIZE);
	err = arbel_cmd_box(cmd, in, NULL, slot, 0, ARBEL_CMD_SW2HW_MPT);
	arbel_mailbox_free(cmd, in);
	return err;
}

/* A command that returns one 64-byte MPT entry in its outbox. */
static int arbel_fw_read_mpt(struct arbel_cmd_transport *cmd, u32 slot,
			     u8 op_mod, u16 opcode,
			     __be32 entry[ARBEL_MPT_DWORDS])
{
	struct arbel_mailbox *out;
	int err;

	out = arbel_mailbox_alloc(cmd);
	if (IS_ERR(out))
		return PTR_ERR(out);
	err = arbel_cmd_box(cmd, NULL, out, slot, op_mod, opcode);
	if (!err)
		memcpy(entry, out->buf, ARBEL_MPT_ENTRY_SIZE);
	arbel_mailbox_free(cmd, out);
	return err;
}

/**
 * arbel_fw_hw2sw_mpt() - HW2SW_MPT: take an MPT entry back from the HCA
 * @cmd: transport
 * @slot: MPT table index
 * @entry: if not NULL, receives the entry as the HCA last held it
 *
 * Context: process.
 * Return: 0 or a negative errno (-EBUSY: windows are still bound).
 */
int arbel_fw_hw2sw_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       __be32 entry[ARBEL_MPT_DWORDS])
{
	if (!entry)
		return arbel_cmd_exec(cmd, 0, NULL, slot,
				      ARBEL_HW2SW_MPT_NO_ENTRY,
				      ARBEL_CMD_HW2SW_MPT);
	return arbel_fw_read_mpt(cmd, slot, ARBEL_HW2SW_MPT_RETURN_ENTRY,
				 ARBEL_CMD_HW2SW_MPT, entry);
}

/**
 * arbel_fw_query_mpt() - QUERY_MPT: read an MPT entry as the HCA holds it
 * @cmd: transport
 * @slot: MPT table index
 * @entry: receives the 64-byte entry
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_query_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       __be32 entry[ARBEL_MPT_DWORDS])
{
	return arbel_fw_read_mpt(cmd, slot, 0, ARBEL_CMD_QUERY_MPT, entry);
}

/**
 * arbel_fw_sw2hw_eq() - SW2HW_EQ: hand an EQ to the HCA
 * @cmd: transport
 * @eqn: the EQ number
 * @eqc: its fields (see arbel_eqc_encode())
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sw2hw_eq(struct arbel_cmd_transport *cmd, u32 eqn,
		      const struct arbel_eqc *eqc)
{
	struct arbel_mailbox *in;
	int err;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);
	arbel_eqc_encode(eqc, in->buf);
	err = arbel_cmd_box(cmd, in, NULL, eqn, 0, ARBEL_CMD_SW2HW_EQ);
	arbel_mailbox_free(cmd, in);
	return err;
}

/**
 * arbel_fw_hw2sw_eq() - HW2SW_EQ: take an EQ back from the HCA
 * @cmd: transport
 * @eqn: the EQ number
 *
 * op_mod 0 with an outbox for the context, as mthca issues it; the
 * context is not used.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_hw2sw_eq(struct arbel_cmd_transport *cmd, u32 eqn)
{
	struct arbel_mailbox *out;
	int err;

	out = arbel_mailbox_alloc(cmd);
	if (IS_ERR(out))
		return PTR_ERR(out);
	err = arbel_cmd_box(cmd, NULL, out, eqn, 0, ARBEL_CMD_HW2SW_EQ);
	arbel_mailbox_free(cmd, out);
	return err;
}

/**
 * arbel_fw_map_eq() - MAP_EQ: route event types to an EQ, or undo it
 * @cmd: transport
 * @eqn: the EQ number
 * @mask: bit n routes event type n
 * @unmap: undo the routing of @mask instead
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_map_eq(struct arbel_cmd_transport *cmd, u32 eqn, u64 mask,
		    bool unmap)
{
	return arbel_cmd_exec(cmd, mask, NULL,
			      eqn | (unmap ? ARBEL_MAP_EQ_UNMAP : 0), 0,
			      ARBEL_CMD_MAP_EQ);
}

/**
 * arbel_fw_write_mtt() - WRITE_MTT: write translation entries into ICM
 * @cmd: transport
 * @mbox: a mailbox whose entries from qword 2 on the caller has filled
 * @icm_va: ICM virtual address of the first entry to write
 * @n: entries filled, at most %ARBEL_WRITE_MTT_MAX_ENTRIES
 *
 * Writes the target address into the mailbox header; an odd count is
 * padded with a zero entry, as the firmware prefers even counts.
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_write_mtt(struct arbel_cmd_transport *cmd,
		       struct arbel_mailbox *mbox, u64 icm_va, u32 n)
{
	__be64 *q = mbox->buf;

	if (WARN_ON(!n || n > ARBEL_WRITE_MTT_MAX_ENTRIES))
		return -EINVAL;
	q[0] = cpu_to_be64(icm_va);
	q[1] = 0;
	if (n & 1)
		q[ARBEL_WRITE_MTT_HDR_QWORDS + n++] = 0;
	return arbel_cmd_box(cmd, mbox, NULL, n, 0, ARBEL_CMD_WRITE_MTT);
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
	struct arbel_mailbox *in, *out;
	int err;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);
	out = arbel_mailbox_alloc(cmd);
	if (IS_ERR(out)) {
		arbel_mailbox_free(cmd, in);
		return PTR_ERR(out);
	}
	memcpy(in->buf, in_mad, ARBEL_MAD_SIZE);
	err = arbel_cmd_box(cmd, in, out, port,
			    ARBEL_MAD_IFC_IGNORE_MKEY | ARBEL_MAD_IFC_IGNORE_BKEY,
			    ARBEL_CMD_MAD_IFC);
	if (!err)
		memcpy(out_mad, out->buf, ARBEL_MAD_SIZE);
	arbel_mailbox_free(cmd, out);
	arbel_mailbox_free(cmd, in);
	return err;
}
