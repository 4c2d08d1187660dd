/*
 * arbel-stub: translation engine and the debug register window.
 *
 * The debug window is a 4 KiB page at BAR0 + 0xc0000, unused by the real
 * device.  The driver never touches it; tests reach it through sysfs
 * resource0.  Registers are big-endian 32-bit like the rest of BAR0.  The
 * layout is documented in Documentation/arbel-stub.rst.
 *
 * The translation engine does what the HCA does for a memory access with a
 * key: key -> MPT slot -> MPT entry in ICM -> checks -> MTT entries in ICM
 * -> guest-physical pages, and moves the bytes between those pages and a
 * guest-physical buffer.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/bitops.h"
#include "qemu/bswap.h"
#include "arbel-stub.h"
#include "arbel-dbgwin.h"

typedef struct ArbelSeg {
    uint64_t pa;
    uint64_t len;
} ArbelSeg;

static uint32_t arbel_access_bit(uint32_t acc)
{
    switch (acc) {
    case ARBEL_XL_ACC_LOCAL_READ:
        return MPT_D0_LR;
    case ARBEL_XL_ACC_LOCAL_WRITE:
        return MPT_D0_LW;
    case ARBEL_XL_ACC_REMOTE_READ:
        return MPT_D0_RR;
    case ARBEL_XL_ACC_REMOTE_WRITE:
        return MPT_D0_RWR;
    case ARBEL_XL_ACC_ATOMIC:
        return MPT_D0_A;
    default:
        return 0;
    }
}

/*
 * The walk every access with a key takes: translate all of [va, va + len)
 * first (a refused access moves no byte), then move the bytes between the
 * region and @buf (host memory), unless @req->check_only.  Returns an
 * ARBEL_XL_* code; @req->index and @req->pa tell the slot and first PA.
 */
