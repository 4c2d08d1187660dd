// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands that hand host memory to the HCA and take it back:
 * MAP_FA, MAP_ICM_AUX, MAP_ICM and their undoing, SET_ICM_SIZE.
 */

#include <linux/bitfield.h>
#include <linux/err.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "fw.h"

/**
 * arbel_fw_map() - MAP_FA, MAP_ICM_AUX or MAP_ICM of memory blocks
 * @cmd: transport
 * @opcode: %ARBEL_CMD_MAP_FA, %ARBEL_CMD_MAP_ICM_AUX or %ARBEL_CMD_MAP_ICM
 * @chunks: the blocks, each aligned to its own size
 * @n: number of blocks
 *
 * Sends as many commands as needed, 256 blocks each, from one mailbox
 * filled in place.  On failure the blocks mapped by earlier commands stay
 * mapped: the caller undoes the whole set (UNMAP_FA, UNMAP_ICM_AUX, or
 * UNMAP_ICM per block).
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_map(struct arbel_cmd_transport *cmd, u16 opcode,
		 const struct arbel_map_chunk *chunks, int n)
{
	struct arbel_mailbox *in;
	int i = 0, k, err = 0;
	__be64 *e;

	in = arbel_mailbox_alloc(cmd);
	if (IS_ERR(in))
		return PTR_ERR(in);
	e = in->buf;

	while (i < n && !err) {
		memset(in->buf, 0, ARBEL_MAILBOX_SIZE);
		for (k = 0; k < ARBEL_MAP_MAX_ENTRIES && i < n; k++, i++) {
			u64 pa = (chunks[i].dma & ARBEL_MAP_ADDR) |
				 FIELD_PREP(ARBEL_MAP_LOG_SIZE,
					    chunks[i].log_pages);

			e[2 * k] = cpu_to_be64(opcode == ARBEL_CMD_MAP_ICM ?
					       chunks[i].va : 0);
			e[2 * k + 1] = cpu_to_be64(pa);
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
