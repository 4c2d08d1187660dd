// SPDX-License-Identifier: GPL-2.0-only
/*
 * Set-up and tear-down of every command-flow case (see flow.h): find the
 * HCA the driver bound and the stub's debug window; afterwards disarm the
 * faults and restore what a case changed.
 */

#include <linux/errno.h>
#include <linux/iopoll.h>
#include <linux/module.h>

#include "flow.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

/**
 * arbel_flow_init() - find the bound HCA and its debug window
 * @test: the case; its priv becomes a struct flow_ctx
 *
 * Return: 0, or a negative errno when there is no stub, no bound driver or
 * the transport is marked failed.
 */
int arbel_flow_init(struct kunit *test)
{
	struct flow_ctx *c;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	test->priv = c;
	c->pdev = pci_get_device(T_VENDOR, T_DEVICE, NULL);
	if (!c->pdev) {
		kunit_err(test, "no 15b3:6282: run under QEMU with -device arbel-stub\n");
		return -ENODEV;
	}
	c->adev = pci_get_drvdata(c->pdev);
	if (!c->adev) {
		kunit_err(test, "the arbel driver did not bind %s\n",
			  pci_name(c->pdev));
		return -ENODEV;
	}
	c->cmd = &c->adev->cmd;
	/* off for the case, back in arbel_flow_exit() */
	mutex_lock(&c->cmd->lock);
	c->fail_work = c->cmd->fail_work;
	mutex_unlock(&c->cmd->lock);
	arbel_cmd_set_fail_work(c->cmd, NULL);
	c->dbg = c->adev->dcs + ARBEL_DBG_BASE;
	if (dbg_rd(c, ARBEL_DBG_ID) != ARBEL_DBG_ID_VALUE) {
		kunit_err(test, "no arbel-stub debug window (ID 0x%08x)\n",
			  dbg_rd(c, ARBEL_DBG_ID));
		return -ENODEV;
	}
	if (arbel_cmd_failed(c->cmd)) {
		kunit_err(test, "the transport is marked failed\n");
		return -EIO;
	}
	dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);
	return 0;
}

/**
 * arbel_flow_unfail() - TEST-ONLY: bring a failed transport back
 * @test: the case
 * @timeout_ms: the command timeout to restore
 *
 * A timed-out command marks the device failed for good (the firmware may
 * still own the HCR); the driver itself never makes a failed transport alive again.  Here
 * the stub is known to finish the held command once the hold ends, so
 * this waits for go to clear, tells the transport the firmware writes no
 * mailbox any more (as a reset would), and un-fails it, so that the later
 * cases find a working HCA.  A hold armed by arbel_flow_hold() is over.
 */
void arbel_flow_unfail(struct kunit *test, unsigned int timeout_ms)
{
	struct flow_ctx *c = test->priv;
	u32 ctrl;
	int err;

	err = readx_poll_timeout(ioread32be, c->adev->dcs + T_HCR_CTRL, ctrl,
				 !(ctrl & T_HCR_GO), 1000, 10 * USEC_PER_SEC);
	KUNIT_EXPECT_EQ_MSG(test, err, 0, "held command never completed");
	arbel_cmd_gone(c->cmd);
	mutex_lock(&c->cmd->lock);
	c->cmd->state = ARBEL_ALIVE;
	c->cmd->timeout_ms = timeout_ms;
	mutex_unlock(&c->cmd->lock);
	c->held = false;
	KUNIT_EXPECT_EQ(test, run_nop(c), 0);
}

/**
 * arbel_flow_hold() - TEST-ONLY: a command held past a short timeout
 * @test: the case
 * @opcode: the command the stub holds (go stays set)
 * @timeout_ms: the command timeout for the case (restored at the end)
 * @hold_ms: how long the stub holds it
 *
 * The command then times out and marks the device failed; arbel_flow_exit()
 * waits for the hold to end and un-fails the device.
 */
void arbel_flow_hold(struct kunit *test, u16 opcode, unsigned int timeout_ms,
		     unsigned int hold_ms)
{
	struct flow_ctx *c = test->priv;

	mutex_lock(&c->cmd->lock);
	c->saved_timeout_ms = c->cmd->timeout_ms;
	c->cmd->timeout_ms = timeout_ms;
	mutex_unlock(&c->cmd->lock);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_OPCODE, opcode);
	dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, hold_ms);
	c->held = true;
}

static void arbel_flow_pull(struct work_struct *work)
{
	struct flow_ctx *c = container_of(to_delayed_work(work),
					  struct flow_ctx, pull);

	dbg_wr(c, ARBEL_DBG_LC_PULLED, ARBEL_LC_PULLED);
}

/**
 * arbel_flow_pull_after() - TEST-ONLY: pull the card out in @ms
 * @test: the case
 * @ms: from now, while the case waits for a command
 *
 * The stub then reads all-ones everywhere, as a card gone from its slot.
 * The catastrophic-error poll is stopped for the case: it would take the
 * all-ones for a fatal error and recover the HCA under the later cases.
 * arbel_flow_plug_back() (or arbel_flow_exit()) undoes both.
 */
void arbel_flow_pull_after(struct kunit *test, unsigned int ms)
{
	struct flow_ctx *c = test->priv;

	arbel_catas_stop(c->adev);
	c->pulling = true;
	INIT_DELAYED_WORK(&c->pull, arbel_flow_pull);
	schedule_delayed_work(&c->pull, msecs_to_jiffies(ms));
}

/**
 * arbel_flow_plug_back() - TEST-ONLY: undo arbel_flow_pull_after()
 * @test: the case
 *
 * The link comes back without a reset: the stub answers again as it was
 * (a held command still held); the transport stays failed until
 * arbel_flow_unfail().
 */
void arbel_flow_plug_back(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	if (!c->pulling)
		return;
	cancel_delayed_work_sync(&c->pull);
	dbg_wr(c, ARBEL_DBG_LC_PULLED, ARBEL_LC_GLITCH_OVER);
	arbel_catas_start(c->adev);
	c->pulling = false;
}

/**
 * arbel_flow_exit() - disarm faults and restore what the case changed
 * @test: the case
 */
void arbel_flow_exit(struct kunit *test)
{
	struct flow_ctx *c = test->priv;

	if (!c || !c->pdev)
		return;
	arbel_flow_plug_back(test);
	if (c->dbg) {
		dbg_wr(c, ARBEL_DBG_FI_CLEAR, 1);
		dbg_wr(c, ARBEL_DBG_FI_HOLD_MS, 0);
	}
	if (c->held)
		arbel_flow_unfail(test, c->saved_timeout_ms);
	if (c->closed && dbg_rd(c, ARBEL_DBG_FW_STATE) == FW_STATE_RUNNING)
		KUNIT_EXPECT_EQ_MSG(test,
				    arbel_fw_init_hca(c->cmd, &c->adev->layout),
				    0, "could not restore HCA_INIT");
	if (c->cmd)
		arbel_cmd_set_fail_work(c->cmd, c->fail_work);
	if (c->eq_stopped)
		KUNIT_EXPECT_EQ_MSG(test, arbel_eq_init(c->adev, false, true),
				    0, "could not restore the EQ");
	pci_dev_put(c->pdev);
}

MODULE_DESCRIPTION("KUnit command-flow tests for the Arbel driver against arbel-stub");
MODULE_LICENSE("GPL");