uint32_t arbel_xlate_rw(ArbelState *s, ArbelXlReq *req, void *buf)
{
    uint64_t va = req->va, len = req->len;
    uint32_t right = arbel_access_bit(req->access);
    uint32_t hw, index, d[16];
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
    if (s->state != FW_HCA_INIT) {
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
    index = hw & ((1u << s->log_mpt_sz) - 1);
    req->index = index;
    st = arbel_icm_read(s, s->mpt_base + (uint64_t)index * ARBEL_MPT_ENTRY_SIZE,
                        img, sizeof(img));
    if (st == ST_BAD_RESOURCE) {
        return ARBEL_XL_MPT_UNMAPPED;
    } else if (st) {
        return ARBEL_XL_DMA_ERROR;
    }
    for (j = 0; j < 16; j++) {
        d[j] = ldl_be_p(img + 4 * j);
    }
    if (!arbel_mpt_hw_owned(s, index, d[0])) {
        return ARBEL_XL_SW_OWNED;
    }
    if (d[2] != hw) {
        return ARBEL_XL_KEY_MISMATCH;
    }
    if (!(d[0] & MPT_D0_RW)) {
        return ARBEL_XL_NOT_REGION;
    }
    if (!(d[0] & right)) {
        return ARBEL_XL_ACCESS;
    }

    phys = d[0] & MPT_D0_PA;
    zb = d[3] & MPT_D3_ZB;
    start = ((uint64_t)d[4] << 32) | d[5];
    rlen = ((uint64_t)d[6] << 32) | d[7];
    mtt_adr = ((uint64_t)(d[11] & 0x3f) << 32) | d[12];
    pgsz = ARBEL_ICM_PAGE << (d[1] & MPT_D1_PAGE_SIZE_MASK);

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
            seg.len = MIN(len - pos, ARBEL_ICM_PAGE - (cur & 0xfff));
        } else {
            uint64_t rel = zb ? cur : (cur - start) + (start & (pgsz - 1));
            uint64_t off = rel & (pgsz - 1);
            uint64_t mtt_va = mtt_adr + (rel / pgsz) * ARBEL_MTT_ENTRY_SIZE;
            uint8_t e8[8];
            uint64_t e;

            if (!arbel_mtt_range_ok(s, mtt_va, ARBEL_MTT_ENTRY_SIZE)) {
                return ARBEL_XL_MTT_RANGE;
            }
            st = arbel_icm_read(s, mtt_va, e8, sizeof(e8));
            if (st == ST_BAD_RESOURCE) {
                return ARBEL_XL_MTT_UNMAPPED;
            } else if (st) {
                return ARBEL_XL_DMA_ERROR;
            }
            e = ldq_be_p(e8);
            if (!(e & 1)) {
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

/* The debug window's request: between the region and a guest buffer. */
static uint32_t arbel_xlate(ArbelState *s)
{
    ArbelXlReq req = {
        .key = s->xl_key,
        .access = s->xl_access,
        .va = s->xl_va,
        .len = s->xl_len,
        .to_region = s->xl_dir == ARBEL_XL_DIR_TO_REGION,
    };
    g_autofree uint8_t *bounce = NULL;
    uint32_t r;

    if (s->xl_dir > ARBEL_XL_DIR_TO_REGION) {
        req.len = 0;    /* refused as a bad request, after the state check */
    }
    if (s->state == FW_HCA_INIT && req.len && req.len <= ARBEL_XL_MAX_LEN) {
        bounce = g_malloc0(req.len);
    }
    if (bounce && req.to_region) {
        /* translate first: a refused request reads no byte of the buffer */
        req.check_only = true;
        r = arbel_xlate_rw(s, &req, NULL);
        req.check_only = false;
        if (r != ARBEL_XL_OK) {
            goto out;
        }
        if (arbel_dma_read(s, s->xl_buf, bounce, req.len) != MEMTX_OK) {
            r = ARBEL_XL_DMA_ERROR;
            goto out;
        }
    }
    r = arbel_xlate_rw(s, &req, bounce);
    if (r == ARBEL_XL_OK && !req.to_region &&
        arbel_dma_write(s, s->xl_buf, bounce, req.len) != MEMTX_OK) {
        r = ARBEL_XL_DMA_ERROR;
    }
out:
    s->xl_index = req.index;
    s->xl_pa = req.pa;
    return r;
}

uint64_t arbel_dbg_read(ArbelState *s, hwaddr off)
{
    ArbelFaults *f = &s->faults;

    switch (off) {
    case ARBEL_DBG_ID:
        return ARBEL_DBG_ID_VALUE;
    case ARBEL_DBG_VERSION:
        return 1;
    case ARBEL_DBG_FW_STATE:
        return s->state;
    case ARBEL_DBG_CMD_COUNT:
        return s->cmd_count;
    case ARBEL_DBG_ICM_PAGES:
        return arbel_icm_pages(s);
    case ARBEL_DBG_FA_PAGES:
        return s->fa_pages;
    case ARBEL_DBG_AUX_PAGES:
        return s->aux_pages;
    case ARBEL_DBG_HW_MPTS:
        return arbel_mpt_hw_count(s);
    case ARBEL_DBG_ICM_SIZE_HI:
        return s->icm_size >> 32;
    case ARBEL_DBG_ICM_SIZE_LO:
        return (uint32_t)s->icm_size;
    case ARBEL_DBG_LOG_MPT_SZ:
        return s->log_mpt_sz;
    case ARBEL_DBG_MPT_BASE_HI:
        return s->mpt_base >> 32;
    case ARBEL_DBG_MPT_BASE_LO:
        return (uint32_t)s->mpt_base;
    case ARBEL_DBG_MTT_BASE_HI:
        return s->mtt_base >> 32;
    case ARBEL_DBG_MTT_BASE_LO:
        return (uint32_t)s->mtt_base;
    case ARBEL_DBG_MTT_END_HI:
        return s->mtt_end >> 32;
    case ARBEL_DBG_MTT_END_LO:
        return (uint32_t)s->mtt_end;
    case ARBEL_DBG_XL_KEY:
        return s->xl_key;
    case ARBEL_DBG_XL_ACCESS:
        return s->xl_access;
    case ARBEL_DBG_XL_VA_HI:
        return s->xl_va >> 32;
    case ARBEL_DBG_XL_VA_LO:
        return (uint32_t)s->xl_va;
    case ARBEL_DBG_XL_LEN:
        return s->xl_len;
    case ARBEL_DBG_XL_DIR:
        return s->xl_dir;
    case ARBEL_DBG_XL_BUF_HI:
        return s->xl_buf >> 32;
    case ARBEL_DBG_XL_BUF_LO:
        return (uint32_t)s->xl_buf;
    case ARBEL_DBG_XL_RESULT:
        return s->xl_result;
    case ARBEL_DBG_XL_PA_HI:
        return s->xl_pa >> 32;
    case ARBEL_DBG_XL_PA_LO:
        return (uint32_t)s->xl_pa;
    case ARBEL_DBG_XL_INDEX:
        return s->xl_index;
    case ARBEL_DBG_XL_COUNT:
        return s->xl_count;
    case ARBEL_DBG_FI_FAIL_OPCODE:
        return f->fail_opcode;
    case ARBEL_DBG_FI_FAIL_STATUS:
        return f->fail_status;
    case ARBEL_DBG_FI_FAIL_EVERY:
        return f->fail_every;
    case ARBEL_DBG_FI_FAILED:
        return f->failed;
    case ARBEL_DBG_FI_HOLD_MS:
        return f->hold_ms;
    case ARBEL_DBG_FI_HOLD_OPCODE:
        return f->hold_opcode;
    case ARBEL_DBG_FI_CORRUPT_OPCODE:
        return f->corrupt_opcode;
    case ARBEL_DBG_FI_CORRUPT_OFFSET:
        return f->corrupt_offset;
    case ARBEL_DBG_FI_CORRUPT_LEN:
        return f->corrupt_len;
    case ARBEL_DBG_FI_CORRUPT_EVERY:
        return f->corrupt_every;
    case ARBEL_DBG_FI_CORRUPTED:
        return f->corrupted;
    default:
        return 0;
    }
}

void arbel_dbg_write(ArbelState *s, hwaddr off, uint32_t val)
{
    ArbelFaults *f = &s->faults;

    switch (off) {
    case ARBEL_DBG_XL_KEY:
        s->xl_key = val;
        break;
    case ARBEL_DBG_XL_ACCESS:
        s->xl_access = val;
        break;
    case ARBEL_DBG_XL_VA_HI:
        s->xl_va = deposit64(s->xl_va, 32, 32, val);
        break;
    case ARBEL_DBG_XL_VA_LO:
        s->xl_va = deposit64(s->xl_va, 0, 32, val);
        break;
    case ARBEL_DBG_XL_LEN:
        s->xl_len = val;
        break;
    case ARBEL_DBG_XL_DIR:
        s->xl_dir = val;
        break;
    case ARBEL_DBG_XL_BUF_HI:
        s->xl_buf = deposit64(s->xl_buf, 32, 32, val);
        break;
    case ARBEL_DBG_XL_BUF_LO:
        s->xl_buf = deposit64(s->xl_buf, 0, 32, val);
        break;
    case ARBEL_DBG_XL_GO:
        if (val & 1) {
            s->xl_pa = 0;
            s->xl_index = 0;
            s->xl_result = arbel_xlate(s);
            s->xl_count++;
            arbel_trace_xlate(s);
        }
        break;
    case ARBEL_DBG_FI_FAIL_OPCODE:
        f->fail_opcode = val;
        f->fail_seen = 0;
        break;
    case ARBEL_DBG_FI_FAIL_STATUS:
        f->fail_status = val;
        break;
    case ARBEL_DBG_FI_FAIL_EVERY:
        f->fail_every = val;
        f->fail_seen = 0;
        break;
    case ARBEL_DBG_FI_HOLD_MS:
        f->hold_ms = val;
        break;
    case ARBEL_DBG_FI_HOLD_OPCODE:
        f->hold_opcode = val;
        break;
    case ARBEL_DBG_FI_CORRUPT_OPCODE:
        f->corrupt_opcode = val;
        f->corrupt_seen = 0;
        break;
    case ARBEL_DBG_FI_CORRUPT_OFFSET:
        f->corrupt_offset = val;
        break;
    case ARBEL_DBG_FI_CORRUPT_LEN:
        f->corrupt_len = val;
        break;
    case ARBEL_DBG_FI_CORRUPT_EVERY:
        f->corrupt_every = val;
        f->corrupt_seen = 0;
        break;
    case ARBEL_DBG_FI_CLEAR:
        if (val & 1) {
            uint32_t failed = f->failed, corrupted = f->corrupted;

            memset(f, 0, sizeof(*f));
            f->failed = failed;
            f->corrupted = corrupted;
        }
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "arbel-stub: write 0x%08x to read-only or unused debug "
                      "register 0x%03" HWADDR_PRIx "\n", val, off);
        break;
    }
}
