/*
 * arbel-stub: the translation engine, part of the TPT service.
 *
 * The translation engine does what the HCA does for a memory access with a
 * key: key -> MPT slot -> MPT entry in ICM -> checks -> MTT entries in ICM
 * -> guest-physical pages, and moves the bytes between those pages and a
 * guest-physical buffer.  MPT and MTT entries are read through the TPT
 * cache (arbel-tpt.c).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-life.h"

typedef struct ArbelSeg {
    uint64_t pa;
    uint64_t len;
} ArbelSeg;

static uint32_t arbel_access_bit(uint32_t acc)
{
    switch (acc) {
    case ARBEL_XL_ACC_LOCAL_READ:
        return ARBEL_MPT_D0_LR;
    case ARBEL_XL_ACC_LOCAL_WRITE:
        return ARBEL_MPT_D0_LW;
    case ARBEL_XL_ACC_REMOTE_READ:
        return ARBEL_MPT_D0_RR;
    case ARBEL_XL_ACC_REMOTE_WRITE:
        return ARBEL_MPT_D0_RWR;
    case ARBEL_XL_ACC_ATOMIC:
        return ARBEL_MPT_D0_A;
    default:
        return 0;
    }
}

/**
 * arbel_xlate_rw - translate a keyed access and move its bytes
 * @s: the device
 * @req: the request; @req->index and @req->pa are set
 * @buf: host memory, @req->len bytes (unused with @req->check_only)
 *
 * The walk every access with a key takes: translate all of [va, va + len)
 * first (a refused access moves no byte), then move the bytes between the
 * region and @buf (host memory), unless @req->check_only.  Returns an
 * ARBEL_XL_* code; @req->index and @req->pa tell the slot and first PA.
 *
 * Return: an ARBEL_XL_* result code.
 */
