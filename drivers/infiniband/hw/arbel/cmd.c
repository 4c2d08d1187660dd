// SPDX-License-Identifier: GPL-2.0-only
/*
 * HCR command transport: post a command, wait for it, status to errno.
 *
 * Polling mode (bring-up before the event queue exists, teardown after it
 * is gone, and the fallback when interrupts do not work): one command at a
 * time, cmd->lock held from the check that the HCR is free until the
 * status has been read.
 *
 * Event mode (cmd_event.c): the command is posted with the e bit and a
 * slot's token under cmd->lock, then the caller drops the lock and sleeps
 * until the event queue hands its completion over.
 *
 * In both modes a command that does not complete within cmd->timeout_ms
 * marks the device failed: the firmware may still be working on it, so
 * the HCR is never written again and every later command fails at once
 * with -EIO (enum arbel_state).  Until the HCA is reset (arbel_cmd_gone()),
 * a mailbox freed meanwhile is parked (cmd_mbox.c).
 */

#include <linux/bitfield.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/ktime.h>
#include <kunit/visibility.h>

#include <arbel/hcr.h>
#include <arbel/prm.h>
#include <arbel/status.h>
#include "cmd_priv.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#define ARBEL_CMD_POLL_US	10

/**
 * arbel_cmd_init() - set up the command transport of one HCA
 * @cmd: zeroed transport state
 * @dev: the PCI function's device
 * @hcr: the mapped HCR
 * @timeout_ms: how long one command may take, 1 to
 *	%ARBEL_CMD_TIMEOUT_MAX_MS
 *
 * Context: process.
 * Return: 0; -EINVAL for a @timeout_ms out of range (0 would wait
 * forever), with nothing set up; or -ENOMEM.
 */
int arbel_cmd_init(struct arbel_cmd_transport *cmd, struct device *dev,
		   void __iomem *hcr, unsigned int timeout_ms)
{
	int err;

	if (!arbel_cmd_timeout_ok(timeout_ms))
		return -EINVAL;
	cmd->dev = dev;
	cmd->hcr = hcr;
	cmd->timeout_ms = timeout_ms;
	mutex_init(&cmd->lock);
	spin_lock_init(&cmd->ctx_lock);
	sema_init(&cmd->event_sem, 1);	/* polling mode: see use_events */
	err = arbel_mailbox_pool_init(cmd);
	if (err)
		mutex_destroy(&cmd->lock);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_init);

/**
 * arbel_cmd_cleanup() - undo arbel_cmd_init() and arbel_cmd_debugfs_init()
 * @cmd: transport state
 *
 * Context: process; every mailbox must have been freed (see
 * arbel_mailbox_pool_destroy() for the parked ones).
 */
void arbel_cmd_cleanup(struct arbel_cmd_transport *cmd)
{
	debugfs_remove_recursive(cmd->debugfs);
	cmd->debugfs = NULL;
	arbel_mailbox_pool_destroy(cmd);
	mutex_destroy(&cmd->lock);
}

/*
 * Wait for the go bit to clear.  Return: 0; -ETIMEDOUT; -ENODEV as soon
 * as the HCR reads all-ones (a device gone does not clear it ever).
 */
static int arbel_hcr_wait_go(struct arbel_cmd_transport *cmd, u32 *ctrl)
{
	int err;

	/* The usual case, the go bit already clear, reads no clock. */
	*ctrl = arbel_hcr_ctrl(cmd);
	if (!(*ctrl & ARBEL_HCR_GO))
		return 0;
	err = read_poll_timeout(arbel_hcr_ctrl, *ctrl,
				!(*ctrl & ARBEL_HCR_GO) || arbel_hcr_gone(*ctrl),
				ARBEL_CMD_POLL_US,
				cmd->timeout_ms * USEC_PER_MSEC, false, cmd);
	if (!err && arbel_hcr_gone(*ctrl))
		err = -ENODEV;
	return err;
}

/*
 * Write the HCR; called with cmd->lock held and the HCR free.  The HCR is
 * in BAR 0, a memory BAR, so raw stores of big-endian values do: the one
 * barrier that matters, before the go bit, is written here.
 * iowrite32be() would cost a call per store, and on weakly ordered CPUs
 * a barrier per store as well.
 */
static void arbel_hcr_write(struct arbel_cmd_transport *cmd,
			    const struct arbel_hcr_cmd *hc)
{
	u32 hcr[ARBEL_HCR_DWORDS];
	int i;

	arbel_hcr_pack(hc, hcr);
	for (i = 0; i < ARBEL_HCR_CTRL; i++)
		__raw_writel((__force u32)cpu_to_be32(hcr[i]),
			     cmd->hcr + i * sizeof(u32));
	/* The mailbox and the parameters reach the HCA before the go bit. */
	wmb();
	__raw_writel((__force u32)cpu_to_be32(hcr[ARBEL_HCR_CTRL]),
		     cmd->hcr + ARBEL_HCR_CTRL * sizeof(u32));
}

