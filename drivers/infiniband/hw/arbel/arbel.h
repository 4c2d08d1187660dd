/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Driver-private state of one Arbel HCA.
 */
#ifndef _ARBEL_H
#define _ARBEL_H

#include <linux/pci.h>

#define ARBEL_DRV_NAME		"arbel"

/**
 * struct arbel_dev - one Arbel HCA
 * @pdev: the PCI function
 * @dcs: BAR0, the device configuration space (HCR, reset register)
 */
struct arbel_dev {
	struct pci_dev *pdev;
	void __iomem *dcs;
};

#endif /* _ARBEL_H */
