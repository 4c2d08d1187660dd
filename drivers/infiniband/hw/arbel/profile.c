// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ICM profile: how big each context table is and where it sits in the
 * HCA's ICM virtual space.
 *
 * MPT and MTT are sized by the caller (module parameters); every other
 * table INIT_HCA wants gets the fewest objects that hold the firmware's
 * reserved ones plus one more power of two (EE contexts: just the reserved
 * ones, the driver has no RD).  The UAR contexts get one 4 KiB page per
 * UAR of the UAR space.  Every table is a power of two of at least one
 * page, aligned to its own size, none on top of another: INIT_HCA is told
 * a base for each, EEC, EEEC and UARC included.
 *
 * The MTT table goes first, at ICM address 0: the PRM calls the MPT's MTT
 * address "relative to the MTT base" while mthca writes an absolute ICM
 * address; with the table at 0 both readings agree.  The other tables
 * follow, largest first.
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include <arbel/profile.h>

static void arbel_place(struct arbel_icm_place *p, u32 entry_size,
			u8 log_num, u8 log_rsvd, u32 page_size)
{
	p->entry_size = entry_size;
	p->log_num = log_num;
	p->log_rsvd = log_rsvd;
	p->size = max_t(u64, roundup_pow_of_two((u64)entry_size << log_num),
			page_size);
}

static int arbel_place_cmp(const void *a, const void *b)
{
	const struct arbel_icm_place *x = *(const struct arbel_icm_place **)a;
	const struct arbel_icm_place *y = *(const struct arbel_icm_place **)b;

	/* Largest first; equal sizes keep table order. */
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x < y ? -1 : 1;
}

/**
 * arbel_icm_profile() - lay out ICM for the tables INIT_HCA needs
 * @lim: device limits from QUERY_DEV_LIM
 * @log_num_mpts: MPT entries wanted (log2)
 * @log_num_mtts: MTT entries wanted (log2)
 * @page_size: host page size; the smallest table size
 * @layout: filled on success
 *
 * Context: any.
 * Return: 0; -EINVAL if @log_num_mpts does not exceed the reserved MPTs or
 * exceeds the device's or the driver's maximum, if @log_num_mtts does not
 * exceed the reserved MTTs or exceeds the device's or the driver's maximum, if an entry size is 0
 * where it is needed, or if the layout is larger than the device's ICM.
 */
int arbel_icm_profile(const struct arbel_dev_lim *lim, u8 log_num_mpts,
		      u8 log_num_mtts, u32 page_size,
		      struct arbel_icm_layout *layout)
{
	struct arbel_icm_place *order[ARBEL_ICM_NR_PLACES];
	struct arbel_icm_place *t = layout->t;
	u8 log_qps, log_srqs, log_cqs, log_eqs, log_uars;
	u64 base = 0;
	int i, n;

	if (!lim->mpt_entry_sz || !lim->mtt_entry_sz || !lim->qpc_entry_sz ||
	    !lim->cqc_entry_sz || !lim->eqc_entry_sz)
		return -EINVAL;
	if (log_num_mpts <= lim->log_rsvd_mrws ||
	    log_num_mpts > arbel_profile_max_log_mpts(lim))
		return -EINVAL;
	if (log_num_mtts <= lim->log_rsvd_mtts ||
	    log_num_mtts > arbel_profile_max_log_mtts(lim))
		return -EINVAL;

	memset(layout, 0, sizeof(*layout));
	log_qps = min_t(u8, max_t(u8, lim->log_rsvd_qps + 1,
				  ARBEL_PROFILE_LOG_QUEUES), lim->log_max_qps);
	log_srqs = min_t(u8, max_t(u8, lim->log_rsvd_srqs + 1,
				   ARBEL_PROFILE_LOG_QUEUES), lim->log_max_srqs);
	log_cqs = min_t(u8, max_t(u8, lim->log_rsvd_cqs + 1,
				  ARBEL_PROFILE_LOG_QUEUES), lim->log_max_cqs);
	/* room for the driver's EQ, the first one the firmware leaves */
	log_eqs = min_t(u8, max_t(u8, lim->log_rsvd_eqs + 1,
				  ARBEL_PROFILE_LOG_EQS), lim->log_max_eqs);
	layout->num_uars = lim->uar_size / page_size;
	log_uars = layout->num_uars ? ilog2(layout->num_uars) : 0;

