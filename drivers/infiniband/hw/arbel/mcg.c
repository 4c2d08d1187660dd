// SPDX-License-Identifier: GPL-2.0-only
/*
 * Multicast groups: attaching a UD QP to a group's GID and detaching it,
 * in the HCA's multicast group table.
 *
 * The table lives in ICM, mapped whole at start (profile.c); the firmware
 * reads and writes its entries (READ_MGM, WRITE_MGM) and tells where a
 * GID's chain starts (MGID_HASH, a hash table index).  A group is the
 * entry whose GID it is: the hash table entry itself, or an overflow
 * entry linked behind it (bits 31:6 of dword 0, the PRM's next_gid_index).
 * An entry holds up to %ARBEL_MGM_QPS member QPs; the HCA delivers a UD
 * packet whose GRH names the GID to each.  Detaching the last member frees
 * the entry: a hash entry takes over the one linked behind it, an overflow
 * entry is unlinked from its predecessor.  Every change is serialised by
 * one mutex; the table's entries are read and written only through the
 * firmware.
 */

#include <linux/bitfield.h>
#include <linux/string.h>

#include "arbel.h"
#include "queue.h"
#include "verbs.h"

static_assert(ARBEL_MGM_SIZE == ARBEL_PROFILE_MGM_ENTRY_SZ);

typedef __be32 arbel_mgm_t[ARBEL_MGM_DWORDS];

/* where a GID is in the table, or where its entry would go */
struct arbel_mgm_pos {
	u32 hash;	/* the chain's first entry */
	u32 index;	/* the entry holding the GID, or the chain's last */
	s64 prev;	/* the entry before @index in the chain, -1: none */
	bool found;	/* @index holds the GID */
};

static u32 arbel_mgm_next(const arbel_mgm_t mgm)
{
	return FIELD_GET(ARBEL_MGM_NEXT, be32_to_cpu(mgm[ARBEL_MGM_NEXT_DW]));
}

static void arbel_mgm_set_next(arbel_mgm_t mgm, u32 next)
{
	mgm[ARBEL_MGM_NEXT_DW] = cpu_to_be32(FIELD_PREP(ARBEL_MGM_NEXT, next));
}

static const u8 *arbel_mgm_gid(const arbel_mgm_t mgm)
{
	return (const u8 *)&mgm[ARBEL_MGM_GID_DW];
}

static bool arbel_mgm_empty(const arbel_mgm_t mgm)
{
	return !memchr_inv(arbel_mgm_gid(mgm), 0, ARBEL_GID_LEN);
}

/* the slot of @qpn in @mgm, or of the first free one (@qpn 0 never is) */
static int arbel_mgm_slot(const arbel_mgm_t mgm, u32 qpn, bool free_one)
{
	int i;

	for (i = 0; i < ARBEL_MGM_QPS; i++) {
		u32 v = be32_to_cpu(mgm[ARBEL_MGM_QP_DW + i]);
		bool valid = v & ARBEL_MGM_QP_VALID;

		if (free_one ? !valid :
		    valid && FIELD_GET(ARBEL_MGM_QPN, v) == qpn)
			return i;
	}
	return -1;
}

/* the members of @mgm: the valid ones first, as attach keeps them */
static int arbel_mgm_members(const arbel_mgm_t mgm)
{
	int n = arbel_mgm_slot(mgm, 0, true);

	return n < 0 ? ARBEL_MGM_QPS : n;
}

/*
 * Walk @gid's chain from its hash entry.  @mgm receives the entry at
 * @pos->index.  A chain longer than the table is a corrupted table.
 */
static int arbel_mgm_find(struct arbel_dev *adev, const u8 *gid,
			  arbel_mgm_t mgm, struct arbel_mgm_pos *pos)
{
	u32 hops;
	int err;

	err = arbel_fw_mgid_hash(&adev->cmd, gid, &pos->hash);
	if (err)
		return err;
	if (pos->hash >= adev->mcg.hash_sz)
		return -EIO;
	pos->index = pos->hash;
	pos->prev = -1;
	for (hops = 0; hops < adev->mcg.num; hops++) {
		u32 next;

		err = arbel_fw_read_mgm(&adev->cmd, pos->index, mgm);
		if (err)
			return err;
		pos->found = !memcmp(arbel_mgm_gid(mgm), gid, ARBEL_GID_LEN);
		next = arbel_mgm_next(mgm);
		if (pos->found || !next)
			return 0;
		if (next < adev->mcg.hash_sz || next >= adev->mcg.num)
			return -EIO;
		pos->prev = pos->index;
		pos->index = next;
	}
	return -EIO;
}

static int arbel_mgm_write_zero(struct arbel_dev *adev, u32 index)
{
	static const arbel_mgm_t zero;

	return arbel_fw_write_mgm(&adev->cmd, index, zero);
}

/* a new overflow entry for @gid with member @qpn, linked behind @pos */
static int arbel_mgm_link_new(struct arbel_dev *adev, const u8 *gid,
			      u32 qpn, arbel_mgm_t last,
			      const struct arbel_mgm_pos *pos)
{
	arbel_mgm_t mgm = {};
	int index, err;

	index = ida_alloc_range(&adev->mcg.amgm, adev->mcg.hash_sz,
				adev->mcg.num - 1, GFP_KERNEL);
	if (index < 0)
		return index == -ENOSPC ? -ENOMEM : index;
	memcpy(&mgm[ARBEL_MGM_GID_DW], gid, ARBEL_GID_LEN);
	mgm[ARBEL_MGM_QP_DW] = cpu_to_be32(ARBEL_MGM_QP_VALID | qpn);
	err = arbel_fw_write_mgm(&adev->cmd, index, mgm);
	if (err)
		goto free;
	arbel_mgm_set_next(last, index);
	err = arbel_fw_write_mgm(&adev->cmd, pos->index, last);
	if (!err)
		return 0;
	arbel_mgm_write_zero(adev, index);
free:
	ida_free(&adev->mcg.amgm, index);
	return err;
}

