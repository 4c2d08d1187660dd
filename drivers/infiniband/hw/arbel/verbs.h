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
struct arbel_db_table;

/**
 * struct arbel_ib - the RDMA core's device of one bring-up of an HCA
 * @ibdev: core object (first: allocated by ib_alloc_device())
 * @adev: the HCA, which outlives it: a recovery unregisters this one and
 *	  registers a new one
 */
struct arbel_ib {
	struct ib_device ibdev;
	struct arbel_dev *adev;
};

static inline struct arbel_dev *to_adev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct arbel_ib, ibdev)->adev;
}

/**
 * struct arbel_ucontext - a user context
 * @ibucontext: core object
 * @uar: the UAR page mapped into the process
 * @db: the doorbell pages of its queues (db.c)
 * @pds: its PDs by number: a CQ request names its buffer's PD by number
 *	 (struct mthca_create_cq), which must be one of them
 */
struct arbel_ucontext {
	struct ib_ucontext ibucontext;
	u32 uar;
	struct arbel_db_table *db;
	struct xarray pds;
};

/**
 * struct arbel_pd - a protection domain
 * @ibpd: core object
 * @pdn: PD number the MPT entries carry
 * @ctx: the user context it belongs to (NULL: the kernel's)
 */
struct arbel_pd {
	struct ib_pd ibpd;
	u32 pdn;
	struct arbel_ucontext *ctx;
};

static inline struct arbel_pd *to_apd(struct ib_pd *ibpd)
{
	return container_of(ibpd, struct arbel_pd, ibpd);
}

/**
 * struct arbel_mr - a memory region
 * @ibmr: core object
 * @umem: pinned user pages (NULL for the DMA region)
 * @hw: what the HCA holds
 * @fr: a fast-registration region's own state (frmr.h), else NULL
 */
struct arbel_mr {
	struct ib_mr ibmr;
	struct ib_umem *umem;
	struct arbel_mr_hw hw;
	struct arbel_fr *fr;
};

static inline struct arbel_mr *to_amr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct arbel_mr, ibmr);
}

int arbel_register_ibdev(struct arbel_dev *adev);
void arbel_unregister_ibdev(struct arbel_dev *adev);

#endif /* _ARBEL_VERBS_H */
