// SPDX-License-Identifier: GPL-2.0-only
/*
 * HCR command transport.
 *
 * Polling mode (bring-up before the event queue exists, teardown after it
 * is gone, and the fallback when interrupts do not work): one command at a
 * time, cmd->lock held from the check that the HCR is free until the
 * status has been read.
 *
 * Event mode (arbel_cmd_use_events()): up to 2^log_max_cmds commands are
 * outstanding.  A caller takes a slot (event_sem counts the free ones),
 * posts its command with the e bit and the slot's token under cmd->lock,
 * drops the lock and sleeps on the slot's completion, which the event
 * queue completes from the command-completion EQE (arbel_cmd_event()).
 *
 * In both modes a command that does not complete within cmd->timeout_ms
 * marks the device failed: the firmware may still be working on it, so
 * the HCR is never written again and every later command fails at once
 * with -EIO.  Until the HCA is reset (arbel_cmd_hca_reset()), a mailbox
 * freed meanwhile is parked, not returned to the pool: the firmware may
 * still write an output mailbox of a command it is working on.
 */

#include <linux/bitfield.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/iopoll.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include <arbel/hcr.h>
#include <arbel/prm.h>
#include <arbel/status.h>
#include "cmd.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#define ARBEL_CMD_POLL_US	10

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
	ARBEL_CMD_HW2SW_EQ, ARBEL_CMD_MAP_EQ,
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
	if (!timeout_ms || timeout_ms > ARBEL_CMD_TIMEOUT_MAX_MS)
		return -EINVAL;
	cmd->dev = dev;
	cmd->hcr = hcr;
	cmd->timeout_ms = timeout_ms;
	mutex_init(&cmd->lock);
	spin_lock_init(&cmd->ctx_lock);
	spin_lock_init(&cmd->park_lock);
	INIT_LIST_HEAD(&cmd->parked);
	sema_init(&cmd->event_sem, 1);	/* polling mode: see use_events */
	cmd->pool = dma_pool_create("arbel_cmd", dev, ARBEL_MAILBOX_SIZE,
				    ARBEL_MAILBOX_ALIGN, 0);
	if (!cmd->pool) {
		mutex_destroy(&cmd->lock);
		return -ENOMEM;
	}
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_init);

/**
 * arbel_cmd_cleanup() - undo arbel_cmd_init() and arbel_cmd_debugfs_init()
 * @cmd: transport state
 *
 * Parked mailboxes are freed if the HCA was reset since the device failed
 * (arbel_cmd_hca_reset()); otherwise the firmware may still write them,
 * and they and the pool are leaked, with a warning, rather than freed.
 *
 * Context: process; every mailbox must have been freed.
 */
void arbel_cmd_cleanup(struct arbel_cmd_transport *cmd)
{
	debugfs_remove_recursive(cmd->debugfs);
	cmd->debugfs = NULL;
	if (WARN(cmd->parking && cmd->n_parked,
		 "arbel: leaking %u mailboxes the unreset HCA may still write\n",
		 cmd->n_parked))
		return;
	dma_pool_destroy(cmd->pool);
	mutex_destroy(&cmd->lock);
}

/* Give a mailbox back to the pool. */
static void arbel_mailbox_release(struct arbel_cmd_transport *cmd,
				  struct arbel_mailbox *mbox)
{
	dma_pool_free(cmd->pool, mbox->buf, mbox->dma);
	kfree(mbox);
}

/* The device failed: from now on freed mailboxes are parked. */
static void arbel_cmd_start_parking(struct arbel_cmd_transport *cmd)
{
	spin_lock(&cmd->park_lock);
	cmd->parking = true;
	spin_unlock(&cmd->park_lock);
}

/**
 * arbel_cmd_hca_reset() - the HCA was reset: free the parked mailboxes
 * @cmd: transport state
 *
 * Called by the owner of the HCA once a reset (or turning bus mastering
 * off) guarantees that the firmware writes no mailbox any more.  Later
 * frees go back to the pool at once; the device stays failed.
 *
 * Context: process.
 */
void arbel_cmd_hca_reset(struct arbel_cmd_transport *cmd)
{
	struct arbel_mailbox *mbox, *next;
	LIST_HEAD(list);

	spin_lock(&cmd->park_lock);
	cmd->parking = false;
	list_splice_init(&cmd->parked, &list);
	cmd->n_parked = 0;
	spin_unlock(&cmd->park_lock);
	list_for_each_entry_safe(mbox, next, &list, parked)
		arbel_mailbox_release(cmd, mbox);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_hca_reset);

/**
 * arbel_mailbox_alloc() - a zeroed 4 KiB, 4 KiB-aligned mailbox
 * @cmd: transport state
 *
 * Context: process.
 * Return: the mailbox or ERR_PTR(-ENOMEM).
 */
