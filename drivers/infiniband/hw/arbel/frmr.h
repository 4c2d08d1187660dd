/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fast-registration regions (frmr.c): ib_alloc_mr() regions whose MPT
 * entry and MTT entries the driver rewrites in ICM with the CPU when a
 * REG_MR work request is executed, and marks software-owned when a
 * LOCAL_INV is (SYNC_TPT after it, in the send queue's order: kqp_fr.c).
 */
#ifndef _ARBEL_FRMR_H
#define _ARBEL_FRMR_H

#include <linux/types.h>
#include <rdma/ib_verbs.h>

struct arbel_dev;
struct arbel_mr;

/* the most pages one fast-registration region maps */
#define ARBEL_FR_MAX_PAGES	512

/* what ib_update_fast_reg_key() may change in a key: its low byte */
#define ARBEL_FR_KEY_BYTE	GENMASK(7, 0)

/**
 * struct arbel_fr - what a fast-registration region has beside its MPT
 * @mpt: its MPT entry in ICM: the CPU address (the slot's chunk is held
 *	 by the region)
 * @mtt: the CPU address of each of its MTT entries in ICM
 * @pages: the bus addresses of its pages, set by ib_map_mr_sg()
 * @npages: pages set
 * @max_pages: room in @pages and @mtt
 * @key: the key the last REG_MR posted gives it
 * @posted: bit %ARBEL_FR_VALID: valid once the work requests posted so
 *	    far are executed
 * @hw_valid: its MPT entry is hardware-owned in ICM now
 */
struct arbel_fr {
	__be32 *mpt;
	__be64 **mtt;
	u64 *pages;
	u32 npages;
	u32 max_pages;
	u32 key;
	unsigned long posted;
	bool hw_valid;
};

#define ARBEL_FR_VALID	0

struct ib_mr *arbel_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg);
int arbel_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset);
void arbel_fr_free(struct arbel_dev *adev, struct arbel_mr *mr);
int arbel_fr_check_reg(struct ib_pd *pd, const struct ib_reg_wr *wr);
struct arbel_mr *arbel_fr_check_inv(struct arbel_dev *adev, struct ib_pd *pd,
				    u32 rkey);
void arbel_fr_map(struct arbel_mr *mr, u32 key, int access);
void arbel_fr_unmap(struct arbel_mr *mr);

#endif /* _ARBEL_FRMR_H */
