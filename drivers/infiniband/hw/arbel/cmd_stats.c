// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the commands did, per opcode, and the transport's debugfs
 * directory (arbel/<bdf>/commands/).
 */

#include <linux/debugfs.h>
#include <linux/math64.h>
#include <linux/seq_file.h>

#include <arbel/prm.h>
#include <arbel/status.h>
#include "cmd_priv.h"

/*
 * The opcodes the driver issues, each with a debugfs directory.  Every
 * command looks its opcode up here, front to back: the registration
 * path's come first.
 */
static const u16 arbel_cmd_tracked[ARBEL_CMD_NR_TRACKED] = {
	ARBEL_CMD_SW2HW_MPT, ARBEL_CMD_HW2SW_MPT, ARBEL_CMD_WRITE_MTT,
	ARBEL_CMD_MAP_ICM, ARBEL_CMD_UNMAP_ICM, ARBEL_CMD_QUERY_MPT,
	ARBEL_CMD_QUERY_FW, ARBEL_CMD_ENABLE_LAM, ARBEL_CMD_MAP_FA,
	ARBEL_CMD_UNMAP_FA, ARBEL_CMD_RUN_FW, ARBEL_CMD_QUERY_DEV_LIM,
	ARBEL_CMD_QUERY_ADAPTER, ARBEL_CMD_SET_ICM_SIZE,
	ARBEL_CMD_MAP_ICM_AUX, ARBEL_CMD_UNMAP_ICM_AUX, ARBEL_CMD_INIT_HCA,
	ARBEL_CMD_CLOSE_HCA, ARBEL_CMD_READ_MTT, ARBEL_CMD_SYNC_TPT,
	ARBEL_CMD_NOP, ARBEL_CMD_MAD_IFC, ARBEL_CMD_SW2HW_EQ,
	ARBEL_CMD_HW2SW_EQ, ARBEL_CMD_MAP_EQ, ARBEL_CMD_INIT_IB,
	ARBEL_CMD_CLOSE_IB, ARBEL_CMD_SW2HW_CQ, ARBEL_CMD_HW2SW_CQ,
	ARBEL_CMD_RESIZE_CQ, ARBEL_CMD_SW2HW_SRQ, ARBEL_CMD_HW2SW_SRQ,
	ARBEL_CMD_QUERY_SRQ, ARBEL_CMD_ARM_SRQ, ARBEL_CMD_RST2INIT_QPEE,
	ARBEL_CMD_INIT2INIT_QPEE, ARBEL_CMD_INIT2RTR_QPEE,
	ARBEL_CMD_RTR2RTS_QPEE, ARBEL_CMD_RTS2RTS_QPEE,
	ARBEL_CMD_SQERR2RTS_QPEE, ARBEL_CMD_2ERR_QPEE, ARBEL_CMD_RTS2SQD_QPEE,
	ARBEL_CMD_SQD2RTS_QPEE, ARBEL_CMD_SQD2SQD_QPEE, ARBEL_CMD_ERR2RST_QPEE,
	ARBEL_CMD_QUERY_QPEE, ARBEL_CMD_CONF_SPECIAL_QP,
};

static struct arbel_cmd_stats *arbel_cmd_stats(struct arbel_cmd_transport *cmd,
					       u16 opcode)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(arbel_cmd_tracked); i++)
		if (arbel_cmd_tracked[i] == opcode)
			return &cmd->stats[i];
	return NULL;
}

/**
 * arbel_cmd_account() - count a finished command in its opcode's statistics
 * @cmd: transport state, its @ctx_lock held
 * @opcode: the command
 * @status: its firmware status (0: OK, or it never reached the firmware)
 * @err: its errno
 * @ns: how long it took
 *
 * Opcodes the driver does not issue are not counted.
 *
 * Context: any, with @cmd->ctx_lock held.
 */
void arbel_cmd_account(struct arbel_cmd_transport *cmd, u16 opcode,
		       u8 status, int err, u64 ns)
{
	struct arbel_cmd_stats *st = arbel_cmd_stats(cmd, opcode);

	lockdep_assert_held(&cmd->ctx_lock);
	if (!st)
		return;
	st->n++;
	st->total_ns += ns;
	if (err) {
		st->failed++;
		st->last_failed_status = status;
		st->last_failed_errno = err;
	}
}

static int arbel_cmd_mode_show(struct seq_file *m, void *unused)
{
	struct arbel_cmd_transport *cmd = m->private;

	seq_printf(m, "%s\n", READ_ONCE(cmd->use_events) ? "event" : "polling");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arbel_cmd_mode);

static int arbel_stat_average_get(void *data, u64 *val)
{
	struct arbel_cmd_stats *st = data;
	u64 n = READ_ONCE(st->n);

	*val = n ? div64_u64(READ_ONCE(st->total_ns), n) : 0;
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(arbel_stat_average_fops, arbel_stat_average_get,
			 NULL, "%llu\n");

static int arbel_stat_errno_get(void *data, u64 *val)
{
	struct arbel_cmd_stats *st = data;

	*val = (s64)READ_ONCE(st->last_failed_errno);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(arbel_stat_errno_fops, arbel_stat_errno_get,
			 NULL, "%lld\n");

/**
 * arbel_cmd_debugfs_init() - per-opcode statistics in debugfs
 * @cmd: transport state
 * @parent: the device's debugfs directory
 *
 * Creates commands/<OPCODE>/{n,failed,average_ns,last_failed_status,
 * last_failed_errno} for every opcode the driver issues, and
 * commands/{mode,event_completed,polled,late_completions,parked_mailboxes}:
 * the transport's mode ("event" or "polling"), how many commands completed
 * each way, and how many freed mailboxes wait for the HCA's reset.
 * arbel_cmd_cleanup() removes them.
 *
 * Context: process.
 */
void arbel_cmd_debugfs_init(struct arbel_cmd_transport *cmd,
			    struct dentry *parent)
{
	struct dentry *dir;
	int i;

	cmd->debugfs = debugfs_create_dir("commands", parent);
	debugfs_create_file("mode", 0400, cmd->debugfs, cmd,
			    &arbel_cmd_mode_fops);
	debugfs_create_u64("event_completed", 0400, cmd->debugfs,
			   &cmd->n_event);
	debugfs_create_u64("polled", 0400, cmd->debugfs, &cmd->n_polled);
	debugfs_create_u32("parked_mailboxes", 0400, cmd->debugfs,
			   &cmd->n_parked);
	debugfs_create_u64("late_completions", 0400, cmd->debugfs,
			   &cmd->n_late);
	for (i = 0; i < ARRAY_SIZE(arbel_cmd_tracked); i++) {
		struct arbel_cmd_stats *st = &cmd->stats[i];

		dir = debugfs_create_dir(arbel_opcode_name(arbel_cmd_tracked[i]),
					 cmd->debugfs);
		debugfs_create_u64("n", 0400, dir, &st->n);
		debugfs_create_u64("failed", 0400, dir, &st->failed);
		debugfs_create_file_unsafe("average_ns", 0400, dir, st,
					   &arbel_stat_average_fops);
		debugfs_create_x8("last_failed_status", 0400, dir,
				  &st->last_failed_status);
		debugfs_create_file_unsafe("last_failed_errno", 0400, dir, st,
					   &arbel_stat_errno_fops);
	}
}
