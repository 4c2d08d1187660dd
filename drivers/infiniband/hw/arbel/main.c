// SPDX-License-Identifier: GPL-2.0-only
/*
 * PCI probe and remove for the Mellanox InfiniHost III Ex (Arbel) in
 * native mem-free mode.  Every step of probe has its undo, run in reverse
 * order on failure and on remove.
 */

#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include <arbel/prm.h>
#include "arbel.h"
#include "queue.h"
#include "verbs.h"

/* 0 would make a lost command wait forever: refused at insmod. */
static int arbel_set_cmd_timeout(const char *val,
				 const struct kernel_param *kp)
{
	int err;

	err = param_set_uint_minmax(val, kp, 1, ARBEL_CMD_TIMEOUT_MAX_MS);
	if (err)
		pr_err(ARBEL_DRV_NAME ": cmd_timeout_ms=%s refused: 1 to %u ms\n",
		       val, ARBEL_CMD_TIMEOUT_MAX_MS);
	return err;
}

static const struct kernel_param_ops arbel_cmd_timeout_ops = {
	.set = arbel_set_cmd_timeout,
	.get = param_get_uint,
};

static unsigned int cmd_timeout_ms = ARBEL_CMD_TIMEOUT_MS;
module_param_cb(cmd_timeout_ms, &arbel_cmd_timeout_ops, &cmd_timeout_ms,
		0444);
MODULE_PARM_DESC(cmd_timeout_ms,
		 "How long one firmware command may take, in ms (default 60000, 1 to 600000)");

static unsigned char log_num_mpt = 17;
module_param(log_num_mpt, byte, 0444);
MODULE_PARM_DESC(log_num_mpt,
		 "log2 of the MPT table size (default 17; capped by the device)");

static unsigned char log_num_mtt = 20;
module_param(log_num_mtt, byte, 0444);
MODULE_PARM_DESC(log_num_mtt,
		 "log2 of the MTT entries (default 20; capped by the device)");

static bool polling;
module_param(polling, bool, 0444);
MODULE_PARM_DESC(polling,
		 "Poll every firmware command; no event queue, no events (default off: event mode once the interrupt test passes)");

static bool msix = true;
module_param(msix, bool, 0444);
MODULE_PARM_DESC(msix,
		 "Try MSI-X before INTx for the event queue (default on)");

static bool recover = true;
module_param(recover, bool, 0444);
MODULE_PARM_DESC(recover,
		 "After a fatal error: reset the HCA and bring it up again (default on); off: leave it failed");

static struct dentry *arbel_debugfs_root;

/*
 * Test knob, debugfs arbel/icm_max_block_kib (driver-wide: a probe maps
 * the tables' reserved chunks before the device's own directory could be
 * written): the largest block of an ICM chunk in KiB, rounded down to a
 * power of two, at least 4; 0 (the default): whole 256 KiB chunks,
 * smaller blocks only when those cannot be had.  Read at each probe.
 */
static u32 icm_max_block_kib;

static void arbel_fail_work(struct work_struct *work);
static void arbel_shutdown(struct pci_dev *pdev);

/*
 * ICM chunks now mapped in more than one block (the fallback).  A snapshot
 * without the tables' locks: the counters live in adev, which outlives
 * the debugfs file.
 */
