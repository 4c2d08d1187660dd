// SPDX-License-Identifier: GPL-2.0-only
/*
 * Event-mode command slots.
 *
 * Once the event queue exists (arbel_cmd_use_events()), up to
 * 2^log_max_cmds commands are outstanding.  A caller takes a slot
 * (event_sem counts the free ones), posts its command with the e bit and
 * the slot's token (cmd.c), and sleeps on the slot's completion, which the
 * event queue completes from the command-completion EQE
 * (arbel_cmd_event()).  A slot's token is its index plus a count that
 * grows with every use (mthca's scheme), so a completion that arrives
 * after its caller gave up matches no later command.
 */

#include <linux/log2.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include "cmd_priv.h"

/**
 * arbel_cmd_slot_get() - take a free event-mode slot with a fresh token
 * @cmd: transport state, in event mode, a slot counted down on event_sem
 *
 * Context: process.
 * Return: the slot; its token is never the polling token.
 */
struct arbel_cmd_context *arbel_cmd_slot_get(struct arbel_cmd_transport *cmd)
{
	struct arbel_cmd_context *ctx;

	spin_lock_irq(&cmd->ctx_lock);
	ctx = &cmd->contexts[cmd->free_head];
	cmd->free_head = ctx->next;
	ctx->token += cmd->token_mask + 1;
	if (ctx->token == ARBEL_HCR_POLL_TOKEN)
		ctx->token += cmd->token_mask + 1;
	ctx->aborted = false;
	reinit_completion(&ctx->done);
	ctx->waiting = true;
	spin_unlock_irq(&cmd->ctx_lock);
	return ctx;
}

/**
 * arbel_cmd_slot_wait() - sleep until a slot's command completes
 * @cmd: transport state
 * @ctx: the slot, its command posted
 * @timeout_ms: how long to wait
 * @status: receives the completion's firmware status
 * @out_param: if not NULL, receives the completion's immediate output
 *
 * Every %ARBEL_CMD_GONE_CHECK_MS without the completion the HCR is read:
 * a device gone from the bus never completes anything.
 *
 * Context: process; sleeps.
 * Return: 0 when the completion arrived (@status set); -ETIMEDOUT when it
 * did not; -EIO when the device failed meanwhile (arbel_cmd_slot_abort());
 * -ENODEV when the HCR reads all-ones (the device is gone).
 */
int arbel_cmd_slot_wait(struct arbel_cmd_transport *cmd,
			struct arbel_cmd_context *ctx, unsigned int timeout_ms,
			u8 *status, u64 *out_param)
{
	unsigned long left = msecs_to_jiffies(timeout_ms);
	unsigned long slice = msecs_to_jiffies(ARBEL_CMD_GONE_CHECK_MS);
	unsigned long step;

	for (;;) {
		step = min(left, slice);
		if (wait_for_completion_timeout(&ctx->done, step))
			break;
		left -= step;
		if (!left)
			return -ETIMEDOUT;
		if (arbel_hcr_gone(arbel_hcr_ctrl(cmd)))
			return -ENODEV;
	}
	if (ctx->aborted)
		return -EIO;
	*status = ctx->status;
	if (out_param)
		*out_param = ctx->out_param;
	return 0;
}

/**
 * arbel_cmd_slot_put_locked() - free a slot
 * @cmd: transport state, its @ctx_lock held
 * @ctx: from arbel_cmd_slot_get()
 * @completed: the command completed through the EQ (counted)
 *
 * Context: any, with @cmd->ctx_lock held.
 */
void arbel_cmd_slot_put_locked(struct arbel_cmd_transport *cmd,
			       struct arbel_cmd_context *ctx, bool completed)
{
	lockdep_assert_held(&cmd->ctx_lock);
	ctx->waiting = false;
	ctx->next = cmd->free_head;
	cmd->free_head = ctx - cmd->contexts;
	if (completed)
		cmd->n_event++;
}

/**
 * arbel_cmd_slot_abort() - wake every caller waiting for a completion
 * @cmd: transport state
 *
 * The device failed: no completion will come.  The callers get -EIO from
 * arbel_cmd_slot_wait().
 *
 * Context: process.
 */