struct arbel_mailbox *arbel_mailbox_alloc(struct arbel_cmd_transport *cmd)
{
	struct arbel_mailbox *mbox;

	mbox = kmalloc(sizeof(*mbox), GFP_KERNEL);
	if (!mbox)
		return ERR_PTR(-ENOMEM);
	mbox->buf = dma_pool_zalloc(cmd->pool, GFP_KERNEL, &mbox->dma);
	if (!mbox->buf) {
		kfree(mbox);
		return ERR_PTR(-ENOMEM);
	}
	return mbox;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mailbox_alloc);

/**
 * arbel_mailbox_free() - return a mailbox
 * @cmd: transport state
 * @mbox: from arbel_mailbox_alloc(); NULL and error pointers are ignored
 *
 * While the device is failed and the HCA not yet reset, the mailbox is
 * parked instead (see arbel_cmd_hca_reset()).
 *
 * Context: process.
 */
void arbel_mailbox_free(struct arbel_cmd_transport *cmd,
			struct arbel_mailbox *mbox)
{
	if (IS_ERR_OR_NULL(mbox))
		return;
	spin_lock(&cmd->park_lock);
	if (cmd->parking) {
		list_add_tail(&mbox->parked, &cmd->parked);
		cmd->n_parked++;
		mbox = NULL;
	}
	spin_unlock(&cmd->park_lock);
	if (mbox)
		arbel_mailbox_release(cmd, mbox);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mailbox_free);

static u32 arbel_hcr_ctrl(struct arbel_cmd_transport *cmd)
{
	return ioread32be(cmd->hcr + ARBEL_HCR_CTRL * sizeof(u32));
}

