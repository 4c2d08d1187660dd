/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One typed wrapper per firmware command.
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
 */
struct arbel_fw_info {
	u16 major;
	u16 minor;
	u16 subminor;
	u16 fw_pages;
	u8 log_max_cmds;
};

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

int arbel_fw_query_fw(struct arbel_cmd_transport *cmd,
		      struct arbel_fw_info *fw);
int arbel_fw_enable_lam(struct arbel_cmd_transport *cmd);
int arbel_fw_map(struct arbel_cmd_transport *cmd, u16 opcode,
		 const struct arbel_map_chunk *chunks, int n);
int arbel_fw_unmap_fa(struct arbel_cmd_transport *cmd);
int arbel_fw_run_fw(struct arbel_cmd_transport *cmd);
int arbel_fw_query_dev_lim(struct arbel_cmd_transport *cmd,
			   struct arbel_dev_lim *lim);
int arbel_fw_query_adapter(struct arbel_cmd_transport *cmd, char *board_id,
			   size_t len);
int arbel_fw_set_icm_size(struct arbel_cmd_transport *cmd, u64 icm_size,
			  u64 *aux_pages);
int arbel_fw_unmap_icm_aux(struct arbel_cmd_transport *cmd);
int arbel_fw_unmap_icm(struct arbel_cmd_transport *cmd, u64 va, u32 pages);
int arbel_fw_init_hca(struct arbel_cmd_transport *cmd,
		      const struct arbel_icm_layout *layout);
int arbel_fw_close_hca(struct arbel_cmd_transport *cmd);
int arbel_fw_sw2hw_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       const __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_fw_hw2sw_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_fw_query_mpt(struct arbel_cmd_transport *cmd, u32 slot,
		       __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_fw_write_mtt(struct arbel_cmd_transport *cmd,
		       struct arbel_mailbox *mbox, u64 icm_va, u32 n);
int arbel_fw_mad_ifc(struct arbel_cmd_transport *cmd, u8 port,
		     const void *in_mad, void *out_mad);

#endif /* _ARBEL_FW_H */
