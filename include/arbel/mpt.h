/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * MPT (memory protection table) entries of memory regions: a native
 * description, its 64-byte big-endian image, keys and access flags.  Pure code: no ib_core calls,
 * no PCI, no allocation, so the whole layer runs under UML KUnit.
 */
#ifndef _ARBEL_MPT_H
#define _ARBEL_MPT_H

#include <linux/bitops.h>
#include <linux/types.h>
#include <arbel/prm.h>

/**
 * struct arbel_mpt - the fields of a memory region's MPT entry, in host form
 * @status: ownership nibble (%ARBEL_MPT_STATUS_SW, _HW or _FREE)
 * @pa: physical region: no address translation
 * @lr: local read enabled
 * @lw: local write enabled
 * @rr: remote read enabled
 * @rw: remote write enabled
 * @a: remote atomic enabled
 * @eb: window binding enabled
 * @page_size: log2(page size / 4 KiB), below %ARBEL_MPT_PAGE_SIZE_LIMIT
 * @mem_key: the key in hardware-index form (see arbel_key_to_hw())
 * @pd: protection domain, 24 bits
 * @ei: local/remote invalidation allowed
 * @zb: zero-based region
 * @fre: fast-register operations allowed
 * @rae: remote access may be granted by fast-register
 * @start: first virtual address (IOVA)
 * @length: length in bytes
 * @mtt_addr: ICM virtual address of the first MTT entry (38 bits, 8-aligned)
 * @mtt_sz: number of MTT entries allocated (0: no limit)
 *
 * The driver builds regions only: the encoder sets r_w (region) and
 * leaves the memory-window fields (type, qpn, lkey, win_cnt) zero.  The
 * single-bit members hold 0 or 1; anything else is refused by
 * arbel_mpt_validate().  Where each field sits in the 64-byte image is
 * written once, in the ARBEL_MPT_* definitions of prm.h.
 */
struct arbel_mpt {
	u8 status;
	u8 pa;
	u8 lr;
	u8 lw;
	u8 rr;
	u8 rw;
	u8 a;
	u8 eb;
	u8 page_size;
	u8 ei;
	u8 zb;
	u8 fre;
	u8 rae;
	u32 mem_key;
	u32 pd;
	u64 start;
	u64 length;
	u64 mtt_addr;
	u32 mtt_sz;
};

/**
 * struct arbel_fr_reg - what an IB_WR_REG_MR sets in a fast-registration
 * region's MPT entry
 * @key: the new lkey/rkey
 * @pd: the region's PD number
 * @access: the request's IB access flags
 * @page_size: the region's page size in bytes (ib_map_mr_sg()'s)
 * @iova: the first byte's address
 * @length: bytes
 * @mtt_addr: ICM address of the region's first MTT entry
 */
struct arbel_fr_reg {
	u32 key;
	u32 pd;
	int access;
	u32 page_size;
	u64 iova;
	u64 length;
	u64 mtt_addr;
};

int arbel_mpt_validate(const struct arbel_mpt *mpt);
int arbel_mpt_fast_reg(const struct arbel_fr_reg *r,
		       __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_mpt_encode(const struct arbel_mpt *mpt,
		     __be32 entry[ARBEL_MPT_DWORDS]);
int arbel_mpt_set_access(struct arbel_mpt *mpt, int ib_access);

/**
 * arbel_key_to_hw() - turn an lkey/rkey into the MPT's hardware-index form
 * @key: the key as software hands it out
 *
 * Return: @key rotated right by 8 bits: key bits 31:8 become hardware bits
 * 23:0 and key bits 7:0 become hardware bits 31:24.
 */
static inline u32 arbel_key_to_hw(u32 key)
{
	return ror32(key, ARBEL_KEY_ROTATE);
}

/**
 * arbel_hw_to_key() - turn a hardware index into the lkey/rkey form
 * @hw: the key in hardware-index form (the MPT's mem_key field)
 *
 * Return: @hw rotated left by 8 bits.
 */
static inline u32 arbel_hw_to_key(u32 hw)
{
	return rol32(hw, ARBEL_KEY_ROTATE);
}

/**
 * arbel_key_slot() - the MPT table slot a key refers to
 * @key: lkey/rkey
 * @num_mpts: number of MPT entries, a power of two
 *
 * Return: the hardware index masked with @num_mpts - 1.
 */
static inline u32 arbel_key_slot(u32 key, u32 num_mpts)
{
	return arbel_key_to_hw(key) & (num_mpts - 1);
}

/**
 * arbel_key_tag() - the tag bits of a key, above its slot
 * @key: lkey/rkey
 * @num_mpts: number of MPT entries, a power of two
 *
 * Return: the hardware index with the slot bits cleared.
 */
static inline u32 arbel_key_tag(u32 key, u32 num_mpts)
{
	return arbel_key_to_hw(key) & ~(num_mpts - 1);
}

#endif /* _ARBEL_MPT_H */
