// SPDX-License-Identifier: GPL-2.0-only
/*
 * The event queue.
 *
 * One EQ takes command completions and asynchronous events.  Its ring is
 * one coherent DMA block registered as a physical region (an MPT entry
 * with no MTT, iova = bus address, local write) in the driver's own PD;
 * the EQ context's ICM chunk is mapped before SW2HW_EQ.  MAP_EQ routes
 * the command-completion type and the asynchronous types to it.  Its
 * interrupt is MSI-X vector 0 (EQC intr 128) or, as the fallback, the
 * INTx pin QUERY_ADAPTER names (the EQ context's intr, cleared through its
 * bit of the clear-interrupt register).  The
 * arm, set-CI and clear-interrupt registers are at the addresses QUERY_FW
 * reports, masked to BAR0.
 *
 * Bring-up: EQ, MAP_EQ, interrupt, arm, event-mode commands, then the
 * interrupt test (NOP, in_mod 0x1f).  A test that fails with MSI-X is
 * retried with INTx; one that fails with INTx leaves the driver polling,
 * and says so.  Teardown: polling again, MAP_EQ undone, HW2SW_EQ, the
 * interrupt freed, the region and the ring last.
 */

#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/seq_file.h>
#include <kunit/visibility.h>

#include "arbel.h"
#include "compat.h"
#include "eq.h"

#define ARBEL_EQ_BYTES		(ARBEL_EQ_NENT * ARBEL_EQE_SIZE)

/**
 * arbel_eq_mode_name() - a mode's name, for dmesg and debugfs
 * @mode: the mode
 *
 * Context: any.
 * Return: "polling", "msix" or "intx".
 */
const char *arbel_eq_mode_name(enum arbel_eq_mode mode)
{
	switch (mode) {
	case ARBEL_EQ_MSIX: return "msix";
	case ARBEL_EQ_INTX: return "intx";
	default: return "polling";
	}
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eq_mode_name);

static u8 *arbel_eqe(struct arbel_eq *eq, u32 index)
{
	return eq->buf + (index & (ARBEL_EQ_NENT - 1)) * ARBEL_EQE_SIZE;
}

static void arbel_eq_set_ci(struct arbel_eq *eq)
{
	/* The owner bits must be in memory before the HCA may reuse them. */
	wmb();
	iowrite32be(eq->cons, eq->set_ci);
}

static void arbel_eq_arm(struct arbel_eq *eq)
{
	iowrite32be(BIT(eq->eqn % 32), eq->arm);
}

static void arbel_port_event(struct arbel_dev *adev,
			     const struct arbel_eqe_info *info)
{
	struct ib_event ev = {
		.event = info->port_active ? IB_EVENT_PORT_ACTIVE :
					     IB_EVENT_PORT_ERR,
		.element.port_num = info->port,
	};

	dev_info(&adev->pdev->dev, "port %u %s\n", info->port,
		 info->port_active ? "active" : "down");
	/* the first comes from INIT_IB, before the ib_device is registered */
	if (info->port < 1 ||
	    info->port > min_t(u8, adev->lim.num_ports, ARBEL_MAX_PORTS)) {
		dev_warn(&adev->pdev->dev,
			 "port change event for port %u ignored\n", info->port);
		return;
	}
	if (info->port_active)
		adev->eq.n_port_up++;
	else
		adev->eq.n_port_down++;
	if (READ_ONCE(adev->registered)) {
		ev.device = adev->ibdev;
		ib_dispatch_event(&ev);
	}
}

