/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the files of the command transport only: cmd.c (post, poll,
 * failure) calls the event-mode slots (cmd_event.c), the statistics
 * (cmd_stats.c) and the mailboxes (cmd_mbox.c, which also writes the
 * device's state, since it parks by it); those call nothing back.
 */
#ifndef _ARBEL_CMD_PRIV_H
#define _ARBEL_CMD_PRIV_H

#include <linux/io.h>
#include <linux/pci.h>

#include <arbel/prm.h>
#include "cmd.h"

/* How often a caller waiting for a completion looks whether the device left */
#define ARBEL_CMD_GONE_CHECK_MS	100

/* The HCR's control word. */
static inline u32 arbel_hcr_ctrl(struct arbel_cmd_transport *cmd)
{
	return ioread32be(cmd->hcr + ARBEL_HCR_CTRL * sizeof(u32));
}

/*
 * A function that has left the bus (a pulled card, a dead link) reads
 * all-ones, which no control word is: its bits 21:16 are reserved.
 */
static inline bool arbel_hcr_gone(u32 ctrl)
{
	return PCI_POSSIBLE_ERROR(ctrl);
}

/* cmd_event.c */
struct arbel_cmd_context *arbel_cmd_slot_get(struct arbel_cmd_transport *cmd);
int arbel_cmd_slot_wait(struct arbel_cmd_transport *cmd,
			struct arbel_cmd_context *ctx, unsigned int timeout_ms,
			u8 *status, u64 *out_param);
void arbel_cmd_slot_put_locked(struct arbel_cmd_transport *cmd,
			       struct arbel_cmd_context *ctx, bool completed);
void arbel_cmd_slot_abort(struct arbel_cmd_transport *cmd);

/* cmd_stats.c */
void arbel_cmd_account(struct arbel_cmd_transport *cmd, u16 opcode,
		       u8 status, int err, u64 ns);

/* cmd_mbox.c */
int arbel_mailbox_pool_init(struct arbel_cmd_transport *cmd);
void arbel_mailbox_pool_destroy(struct arbel_cmd_transport *cmd);
void arbel_cmd_set_state(struct arbel_cmd_transport *cmd,
			 enum arbel_state state);

#endif /* _ARBEL_CMD_PRIV_H */
