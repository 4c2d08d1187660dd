// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPT entry encoding: struct arbel_mpt <-> the 64-byte big-endian image
 * the firmware takes in SW2HW_MPT and returns from QUERY_MPT/HW2SW_MPT,
 * and the mapping between IB access flags and the entry's access bits.
 */

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <kunit/visibility.h>
#include <rdma/ib_verbs.h>

#include <arbel/mpt.h>

static bool arbel_mpt_flags_valid(const struct arbel_mpt *mpt)
{
	return (mpt->pa | mpt->lr | mpt->lw | mpt->rr | mpt->rw | mpt->a |
		mpt->eb | mpt->ei | mpt->zb | mpt->fre | mpt->rae) <= 1;
}

/* 64-bit fields: two dwords, the high half first (see prm.h). */
static void arbel_mpt_put64(u32 dw[ARBEL_MPT_DWORDS], int i, u64 val)
{
	dw[i] = upper_32_bits(val);
	dw[i + 1] = lower_32_bits(val);
}

/**
 * arbel_mpt_validate() - check that an entry can be encoded as the PRM asks
 * @mpt: the entry
 *
 * Refuses values that do not fit their field: status above 0xf, a flag
 * other than 0/1, page_size of 20 or more, pd of 2^24 or more, an MTT
 * address that is not 8-byte aligned or needs more than 38 bits.
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int arbel_mpt_validate(const struct arbel_mpt *mpt)
{
	if (mpt->status > FIELD_MAX(ARBEL_MPT_STATUS) ||
	    !arbel_mpt_flags_valid(mpt) ||
	    mpt->page_size >= ARBEL_MPT_PAGE_SIZE_LIMIT ||
	    mpt->pd >= ARBEL_PD_LIMIT || mpt->mtt_addr & ~ARBEL_MPT_MTT_ADDR)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mpt_validate);

/**
 * arbel_mpt_encode() - build the 64-byte image of a region's MPT entry
 * @mpt: the entry
 * @entry: the 16 big-endian dwords to fill: r_w set (a region), the
 *	   window fields and reserved bits 0
 *
 * Context: any.
 * Return: 0, or -EINVAL if arbel_mpt_validate() refuses @mpt (then @entry
 * is left untouched).
 */
int arbel_mpt_encode(const struct arbel_mpt *mpt,
		     __be32 entry[ARBEL_MPT_DWORDS])
{
	u32 dw[ARBEL_MPT_DWORDS] = {};
	int err, i;

	err = arbel_mpt_validate(mpt);
	if (err)
		return err;

	dw[ARBEL_MPT_DW_FLAGS] =
		ARBEL_MPT_R_W |
		FIELD_PREP(ARBEL_MPT_PA, mpt->pa) |
		FIELD_PREP(ARBEL_MPT_LR, mpt->lr) |
		FIELD_PREP(ARBEL_MPT_LW, mpt->lw) |
		FIELD_PREP(ARBEL_MPT_RR, mpt->rr) |
		FIELD_PREP(ARBEL_MPT_RW, mpt->rw) |
		FIELD_PREP(ARBEL_MPT_A, mpt->a) |
		FIELD_PREP(ARBEL_MPT_EB, mpt->eb) |
		FIELD_PREP(ARBEL_MPT_STATUS, mpt->status);
	dw[ARBEL_MPT_DW_PAGE] = FIELD_PREP(ARBEL_MPT_PAGE_SIZE, mpt->page_size);
	dw[ARBEL_MPT_DW_KEY] = mpt->mem_key;
	dw[ARBEL_MPT_DW_PD] =
		FIELD_PREP(ARBEL_MPT_PD, mpt->pd) |
		FIELD_PREP(ARBEL_MPT_EI, mpt->ei) |
		FIELD_PREP(ARBEL_MPT_ZB, mpt->zb) |
		FIELD_PREP(ARBEL_MPT_FRE, mpt->fre) |
		FIELD_PREP(ARBEL_MPT_RAE, mpt->rae);
	arbel_mpt_put64(dw, ARBEL_MPT_DW_START, mpt->start);
	arbel_mpt_put64(dw, ARBEL_MPT_DW_LENGTH, mpt->length);
	arbel_mpt_put64(dw, ARBEL_MPT_DW_MTT_ADDR,
			mpt->mtt_addr & ARBEL_MPT_MTT_ADDR);
	dw[ARBEL_MPT_DW_MTT_SZ] = mpt->mtt_sz;

	for (i = 0; i < ARBEL_MPT_DWORDS; i++)
		entry[i] = cpu_to_be32(dw[i]);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mpt_encode);