/* Consume every software-owned EQE; called with eq->lock held. */
static bool arbel_eq_poll(struct arbel_dev *adev)
{
	struct arbel_eq *eq = &adev->eq;
	struct arbel_eqe_info info;
	bool found = false;
	u32 since_ci = 0;
	u8 *eqe;

	while (arbel_eqe_sw_owned(eqe = arbel_eqe(eq, eq->cons))) {
		/* Read the entry only after its owner bit. */
		rmb();
		arbel_eqe_decode(eqe, &info);
		if (info.type < ARBEL_EV_NR)
			eq->n_events[info.type]++;
		switch (info.type) {
		case ARBEL_EV_CMD:
			arbel_cmd_event(&adev->cmd, info.token, info.status,
					info.out_param);
			break;
		case ARBEL_EV_PORT_CHANGE:
			arbel_port_event(adev, &info);
			break;
		case ARBEL_EV_LOCAL_CATAS_ERROR:
			dev_err(&adev->pdev->dev,
				"local catastrophic error event (subtype 0x%02x)\n",
				info.subtype);
			arbel_dev_fatal(adev, "catastrophic error event");
			break;
		case ARBEL_EV_COMP:
		case ARBEL_EV_PATH_MIG:
		case ARBEL_EV_COMM_EST:
		case ARBEL_EV_SQ_DRAINED:
		case ARBEL_EV_CQ_ERROR:
		case ARBEL_EV_WQ_CATAS_ERROR:
		case ARBEL_EV_PATH_MIG_FAILED:
		case ARBEL_EV_WQ_INVAL_REQ_ERROR:
		case ARBEL_EV_WQ_ACCESS_ERROR:
		case ARBEL_EV_SRQ_CATAS_ERROR:
		case ARBEL_EV_SRQ_LAST_WQE:
		case ARBEL_EV_SRQ_LIMIT:
			if (READ_ONCE(adev->registered) && eq->queue_event)
				eq->queue_event(adev, &info);
			break;
		default:
			dev_warn_ratelimited(&adev->pdev->dev,
					     "event %s (0x%02x, subtype 0x%02x) on EQ %u, not handled\n",
					     arbel_event_name(info.type),
					     info.type, info.subtype, eq->eqn);
			break;
		}
		eqe[ARBEL_EQE_OWNER] = ARBEL_EQE_OWNER_HW;
		eq->cons++;
		found = true;
		/* The HCA counts the ring full unless told every 0x80 EQEs. */
		if (++since_ci >= ARBEL_EQ_NENT / 4) {
			arbel_eq_set_ci(eq);
			since_ci = 0;
		}
	}
	if (found)
		arbel_eq_set_ci(eq);
	return found;
}

static irqreturn_t arbel_eq_msix_irq(int irq, void *data)
{
	struct arbel_dev *adev = data;
	struct arbel_eq *eq = &adev->eq;

	spin_lock(&eq->lock);
	eq->n_interrupts++;
	arbel_eq_poll(adev);
	arbel_eq_arm(eq);
	spin_unlock(&eq->lock);
	return IRQ_HANDLED;
}

static irqreturn_t arbel_eq_intx_irq(int irq, void *data)
{
	struct arbel_dev *adev = data;
	struct arbel_eq *eq = &adev->eq;
	bool found;

	/* Lower the line first: an EQE written after this raises it again. */
	iowrite32be(eq->clr_mask, eq->clr_int);
	spin_lock(&eq->lock);
	found = arbel_eq_poll(adev);
	if (found) {
		/* The HCA disarmed the EQ when it fired: arm it again. */
		eq->n_interrupts++;
		arbel_eq_arm(eq);
	}
	spin_unlock(&eq->lock);
	return IRQ_RETVAL(found);
}

static int arbel_eq_irq_request(struct arbel_dev *adev, bool msix)
{
	struct pci_dev *pdev = adev->pdev;
	struct arbel_eq *eq = &adev->eq;
	int n, err;

	n = pci_alloc_irq_vectors(pdev, 1, 1,
				  msix ? PCI_IRQ_MSIX : PCI_IRQ_INTX);
	if (n < 0)
		return n;
	eq->irq = pci_irq_vector(pdev, 0);
	err = request_irq(eq->irq, msix ? arbel_eq_msix_irq : arbel_eq_intx_irq,
			  msix ? 0 : IRQF_SHARED, ARBEL_DRV_NAME "-eq", adev);
	if (err) {
		eq->irq = 0;
		pci_free_irq_vectors(pdev);
		return err;
	}
	eq->mode = msix ? ARBEL_EQ_MSIX : ARBEL_EQ_INTX;
	return 0;
}

/**
 * arbel_eq_irq_free() - free the EQ's interrupt, if it has one
 * @adev: the HCA, reset or with its EQ no longer raising interrupts
 *
 * Also for shutdown, which frees nothing else; idempotent.
 *
 * Context: process; sleeps.
 */
void arbel_eq_irq_free(struct arbel_dev *adev)
{
	struct arbel_eq *eq = &adev->eq;

	if (!eq->irq)
		return;
	free_irq(eq->irq, adev);
	pci_free_irq_vectors(adev->pdev);
	eq->irq = 0;
	eq->mode = ARBEL_EQ_POLLING;
}

