/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One typed wrapper per firmware command: fw.c (the mailbox helper, the
 * HCA's bring-up and MAD_IFC), fw_icm.c (mapping memory), fw_tpt.c (MPT
 * and MTT), fw_eq.c (the event queue).
 */
#ifndef _ARBEL_FW_H
#define _ARBEL_FW_H

#include <linux/types.h>
#include <arbel/prm.h>
#include <arbel/profile.h>
#include "cmd.h"

/**
 * struct arbel_fw_info - what QUERY_FW reports
 * @major: firmware major version
 * @minor: firmware minor version
 * @subminor: firmware sub-minor version
 * @fw_pages: 4 KiB pages the firmware area needs
 * @log_max_cmds: log2 of the commands the firmware takes at once
 * @clr_int_base: clear-interrupt register, bus address (BAR0 + offset)
 * @catas_base: catastrophic-error buffer, bus address
 * @catas_size: its size in dwords
 * @eq_arm_base: EQ arm register, bus address
 * @eq_set_ci_base: EQ set-CI registers, bus address
 *
 * The register addresses are valid on the HCA's side of the bus; the
 * driver uses only their offsets in BAR0 (arbel_fw_bar0_offset()).
 */
struct arbel_fw_info {
	u16 major;
	u16 minor;
	u16 subminor;
	u16 fw_pages;
	u8 log_max_cmds;
	u64 clr_int_base;
	u64 catas_base;
	u32 catas_size;
	u64 eq_arm_base;
	u64 eq_set_ci_base;
};

/**
 * arbel_fw_bar0_offset() - a QUERY_FW register address as a BAR0 offset
 * @addr: the bus address QUERY_FW reported
 * @bar0_len: BAR0's length, a power of two
 *
 * mthca does the same: the address the firmware sees need not be the
 * host's, but the register lies inside BAR0 either way.
 *
 * Return: the offset of the register in BAR0.
 */
static inline u64 arbel_fw_bar0_offset(u64 addr, u64 bar0_len)
{
	return addr & (bar0_len - 1);
}

/**
 * struct arbel_map_chunk - a naturally aligned block of host memory
 * @va: ICM virtual address (MAP_ICM only)
 * @dma: bus address, aligned to the block size
 * @log_pages: log2 of the block size in 4 KiB pages
 */
struct arbel_map_chunk {
	u64 va;
	dma_addr_t dma;
	u8 log_pages;
};

/* fw.c */
int arbel_fw_mbox(struct arbel_cmd_transport *cmd, u16 opcode, u8 op_mod,
		  u32 in_mod, const void *in, size_t in_len, void *out,
		  size_t out_len);
int arbel_fw_query_fw(struct arbel_cmd_transport *cmd,
		      struct arbel_fw_info *fw);
int arbel_fw_enable_lam(struct arbel_cmd_transport *cmd);
int arbel_fw_run_fw(struct arbel_cmd_transport *cmd);
int arbel_fw_query_dev_lim(struct arbel_cmd_transport *cmd,
			   struct arbel_dev_lim *lim);
int arbel_fw_query_adapter(struct arbel_cmd_transport *cmd, char *board_id,
			   size_t len, u8 *inta_pin);
int arbel_fw_init_hca(struct arbel_cmd_transport *cmd,
		      const struct arbel_icm_layout *layout);
int arbel_fw_close_hca(struct arbel_cmd_transport *cmd);
int arbel_fw_init_ib(struct arbel_cmd_transport *cmd, u8 port,
		     const struct arbel_dev_lim *lim);
int arbel_fw_close_ib(struct arbel_cmd_transport *cmd, u8 port);
int arbel_fw_set_ib(struct arbel_cmd_transport *cmd, u8 port, u32 cap_mask,
		    bool reset_qkey_viol);
int arbel_fw_mad_ifc(struct arbel_cmd_transport *cmd, u8 port,
		     const void *in_mad, void *out_mad);

/* fw_icm.c */
int arbel_fw_map(struct arbel_cmd_transport *cmd, u16 opcode,
		 const struct arbel_map_chunk *chunks, int n);
int arbel_fw_unmap_fa(struct arbel_cmd_transport *cmd);
int arbel_fw_set_icm_size(struct arbel_cmd_transport *cmd, u64 icm_size,
			  u64 *aux_pages);
int arbel_fw_unmap_icm_aux(struct arbel_cmd_transport *cmd);
int arbel_fw_unmap_icm(struct arbel_cmd_transport *cmd, u64 va, u32 pages);

/* fw_tpt.c */
int arbel_fw_sw2hw_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       const __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_fw_hw2sw_mpt(struct arbel_cmd_transport *cmd, u32 slot);
int arbel_fw_query_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_fw_write_mtt(struct arbel_cmd_transport *cmd,
		       struct arbel_mailbox *mbox, u64 icm_va, u32 n);
int arbel_fw_sync_tpt(struct arbel_cmd_transport *cmd);

/* fw_eq.c */
struct arbel_eqc;
int arbel_fw_sw2hw_eq(struct arbel_cmd_transport *cmd, u32 eqn,
		      const struct arbel_eqc *eqc);
int arbel_fw_hw2sw_eq(struct arbel_cmd_transport *cmd, u32 eqn);
int arbel_fw_map_eq(struct arbel_cmd_transport *cmd, u32 eqn, u64 mask,
		    bool unmap);

/* fw_mcg.c */
int arbel_fw_read_mgm(struct arbel_cmd_transport *cmd, u32 index, void *mgm);
int arbel_fw_write_mgm(struct arbel_cmd_transport *cmd, u32 index,
		       const void *mgm);
int arbel_fw_mgid_hash(struct arbel_cmd_transport *cmd, const u8 *gid,
		       u32 *hash);

/* fw_q.c */
int arbel_fw_sw2hw_cq(struct arbel_cmd_transport *cmd, u32 cqn, const u8 *ctx);
int arbel_fw_hw2sw_cq(struct arbel_cmd_transport *cmd, u32 cqn);
int arbel_fw_resize_cq(struct arbel_cmd_transport *cmd, u32 cqn, u32 lkey,
		       u8 log_size);
int arbel_fw_sw2hw_srq(struct arbel_cmd_transport *cmd, u32 srqn,
		       const u8 *ctx);
int arbel_fw_hw2sw_srq(struct arbel_cmd_transport *cmd, u32 srqn);
int arbel_fw_query_srq(struct arbel_cmd_transport *cmd, u32 srqn, u8 *ctx);
int arbel_fw_arm_srq(struct arbel_cmd_transport *cmd, u32 srqn, u32 limit);
int arbel_fw_qp_modify(struct arbel_cmd_transport *cmd, u16 opcode, u32 qpn,
		       u32 in_mod_flags, const u8 *mbox);
int arbel_fw_query_qp(struct arbel_cmd_transport *cmd, u32 qpn, u8 *mbox);
int arbel_fw_conf_special_qp(struct arbel_cmd_transport *cmd, u8 type,
			     u32 base);
int arbel_fw_map_icm_page(struct arbel_cmd_transport *cmd, u64 va,
			  dma_addr_t dma);

#endif /* _ARBEL_FW_H */