/* Access flags that the MPT expresses; the optional range is best effort. */
#define ARBEL_ACCESS_MAPPED (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ | \
			     IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC | \
			     IB_ACCESS_MW_BIND | IB_ZERO_BASED)
/* A hint the MPT has no use for: pages are described by the MTT anyway. */
#define ARBEL_ACCESS_IGNORED (IB_ACCESS_HUGETLB | IB_ACCESS_OPTIONAL)

/**
 * arbel_mpt_set_access() - set an entry's access bits from IB access flags
 * @mpt: the entry; lr, lw, rr, rw, a, eb and zb are overwritten
 * @ib_access: IB_ACCESS_* flags
 *
 * Local read is always granted.  IB_ACCESS_HUGETLB and the optional flags
 * (e.g. IB_ACCESS_RELAXED_ORDERING) are hints this HCA ignores.
 *
 * Context: any.
 * Return: 0; -EINVAL for unknown flags or remote write/atomic without local
 * write (the IB rule); -EOPNOTSUPP for IB_ACCESS_ON_DEMAND, which the HCA
 * cannot honour.  @mpt is left untouched on error.
 */
int arbel_mpt_set_access(struct arbel_mpt *mpt, int ib_access)
{
	if (ib_access & ~(ARBEL_ACCESS_MAPPED | ARBEL_ACCESS_IGNORED |
			  IB_ACCESS_ON_DEMAND))
		return -EINVAL;
	if ((ib_access & (IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_ATOMIC)) &&
	    !(ib_access & IB_ACCESS_LOCAL_WRITE))
		return -EINVAL;
	if (ib_access & IB_ACCESS_ON_DEMAND)
		return -EOPNOTSUPP;

	mpt->lr = 1;
	mpt->lw = !!(ib_access & IB_ACCESS_LOCAL_WRITE);
	mpt->rr = !!(ib_access & IB_ACCESS_REMOTE_READ);
	mpt->rw = !!(ib_access & IB_ACCESS_REMOTE_WRITE);
	mpt->a = !!(ib_access & IB_ACCESS_REMOTE_ATOMIC);
	mpt->eb = !!(ib_access & IB_ACCESS_MW_BIND);
	mpt->zb = !!(ib_access & IB_ZERO_BASED);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mpt_set_access);

/**
 * arbel_mpt_fast_reg() - the MPT entry an IB_WR_REG_MR gives a
 * fast-registration region
 * @r: the request's key, access and the region's mapping
 * @entry: the 16 big-endian dwords: a region, hardware-owned, translated
 *	   through its MTT entries (not physical, not zero-based)
 *
 * Context: any.
 * Return: 0, or -EINVAL (@entry untouched) for a page size that is not
 * 4 KiB << 0..19, zero-based access, or what arbel_mpt_set_access() or
 * arbel_mpt_validate() refuse.
 */
int arbel_mpt_fast_reg(const struct arbel_fr_reg *r,
		       __be32 entry[ARBEL_MPT_DWORDS])
{
	struct arbel_mpt mpt = {
		.status = ARBEL_MPT_STATUS_HW,
		.mem_key = arbel_key_to_hw(r->key),
		.pd = r->pd,
		.start = r->iova,
		.length = r->length,
		.mtt_addr = r->mtt_addr,
	};

	if (!is_power_of_2(r->page_size) ||
	    r->page_size < BIT(ARBEL_MPT_PAGE_SHIFT_BASE) ||
	    (r->access & IB_ZERO_BASED) || arbel_mpt_set_access(&mpt, r->access))
		return -EINVAL;
	mpt.page_size = ilog2(r->page_size) - ARBEL_MPT_PAGE_SHIFT_BASE;
	return arbel_mpt_encode(&mpt, entry);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_mpt_fast_reg);