static int arbel_hcr_wait_go(struct arbel_cmd_transport *cmd, u32 *ctrl)
{
	/* The usual case, the go bit already clear, reads no clock. */
	*ctrl = arbel_hcr_ctrl(cmd);
	if (!(*ctrl & ARBEL_HCR_GO))
		return 0;
	return read_poll_timeout(arbel_hcr_ctrl, *ctrl,
				 !(*ctrl & ARBEL_HCR_GO), ARBEL_CMD_POLL_US,
				 cmd->timeout_ms * USEC_PER_MSEC, false, cmd);
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

/* A command timed out; called with cmd->lock held. */
static int arbel_cmd_timed_out(struct arbel_cmd_transport *cmd, u16 opcode)
{
	if (!cmd->failed)
		arbel_cmd_start_parking(cmd);
	cmd->failed = true;
	if (cmd->fail_work)
		schedule_work(cmd->fail_work);
	dev_err(cmd->dev,
		"firmware command %s timed out after %u ms (%s mode); device marked failed\n",
		arbel_opcode_name(opcode), cmd->timeout_ms,
		cmd->use_events ? "event" : "polling");
	return -ETIMEDOUT;
}

/* Post one command and poll for it; called with cmd->lock held. */
static int arbel_cmd_post(struct arbel_cmd_transport *cmd,
			  const struct arbel_hcr_cmd *hc, u64 *out_param,
			  u8 *status)
{
	u32 ctrl;

	*status = 0;
	if (cmd->failed)
		return -EIO;

	if (arbel_hcr_wait_go(cmd, &ctrl))
		return arbel_cmd_timed_out(cmd, hc->opcode);
	arbel_hcr_write(cmd, hc);
	if (arbel_hcr_wait_go(cmd, &ctrl))
		return arbel_cmd_timed_out(cmd, hc->opcode);

	cmd->n_polled++;
	*status = FIELD_GET(ARBEL_HCR_STATUS, ctrl);
	if (out_param)
		*out_param = (u64)ioread32be(cmd->hcr + ARBEL_HCR_OUT_PARAM_H *
					     sizeof(u32)) << 32 |
			     ioread32be(cmd->hcr + ARBEL_HCR_OUT_PARAM_L *
					sizeof(u32));
	return *status ? arbel_status_to_errno(*status) : 0;
}

static struct arbel_cmd_context *arbel_ctx_get(struct arbel_cmd_transport *cmd)
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

/* Free an event-mode slot; called with cmd->ctx_lock held. */
static void arbel_ctx_put_locked(struct arbel_cmd_transport *cmd,
				 struct arbel_cmd_context *ctx)
{
	lockdep_assert_held(&cmd->ctx_lock);
	ctx->waiting = false;
	ctx->next = cmd->free_head;
	cmd->free_head = ctx - cmd->contexts;
}

/* Count a finished command in its opcode's statistics. */
static void arbel_cmd_account(struct arbel_cmd_transport *cmd, u16 opcode,
			      u8 status, int err, u64 ns)
{
	struct arbel_cmd_stats *st = arbel_cmd_stats(cmd, opcode);

	lockdep_assert_held(&cmd->ctx_lock);
	if (!st)
		return;
	st->n++;
	st->total_ns += ns;
	st->last_status = status;
	if (err) {
		st->failed++;
		st->last_failed_status = status;
		st->last_failed_errno = err;
	}
}

/*
 * Post one command with the e bit and sleep until its completion EQE.
 * @fatal: a lost completion marks the device failed (every command but
 * the interrupt test).  Called with a slot counted down on event_sem.
 * The slot is freed and the command counted under one hold of ctx_lock,
 * without taking cmd->lock a second time; @ns receives its duration.
 */
static int arbel_cmd_post_event(struct arbel_cmd_transport *cmd,
				struct arbel_hcr_cmd *hc, u64 *out_param,
				u8 *status, unsigned int timeout_ms, bool fatal,
				u64 *ns)
{
	struct arbel_cmd_context *ctx = arbel_ctx_get(cmd);
	u64 start = ktime_get_ns();
	u32 ctrl;
	int err;

	*status = 0;
	hc->token = ctx->token;
	hc->event = true;

	mutex_lock(&cmd->lock);
	if (cmd->failed) {
		err = -EIO;
	} else if (arbel_hcr_wait_go(cmd, &ctrl)) {
		err = arbel_cmd_timed_out(cmd, hc->opcode);
	} else {
		arbel_hcr_write(cmd, hc);
		err = 0;
	}
	mutex_unlock(&cmd->lock);
	if (err)
		goto out;

	if (!wait_for_completion_timeout(&ctx->done,
					 msecs_to_jiffies(timeout_ms))) {
		mutex_lock(&cmd->lock);
		if (fatal)
			err = arbel_cmd_timed_out(cmd, hc->opcode);
		else
			err = -ETIMEDOUT;
		mutex_unlock(&cmd->lock);
		goto out;
	}
	if (ctx->aborted) {
		err = -EIO;	/* the device failed meanwhile */
		goto out;
	}
	*status = ctx->status;
	if (out_param)
		*out_param = ctx->out_param;
	err = *status ? arbel_status_to_errno(*status) : 0;
out:
	*ns = ktime_get_ns() - start;
	spin_lock_irq(&cmd->ctx_lock);
	arbel_ctx_put_locked(cmd, ctx);
	if (!err || *status)
		cmd->n_event++;
	arbel_cmd_account(cmd, hc->opcode, *status, err, *ns);
	spin_unlock_irq(&cmd->ctx_lock);
	return err;
}

static int arbel_cmd_run_timeout(struct arbel_cmd_transport *cmd,
				 struct arbel_hcr_cmd *hc, u64 *out_param,
				 unsigned int timeout_ms, bool fatal)
{
	bool event = false;
	u64 start, ns;
	u8 status;
	int err;

	/* Event mode: a free slot first (arbel_cmd_use_polling() waits). */
	down(&cmd->event_sem);
	if (READ_ONCE(cmd->use_events)) {
		event = true;
		trace_arbel_cmd_start(cmd->dev, hc->opcode, hc->op_mod,
				      hc->in_mod, hc->token, 0, 0, 0, true);
		err = arbel_cmd_post_event(cmd, hc, out_param, &status,
					   timeout_ms, fatal, &ns);
		up(&cmd->event_sem);
	} else {
		up(&cmd->event_sem);
		mutex_lock(&cmd->lock);
		trace_arbel_cmd_start(cmd->dev, hc->opcode, hc->op_mod,
				      hc->in_mod, hc->token, 0, 0, 0, false);
		start = ktime_get_ns();
		err = arbel_cmd_post(cmd, hc, out_param, &status);
		ns = ktime_get_ns() - start;
		mutex_unlock(&cmd->lock);
		spin_lock_irq(&cmd->ctx_lock);
		arbel_cmd_account(cmd, hc->opcode, status, err, ns);
		spin_unlock_irq(&cmd->ctx_lock);
	}
	trace_arbel_cmd_done(cmd->dev, hc->opcode, hc->op_mod, hc->in_mod,
			     hc->token, status, err, ns, event);

	if (status && !arbel_status_known(status))
		dev_warn(cmd->dev, "%s: unknown firmware status 0x%02x, reported as %d\n",
			 arbel_opcode_name(hc->opcode), status, err);
	else if (status)
		dev_dbg(cmd->dev, "%s (in_mod 0x%x) failed: status 0x%02x (%s), %d\n",
			arbel_opcode_name(hc->opcode), hc->in_mod, status,
			arbel_status_name(status), err);
	return err;
}

static int arbel_cmd_run(struct arbel_cmd_transport *cmd,
			 struct arbel_hcr_cmd *hc, u64 *out_param)
{
	return arbel_cmd_run_timeout(cmd, hc, out_param, cmd->timeout_ms,
				     true);
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
	struct arbel_hcr_cmd hc = {
		.in_param = in_param,
		.out_param = 0,
		.in_mod = in_mod,
		.opcode = opcode,
		.op_mod = op_mod,
		.token = ARBEL_HCR_POLL_TOKEN,
	};

	return arbel_cmd_run(cmd, &hc, out_param);
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
	struct arbel_hcr_cmd hc = {
		.in_param = in ? in->dma : 0,
		.out_param = out ? out->dma : 0,
		.in_mod = in_mod,
		.opcode = opcode,
		.op_mod = op_mod,
		.token = ARBEL_HCR_POLL_TOKEN,
	};

	return arbel_cmd_run(cmd, &hc, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_box);

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
	struct arbel_hcr_cmd hc = {
		.in_mod = ARBEL_NOP_IN_MOD,
		.opcode = ARBEL_CMD_NOP,
		.token = ARBEL_HCR_POLL_TOKEN,
	};

	if (!READ_ONCE(cmd->use_events))
		return -EINVAL;
	return arbel_cmd_run_timeout(cmd, &hc, NULL, timeout_ms, false);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_irq_test);

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

/**
 * arbel_cmd_failed() - whether a command timed out and the device failed
 * @cmd: transport state
 *
 * Reads the flag under the lock that sets it, so it waits for a command
 * in flight.  Once set it stays set: the firmware may still own the HCR.
 *
 * Context: process; sleeps.
 * Return: true once a command has timed out.
 */
bool arbel_cmd_failed(struct arbel_cmd_transport *cmd)
{
	bool failed;

	mutex_lock(&cmd->lock);
	failed = cmd->failed;
	mutex_unlock(&cmd->lock);
	return failed;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_cmd_failed);

/**
 * arbel_cmd_mark_failed() - fail the device: no command is posted any more
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
 * Return: true if the device was already marked failed.
 */
bool arbel_cmd_mark_failed(struct arbel_cmd_transport *cmd)
{
	struct arbel_cmd_context *ctx;
	bool was;
	int i;

	mutex_lock(&cmd->lock);
	was = cmd->failed;
	if (!was)
		arbel_cmd_start_parking(cmd);
	cmd->failed = true;
	if (!was && cmd->fail_work)
		schedule_work(cmd->fail_work);
	mutex_unlock(&cmd->lock);

	/* Event mode: nobody waits for a completion that cannot come. */
	spin_lock_irq(&cmd->ctx_lock);
	for (i = 0; cmd->contexts && i < cmd->max_cmds; i++) {
		ctx = &cmd->contexts[i];
		if (ctx->waiting && !ctx->aborted) {
			ctx->aborted = true;
			complete(&ctx->done);
		}
	}
	spin_unlock_irq(&cmd->ctx_lock);
	return was;
}

/**
 * arbel_cmd_set_fail_work() - what to schedule when the device fails
 * @cmd: transport state
 * @work: scheduled when a command times out or arbel_cmd_mark_failed()
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

/**
 * arbel_cmd_log_failure() - say which command failed, with its status
 * @cmd: transport state
 * @opcode: the command
 * @err: its errno
 *
 * "OPCODE failed: status 0xSS (NAME), ERRNO" when the firmware answered,
 * else "OPCODE failed: ERRNO".
 *
 * Context: process.
 */
void arbel_cmd_log_failure(struct arbel_cmd_transport *cmd, u16 opcode,
			   int err)
{
	u8 status = arbel_cmd_last_status(cmd, opcode);

	if (status)
		dev_err(cmd->dev, "%s failed: status 0x%02x (%s), %d\n",
			arbel_opcode_name(opcode), status,
			arbel_status_name(status), err);
	else
		dev_err(cmd->dev, "%s failed: %d\n", arbel_opcode_name(opcode),
			err);
}

/**
 * arbel_cmd_last_status() - firmware status of an opcode's latest command
 * @cmd: transport state
 * @opcode: the command
 *
 * For messages: errnos fold several statuses together.
 *
 * Context: process.
 * Return: the status byte; 0 if it succeeded, did not reach the firmware
 * (a timeout, a failed device) or the opcode is not tracked.
 */
u8 arbel_cmd_last_status(struct arbel_cmd_transport *cmd, u16 opcode)
{
	struct arbel_cmd_stats *st = arbel_cmd_stats(cmd, opcode);

	return st ? READ_ONCE(st->last_status) : 0;
}