/**
 * arbel_attach_mcast() - make a UD QP a member of a multicast group
 * @ibqp: the QP
 * @gid: the group's GID (a multicast GID: 0xff first)
 * @lid: its multicast LID (the switch's business, not the HCA's)
 *
 * Context: process; sleeps.
 * Return: 0 (also if the QP already is a member); -EINVAL for a GID that
 * is not multicast or a QP not UD; -ENOMEM if the group is full or the
 * table has no free entry; a firmware error.
 */
int arbel_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	u32 qpn = ibqp->qp_num;
	struct arbel_mgm_pos pos;
	arbel_mgm_t mgm;
	int slot, err;

	if (gid->raw[0] != 0xff || ibqp->qp_type != IB_QPT_UD)
		return -EINVAL;
	mutex_lock(&adev->mcg.lock);
	err = arbel_mgm_find(adev, gid->raw, mgm, &pos);
	if (err)
		goto out;
	if (!pos.found && !arbel_mgm_empty(mgm)) {
		err = arbel_mgm_link_new(adev, gid->raw, qpn, mgm, &pos);
		goto out;
	}
	if (arbel_mgm_slot(mgm, qpn, false) >= 0)
		goto out;			/* a member already */
	slot = arbel_mgm_slot(mgm, 0, true);
	if (slot < 0) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(&mgm[ARBEL_MGM_GID_DW], gid->raw, ARBEL_GID_LEN);
	mgm[ARBEL_MGM_QP_DW + slot] = cpu_to_be32(ARBEL_MGM_QP_VALID | qpn);
	err = arbel_fw_write_mgm(&adev->cmd, pos.index, mgm);
out:
	mutex_unlock(&adev->mcg.lock);
	return err;
}

/* @mgm at @pos lost its last member: free the entry */
static int arbel_mgm_release(struct arbel_dev *adev, arbel_mgm_t mgm,
			     const struct arbel_mgm_pos *pos)
{
	u32 next = arbel_mgm_next(mgm);
	arbel_mgm_t prev;
	int err;

	if (pos->prev < 0 && !next)
		return arbel_mgm_write_zero(adev, pos->index);
	if (pos->prev < 0) {
		/* the hash entry takes over the next of its chain */
		err = arbel_fw_read_mgm(&adev->cmd, next, mgm);
		if (!err)
			err = arbel_fw_write_mgm(&adev->cmd, pos->index, mgm);
	} else {
		err = arbel_fw_read_mgm(&adev->cmd, pos->prev, prev);
		if (!err) {
			arbel_mgm_set_next(prev, next);
			err = arbel_fw_write_mgm(&adev->cmd, pos->prev, prev);
		}
		next = pos->index;
	}
	if (err)
		return err;
	/* @next is out of the chain now: clear it and give it back */
	err = arbel_mgm_write_zero(adev, next);
	if (!err)
		ida_free(&adev->mcg.amgm, next);
	return err;
}

/**
 * arbel_detach_mcast() - end a UD QP's membership of a multicast group
 * @ibqp: the QP
 * @gid: the group's GID
 * @lid: its multicast LID (unused)
 *
 * Context: process; sleeps.
 * Return: 0; -EINVAL if the QP is not a member; a firmware error.
 */
int arbel_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct arbel_dev *adev = to_adev(ibqp->device);
	struct arbel_mgm_pos pos;
	arbel_mgm_t mgm;
	int slot, last, err;

	mutex_lock(&adev->mcg.lock);
	err = arbel_mgm_find(adev, gid->raw, mgm, &pos);
	if (err)
		goto out;
	slot = pos.found ? arbel_mgm_slot(mgm, ibqp->qp_num, false) : -1;
	if (slot < 0) {
		err = -EINVAL;
		goto out;
	}
	/* the last member takes the slot: the valid ones stay first */
	last = arbel_mgm_members(mgm) - 1;
	mgm[ARBEL_MGM_QP_DW + slot] = mgm[ARBEL_MGM_QP_DW + last];
	mgm[ARBEL_MGM_QP_DW + last] = 0;
	if (last)
		err = arbel_fw_write_mgm(&adev->cmd, pos.index, mgm);
	else
		err = arbel_mgm_release(adev, mgm, &pos);
out:
	mutex_unlock(&adev->mcg.lock);
	return err;
}

/**
 * arbel_mcg_init() - the table's shape, from the ICM layout
 * @adev: the HCA, its layout placed
 *
 * Context: process.
 */
void arbel_mcg_init(struct arbel_dev *adev)
{
	const struct arbel_icm_place *t = &adev->layout.t[ARBEL_ICM_MCG];

	adev->mcg.num = 1U << t->log_num;
	adev->mcg.hash_sz = adev->mcg.num / 2;	/* as INIT_HCA gives it */
	mutex_init(&adev->mcg.lock);
	ida_init(&adev->mcg.amgm);
}

/**
 * arbel_mcg_cleanup() - undo arbel_mcg_init()
 * @adev: the HCA; no QP is attached any more
 *
 * Context: process.
 */
void arbel_mcg_cleanup(struct arbel_dev *adev)
{
	ida_destroy(&adev->mcg.amgm);
	mutex_destroy(&adev->mcg.lock);
}
