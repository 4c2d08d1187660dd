/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory regions in hardware terms: a key (MPT slot + tag), a range of MTT
 * entries, and the MPT entry the firmware holds.
 */
#ifndef _ARBEL_MR_H
#define _ARBEL_MR_H

#include <linux/types.h>
#include <rdma/ib_umem.h>
#include <rdma/iter.h>

#include <arbel/prm.h>
#include "mtt.h"

struct arbel_dev;

/**
 * struct arbel_mr_hw - one region as the HCA knows it
 * @key: lkey and rkey
 * @slot: MPT table index
 * @mtt: its MTT entries (none for a physical region) and the MPT page
 *	 size (log2)
 * @pdn: protection domain
 * @iova: first virtual address
 * @length: bytes
 * @access: IB access flags
 */
struct arbel_mr_hw {
	u32 key;
	u32 slot;
	struct arbel_mtt mtt;
	u32 pdn;
	u64 iova;
	u64 length;
	int access;
};

int arbel_mr_init_table(struct arbel_dev *adev);
void arbel_mr_cleanup_table(struct arbel_dev *adev);
int arbel_mr_register(struct arbel_dev *adev, struct arbel_mr_hw *mr,
		      struct ib_umem *umem);
int arbel_mr_register_range(struct arbel_dev *adev, struct arbel_mr_hw *mr,
			    struct ib_umem *umem);
int arbel_mr_unregister(struct arbel_dev *adev, struct arbel_mr_hw *mr);
void arbel_mr_release(struct arbel_dev *adev, struct arbel_mr_hw *mr);
int arbel_mr_query(struct arbel_dev *adev, const struct arbel_mr_hw *mr,
		   __be32 entry[ARBEL_MPT_DWORDS]);

#endif /* _ARBEL_MR_H */
