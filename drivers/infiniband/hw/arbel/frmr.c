// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fast-registration regions: IB_MR_TYPE_MEM_REG regions of ib_alloc_mr(),
 * registered and invalidated by work requests (IB_WR_REG_MR,
 * IB_WR_LOCAL_INV) instead of firmware commands.
 *
 * No source gives this HCA's fast-registration or local-invalidate WQE
 * opcode (Documentation/arbel.rst, "Fast registration"), so the driver
 * does the work with the mechanism mem-free mthca's FMRs used: the CPU
 * rewrites the MPT entry in ICM.  Allocation takes a key, a range of
 * max_num_sg MTT entries and the MPT entry (SW2HW_MPT, length 0), and
 * marks the entry software-owned: the region starts invalid.  A REG_MR
 * then costs no command: status software-owned, the MTT entries, the
 * entry's other fields, status hardware-owned, each step ordered by a
 * write barrier.  A LOCAL_INV marks the entry software-owned and needs
 * one SYNC_TPT before it completes, so that the HCA's TPT cache forgets
 * the old key.  kqp_fr.c runs both in the send queue's order.
 *
 * Deregistration of a valid region is HW2SW_MPT; of an invalid one, no
 * command (its entry is software-owned and no longer cached), as mthca
 * freed an unmapped FMR.
 */

#include <linux/bitfield.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include <arbel/mpt.h>
#include <arbel/pgsz.h>
#include "arbel.h"
#include "frmr.h"
#include "verbs.h"

static __be32 arbel_fr_sw(__be32 dword0)
{
	return dword0 | cpu_to_be32(FIELD_PREP(ARBEL_MPT_STATUS,
					       ARBEL_MPT_STATUS_SW));
}

/* the entry a REG_MR of @key with @access gives @mr as mapped now */
static int arbel_fr_entry(struct arbel_mr *mr, u32 key, int access,
			  __be32 img[ARBEL_MPT_DWORDS])
{
	struct arbel_fr_reg r = {
		.key = key,
		.pd = mr->hw.pdn,
		.access = access,
		.page_size = mr->ibmr.page_size,
		.iova = mr->ibmr.iova,
		.length = mr->ibmr.length,
		.mtt_addr = arbel_mtt_addr(to_adev(mr->ibmr.device),
					   mr->hw.mtt.first),
	};

	return arbel_mpt_fast_reg(&r, img);
}

/**
 * arbel_alloc_mr() - a fast-registration region, invalid until a REG_MR
 * @ibpd: its PD
 * @type: IB_MR_TYPE_MEM_REG (no other type is offered)
 * @max_num_sg: the most pages it may map, at most %ARBEL_FR_MAX_PAGES
 *
 * Context: process; sleeps.
 * Return: the region, or ERR_PTR(-EINVAL) for another type or size,
 * -ENOMEM, or the firmware's errno; nothing is left on error.
 */
struct ib_mr *arbel_alloc_mr(struct ib_pd *ibpd, enum ib_mr_type type,
			     u32 max_num_sg)
{
	struct arbel_dev *adev = to_adev(ibpd->device);
	struct arbel_mr *mr;
	struct arbel_fr *fr;
	int err = -ENOMEM;

	if (type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > ARBEL_FR_MAX_PAGES)
		return ERR_PTR(-EINVAL);
	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	fr = kzalloc(sizeof(*fr), GFP_KERNEL);
	if (!mr || !fr)
		goto err_free;
	fr->pages = kcalloc(max_num_sg, sizeof(*fr->pages), GFP_KERNEL);
	fr->mtt = kcalloc(max_num_sg, sizeof(*fr->mtt), GFP_KERNEL);
	if (!fr->pages || !fr->mtt)
		goto err_free;
	fr->max_pages = max_num_sg;
	mr->fr = fr;
	mr->hw.pdn = to_apd(ibpd)->pdn;
	mr->hw.mtt.page_shift = ARBEL_MPT_PAGE_SHIFT_BASE;
	mr->hw.mtt.n = max_num_sg;

	err = arbel_mr_register_range(adev, &mr->hw, NULL);
	if (err)
		goto err_free;
	fr->mpt = arbel_icm_table_find(&adev->icm[ARBEL_ICM_MPT], mr->hw.slot,
				       NULL, NULL);
	err = fr->mpt ? arbel_mtt_cpu_map(adev, &mr->hw.mtt, fr->mtt) : -EIO;
	if (err)
		goto err_unregister;
	fr->key = mr->hw.key;
	err = xa_insert(&adev->fr_xa, mr->hw.slot, mr, GFP_KERNEL);
	if (err)
		goto err_unregister;
	/*
	 * Invalid until the first REG_MR.  SW2HW_MPT dropped the slot from
	 * the TPT cache and no one has the key yet: no SYNC_TPT is needed.
	 */
	WRITE_ONCE(fr->mpt[0], arbel_fr_sw(READ_ONCE(fr->mpt[0])));
	/* software-owned before anyone learns the key */
	wmb();
	mr->ibmr.lkey = mr->hw.key;
	mr->ibmr.rkey = mr->hw.key;
	return &mr->ibmr;

err_unregister:
	arbel_mr_unregister(adev, &mr->hw);
err_free:
	if (fr) {
		kfree(fr->mtt);
		kfree(fr->pages);
	}
	kfree(fr);
	kfree(mr);
	return ERR_PTR(err);
}

/**
 * arbel_fr_free() - deregister a fast-registration region
 * @adev: the HCA
 * @mr: the region; no work request that uses it is outstanding
 *
 * Context: process; sleeps.
 */