/* Undo arbel_eq_start(); the transport polls afterwards. */
static void arbel_eq_stop(struct arbel_dev *adev)
{
	struct arbel_eq *eq = &adev->eq;
	struct device *dev = &adev->pdev->dev;
	int err;

	arbel_cmd_use_polling(&adev->cmd);
	if (arbel_cmd_failed(&adev->cmd)) {
		/* The HCA may still write the ring: reset it (if not yet). */
		arbel_dev_fail(adev, "EQ teardown on a failed device");
		eq->mapped = false;
		eq->hw = false;
	}
	if (eq->mapped) {
		err = arbel_fw_map_eq(&adev->cmd, eq->eqn,
				      ARBEL_ASYNC_EVENT_MASK |
				      ARBEL_CMD_EVENT_MASK, true);
		if (err)
			dev_warn(dev, "MAP_EQ (unmap) failed: %d\n", err);
		eq->mapped = false;
	}
	if (eq->hw) {
		err = arbel_fw_hw2sw_eq(&adev->cmd, eq->eqn);
		if (err) {
			/* The HCA may still write the ring: reset it first. */
			dev_warn(dev, "HW2SW_EQ failed: %d\n", err);
			arbel_dev_fail(adev, "HW2SW_EQ failed");
		}
		eq->hw = false;
	}
	arbel_eq_irq_free(adev);
}

/*
 * Create the EQ with its interrupt, switch to event mode and run the
 * interrupt test.  Return: 0; -ETIMEDOUT when the test failed, -EAGAIN
 * when there is no such interrupt (everything undone: try something
 * else); another errno for a firmware or set-up failure (everything
 * undone).
 */
static int arbel_eq_start(struct arbel_dev *adev, bool msix)
{
	struct arbel_eq *eq = &adev->eq;
	struct device *dev = &adev->pdev->dev;
	struct arbel_eqc eqc = {
		.start = eq->dma,
		.log_size = ilog2(ARBEL_EQ_NENT),
		.pd = adev->driver_pd,
		.lkey = eq->mr.key,
	};
	int err;

	/*
	 * A fresh ring, every entry the HCA's, before the handler may run
	 * (a shared INTx line can call it at once).
	 */
	memset(eq->buf, ARBEL_EQE_OWNER_HW, ARBEL_EQ_BYTES);
	eq->cons = 0;
	err = arbel_eq_irq_request(adev, msix);
	if (err) {
		dev_info(dev, "no %s interrupt: %d\n", msix ? "MSI-X" : "INTx",
			 err);
		return -EAGAIN;
	}
	eqc.intr = msix ? ARBEL_EQ_INTR_MSIX : adev->inta_pin;

	err = arbel_fw_sw2hw_eq(&adev->cmd, eq->eqn, &eqc);
	if (err)
		goto err_stop;
	eq->hw = true;
	err = arbel_fw_map_eq(&adev->cmd, eq->eqn, ARBEL_ASYNC_EVENT_MASK |
			      ARBEL_CMD_EVENT_MASK, false);
	if (err)
		goto err_stop;
	eq->mapped = true;
	arbel_eq_arm(eq);

	err = arbel_cmd_use_events(&adev->cmd, adev->fw.log_max_cmds);
	if (err)
		goto err_stop;
	err = arbel_cmd_irq_test(&adev->cmd, ARBEL_EQ_IRQ_TEST_MS);
	if (err) {
		dev_warn(dev, "interrupt test (NOP) with %s failed: %d\n",
			 msix ? "MSI-X" : "INTx", err);
		if (!arbel_cmd_failed(&adev->cmd))
			err = -ETIMEDOUT;	/* a refused NOP too: try on */
		goto err_stop;
	}
	return 0;

err_stop:
	arbel_eq_stop(adev);
	return err;
}

static void arbel_eq_unmap(struct arbel_dev *adev)
{
	struct arbel_eq *eq = &adev->eq;

	if (eq->icm)
		arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_EQC], eq->eqn,
					  eq->eqn);
	eq->icm = false;
	if (eq->region)
		arbel_mr_unregister(adev, &eq->mr);
	eq->region = false;
	if (eq->buf)
		dma_free_coherent(&adev->pdev->dev, ARBEL_EQ_BYTES, eq->buf,
				  eq->dma);
	eq->buf = NULL;
}

static int arbel_eq_regs(struct arbel_dev *adev)
{
	u64 len = pci_resource_len(adev->pdev, ARBEL_DCS_BAR);
	const struct arbel_fw_info *fw = &adev->fw;
	struct arbel_eq *eq = &adev->eq;
	u64 arm, set_ci, clr;

	arm = arbel_fw_bar0_offset(fw->eq_arm_base, len) +
	      (eq->eqn < 32 ? ARBEL_EQ_ARM_LOW : 0);
	set_ci = arbel_fw_bar0_offset(fw->eq_set_ci_base, len) +
		 eq->eqn * ARBEL_EQ_SET_CI_STRIDE;
	/* INTx: QUERY_ADAPTER's INTA pin, in its half of the register */
	clr = arbel_fw_bar0_offset(fw->clr_int_base, len) +
	      (adev->inta_pin < 32 ? ARBEL_CLR_INT_LOW : 0);
	if (arm + 4 > len || set_ci + 4 > len || clr + 4 > len) {
		dev_err(&adev->pdev->dev, "QUERY_FW's EQ registers lie outside BAR0\n");
		return -ENODEV;
	}
	eq->arm = adev->dcs + arm;
	eq->set_ci = adev->dcs + set_ci;
	eq->clr_int = adev->dcs + clr;
	eq->clr_mask = BIT(adev->inta_pin % 32);
	return 0;
}