uint32_t arbel_xlate_rw(ArbelState *s, ArbelXlReq *req, void *buf)
{
    uint64_t va = req->va, len = req->len;
    uint32_t right = arbel_access_bit(req->access);
    uint32_t hw, index, d[ARBEL_MPT_DWORDS];
    uint8_t img[ARBEL_MPT_ENTRY_SIZE];
    uint64_t start, rlen, mtt_adr, pgsz, pos;
    g_autoptr(GArray) segs = NULL;
    uint8_t *bytes = buf;
    bool phys, zb;
    uint8_t st;
    guint i;
    int j;

    req->index = 0;
    req->pa = 0;
    if (!arbel_tpt_active(s)) {
        return ARBEL_XL_NOT_RUNNING;
    }
    if (!len || len > ARBEL_XL_MAX_LEN || !right) {
        return ARBEL_XL_BAD_REQUEST;
    }
    if (req->access == ARBEL_XL_ACC_ATOMIC && (len != 8 || (va & 7))) {
        return ARBEL_XL_BAD_REQUEST;
    }

    /* key -> slot: rotate right by 8, keep the index bits */
    hw = ror32(req->key, 8);
    index = hw & ((1u << arbel_tpt_log_mpt(s)) - 1);
    req->index = index;
    st = arbel_tpt_cached_read(s, true, index, arbel_mpt_addr(s, index), img,
                               sizeof(img));
    if (st == ARBEL_ST_BAD_RESOURCE) {
        return ARBEL_XL_MPT_UNMAPPED;
    } else if (st) {
        return ARBEL_XL_DMA_ERROR;
    }
    /* an entry the CPU rewrote: the SW2HW_MPT rules, noted */
    arbel_mpt_cpu_check(s, index, img);
    for (j = 0; j < 16; j++) {
        d[j] = ldl_be_p(img + 4 * j);
    }
    if (!arbel_mpt_hw_owned(s, index, d[ARBEL_MPT_DW_FLAGS])) {
        return ARBEL_XL_SW_OWNED;
    }
    if (d[ARBEL_MPT_DW_KEY] != hw) {
        return ARBEL_XL_KEY_MISMATCH;
    }
    if (req->check_pd && (d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_PD_MASK) !=
                         (req->pd & ARBEL_MPT_D3_PD_MASK)) {
        return ARBEL_XL_PD;
    }
    if (!req->via_window && !(d[ARBEL_MPT_DW_FLAGS] & right)) {
        return ARBEL_XL_ACCESS;     /* a window's rights are its own */
    }
    if (!(d[ARBEL_MPT_DW_FLAGS] & ARBEL_MPT_D0_RW)) {
        uint32_t key = req->key, r;

        if (req->via_window) {
            return ARBEL_XL_NOT_REGION;
        }
        r = arbel_tpt_window(s, req, d);
        if (r == ARBEL_XL_OK) {
            req->via_window = true;
            r = arbel_xlate_rw(s, req, buf);
            req->via_window = false;
        }
        req->key = key;
        return r;
    }

    phys = d[ARBEL_MPT_DW_FLAGS] & ARBEL_MPT_D0_PA;
    zb = d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_ZB;
    start = arbel_mpt_start(d);
    rlen = arbel_mpt_len(d);
    mtt_adr = arbel_mpt_mtt_adr(d);
    pgsz = ARBEL_ICM_PAGE << (d[ARBEL_MPT_DW_PAGE] &
                              ARBEL_MPT_D1_PAGE_SIZE_MASK);

    /* range: [start, start + length), or [0, length) when zero-based */
    {
        uint64_t off = zb ? va : va - start;

        if ((!zb && va < start) || off > rlen || len > rlen - off) {
            return ARBEL_XL_RANGE;
        }
    }

    segs = g_array_new(false, false, sizeof(ArbelSeg));
    for (pos = 0; pos < len;) {
        ArbelSeg seg;
        uint64_t cur = va + pos;

        if (phys) {
            seg.pa = cur;
            seg.len = MIN(len - pos,
                          ARBEL_ICM_PAGE - (cur & (ARBEL_ICM_PAGE - 1)));
        } else {
            uint64_t rel = zb ? cur : (cur - start) + (start & (pgsz - 1));
            uint64_t off = rel & (pgsz - 1);
            uint64_t mtt_va = mtt_adr + (rel / pgsz) * ARBEL_MTT_ENTRY_SIZE;
            uint8_t e8[8];
            uint64_t e;

            if (!arbel_mtt_range_ok(s, mtt_va, ARBEL_MTT_ENTRY_SIZE)) {
                return ARBEL_XL_MTT_RANGE;
            }
            st = arbel_tpt_cached_read(s, false, mtt_va, mtt_va, e8,
                                       sizeof(e8));
            if (st == ARBEL_ST_BAD_RESOURCE) {
                return ARBEL_XL_MTT_UNMAPPED;
            } else if (st) {
                return ARBEL_XL_DMA_ERROR;
            }
            e = ldq_be_p(e8);
            if (!(e & ARBEL_MTT_PRESENT)) {
                return ARBEL_XL_MTT_NOT_PRESENT;
            }
            seg.pa = (e & ~(pgsz - 1)) + off;
            seg.len = MIN(len - pos, pgsz - off);
        }
        if (pos == 0) {
            req->pa = seg.pa;
        }
        g_array_append_val(segs, seg);
        pos += seg.len;
    }

    if (req->check_only) {
        return ARBEL_XL_OK;
    }

    /* move the bytes */
    for (i = 0, pos = 0; i < segs->len; i++) {
        ArbelSeg *sg = &g_array_index(segs, ArbelSeg, i);
        MemTxResult r;

        arbel_life_check(s, sg->pa, sg->len, req->to_region ?
                         "a data write" : "a data read");
        if (req->to_region) {
            r = arbel_dma_write(s, sg->pa, bytes + pos, sg->len);
        } else {
            r = arbel_dma_read(s, sg->pa, bytes + pos, sg->len);
        }
        if (r != MEMTX_OK) {
            return ARBEL_XL_DMA_ERROR;
        }
        pos += sg->len;
    }
    return ARBEL_XL_OK;
}

