// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands of the multicast group table: READ_MGM, WRITE_MGM
 * (in_mod: the entry's index, a mailbox of one entry) and MGID_HASH (the
 * GID in the inbox, the hash table index as the immediate result).
 * Operands: the PRM's command table (arbel-prm-notes), as mthca and iPXE
 * issue them.
 */

#include <linux/string.h>

#include "arbel.h"
#include "fw.h"

/**
 * arbel_fw_read_mgm() - READ_MGM: one entry of the multicast table
 * @cmd: transport
 * @index: the entry, hash table or overflow
 * @mgm: receives %ARBEL_MGM_SIZE bytes
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_read_mgm(struct arbel_cmd_transport *cmd, u32 index, void *mgm)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_READ_MGM, 0, index, NULL, 0, mgm,
			     ARBEL_MGM_SIZE);
}

/**
 * arbel_fw_write_mgm() - WRITE_MGM: write one entry of the multicast table
 * @cmd: transport
 * @index: the entry
 * @mgm: %ARBEL_MGM_SIZE bytes
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_write_mgm(struct arbel_cmd_transport *cmd, u32 index,
		       const void *mgm)
{
	return arbel_fw_mbox(cmd, ARBEL_CMD_WRITE_MGM, 0, index, mgm,
			     ARBEL_MGM_SIZE, NULL, 0);
}

/**
 * arbel_fw_mgid_hash() - MGID_HASH: where a group's chain starts
 * @cmd: transport
 * @gid: the group's GID, 16 bytes
 * @hash: receives the hash table index (the result's bits 15:0)
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_fw_mgid_hash(struct arbel_cmd_transport *cmd, const u8 *gid,
		       u32 *hash)
{
	struct arbel_mailbox *inbox;
	u64 out = 0;
	int err;

	inbox = arbel_mailbox_alloc(cmd);
	if (IS_ERR(inbox))
		return PTR_ERR(inbox);
	memcpy(inbox->buf, gid, ARBEL_GID_LEN);
	err = arbel_cmd_exec(cmd, inbox->dma, &out, 0, 0, ARBEL_CMD_MGID_HASH);
	arbel_mailbox_free(cmd, inbox);
	*hash = lower_16_bits(out);
	return err;
}
