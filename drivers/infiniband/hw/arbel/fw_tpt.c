// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firmware commands of the translation and protection tables: MPT
 * entries (SW2HW_MPT, HW2SW_MPT, QUERY_MPT), MTT entries (WRITE_MTT) and
 * the HCA's cache of both (SYNC_TPT).
 */

#include <linux/bug.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "fw.h"

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
	return arbel_fw_mbox(cmd, ARBEL_CMD_SW2HW_MPT, 0, slot, entry,
			     ARBEL_MPT_ENTRY_SIZE, NULL, 0);
}

/**
 * arbel_fw_hw2sw_mpt() - HW2SW_MPT: take an MPT entry back from the HCA
 * @cmd: transport
 * @slot: MPT table index
 *
 * Without an outbox (opcode modifier 1): the entry is not wanted back.
 *
 * Context: process.
 * Return: 0 or a negative errno (-EBUSY: windows are still bound).
 */
int arbel_fw_hw2sw_mpt(struct arbel_cmd_transport *cmd, u32 slot)
{
	return arbel_cmd_exec(cmd, 0, NULL, slot, ARBEL_HW2SW_MPT_NO_ENTRY,
			      ARBEL_CMD_HW2SW_MPT);
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
	return arbel_fw_mbox(cmd, ARBEL_CMD_QUERY_MPT, 0, slot, NULL, 0,
			     entry, ARBEL_MPT_ENTRY_SIZE);
}

/**
 * arbel_fw_write_mtt() - WRITE_MTT: write translation entries into ICM
 * @cmd: transport
 * @mbox: a mailbox whose entries from qword 2 on the caller has filled
 *	  (filled in place: up to 510 entries are not copied again)
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
 * arbel_fw_sync_tpt() - SYNC_TPT: the HCA forgets the entries it cached
 * @cmd: transport
 *
 * After it, the HCA reads every MPT and MTT entry from ICM again: what
 * the CPU wrote there (a fast-registration region's invalidation) is
 * what it sees (mthca's FMR unmap issued it before memory was reused).
 *
 * Context: process; sleeps.
 * Return: 0 or a negative errno.
 */
int arbel_fw_sync_tpt(struct arbel_cmd_transport *cmd)
{
	return arbel_cmd_exec(cmd, 0, NULL, 0, 0, ARBEL_CMD_SYNC_TPT);
}
