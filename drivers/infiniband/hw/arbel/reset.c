// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one way out of doubt: give up on the HCA and reset it.
 *
 * The device is alive, failed or gone (enum arbel_state).  Any layer that
 * finds the HCA may still own what it is about to free -- a command was
 * lost, a teardown command refused -- calls arbel_dev_fail() directly: it
 * lives here, below mr.c, eq.c and hca.c, and calls only down (the
 * transport, the ICM tables) and the RDMA core's event dispatch.  A fatal
 * error reported by the HCA (arbel_dev_fatal()) queues the owner's
 * recovery work instead: it runs in process context and brings the HCA
 * back (main.c).
 */

#include <linux/delay.h>
#include <linux/device.h>
#include <linux/iopoll.h>

#include <arbel/prm.h>
#include "arbel.h"

static u32 arbel_cfg_read_id(struct pci_dev *pdev)
{
	u32 id;

	if (pci_read_config_dword(pdev, PCI_VENDOR_ID, &id))
		return U32_MAX;	/* reads as an error response too */
	return id;
}

/**
 * arbel_hca_reset() - reset the HCA through its reset register
 * @adev: the HCA, BAR0 mapped
 *
 * Used before bring-up (a boot ROM may have left the HCA in any state) and
 * to stop a failed HCA before its memory is freed.  The reset wipes the
 * function's config space, so it is saved first and restored once the
 * device answers again.  pci_restore_state() writes back only the standard
 * header and the capabilities the PCI core saved, never the vendor dwords
 * at 0x58 and 0x5c.
 *
 * Context: process; sleeps for about a second.
 * Return: 0, or -ENODEV at once if the device is gone from the bus (its
 * config space reads all-ones), or a negative errno if the HCA does not
 * come back.
 */
int arbel_hca_reset(struct arbel_dev *adev)
{
	struct pci_dev *pdev = adev->pdev;
	u32 id;
	int err;

	/* gone from the bus: no reset reaches it, none brings it back */
	if (PCI_POSSIBLE_ERROR(arbel_cfg_read_id(pdev))) {
		dev_err(&pdev->dev, "config space reads all-ones: the device is gone from the bus; not reset\n");
		return -ENODEV;
	}
	err = pci_save_state(pdev);
	if (err) {
		dev_err(&pdev->dev, "cannot save config space: %d\n", err);
		return err;
	}

	iowrite32be(ARBEL_RESET_VALUE, adev->dcs + ARBEL_RESET_OFFSET);
	msleep(ARBEL_RESET_SETTLE_MS);

	err = read_poll_timeout(arbel_cfg_read_id, id,
				!PCI_POSSIBLE_ERROR(id),
				ARBEL_RESET_POLL_MS * USEC_PER_MSEC,
				ARBEL_RESET_POLL_MS * ARBEL_RESET_POLL_TRIES *
				USEC_PER_MSEC, false, pdev);
	if (err) {
		dev_err(&pdev->dev, "HCA did not come back after reset\n");
		return -ENODEV;
	}

	pci_restore_state(pdev);
	return 0;
}

/**
 * arbel_dev_fail() - give up on the HCA: no more commands, then reset it
 * @adev: the HCA
 * @why: for the log
 *
 * The device is failed (a command in flight is waited for, no other is
 * posted, waiting callers get -EIO), then the HCA is reset -- after which
 * it owns no host memory -- and the device is gone: the transport frees
 * its parked mailboxes and every ICM table the chunks it held because the
 * HCA might still own them.  Only then may the caller free what the HCA
 * was given.  While the ib_device is registered the RDMA core is told
 * (IB_EVENT_DEVICE_FATAL).  If the HCA does not come back from the reset,
 * bus mastering is turned off instead.  Idempotent (a gone device is left
 * as it is), serialised by @adev->fail_lock.
 *
 * Context: process; sleeps (the reset takes about a second).
 */
void arbel_dev_fail(struct arbel_dev *adev, const char *why)
{
	struct ib_event ev = { .event = IB_EVENT_DEVICE_FATAL };
	bool reset = false;
	int i;

	arbel_cmd_fail(&adev->cmd);
	mutex_lock(&adev->fail_lock);
	if (READ_ONCE(adev->cmd.state) != ARBEL_GONE) {
		dev_err(&adev->pdev->dev,
			"%s: device marked failed, resetting the HCA\n", why);
		if (arbel_hca_reset(adev))
			pci_clear_master(adev->pdev);
		arbel_cmd_gone(&adev->cmd);
		for (i = 0; i < ARBEL_ICM_NR_TABLES; i++)
			if (adev->icm[i].mem)
				arbel_icm_table_hca_reset(&adev->icm[i]);
		reset = true;
	}
	mutex_unlock(&adev->fail_lock);
	if (reset && READ_ONCE(adev->registered)) {
		ev.device = adev->ibdev;
		ib_dispatch_event(&ev);
	}
}

/**
 * arbel_dev_fatal() - the HCA reported a fatal error: queue the recovery
 * @adev: the HCA
 * @why: for the log
 *
 * From the catastrophic-error poll (a timer) or a catastrophic-error EQE
 * (the EQ's interrupt): the owner's @adev->recover_work fails the device
 * and brings it back, in process context.  Once per device instance.
 *
 * Context: any.
 */
void arbel_dev_fatal(struct arbel_dev *adev, const char *why)
{
	if (test_and_set_bit(0, &adev->fatal))
		return;
	adev->fatal_why = why;
	queue_work(system_long_wq, &adev->recover_work);
}