void arbel_cmd_slot_abort(struct arbel_cmd_transport *cmd)
{
	struct arbel_cmd_context *ctx;
	int i;

	spin_lock_irq(&cmd->ctx_lock);
	for (i = 0; cmd->contexts && i < cmd->max_cmds; i++) {
		ctx = &cmd->contexts[i];
		if (ctx->waiting && !ctx->aborted) {
			ctx->aborted = true;
			complete(&ctx->done);
		}
	}
	spin_unlock_irq(&cmd->ctx_lock);
}

/**
 * arbel_cmd_use_events() - complete commands through the event queue
 * @cmd: transport state, polling
 * @log_max_cmds: QUERY_FW's log2 of the commands the firmware takes at
 *	once; capped at 2^8 slots
 *
 * Call once the EQ that MAP_EQ routes command completions to is armed and
 * its handler forwards them to arbel_cmd_event().  Commands in flight in
 * polling mode finish as they are (the HCR is serialised in both modes).
 *
 * Context: process; sleeps.
 * Return: 0 or -ENOMEM (polling goes on).
 */
int arbel_cmd_use_events(struct arbel_cmd_transport *cmd, u8 log_max_cmds)
{
	int i, n = 1 << min_t(u8, log_max_cmds, 8);
	struct arbel_cmd_context *ctx;

	if (cmd->use_events)
		return 0;
	ctx = kcalloc(n, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		init_completion(&ctx[i].done);
		ctx[i].token = i;
		ctx[i].next = i + 1 < n ? i + 1 : -1;
	}
	down(&cmd->event_sem);
	spin_lock_irq(&cmd->ctx_lock);
	cmd->contexts = ctx;
	cmd->max_cmds = n;
	cmd->token_mask = roundup_pow_of_two(n) - 1;
	cmd->free_head = 0;
	spin_unlock_irq(&cmd->ctx_lock);
	WRITE_ONCE(cmd->use_events, true);
	for (i = 0; i < n; i++)
		up(&cmd->event_sem);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_use_events);

/**
 * arbel_cmd_use_polling() - back to polling the go bit
 * @cmd: transport state
 *
 * Waits for every event-mode command to complete or time out, then
 * frees the slots; completions that arrive later are counted as late
 * and dropped.  Call before the EQ is destroyed.  Does nothing in
 * polling mode.
 *
 * Context: process; sleeps.
 */
void arbel_cmd_use_polling(struct arbel_cmd_transport *cmd)
{
	struct arbel_cmd_context *ctx;
	int i, n = cmd->max_cmds;

	if (!cmd->use_events)
		return;
	for (i = 0; i < n; i++)
		down(&cmd->event_sem);
	WRITE_ONCE(cmd->use_events, false);
	spin_lock_irq(&cmd->ctx_lock);
	ctx = cmd->contexts;
	cmd->contexts = NULL;
	cmd->max_cmds = 0;
	spin_unlock_irq(&cmd->ctx_lock);
	kfree(ctx);
	up(&cmd->event_sem);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_use_polling);

/**
 * arbel_cmd_event() - a command-completion EQE arrived
 * @cmd: transport state
 * @token: the EQE's token
 * @status: the EQE's firmware status
 * @out_param: the EQE's immediate output
 *
 * Wakes the caller whose command carries @token; a token no caller waits
 * for (a completion after its timeout, or a stray one) is counted in
 * debugfs (commands/late_completions) and dropped.
 *
 * Context: any (the EQ's interrupt handler).
 */
void arbel_cmd_event(struct arbel_cmd_transport *cmd, u16 token, u8 status,
		     u64 out_param)
{
	struct arbel_cmd_context *ctx;
	unsigned long flags;

	spin_lock_irqsave(&cmd->ctx_lock, flags);
	if (!cmd->contexts || (token & cmd->token_mask) >= cmd->max_cmds) {
		cmd->n_late++;
		goto out;
	}
	ctx = &cmd->contexts[token & cmd->token_mask];
	if (!ctx->waiting || ctx->token != token) {
		cmd->n_late++;
		goto out;
	}
	ctx->status = status;
	ctx->out_param = out_param;
	complete(&ctx->done);
out:
	spin_unlock_irqrestore(&cmd->ctx_lock, flags);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_event);