static int arbel_split_get(void *data, u64 *val)
{
	struct arbel_dev *adev = data;
	int i;

	*val = 0;
	for (i = 0; i < ARBEL_ICM_NR_TABLES; i++)
		*val += READ_ONCE(adev->icm[i].split);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(arbel_split_fops, arbel_split_get, NULL, "%llu\n");

/*
 * Test knob, debugfs arbel/<bdf>/shutdown: writing 1 runs the driver's
 * .shutdown on this device as a reboot or kexec would, the function
 * staying bound (the device is failed: unbind and bind it to use it
 * again).
 */
static int arbel_shutdown_set(void *data, u64 val)
{
	struct arbel_dev *adev = data;
	struct device *dev = &adev->pdev->dev;

	if (val != 1)
		return -EINVAL;
	/* as the driver core calls it; an unbind in progress has the lock */
	if (!device_trylock(dev))
		return -EBUSY;
	arbel_shutdown(adev->pdev);
	device_unlock(dev);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(arbel_shutdown_fops, NULL, arbel_shutdown_set,
			 "%llu\n");

static int arbel_check_bars(struct pci_dev *pdev)
{
	if (!(pci_resource_flags(pdev, ARBEL_DCS_BAR) & IORESOURCE_MEM) ||
	    pci_resource_len(pdev, ARBEL_DCS_BAR) != ARBEL_DCS_SIZE) {
		dev_err(&pdev->dev, "BAR%d is not a 1 MiB memory BAR\n",
			ARBEL_DCS_BAR);
		return -ENODEV;
	}
	if (!(pci_resource_flags(pdev, ARBEL_UAR_BAR) & IORESOURCE_MEM) ||
	    !pci_resource_len(pdev, ARBEL_UAR_BAR)) {
		dev_err(&pdev->dev, "UAR BAR%d is missing\n", ARBEL_UAR_BAR);
		return -ENODEV;
	}
	if (pci_resource_len(pdev, ARBEL_DDR_BAR))
		dev_info(&pdev->dev, "DDR BAR%d present; driving it mem-free\n",
			 ARBEL_DDR_BAR);
	return 0;
}

/*
 * The HCA's state over the PCI function, which stays bound: reset,
 * firmware and ICM (hca.c), the catastrophic-error poll, the MR tables,
 * the event queue and a new ib_device.  Probe brings it up once, remove
 * takes it down once, and a recovery takes it down and up again.
 */
static int arbel_dev_up(struct arbel_dev *adev)
{
	struct pci_dev *pdev = adev->pdev;
	int err;

	/*
	 * Bus mastering only once the reset has stopped whatever a boot ROM,
	 * an earlier kernel or a failed instance left running: before, the
	 * HCA could DMA into memory that is no longer its own.
	 */
	err = arbel_hca_reset(adev);
	if (err)
		return err;
	pci_set_master(pdev);
	arbel_cmd_revive(&adev->cmd);
	adev->icm_max_block = READ_ONCE(icm_max_block_kib) * SZ_1K;

	err = arbel_hca_init(adev, log_num_mpt, log_num_mtt);
	if (err)
		goto err_master;
	arbel_catas_start(adev);
	err = arbel_mr_init_table(adev);
	if (err)
		goto err_catas;
	/* The first PD number the firmware leaves is the driver's. */
	adev->driver_pd = adev->lim.num_rsvd_pds;
	err = arbel_eq_init(adev, polling, msix);
	if (err)
		goto err_mr;
	err = arbel_hca_ports_up(adev);
	if (err)
		goto err_eq;
	err = arbel_register_ibdev(adev);
	if (err)
		goto err_ports;
	adev->up = true;
	/* From now on a failed device is reset at once, not at remove. */
	arbel_cmd_set_fail_work(&adev->cmd, &adev->fail_work);
	if (arbel_cmd_failed(&adev->cmd))
		schedule_work(&adev->fail_work);
	return 0;

err_ports:
	arbel_hca_ports_down(adev);
err_eq:
	arbel_eq_cleanup(adev);
err_mr:
	arbel_mr_cleanup_table(adev);
err_catas:
	arbel_catas_stop(adev);
	arbel_hca_cleanup(adev);
err_master:
	pci_clear_master(pdev);
	return err;
}

/* Undo arbel_dev_up(); a failed HCA is reset by the teardown, in order. */
static void arbel_dev_down(struct arbel_dev *adev)
{
	arbel_cmd_set_fail_work(&adev->cmd, NULL);
	cancel_work_sync(&adev->fail_work);
	arbel_catas_stop(adev);
	/* events flow until the RDMA core is done with the device */
	arbel_unregister_ibdev(adev);
	arbel_hca_ports_down(adev);
	arbel_eq_cleanup(adev);
	arbel_mr_cleanup_table(adev);
	arbel_hca_cleanup(adev);
	pci_clear_master(adev->pdev);
	adev->up = false;
}

/*
 * The recovery, queued by arbel_dev_fatal(), as mlx5's health recovery
 * does it: the device is failed (no more commands; the HCA reset through
 * its reset register, so that it owns no host memory;
 * IB_EVENT_DEVICE_FATAL), the HCA's state taken down -- the ib_device
 * unregistered, so the RDMA core disassociates every user (old contexts
 * get errors, their regions are freed) -- and brought up again from a
 * second reset, with a new ib_device that new processes use.  The PCI
 * function stays bound and enabled throughout; remove and shutdown stop
 * the recovery (@removing, under @recover_lock) before they take the
 * device down themselves.
 */
static void arbel_recover_work(struct work_struct *work)
{
	struct arbel_dev *adev = container_of(work, struct arbel_dev,
					      recover_work);
	struct device *dev = &adev->pdev->dev;
	int err;

	mutex_lock(&adev->recover_lock);
	if (adev->removing)
		goto out;
	arbel_dev_fail(adev, adev->fatal_why);
	if (adev->up)
		arbel_kq_fatal(adev);
	if (!recover) {
		dev_err(dev, "fatal error: the device stays failed (recover=0); unbind and bind it to bring it back\n");
		goto out;
	}
	dev_warn(dev, "recovering from the fatal error: resetting the HCA and bringing it up again\n");
	if (adev->up)
		arbel_dev_down(adev);
	err = arbel_dev_up(adev);
	if (err) {
		dev_err(dev, "recovery failed: %d; unbind and bind the device to retry\n",
			err);
		goto out;
	}
	/* a new instance: its own fatal error recovers it again */
	clear_bit(0, &adev->fatal);
	dev_info(dev, "recovered from the fatal error\n");
out:
	mutex_unlock(&adev->recover_lock);
}

/* Remove or shutdown: no recovery runs or starts from here on. */
static void arbel_stop_recovery(struct arbel_dev *adev)
{
	mutex_lock(&adev->recover_lock);
	adev->removing = true;
	set_bit(0, &adev->fatal);
	mutex_unlock(&adev->recover_lock);
	cancel_work_sync(&adev->recover_work);
}

static int arbel_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct arbel_dev *adev;
	int err;

	adev = kzalloc(sizeof(*adev), GFP_KERNEL);
	if (!adev)
		return -ENOMEM;
	adev->pdev = pdev;
	mutex_init(&adev->fail_lock);
	mutex_init(&adev->recover_lock);
	INIT_WORK(&adev->fail_work, arbel_fail_work);
	INIT_WORK(&adev->recover_work, arbel_recover_work);

	err = pci_enable_device(pdev);
	if (err) {
		dev_err(&pdev->dev, "cannot enable PCI device: %d\n", err);
		goto err_free;
	}

	err = arbel_check_bars(pdev);
	if (err)
		goto err_disable;

	err = pci_request_regions(pdev, ARBEL_DRV_NAME);
	if (err) {
		dev_err(&pdev->dev, "cannot obtain PCI resources: %d\n", err);
		goto err_disable;
	}

	err = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (err) {
		dev_err(&pdev->dev, "no usable 64-bit DMA: %d\n", err);
		goto err_release;
	}

	adev->dcs = pci_iomap(pdev, ARBEL_DCS_BAR, ARBEL_DCS_SIZE);
	if (!adev->dcs) {
		dev_err(&pdev->dev, "cannot map BAR%d\n", ARBEL_DCS_BAR);
		err = -ENOMEM;
		goto err_release;
	}

	err = arbel_cmd_init(&adev->cmd, &pdev->dev,
			     adev->dcs + ARBEL_HCR_OFFSET, cmd_timeout_ms);
	if (err)
		goto err_unmap;
	adev->debugfs = debugfs_create_dir(pci_name(pdev), arbel_debugfs_root);
	arbel_cmd_debugfs_init(&adev->cmd, adev->debugfs);
	debugfs_create_file_unsafe("icm_split_chunks", 0400, adev->debugfs,
				   adev, &arbel_split_fops);
	debugfs_create_bool("write_mtt", 0600, adev->debugfs,
			    &adev->write_mtt);
	debugfs_create_file_unsafe("shutdown", 0200, adev->debugfs, adev,
				   &arbel_shutdown_fops);
	arbel_eq_debugfs_init(adev, adev->debugfs);
	pci_set_drvdata(pdev, adev);

	/*
	 * The catastrophic-error poll starts inside the bring-up: a recovery
	 * it queues waits for the lock, then finds a failed probe removing.
	 */
	mutex_lock(&adev->recover_lock);
	err = arbel_dev_up(adev);
	if (err)
		adev->removing = true;
	mutex_unlock(&adev->recover_lock);
	if (err)
		goto err_cmd;
	return 0;

err_cmd:
	/* a fatal error during the bring-up may have queued a recovery */
	arbel_stop_recovery(adev);
	pci_set_drvdata(pdev, NULL);
	arbel_cmd_cleanup(&adev->cmd);
	debugfs_remove_recursive(adev->debugfs);
err_unmap:
	pci_iounmap(pdev, adev->dcs);
err_release:
	pci_release_regions(pdev);
err_disable:
	pci_disable_device(pdev);
err_free:
	kfree(adev);
	return err;
}

static void arbel_remove(struct pci_dev *pdev)
{
	struct arbel_dev *adev = pci_get_drvdata(pdev);

	arbel_stop_recovery(adev);
	if (adev->up)
		arbel_dev_down(adev);
	arbel_cmd_cleanup(&adev->cmd);
	debugfs_remove_recursive(adev->debugfs);
	pci_iounmap(pdev, adev->dcs);
	pci_release_regions(pdev);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	mutex_destroy(&adev->recover_lock);
	mutex_destroy(&adev->fail_lock);
	kfree(adev);
}

/*
 * Reboot or kexec: stop the HCA before the next kernel owns the memory.
 * No recovery runs or starts, no failure work; the catastrophic-error
 * poll stops (it would read a reset HCA, and could call for a recovery
 * that brings it up again); the device is marked failed, so that no
 * command reaches the HCA, which is reset: it owns no host memory, raises
 * no interrupt; kernel consumers' queues are flushed and refuse posts (no
 * doorbell rings).  Then its interrupt is freed and bus mastering turned
 * off.  Nothing else is freed (the system is going down); remove may
 * still follow and finds a failed device.
 */
static void arbel_shutdown(struct pci_dev *pdev)
{
	struct arbel_dev *adev = pci_get_drvdata(pdev);

	if (!adev)
		return;
	arbel_stop_recovery(adev);
	arbel_cmd_set_fail_work(&adev->cmd, NULL);
	cancel_work_sync(&adev->fail_work);
	arbel_catas_stop(adev);
	arbel_dev_fail(adev, "shutdown");
	/* kernel consumers' posts fail from here on, their WQEs flushed */
	if (adev->up)
		arbel_kq_fatal(adev);
	arbel_eq_irq_free(adev);
	pci_clear_master(pdev);
}

/* A command failed the device while it is registered: reset it now. */
static void arbel_fail_work(struct work_struct *work)
{
	struct arbel_dev *adev = container_of(work, struct arbel_dev,
					      fail_work);

	arbel_dev_fail(adev, "firmware command failed");
	/* armed only while up: the kernel queues exist */
	arbel_kq_fatal(adev);
}

static const struct pci_device_id arbel_pci_table[] = {
	{ PCI_DEVICE(ARBEL_PCI_VENDOR_MELLANOX, ARBEL_PCI_DEVICE_ARBEL) },
	{ }
};
MODULE_DEVICE_TABLE(pci, arbel_pci_table);

static struct pci_driver arbel_driver = {
	.name = ARBEL_DRV_NAME,
	.id_table = arbel_pci_table,
	.probe = arbel_probe,
	.remove = arbel_remove,
	.shutdown = arbel_shutdown,
};

static int __init arbel_init(void)
{
	int err;

	err = arbel_kqp_fr_wq_init();
	if (err)
		return err;
	arbel_debugfs_root = debugfs_create_dir(ARBEL_DRV_NAME, NULL);
	debugfs_create_u32("icm_max_block_kib", 0600, arbel_debugfs_root,
			   &icm_max_block_kib);
	err = pci_register_driver(&arbel_driver);
	if (err) {
		debugfs_remove_recursive(arbel_debugfs_root);
		arbel_kqp_fr_wq_exit();
	}
	return err;
}
module_init(arbel_init);

static void __exit arbel_exit(void)
{
	pci_unregister_driver(&arbel_driver);
	debugfs_remove_recursive(arbel_debugfs_root);
	arbel_kqp_fr_wq_exit();
}
module_exit(arbel_exit);

MODULE_DESCRIPTION("Mellanox InfiniHost III Ex (Arbel) memory registration driver");
MODULE_LICENSE("GPL");