	arbel_place(&t[ARBEL_ICM_MPT], lim->mpt_entry_sz, log_num_mpts,
		    lim->log_rsvd_mrws, page_size);
	arbel_place(&t[ARBEL_ICM_MTT], lim->mtt_entry_sz, log_num_mtts,
		    lim->log_rsvd_mtts, page_size);
	arbel_place(&t[ARBEL_ICM_QPC], lim->qpc_entry_sz, log_qps,
		    lim->log_rsvd_qps, page_size);
	arbel_place(&t[ARBEL_ICM_EQPC], max_t(u16, lim->eqpc_entry_sz, 1),
		    log_qps, lim->log_rsvd_qps, page_size);
	arbel_place(&t[ARBEL_ICM_RDB], ARBEL_PROFILE_RDB_ENTRY_SZ *
		    ARBEL_PROFILE_RDB_PER_QP, log_qps, lim->log_rsvd_qps,
		    page_size);
	arbel_place(&t[ARBEL_ICM_SRQC], max_t(u16, lim->srq_entry_sz, 1),
		    log_srqs, lim->log_rsvd_srqs, page_size);
	arbel_place(&t[ARBEL_ICM_CQC], lim->cqc_entry_sz, log_cqs,
		    lim->log_rsvd_cqs, page_size);
	arbel_place(&t[ARBEL_ICM_EQC], lim->eqc_entry_sz, log_eqs,
		    lim->log_rsvd_eqs, page_size);
	arbel_place(&t[ARBEL_ICM_MCG], ARBEL_PROFILE_MGM_ENTRY_SZ,
		    ARBEL_PROFILE_LOG_MGMS, ARBEL_PROFILE_LOG_MGMS, page_size);
	arbel_place(&t[ARBEL_ICM_UAR_SCR],
		    max_t(u16, lim->uar_scratch_entry_sz, 1), log_uars,
		    order_base_2(max_t(u8, lim->num_rsvd_uars, 1)), page_size);
	arbel_place(&t[ARBEL_ICM_EEC], max_t(u16, lim->eec_entry_sz, 1),
		    lim->log_rsvd_eecs, lim->log_rsvd_eecs, page_size);
	arbel_place(&t[ARBEL_ICM_EEEC], max_t(u16, lim->eeec_entry_sz, 1),
		    lim->log_rsvd_eecs, lim->log_rsvd_eecs, page_size);
	arbel_place(&t[ARBEL_ICM_UARC], ARBEL_PROFILE_UARC_ENTRY_SZ, log_uars,
		    0, page_size);

	order[0] = &t[ARBEL_ICM_MTT];
	for (i = 0, n = 1; i < ARBEL_ICM_NR_PLACES; i++)
		if (i != ARBEL_ICM_MTT)
			order[n++] = &t[i];
	sort(order + 1, n - 1, sizeof(order[0]), arbel_place_cmp, NULL);
	for (i = 0; i < n; i++) {
		order[i]->base = ALIGN(base, order[i]->size);
		base = order[i]->base + order[i]->size;
	}
	layout->total = base;
	if (layout->total > lim->max_icm_sz)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_profile);

/**
 * arbel_icm_chunk_index() - the chunk of a table that holds an object
 * @place: the table
 * @chunk_size: bytes per chunk
 * @obj: object number; bits above the table size (key tags) are ignored
 *
 * Context: any.
 * Return: the chunk index.
 */
u32 arbel_icm_chunk_index(const struct arbel_icm_place *place,
			  u32 chunk_size, u32 obj)
{
	u64 idx = obj & ((1ULL << place->log_num) - 1);

	return div_u64(idx * place->entry_size, chunk_size);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_icm_chunk_index);