/*
 * Alive -> failed, with cmd->lock held; the owner's fail_work is
 * scheduled.  Return: the state before.
 */
static enum arbel_state arbel_cmd_fail_locked(struct arbel_cmd_transport *cmd)
{
	enum arbel_state was = cmd->state;

	lockdep_assert_held(&cmd->lock);
	if (was == ARBEL_ALIVE) {
		arbel_cmd_set_state(cmd, ARBEL_FAILED);
		if (cmd->fail_work)
			schedule_work(cmd->fail_work);
	}
	return was;
}

/* A command timed out; called with cmd->lock held. */
static int arbel_cmd_timed_out(struct arbel_cmd_transport *cmd, u16 opcode)
{
	arbel_cmd_fail_locked(cmd);
	dev_err(cmd->dev,
		"firmware command %s timed out after %u ms (%s mode); device marked failed\n",
		arbel_opcode_name(opcode), cmd->timeout_ms,
		cmd->use_events ? "event" : "polling");
	return -ETIMEDOUT;
}

/*
 * The HCR reads all-ones: the device is gone from the bus (surprise
 * removal); called with cmd->lock held.  Failed at once rather than after
 * the timeout: nothing will ever answer.
 */
static int arbel_cmd_left_bus(struct arbel_cmd_transport *cmd, u16 opcode)
{
	if (arbel_cmd_fail_locked(cmd) == ARBEL_ALIVE)
		dev_err(cmd->dev,
			"firmware command %s: the HCR reads all-ones, the device is gone from the bus; device marked failed\n",
			arbel_opcode_name(opcode));
	return -ENODEV;
}

/* A wait for the go bit ended in @err; called with cmd->lock held. */
static int arbel_cmd_wait_failed(struct arbel_cmd_transport *cmd, u16 opcode,
				 int err)
{
	if (err == -ENODEV)
		return arbel_cmd_left_bus(cmd, opcode);
	return arbel_cmd_timed_out(cmd, opcode);
}

/*
 * Write a command into the free HCR; called with cmd->lock held.
 * Return: 0, -EIO on a failed device, -ETIMEDOUT if the HCR never became
 * free, or -ENODEV if the device is gone from the bus.
 */
static int arbel_cmd_post(struct arbel_cmd_transport *cmd,
			  const struct arbel_hcr_cmd *hc)
{
	u32 ctrl;
	int err;

	if (cmd->state != ARBEL_ALIVE)
		return -EIO;
	err = arbel_hcr_wait_go(cmd, &ctrl);
	if (err)
		return arbel_cmd_wait_failed(cmd, hc->opcode, err);
	arbel_hcr_write(cmd, hc);
	return 0;
}

/*
 * Polling mode: wait for the posted command's go bit, read its status and
 * immediate output; called with cmd->lock held.
 */
static int arbel_cmd_poll(struct arbel_cmd_transport *cmd, u16 opcode,
			  u8 *status, u64 *out_param)
{
	u32 ctrl;
	int err;

	err = arbel_hcr_wait_go(cmd, &ctrl);
	if (err)
		return arbel_cmd_wait_failed(cmd, opcode, err);
	cmd->n_polled++;
	*status = FIELD_GET(ARBEL_HCR_STATUS, ctrl);
	if (out_param)
		*out_param = (u64)ioread32be(cmd->hcr + ARBEL_HCR_OUT_PARAM_H *
					     sizeof(u32)) << 32 |
			     ioread32be(cmd->hcr + ARBEL_HCR_OUT_PARAM_L *
					sizeof(u32));
	return 0;
}

/*
 * A command the firmware refused: logged here, where its status is known
 * (an errno folds several statuses together).  The one refusal the PRM
 * makes a normal answer -- mem-free firmware refuses ENABLE_LAM with
 * LAM_NOT_PRE -- is only a debug message.
 */
static void arbel_cmd_log_status(struct arbel_cmd_transport *cmd,
				 const struct arbel_hcr_cmd *hc, u8 status,
				 int err)
{
	const char *op = arbel_opcode_name(hc->opcode);

	if (hc->opcode == ARBEL_CMD_ENABLE_LAM &&
	    status == ARBEL_STAT_LAM_NOT_PRE)
		dev_dbg(cmd->dev, "%s: status 0x%02x (%s): no attached memory\n",
			op, status, arbel_status_name(status));
	else if (!arbel_status_known(status))
		dev_err_ratelimited(cmd->dev, "%s (in_mod 0x%x) failed: unknown status 0x%02x, reported as %d\n",
				    op, hc->in_mod, status, err);
	else
		dev_err_ratelimited(cmd->dev, "%s (in_mod 0x%x) failed: status 0x%02x (%s), %d\n",
				    op, hc->in_mod, status,
				    arbel_status_name(status), err);
}

