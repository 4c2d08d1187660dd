/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Between the files of the command transport only: cmd.c (post, poll,
 * failure) calls the event-mode slots (cmd_event.c), the statistics
 * (cmd_stats.c) and the mailboxes (cmd_mbox.c, which also writes the
 * device's state, since it parks by it); those call nothing back.
 */
#ifndef _ARBEL_CMD_PRIV_H
#define _ARBEL_CMD_PRIV_H

#include "cmd.h"

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