/**
 * arbel_eq_init() - the event queue, and event mode if interrupts work
 * @adev: the HCA after INIT_HCA, with its MR tables
 * @polling: do not try: stay in polling mode
 * @msix: try MSI-X before INTx
 *
 * A failed interrupt test is not an error: the driver polls, and says so.
 *
 * Context: process; sleeps.
 * Return: 0, or a negative errno (a firmware command refused, no memory)
 * with everything undone.
 */
int arbel_eq_init(struct arbel_dev *adev, bool polling, bool msix)
{
	struct arbel_eq *eq = &adev->eq;
	struct device *dev = &adev->pdev->dev;
	int err;

	spin_lock_init(&eq->lock);
	eq->mode = ARBEL_EQ_POLLING;
	/* The first EQ the firmware does not keep (mthca's allocator). */
	eq->eqn = BIT(adev->lim.log_rsvd_eqs);
	if (polling) {
		dev_info(dev, "polling mode: commands poll the go bit (polling=1); no events\n");
		return 0;
	}
	if (eq->eqn >= BIT(adev->layout.t[ARBEL_ICM_EQC].log_num)) {
		dev_warn(dev, "no EQ left: %u reserved, the EQ context table holds %lu; polling, no events\n",
			 eq->eqn, BIT(adev->layout.t[ARBEL_ICM_EQC].log_num));
		return 0;
	}
	err = arbel_eq_regs(adev);
	if (err)
		return err;

	eq->buf = dma_alloc_coherent(dev, ARBEL_EQ_BYTES, &eq->dma,
				     GFP_KERNEL);
	if (!eq->buf)
		return -ENOMEM;
	eq->mr.pdn = adev->driver_pd;
	eq->mr.iova = eq->dma;
	eq->mr.length = ARBEL_EQ_BYTES;
	eq->mr.access = IB_ACCESS_LOCAL_WRITE;
	eq->mr.mtt.page_shift = PAGE_SHIFT;
	err = arbel_mr_register(adev, &eq->mr, NULL);
	if (err) {
		dev_err(dev, "registering the EQ ring failed: %d\n", err);
		goto err_unmap;
	}
	eq->region = true;
	err = arbel_icm_table_get_range(&adev->icm[ARBEL_ICM_EQC], eq->eqn,
					eq->eqn);
	if (err)
		goto err_unmap;
	eq->icm = true;

	err = arbel_eq_start(adev, msix);
	if (msix && err == -EAGAIN) {
		dev_info(dev, "MSI-X unavailable; trying INTx\n");
		err = arbel_eq_start(adev, false);
	} else if (msix && err == -ETIMEDOUT) {
		dev_warn(dev, "MSI-X failed; trying INTx\n");
		err = arbel_eq_start(adev, false);
	}
	if (err == -ETIMEDOUT || err == -EAGAIN) {
		dev_warn(dev, "interrupts do not work: falling back to polling mode (commands poll the go bit; no events)\n");
		arbel_eq_unmap(adev);
		return 0;
	}
	if (err)
		goto err_unmap;
	dev_info(dev, "event mode: EQ %u, %s interrupt, %u commands at once\n",
		 eq->eqn, arbel_eq_mode_name(eq->mode), adev->cmd.max_cmds);
	return 0;

err_unmap:
	arbel_eq_unmap(adev);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eq_init);

/**
 * arbel_eq_cleanup() - undo arbel_eq_init(): back to polling
 * @adev: the HCA
 *
 * Context: process; sleeps.
 */
void arbel_eq_cleanup(struct arbel_dev *adev)
{
	if (!adev->eq.buf)
		return;
	arbel_eq_stop(adev);
	arbel_eq_unmap(adev);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_eq_cleanup);