/*
 * Run one command (@cmd_fields: parameters, modifiers, opcode) in the
 * transport's mode and wait for it.  @fatal: a
 * lost completion marks the device failed (every command but the
 * interrupt test).  In event mode the command takes a slot and its token
 * first; the slot is freed and the command counted under one hold of
 * ctx_lock.
 */
static int arbel_cmd_run(struct arbel_cmd_transport *cmd,
			 struct arbel_hcr_cmd cmd_fields, u64 *out_param,
			 unsigned int timeout_ms, bool fatal)
{
	struct arbel_hcr_cmd *hc = &cmd_fields;
	struct arbel_cmd_context *ctx = NULL;
	bool completed = false;
	u8 status = 0;
	u64 start, ns;
	int err;

	/* Event mode: a free slot first (arbel_cmd_use_polling() waits). */
	hc->token = ARBEL_HCR_POLL_TOKEN;
	down(&cmd->event_sem);
	if (READ_ONCE(cmd->use_events)) {
		ctx = arbel_cmd_slot_get(cmd);
		hc->token = ctx->token;
		hc->event = true;
	} else {
		up(&cmd->event_sem);
	}

	mutex_lock(&cmd->lock);
	trace_arbel_cmd_start(cmd->dev, hc->opcode, hc->op_mod, hc->in_mod,
			      hc->token, 0, 0, 0, hc->event);
	start = ktime_get_ns();
	err = arbel_cmd_post(cmd, hc);
	if (!err && !ctx)
		err = arbel_cmd_poll(cmd, hc->opcode, &status, out_param);
	mutex_unlock(&cmd->lock);

	if (!err && ctx) {
		err = arbel_cmd_slot_wait(cmd, ctx, timeout_ms, &status,
					  out_param);
		completed = !err;
		if ((err == -ETIMEDOUT && fatal) || err == -ENODEV) {
			mutex_lock(&cmd->lock);
			err = arbel_cmd_wait_failed(cmd, hc->opcode, err);
			mutex_unlock(&cmd->lock);
		}
	}
	/* gone: the other waiters get -EIO now, not one poll each later */
	if (err == -ENODEV)
		arbel_cmd_slot_abort(cmd);
	if (!err && status)
		err = arbel_status_to_errno(status);
	ns = ktime_get_ns() - start;

	spin_lock_irq(&cmd->ctx_lock);
	if (ctx)
		arbel_cmd_slot_put_locked(cmd, ctx, completed);
	arbel_cmd_account(cmd, hc->opcode, status, err, ns);
	spin_unlock_irq(&cmd->ctx_lock);
	if (ctx)
		up(&cmd->event_sem);
	trace_arbel_cmd_done(cmd->dev, hc->opcode, hc->op_mod, hc->in_mod,
			     hc->token, status, err, ns, hc->event);

	if (status)
		arbel_cmd_log_status(cmd, hc, status, err);
	return err;
}

/**
 * arbel_cmd_exec() - run one firmware command and wait for it
 * @cmd: transport state
 * @in_param: immediate input or input mailbox bus address
 * @out_param: if not NULL, receives the immediate output; if NULL, the
 *	       output parameter is 0 (use arbel_cmd_box() for an outbox)
 * @in_mod: input modifier
 * @op_mod: opcode modifier
 * @opcode: the command
 *
 * A firmware status other than OK is logged with the opcode's name and
 * turned into an errno (arbel_status_to_errno()); callers that expect a
 * particular status may look at the errno.
 *
 * Context: process; sleeps.
 * Return: 0; the errno of the firmware's status; -ETIMEDOUT when the
 * command timed out (the device is then marked failed); -EIO once the
 * device is marked failed.
 */
int arbel_cmd_exec(struct arbel_cmd_transport *cmd, u64 in_param,
		   u64 *out_param, u32 in_mod, u8 op_mod, u16 opcode)
{
	return arbel_cmd_run(cmd, (struct arbel_hcr_cmd){
				.in_param = in_param, .in_mod = in_mod,
				.opcode = opcode, .op_mod = op_mod,
			     }, out_param, cmd->timeout_ms, true);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_exec);

/**
 * arbel_cmd_box() - run one firmware command with mailboxes
 * @cmd: transport state
 * @in: input mailbox or NULL
 * @out: output mailbox or NULL
 * @in_mod: input modifier
 * @op_mod: opcode modifier
 * @opcode: the command
 *
 * Context: process; sleeps.
 * Return: as arbel_cmd_exec().
 */
