// SPDX-License-Identifier: GPL-2.0-only
/*
 * Memory regions: the life of an MPT entry and its MTT.
 *
 * Register: key (slot + tag) -> MTT range -> the MPT entry, built once ->
 * ICM chunk of the MPT slot -> MTT entries (mtt.c: CPU stores into ICM by
 * default, WRITE_MTT with debugfs write_mtt set) -> SW2HW_MPT.  Unregister:
 * HW2SW_MPT, then the same steps undone in reverse.  Every failure undoes
 * exactly what was done before it.
 */

#include <linux/align.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/timekeeping.h>

#include <arbel/mpt.h>
#include "arbel.h"
#include "mr.h"
#include "mtt.h"

/*
 * The first tag of the next key allocator, kept by the module across every
 * device's lives (a recovery, an unbind and bind): each teardown raises it
 * past the tags that device handed out, so an lkey or rkey from before
 * never names a region again (issue 30) until a slot's 2^32 / num_mpts
 * tags are spent.  The module's first use starts it at the seconds since
 * boot, one tag a second: a reloaded module does not start from 0 again
 * either (only a slot used more often than once a second since boot could
 * meet an old key).
 */
static DEFINE_MUTEX(arbel_key_epoch_lock);
static u32 arbel_key_epoch;
static bool arbel_key_epoch_set;

static u32 arbel_key_epoch_get(u32 num_mpts)
{
	u32 tag;

	mutex_lock(&arbel_key_epoch_lock);
	if (!arbel_key_epoch_set) {
		arbel_key_epoch = (u32)ktime_get_boottime_seconds() * num_mpts;
		arbel_key_epoch_set = true;
	}
	/* the next multiple of the table size */
	tag = ALIGN(arbel_key_epoch, num_mpts);
	mutex_unlock(&arbel_key_epoch_lock);
	return tag;
}

static void arbel_key_epoch_put(const struct arbel_keys *keys)
{
	u32 next = arbel_keys_next_tag(keys);

	mutex_lock(&arbel_key_epoch_lock);
	if ((s32)(next - arbel_key_epoch) > 0)
		arbel_key_epoch = next;
	mutex_unlock(&arbel_key_epoch_lock);
}

/**
 * arbel_mr_init_table() - set up the key and MTT allocators
 * @adev: the HCA, after INIT_HCA
 *
 * Context: process.
 * Return: 0 or a negative errno.
 */
int arbel_mr_init_table(struct arbel_dev *adev)
{
	const struct arbel_icm_place *mpt = &adev->layout.t[ARBEL_ICM_MPT];
	const struct arbel_icm_place *mtt = &adev->layout.t[ARBEL_ICM_MTT];
	int err;

	err = arbel_keys_init(&adev->keys, 1U << mpt->log_num,
			      1U << mpt->log_rsvd,
			      arbel_key_epoch_get(1U << mpt->log_num));
	if (err)
		return err;
	err = arbel_mtt_pool_init(&adev->mtt, 1U << mtt->log_num,
				  1U << mtt->log_rsvd);
	if (err)
		goto err_keys;
	err = arbel_mtt_icm_init(adev);
	if (err)
		goto err_pool;
	return 0;

err_pool:
	arbel_mtt_pool_destroy(&adev->mtt);
err_keys:
	arbel_keys_destroy(&adev->keys);
	return err;
}

/**
 * arbel_mr_cleanup_table() - undo arbel_mr_init_table()
 * @adev: the HCA; every region must have been unregistered
 *
 * Context: process.
 */
void arbel_mr_cleanup_table(struct arbel_dev *adev)
{
	arbel_mtt_icm_release(adev);
	arbel_mtt_pool_destroy(&adev->mtt);
	arbel_key_epoch_put(&adev->keys);
	arbel_keys_destroy(&adev->keys);
}

static int arbel_mr_build_mpt(struct arbel_dev *adev,
			      const struct arbel_mr_hw *mr,
			      __be32 entry[ARBEL_MPT_DWORDS])
{
	struct arbel_mpt mpt = {
		.status = ARBEL_MPT_STATUS_SW,
		.pa = !mr->mtt.n,
		.page_size = mr->mtt.page_shift - ARBEL_MPT_PAGE_SHIFT_BASE,
		.mem_key = arbel_key_to_hw(mr->key),
		.pd = mr->pdn,
		.start = mr->iova,
		.length = mr->length,
		.mtt_addr = mr->mtt.n ? arbel_mtt_addr(adev, mr->mtt.first) : 0,
	};
	int err;

	err = arbel_mpt_set_access(&mpt, mr->access);
	if (err)
		return err;
	return arbel_mpt_encode(&mpt, entry);
}

/**
 * arbel_mr_register() - make a region known to the HCA
 * @adev: the HCA
 * @mr: pdn, iova, length, access and mtt.page_shift filled in; on success
 *	key, slot and the MTT range are set
 * @umem: the pinned pages, or NULL for a physical region (no translation)
 *
 * The key and the MTT range are allocated first, so that the MPT entry,
 * which carries both, is built once and checked before anything is mapped
 * or sent to the firmware.
 *
 * Context: process; sleeps.
 * Return: 0; -ENOMEM when no MPT slot or MTT range is left; -EINVAL or
 * -EOPNOTSUPP for what the MPT cannot express; the firmware's errno.
 * Nothing is left allocated or mapped on error; if a command was lost
 * (the device failed), the HCA has been reset before this returns, so
 * that the caller may release the pages.
 */
