/*
 * arbel-stub: memory windows, part of the TPT service -- BIND_MW of a type
 * 1 window, and the translation of a window's rkey.
 *
 * A window is an MPT entry with r_w clear (SW2HW_MPT makes it, unbound:
 * length 0).  A bind WQE's segment (mthca's struct mthca_bind_seg, iPXE's
 * arbelprm_wqe_segment_bind_st) gives the rights (31 atomic, 30 remote
 * write, 29 remote read), the window's new rkey (its index bits name the
 * window), the region's lkey, the address and the length.  The bind is
 * refused -- the WQE completes with syndrome 0x06, MW bind error -- unless
 * (IBTA vol. 1 10.6.7.2, the MPT fields): the window is a hardware-owned
 * type 1 window of the QP's PD; for a length other than 0, the region is a
 * hardware-owned region of that PD, its key's tag matches, its eb (bind
 * enable) is set, [address, address + length) lies in it, and remote
 * write or atomic rights come with the region's local write.  A bound
 * window holds the rights, range and key, and in its lkey field the
 * region's key; the region counts it in win_cnt (HW2SW_MPT of a region
 * with windows bound is refused, 0x21).  Length 0 unbinds.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-wqe.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"

#define ARBEL_BIND_ATOMIC       BIT(31)
#define ARBEL_BIND_RWRITE       BIT(30)
#define ARBEL_BIND_RREAD        BIT(29)

typedef struct ArbelMpt {
    uint32_t index;
    uint32_t d[ARBEL_MPT_DWORDS];
} ArbelMpt;

/* the entry of hardware key @hw's slot; false if unreadable */
static bool arbel_mw_read(ArbelState *s, uint32_t hw, ArbelMpt *e)
{
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    int i;

    e->index = hw & ((1u << arbel_tpt_log_mpt(s)) - 1);
    if (arbel_tpt_cached_read(s, true, e->index, arbel_mpt_addr(s, e->index),
                              img, sizeof(img))) {
        return false;
    }
    for (i = 0; i < ARBEL_MPT_DWORDS; i++) {
        e->d[i] = ldl_be_p(img + 4 * i);
    }
    return arbel_mpt_hw_owned(s, e->index, e->d[ARBEL_MPT_DW_FLAGS]);
}

/* the HCA writes an entry it owns: ICM, and its cache slot */
static void arbel_mw_write(ArbelState *s, const ArbelMpt *e)
{
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    int i;

    for (i = 0; i < ARBEL_MPT_DWORDS; i++) {
        stl_be_p(img + 4 * i, e->d[i]);
    }
    arbel_icm_write(s, arbel_mpt_addr(s, e->index), img, sizeof(img));
    arbel_tpt_cache_drop_mpt(s, e->index, false);
    /* the HCA's own write: no CPU's (arbel_mpt_cpu_check()) */
    arbel_mpt_fw_image(s, e->index, img);
}

/* the region a window was bound to counts one window less */
static void arbel_mw_release(ArbelState *s, const ArbelMpt *w)
{
    ArbelMpt r;

    if (!arbel_mpt_len(w->d) || !w->d[ARBEL_MPT_DW_LKEY] ||
        !arbel_mw_read(s, w->d[ARBEL_MPT_DW_LKEY], &r) ||
        !r.d[ARBEL_MPT_DW_WIN_CNT]) {
        return;
    }
    r.d[ARBEL_MPT_DW_WIN_CNT]--;
    arbel_mw_write(s, &r);
}

static bool arbel_mw_region_ok(ArbelState *s, uint32_t pd, uint32_t lkey,
                               uint32_t flags, uint64_t va, uint64_t len,
                               ArbelMpt *r)
{
    uint32_t hw = ror32(lkey, 8), d0;
    uint64_t start, rlen;

    if (!arbel_mw_read(s, hw, r) || r->d[ARBEL_MPT_DW_KEY] != hw) {
        return false;
    }
    d0 = r->d[ARBEL_MPT_DW_FLAGS];
    start = r->d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_ZB ? 0 : arbel_mpt_start(r->d);
    rlen = arbel_mpt_len(r->d);
    if (!(d0 & ARBEL_MPT_D0_RW) || !(d0 & ARBEL_MPT_D0_EB) ||
        (r->d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_PD_MASK) != pd ||
        va < start || va - start > rlen || len > rlen - (va - start)) {
        return false;
    }
    /* remote write or atomic on a window needs local write on the region */
    return !(flags & (ARBEL_BIND_RWRITE | ARBEL_BIND_ATOMIC)) ||
           (d0 & ARBEL_MPT_D0_LW);
}