static void arbel_catas_poll(struct timer_list *t)
{
	struct arbel_eq *eq = from_timer(eq, t, catas_timer);
	struct arbel_dev *adev = container_of(eq, struct arbel_dev, eq);
	u32 i, w0;

	for (i = 0; i < eq->catas_size; i++)
		if (ioread32be(eq->catas + i * sizeof(u32)))
			break;
	if (i == eq->catas_size) {
		mod_timer(&eq->catas_timer,
			  round_jiffies(jiffies +
					msecs_to_jiffies(ARBEL_CATAS_POLL_MS)));
		return;
	}
	eq->catas_seen = true;
	w0 = ioread32be(eq->catas);
	if (PCI_POSSIBLE_ERROR(w0)) {
		dev_err(&adev->pdev->dev, "catastrophic-error buffer reads all-ones: the device is gone from the bus\n");
		arbel_dev_fatal(adev, "device gone from the bus");
		return;
	}
	dev_err(&adev->pdev->dev, "catastrophic error detected: %s\n",
		arbel_catas_type_name(w0));
	for (i = 0; i < eq->catas_size; i++)
		dev_err(&adev->pdev->dev, "  buf[%02x]: %08x\n", i,
			ioread32be(eq->catas + i * sizeof(u32)));
	arbel_dev_fatal(adev, "catastrophic error");
}

/**
 * arbel_catas_start() - read the catastrophic-error buffer on a timer
 * @adev: the HCA after QUERY_FW
 *
 * The buffer QUERY_FW reports (masked to BAR0, as the EQ registers) is
 * read every %ARBEL_CATAS_POLL_MS; a non-zero dword is a fatal error:
 * the buffer is logged and arbel_dev_fatal() called, once.
 *
 * Context: process.
 */
void arbel_catas_start(struct arbel_dev *adev)
{
	u64 len = pci_resource_len(adev->pdev, ARBEL_DCS_BAR);
	struct arbel_eq *eq = &adev->eq;
	u64 off = arbel_fw_bar0_offset(adev->fw.catas_base, len);

	timer_setup(&eq->catas_timer, arbel_catas_poll, 0);
	eq->catas = NULL;
	if (!adev->fw.catas_size ||
	    off + (u64)adev->fw.catas_size * sizeof(u32) > len) {
		dev_warn(&adev->pdev->dev,
			 "catastrophic-error buffer 0x%llx/%u dwords is not in BAR0; not polled\n",
			 adev->fw.catas_base, adev->fw.catas_size);
		return;
	}
	eq->catas = adev->dcs + off;
	eq->catas_size = adev->fw.catas_size;
	mod_timer(&eq->catas_timer,
		  jiffies + msecs_to_jiffies(ARBEL_CATAS_POLL_MS));
}
EXPORT_SYMBOL_IF_KUNIT(arbel_catas_start);

/**
 * arbel_catas_stop() - undo arbel_catas_start()
 * @adev: the HCA
 *
 * Context: process.
 */
void arbel_catas_stop(struct arbel_dev *adev)
{
	del_timer_sync(&adev->eq.catas_timer);
	adev->eq.catas = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_catas_stop);

static int arbel_eq_mode_show(struct seq_file *m, void *unused)
{
	struct arbel_eq *eq = m->private;

	seq_printf(m, "%s\n", arbel_eq_mode_name(READ_ONCE(eq->mode)));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arbel_eq_mode);

static int arbel_eq_events_show(struct seq_file *m, void *unused)
{
	struct arbel_eq *eq = m->private;
	int i;

	for (i = 0; i < ARBEL_EV_NR; i++)
		if (READ_ONCE(eq->n_events[i]))
			seq_printf(m, "%s 0x%02x %llu\n", arbel_event_name(i),
				   i, READ_ONCE(eq->n_events[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(arbel_eq_events);

/**
 * arbel_eq_debugfs_init() - eq/{mode,interrupts,events,port_up,port_down,
 *	catas_seen}
 * @adev: the HCA
 * @parent: its debugfs directory
 *
 * mode: "msix", "intx" or "polling"; events: one line per event type seen
 * ("NAME 0xTT count").
 *
 * Context: process.
 */
void arbel_eq_debugfs_init(struct arbel_dev *adev, struct dentry *parent)
{
	struct arbel_eq *eq = &adev->eq;

	eq->debugfs = debugfs_create_dir("eq", parent);
	debugfs_create_file("mode", 0400, eq->debugfs, eq,
			    &arbel_eq_mode_fops);
	debugfs_create_file("events", 0400, eq->debugfs, eq,
			    &arbel_eq_events_fops);
	debugfs_create_u64("interrupts", 0400, eq->debugfs,
			   &eq->n_interrupts);
	debugfs_create_u64("port_up", 0400, eq->debugfs, &eq->n_port_up);
	debugfs_create_u64("port_down", 0400, eq->debugfs, &eq->n_port_down);
	debugfs_create_bool("catas_seen", 0400, eq->debugfs, &eq->catas_seen);
}