int arbel_mr_register(struct arbel_dev *adev, struct arbel_mr_hw *mr,
		      struct ib_umem *umem)
{
	mr->mtt.n = umem ? ib_umem_num_dma_blocks(umem,
						  1UL << mr->mtt.page_shift) : 0;
	return arbel_mr_register_range(adev, mr, umem);
}

/**
 * arbel_mr_register_range() - make a region known to the HCA, its MTT
 * range sized by the caller
 * @adev: the HCA
 * @mr: as for arbel_mr_register(), and mtt.n set: the entries to take
 * @umem: the pinned pages the entries map, or NULL: the entries are
 *	  taken, their chunks held, and left for the caller to write (a
 *	  fast-registration region, frmr.c, whose length is 0 until then)
 *
 * Context: process; sleeps.
 * Return: as arbel_mr_register().
 */
int arbel_mr_register_range(struct arbel_dev *adev, struct arbel_mr_hw *mr,
			    struct ib_umem *umem)
{
	struct arbel_icm_table *mpt_tbl = &adev->icm[ARBEL_ICM_MPT];
	__be32 entry[ARBEL_MPT_DWORDS];
	int err;

	err = arbel_key_alloc(&adev->keys, &mr->key);
	if (err)
		return err;
	mr->slot = arbel_key_slot(mr->key, adev->keys.num_mpts);
	if (mr->mtt.n) {
		err = arbel_mtt_alloc(&adev->mtt, mr->mtt.n, &mr->mtt.first);
		if (err)
			goto err_key;
	}

	err = arbel_mr_build_mpt(adev, mr, entry);
	if (err)
		goto err_mtt;
	err = arbel_icm_table_get_range(mpt_tbl, mr->slot, mr->slot);
	if (err)
		goto err_mtt;
	if (mr->mtt.n) {
		err = umem ? arbel_mtt_write(adev, &mr->mtt, umem) :
			     arbel_mtt_icm_hold(adev, mr->mtt.first,
						mr->mtt.n);
		if (err)
			goto err_mpt_icm;
	}

	err = arbel_fw_sw2hw_mpt(&adev->cmd, mr->slot, entry);
	if (err)
		goto err_mpt_icm;
	return 0;

err_mpt_icm:
	arbel_icm_table_put_range(mpt_tbl, mr->slot, mr->slot);
err_mtt:
	if (mr->mtt.n)
		arbel_mtt_free(&adev->mtt, mr->mtt.first, mr->mtt.n);
err_key:
	arbel_key_free(&adev->keys, mr->key);
	/* a lost command: the caller frees the pages only after the reset */
	if (arbel_cmd_failed(&adev->cmd))
		arbel_dev_fail(adev, "registration failed");
	return err;
}

/**
 * arbel_mr_unregister() - take a region back from the HCA and free it
 * @adev: the HCA
 * @mr: a registered region
 *
 * If HW2SW_MPT fails -- refused by the firmware, timed out, or the device
 * has already failed -- the HCA may still use the entry, its MTT and the
 * pages behind them.  Keeping the region would leak it for good (the RDMA
 * core drops a region whose dereg fails at process exit or removal);
 * freeing it as is would hand the HCA's memory back to the kernel.  So
 * the device is failed and reset first (arbel_dev_fail()), after which the
 * HCA owns nothing and everything is freed.  See "Failure policy" in
 * Documentation/arbel.rst.
 *
 * Context: process; sleeps.
 * Return: 0; the region is always gone.
 */
int arbel_mr_unregister(struct arbel_dev *adev, struct arbel_mr_hw *mr)
{
	int err;

	err = arbel_fw_hw2sw_mpt(&adev->cmd, mr->slot);
	if (err) {
		if (!arbel_cmd_failed(&adev->cmd))
			dev_warn(&adev->pdev->dev,
				 "HW2SW_MPT of key 0x%08x failed: %d\n",
				 mr->key, err);
		arbel_dev_fail(adev, "HW2SW_MPT failed");
	}
	arbel_mr_release(adev, mr);
	return 0;
}

/**
 * arbel_mr_release() - free a region the HCA no longer uses, without a
 * command
 * @adev: the HCA
 * @mr: a registered region whose MPT entry is software-owned in ICM and
 *	which the HCA's TPT cache no longer holds (HW2SW_MPT done, or a
 *	fast-registration region invalidated and SYNC_TPT done since, as
 *	mthca freed an unmapped FMR: no HW2SW_MPT)
 *
 * Context: process; sleeps.
 */
void arbel_mr_release(struct arbel_dev *adev, struct arbel_mr_hw *mr)
{
	arbel_icm_table_put_range(&adev->icm[ARBEL_ICM_MPT], mr->slot,
				  mr->slot);
	if (mr->mtt.n)
		arbel_mtt_free(&adev->mtt, mr->mtt.first, mr->mtt.n);
	arbel_key_free(&adev->keys, mr->key);
	/* a refused UNMAP_ICM held its chunk: reset now, which frees it */
	if (arbel_cmd_failed(&adev->cmd))
		arbel_dev_fail(adev, "UNMAP_ICM failed");
}

/**
 * arbel_mr_query() - the MPT entry the firmware holds for a region
 * @adev: the HCA
 * @mr: a registered region
 * @entry: receives the 64-byte entry
 *
 * Context: process; sleeps.
 * Return: 0 or the firmware's errno.
 */
int arbel_mr_query(struct arbel_dev *adev, const struct arbel_mr_hw *mr,
		   __be32 entry[ARBEL_MPT_DWORDS])
{
	return arbel_fw_query_mpt(&adev->cmd, mr->slot, entry);
}