int arbel_cmd_box(struct arbel_cmd_transport *cmd, struct arbel_mailbox *in,
		  struct arbel_mailbox *out, u32 in_mod, u8 op_mod, u16 opcode)
{
	return arbel_cmd_run(cmd, (struct arbel_hcr_cmd){
				.in_param = in ? in->dma : 0,
				.out_param = out ? out->dma : 0,
				.in_mod = in_mod, .opcode = opcode,
				.op_mod = op_mod,
			     }, NULL, cmd->timeout_ms, true);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_box);

/**
 * arbel_cmd_irq_test() - the interrupt test: NOP (in_mod 0x1f) in event mode
 * @cmd: transport state, in event mode
 * @timeout_ms: how long to wait for the completion
 *
 * Unlike any other command, a completion that does not arrive does not
 * fail the device: the firmware answered, the interrupt did not reach
 * the driver, and the caller falls back (INTx, then polling).
 *
 * Context: process; sleeps.
 * Return: 0; -ETIMEDOUT when no completion arrived; -EINVAL in polling
 * mode; the firmware's errno.
 */
int arbel_cmd_irq_test(struct arbel_cmd_transport *cmd,
		       unsigned int timeout_ms)
{
	if (!READ_ONCE(cmd->use_events))
		return -EINVAL;
	return arbel_cmd_run(cmd, (struct arbel_hcr_cmd){
				.in_mod = ARBEL_NOP_IN_MOD,
				.opcode = ARBEL_CMD_NOP,
			     }, NULL, timeout_ms, false);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_irq_test);

/**
 * arbel_cmd_failed() - whether the device is no longer alive
 * @cmd: transport state
 *
 * Reads the state under the lock that fails the device, so it waits for
 * a command in flight.  A failed device stays failed (the firmware may
 * still own the HCR) until the driver brings the HCA up again.
 *
 * Context: process; sleeps.
 * Return: true once the device is %ARBEL_FAILED or %ARBEL_GONE.
 */
bool arbel_cmd_failed(struct arbel_cmd_transport *cmd)
{
	bool failed;

	mutex_lock(&cmd->lock);
	failed = cmd->state != ARBEL_ALIVE;
	mutex_unlock(&cmd->lock);
	return failed;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_failed);

/**
 * arbel_cmd_fail() - fail the device: no command is posted any more
 * @cmd: transport state
 *
 * For a caller that gives up on the HCA (a refused teardown command) and
 * is about to reset it, or that leaves the reset to the owner of
 * @cmd->fail_work (scheduled here if the device was not failed yet).
 * Waits for a polled command in flight, so that once this returns nothing
 * touches the HCR; event-mode callers still waiting for a completion are
 * woken and get -EIO.
 *
 * Context: process; sleeps.
 * Return: true if the device was already failed (or gone).
 */
bool arbel_cmd_fail(struct arbel_cmd_transport *cmd)
{
	bool was;

	mutex_lock(&cmd->lock);
	was = arbel_cmd_fail_locked(cmd) != ARBEL_ALIVE;
	mutex_unlock(&cmd->lock);

	/* Event mode: nobody waits for a completion that cannot come. */
	arbel_cmd_slot_abort(cmd);
	return was;
}

/**
 * arbel_cmd_revive() - the HCA was reset for a new bring-up: alive again
 * @cmd: transport state, polling
 *
 * Called right after a reset that succeeded, before the first command of
 * a bring-up (a fresh transport is alive already): mailboxes parked by an
 * earlier failure are freed and commands are posted again.
 *
 * Context: process; sleeps.
 */
void arbel_cmd_revive(struct arbel_cmd_transport *cmd)
{
	arbel_cmd_gone(cmd);
	mutex_lock(&cmd->lock);
	arbel_cmd_set_state(cmd, ARBEL_ALIVE);
	mutex_unlock(&cmd->lock);
}

/**
 * arbel_cmd_set_fail_work() - what to schedule when the device fails
 * @cmd: transport state
 * @work: scheduled when a command times out or arbel_cmd_fail()
 *	  first marks the device failed; NULL: nothing (the caller handles
 *	  failures itself, e.g. during bring-up and teardown)
 *
 * Waits for a command in flight.  After setting NULL the caller cancels
 * @work if it may still run.
 *
 * Context: process; sleeps.
 */
void arbel_cmd_set_fail_work(struct arbel_cmd_transport *cmd,
			     struct work_struct *work)
{
	mutex_lock(&cmd->lock);
	cmd->fail_work = work;
	mutex_unlock(&cmd->lock);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_set_fail_work);