/**
 * arbel_tpt_bind_mw - a BIND_MW WQE's bind segment, executed
 * @s: the device
 * @pd: the QP's PD
 * @seg: the 32-byte bind segment
 *
 * Return: true if bound (or unbound); false: MW bind error.
 */
bool arbel_tpt_bind_mw(ArbelState *s, uint32_t pd, const uint8_t *seg)
{
    uint32_t flags = ldl_be_p(seg + ARBEL_BIND_FLAGS);
    uint32_t new_hw = ror32(ldl_be_p(seg + ARBEL_BIND_NEW_RKEY), 8);
    uint64_t va = ldq_be_p(seg + ARBEL_BIND_ADDR);
    uint64_t len = ldq_be_p(seg + ARBEL_BIND_LEN);
    ArbelMpt w, r;
    uint32_t d0;

    if (!arbel_tpt_active(s) || !arbel_mw_read(s, new_hw, &w)) {
        return false;
    }
    d0 = w.d[ARBEL_MPT_DW_FLAGS];
    if ((d0 & ARBEL_MPT_D0_RW) || (w.d[ARBEL_MPT_DW_PAGE] & ARBEL_MPT_D1_TYPE) ||
        (w.d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_PD_MASK) != pd) {
        return false;
    }
    if (len && !arbel_mw_region_ok(s, pd, ldl_be_p(seg + ARBEL_BIND_LKEY),
                                   flags, va, len, &r)) {
        return false;
    }
    arbel_mw_release(s, &w);
    d0 &= ~(ARBEL_MPT_D0_RR | ARBEL_MPT_D0_RWR | ARBEL_MPT_D0_A);
    d0 |= (flags & ARBEL_BIND_RREAD ? ARBEL_MPT_D0_RR : 0) |
          (flags & ARBEL_BIND_RWRITE ? ARBEL_MPT_D0_RWR : 0) |
          (flags & ARBEL_BIND_ATOMIC ? ARBEL_MPT_D0_A : 0);
    w.d[ARBEL_MPT_DW_FLAGS] = d0;
    w.d[ARBEL_MPT_DW_KEY] = new_hw;
    w.d[ARBEL_MPT_DW_START_H] = va >> 32;
    w.d[ARBEL_MPT_DW_START_L] = (uint32_t)va;
    w.d[ARBEL_MPT_DW_LEN_H] = len >> 32;
    w.d[ARBEL_MPT_DW_LEN_L] = (uint32_t)len;
    w.d[ARBEL_MPT_DW_LKEY] = len ? r.d[ARBEL_MPT_DW_KEY] : 0;
    if (len) {
        /* read again: the release may have written the same region */
        arbel_mw_read(s, r.d[ARBEL_MPT_DW_KEY], &r);
        r.d[ARBEL_MPT_DW_WIN_CNT]++;
        arbel_mw_write(s, &r);
    }
    arbel_mw_write(s, &w);
    return true;
}

/**
 * arbel_tpt_window - a window's rkey: its own checks, then its region's
 * @s: the device
 * @req: the request; on success its key becomes the region's lkey form
 * @d: the window's MPT entry (host order dwords)
 *
 * Return: ARBEL_XL_OK (translate on through the region) or a refusal.
 */
uint32_t arbel_tpt_window(ArbelState *s, ArbelXlReq *req, const uint32_t *d)
{
    uint64_t start = arbel_mpt_start(d), len = arbel_mpt_len(d);

    if (req->access == ARBEL_XL_ACC_LOCAL_READ ||
        req->access == ARBEL_XL_ACC_LOCAL_WRITE) {
        return ARBEL_XL_ACCESS;     /* a window gives remote access only */
    }
    if (req->va < start || req->va - start > len ||
        req->len > len - (req->va - start)) {
        return ARBEL_XL_RANGE;
    }
    req->key = rol32(d[ARBEL_MPT_DW_LKEY], 8);
    return ARBEL_XL_OK;
}