void arbel_fr_free(struct arbel_dev *adev, struct arbel_mr *mr)
{
	struct arbel_fr *fr = mr->fr;

	xa_erase(&adev->fr_xa, mr->hw.slot);
	if (fr->hw_valid)
		arbel_mr_unregister(adev, &mr->hw);
	else
		arbel_mr_release(adev, &mr->hw);
	kfree(fr->mtt);
	kfree(fr->pages);
	kfree(fr);
}

static int arbel_fr_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct arbel_fr *fr = to_amr(ibmr)->fr;

	if (fr->npages == fr->max_pages)
		return -ENOMEM;
	fr->pages[fr->npages++] = addr;
	return 0;
}

/**
 * arbel_map_mr_sg() - set a fast-registration region's pages
 * @ibmr: the region (the core has set its page size)
 * @sg: the DMA-mapped scatter list
 * @sg_nents: its entries
 * @sg_offset: the first byte's offset in @sg, or NULL
 *
 * The pages are kept here; the next REG_MR writes them into the MTT.
 *
 * Context: any.
 * Return: the entries mapped (fewer when a gap or the page count stops
 * it), or -EINVAL for a region of another kind or a page size the MPT
 * has not.
 */
int arbel_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg, int sg_nents,
		    unsigned int *sg_offset)
{
	struct arbel_fr *fr = to_amr(ibmr)->fr;

	if (!fr || !is_power_of_2(ibmr->page_size) ||
	    !(ibmr->page_size & ARBEL_MPT_PAGE_SIZES))
		return -EINVAL;
	fr->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset,
			      arbel_fr_set_page);
}

/**
 * arbel_fr_check_reg() - whether a REG_MR may be posted; if so, the
 * region is valid from here on in posting order
 * @pd: the QP's PD
 * @wr: the request
 *
 * Context: any.
 * Return: 0, or -EINVAL: not a fast-registration region, another PD, a
 * key that changes more than its low byte, access flags the MPT cannot
 * express or breaking the IB rule (remote write or atomic without local
 * write), or a region already valid (invalidate it first).
 */
int arbel_fr_check_reg(struct ib_pd *pd, const struct ib_reg_wr *wr)
{
	struct arbel_mr *mr = to_amr(wr->mr);
	struct arbel_fr *fr = mr->fr;
	__be32 img[ARBEL_MPT_DWORDS];

	if (!fr || wr->mr->pd != pd ||
	    (wr->key & ~ARBEL_FR_KEY_BYTE) !=
	    (mr->hw.key & ~ARBEL_FR_KEY_BYTE) ||
	    arbel_fr_entry(mr, wr->key, wr->access, img))
		return -EINVAL;
	if (test_and_set_bit(ARBEL_FR_VALID, &fr->posted))
		return -EINVAL;
	WRITE_ONCE(fr->key, wr->key);
	return 0;
}

/**
 * arbel_fr_check_inv() - whether a LOCAL_INV may be posted; if so, the
 * region is invalid from here on in posting order
 * @adev: the HCA
 * @pd: the QP's PD
 * @rkey: the key to invalidate
 *
 * Context: any.
 * Return: the region, or NULL: no fast-registration region has @rkey as
 * its key, or it is in another PD.
 */
struct arbel_mr *arbel_fr_check_inv(struct arbel_dev *adev, struct ib_pd *pd,
				    u32 rkey)
{
	struct arbel_mr *mr;

	mr = xa_load(&adev->fr_xa, arbel_key_slot(rkey, adev->keys.num_mpts));
	if (!mr || mr->ibmr.pd != pd || READ_ONCE(mr->fr->key) != rkey)
		return NULL;
	clear_bit(ARBEL_FR_VALID, &mr->fr->posted);
	return mr;
}

/**
 * arbel_fr_map() - execute a REG_MR: the region's MPT and MTT entries
 * rewritten in ICM
 * @mr: the region, invalid (checked by arbel_fr_check_reg())
 * @key: its new key
 * @access: its IB access flags
 *
 * The entry is software-owned while its MTT entries and fields change,
 * then hardware-owned again; the HCA does not cache an entry it found
 * software-owned, and the last LOCAL_INV's SYNC_TPT (or the allocation's
 * SW2HW_MPT) emptied its cache of the region.
 *
 * Context: any (the send queue's lock held).
 */
void arbel_fr_map(struct arbel_mr *mr, u32 key, int access)
{
	struct arbel_fr *fr = mr->fr;
	__be32 img[ARBEL_MPT_DWORDS];
	u32 i;

	if (WARN_ON(arbel_fr_entry(mr, key, access, img)))
		return;
	WRITE_ONCE(fr->mpt[0], arbel_fr_sw(img[0]));
	/* software-owned before anything else changes */
	wmb();
	for (i = 0; i < fr->npages; i++)
		WRITE_ONCE(*fr->mtt[i], arbel_mtt_entry(fr->pages[i]));
	for (i = 1; i < ARBEL_MPT_DWORDS; i++)
		WRITE_ONCE(fr->mpt[i], img[i]);
	/* the entry complete before the HCA owns it again */
	wmb();
	WRITE_ONCE(fr->mpt[0], img[0]);
	fr->hw_valid = true;
}

/**
 * arbel_fr_unmap() - execute a LOCAL_INV's first half: the region's MPT
 * entry software-owned
 * @mr: the region
 *
 * The HCA may still hold the entry in its TPT cache: the caller issues
 * SYNC_TPT (after a write barrier) before the LOCAL_INV completes.
 *
 * Context: any (the send queue's lock held).
 */
void arbel_fr_unmap(struct arbel_mr *mr)
{
	struct arbel_fr *fr = mr->fr;

	WRITE_ONCE(fr->mpt[0], arbel_fr_sw(READ_ONCE(fr->mpt[0])));
	fr->hw_valid = false;
}
