/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The ib_device: verbs objects and their ops.
 */
#ifndef _ARBEL_VERBS_H
#define _ARBEL_VERBS_H

#include <rdma/ib_umem.h>
#include <rdma/ib_verbs.h>

#include "mr.h"

struct arbel_dev;

/**
 * struct arbel_ucontext - a user context
 * @ibucontext: core object
 * @uar: the UAR page mapped into the process
 */
struct arbel_ucontext {
	struct ib_ucontext ibucontext;
	u32 uar;
};

/**
 * struct arbel_pd - a protection domain
 * @ibpd: core object
 * @pdn: PD number the MPT entries carry
 */
struct arbel_pd {
	struct ib_pd ibpd;
	u32 pdn;
};

/**
 * struct arbel_mr - a memory region
 * @ibmr: core object
 * @umem: pinned user pages (NULL for the DMA region)
 * @hw: what the HCA holds
 */
struct arbel_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct arbel_mr_hw hw;
};

int arbel_register_ibdev(struct arbel_dev *adev);
void arbel_unregister_ibdev(struct arbel_dev *adev);

#endif /* _ARBEL_VERBS_H */
