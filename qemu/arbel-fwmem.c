/*
 * arbel-stub: the memory the firmware is given: firmware area (MAP_FA,
 * UNMAP_FA), auxiliary ICM (SET_ICM_SIZE, MAP_ICM_AUX, UNMAP_ICM_AUX) and
 * ICM (MAP_ICM, UNMAP_ICM).  Part of the firmware module (arbel-fw.h);
 * the ICM translations themselves live in the ICM service (arbel-icm.c).
 *
 * Mailbox format of MAP_FA, MAP_ICM_AUX and MAP_ICM: in_mod pairs of
 * 16 bytes: be64 ICM virtual address (MAP_ICM only; bits 11:0 zero), be64
 * physical address with log2(size / 4 KiB) in bits 5:0 (bits 11:6 zero).
 * Each chunk must be aligned (pa, and va for MAP_ICM) to its own size.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-fw.h"
#include "arbel-life.h"

#define ARBEL_MAX_PAIRS     (ARBEL_MBOX_SIZE / ARBEL_VPM_SIZE)
#define ARBEL_MAX_LOG_CHUNK 20      /* 4 GiB: the largest chunk the stub knew */

/**
 * arbel_fwmem_init - create the firmware area and aux ICM lists
 * @s: the device
 */
void arbel_fwmem_init(ArbelState *s)
{
    s->fw.fa = g_array_new(false, true, sizeof(ArbelChunk));
    s->fw.aux = g_array_new(false, true, sizeof(ArbelChunk));
}

/**
 * arbel_fwmem_fini - free what arbel_fwmem_init() created
 * @s: the device
 */
void arbel_fwmem_fini(ArbelState *s)
{
    g_array_free(s->fw.fa, true);
    g_array_free(s->fw.aux, true);
}

/**
 * arbel_fwmem_reset - forget the firmware area, aux ICM and ICM size
 * @s: the device
 */
void arbel_fwmem_reset(ArbelState *s)
{
    g_array_set_size(s->fw.fa, 0);
    g_array_set_size(s->fw.aux, 0);
    arbel_life_disown_all(s, ARBEL_OWN_FA);
    arbel_life_disown_all(s, ARBEL_OWN_AUX);
    s->fw.fa_pages = 0;
    s->fw.aux_pages = 0;
    s->fw.icm_size = 0;
    s->fw.aux_needed = 0;
}

/*
 * Decode and check the physical half of a pair.  Refused (0x03): reserved
 * bits 11:6 (the PRM's pair layout, arbel-prm-notes.md section 3), a chunk
 * not aligned to its size (mthca_map_cmd aligns them so, "Each chunk must
 * be aligned to its own size"), a log2size whose chunk is not a 64-bit
 * address range.  Unconfirmed: a chunk above 4 GiB (log2size > 20; no
 * source limits it, mthca_map_cmd takes the lowest set bit of address and
 * length, whatever it is).
 */
static bool arbel_pair_pa(ArbelState *s, const uint8_t *pair, uint64_t *pa,
                          uint64_t *size)
{
    uint64_t raw = ldq_be_p(pair + ARBEL_VPM_PA);
    unsigned int log = raw & ARBEL_VPM_LOG_SIZE_MASK;

    if (raw & ARBEL_VPM_RSVD) {
        return false;               /* reserved bits 11:6 */
    }
    if (log > ARBEL_VPM_MAX_LOG_CHUNK) {
        return false;               /* 4 KiB << log is no address range */
    }
    *size = ARBEL_ICM_PAGE << log;
    *pa = raw & ~(ARBEL_ICM_PAGE - 1);
    if (*pa & (*size - 1)) {
        return false;
    }
    if (log > ARBEL_MAX_LOG_CHUNK) {
        arbel_unconfirmed(s, "chunk 0x%" PRIx64 " log2size %u > %u", *pa,
                          log, ARBEL_MAX_LOG_CHUNK);
    }
    return true;
}

/* the inbox of a MAP_* command: in_mod (1 .. ARBEL_MAX_PAIRS) 16-byte pairs */
static uint8_t arbel_pairs_read(ArbelState *s, ArbelCmd *cmd)
{
    if (cmd->in_mod == 0 || cmd->in_mod > ARBEL_MAX_PAIRS) {
        return ARBEL_ST_BAD_PARAM;
    }
    return arbel_inbox_read(s, cmd, cmd->in_mod * ARBEL_VPM_SIZE);
}

/* the chunks of a MAP_FA or MAP_ICM_AUX, each the HCA's (@who) from now */
static uint8_t arbel_map_chunks(ArbelState *s, ArbelCmd *cmd, GArray *arr,
                                uint64_t *pages, ArbelOwner who)
{
    uint32_t n = cmd->in_mod, i;
    uint8_t st;

    st = arbel_pairs_read(s, cmd);
    if (st) {
        return st;
    }
    for (i = 0; i < n; i++) {
        ArbelChunk c;

        if (!arbel_pair_pa(s, cmd->inbox + i * ARBEL_VPM_SIZE, &c.pa,
                           &c.size)) {
            return ARBEL_ST_BAD_PARAM;
        }
    }
    for (i = 0; i < n; i++) {
        const uint8_t *pair = cmd->inbox + i * ARBEL_VPM_SIZE;
        ArbelChunk c = { 0, 0 };
        unsigned int log = ldq_be_p(pair + ARBEL_VPM_PA) &
                           ARBEL_VPM_LOG_SIZE_MASK;

        c.size = ARBEL_ICM_PAGE << log;
        c.pa = ldq_be_p(pair + ARBEL_VPM_PA) & ~(ARBEL_ICM_PAGE - 1);
        g_array_append_val(arr, c);
        arbel_life_own(s, who, c.pa, c.size, 0);
        *pages += c.size / ARBEL_ICM_PAGE;
    }
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_map_fa(ArbelState *s, ArbelCmd *cmd)
{
    return arbel_map_chunks(s, cmd, s->fw.fa, &s->fw.fa_pages, ARBEL_OWN_FA);
}

uint8_t arbel_cmd_unmap_fa(ArbelState *s, ArbelCmd *cmd)
{
    if (s->fw.aux_pages || arbel_icm_pages(s)) {
        /* mthca and iPXE unmap ICM and aux ICM first; none says why */
        arbel_unconfirmed(s, "UNMAP_FA with %" PRIu64 " aux and %"
                          PRIu64 " ICM pages mapped", s->fw.aux_pages,
                          arbel_icm_pages(s));
    }
    g_array_set_size(s->fw.fa, 0);
    arbel_life_disown_all(s, ARBEL_OWN_FA);
    s->fw.fa_pages = 0;
    s->fw.icm_size = 0;
    s->fw.aux_needed = 0;
    s->fw.state = ARBEL_FW_RESET;            /* the firmware stops */
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_set_icm_size(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t size = cmd->in_param;

    if (s->fw.aux_pages || arbel_icm_pages(s)) {
        arbel_unconfirmed(s, "SET_ICM_SIZE with %" PRIu64 " aux and %"
                          PRIu64 " ICM pages mapped", s->fw.aux_pages,
                          arbel_icm_pages(s));
    }
    if (!size || (size & (ARBEL_ICM_PAGE - 1)) || size > ARBEL_MAX_ICM_SIZE) {
        return ARBEL_ST_BAD_PARAM;
    }
    s->fw.icm_size = size;
    s->fw.aux_needed = MAX(1, DIV_ROUND_UP(size, ARBEL_AUX_ICM_PER_PAGE));
    cmd->imm = s->fw.aux_needed;
    cmd->out_imm = true;
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_map_icm_aux(ArbelState *s, ArbelCmd *cmd)
{
    if (!s->fw.icm_size) {
        return ARBEL_ST_BAD_SYS_STATE;    /* SET_ICM_SIZE first */
    }
    return arbel_map_chunks(s, cmd, s->fw.aux, &s->fw.aux_pages,
                            ARBEL_OWN_AUX);
}

uint8_t arbel_cmd_unmap_icm_aux(ArbelState *s, ArbelCmd *cmd)
{
    if (arbel_icm_pages(s)) {
        arbel_unconfirmed(s, "UNMAP_ICM_AUX with %" PRIu64
                          " ICM pages mapped", arbel_icm_pages(s));
    }
    g_array_set_size(s->fw.aux, 0);
    arbel_life_disown_all(s, ARBEL_OWN_AUX);
    s->fw.aux_pages = 0;
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_map_icm(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t n = cmd->in_mod, i;
    uint64_t p;
    uint8_t st;

    if (!s->fw.icm_size) {
        return ARBEL_ST_BAD_SYS_STATE;    /* SET_ICM_SIZE first */
    }
    st = arbel_pairs_read(s, cmd);
    if (st) {
        return st;
    }
    /* check everything first: a refused command maps nothing */
    for (i = 0; i < n; i++) {
        const uint8_t *pair = cmd->inbox + i * ARBEL_VPM_SIZE;
        uint64_t va = ldq_be_p(pair + ARBEL_VPM_VA), pa, size;

        /* the va aligned to the chunk, inside the largest ICM (DEV_LIM) */
        if (!arbel_pair_pa(s, pair, &pa, &size) || (va & (size - 1)) ||
            size > ARBEL_MAX_ICM_SIZE || va > ARBEL_MAX_ICM_SIZE - size) {
            return ARBEL_ST_BAD_PARAM;
        }
    }
    for (i = 0; i < n; i++) {
        const uint8_t *pair = cmd->inbox + i * ARBEL_VPM_SIZE;
        uint64_t va = ldq_be_p(pair + ARBEL_VPM_VA);
        uint64_t raw = ldq_be_p(pair + ARBEL_VPM_PA);
        uint64_t pa = raw & ~(ARBEL_ICM_PAGE - 1);
        uint64_t size = ARBEL_ICM_PAGE << (raw & ARBEL_VPM_LOG_SIZE_MASK);
        bool again = false;
        if (va >= s->fw.icm_size || size > s->fw.icm_size - va) {
            /* iPXE maps its doorbell page above the ICM it sized */
            arbel_unconfirmed(s, "MAP_ICM [0x%" PRIx64 ", +0x%" PRIx64
                              ") beyond ICM size 0x%" PRIx64, va, size,
                              s->fw.icm_size);
        }
        for (p = 0; p < size; p += ARBEL_ICM_PAGE) {
            again |= arbel_icm_map_page(s, va + p, pa + p);
        }
        if (again) {
            /* the new translation replaces the old one */
            arbel_unconfirmed(s, "MAP_ICM [0x%" PRIx64 ", +0x%" PRIx64
                              ") maps a mapped page again", va, size);
        }
    }
    return ARBEL_ST_OK;
}

uint8_t arbel_cmd_unmap_icm(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va = cmd->in_param, n = cmd->in_mod, i;

    if (!s->fw.icm_size) {
        return ARBEL_ST_BAD_SYS_STATE;
    }
    if ((va & (ARBEL_ICM_PAGE - 1)) || n == 0 || va >= ARBEL_MAX_ICM_SIZE ||
        n > (ARBEL_MAX_ICM_SIZE - va) / ARBEL_ICM_PAGE) {
        return ARBEL_ST_BAD_PARAM;
    }
    if (va >= s->fw.icm_size || n > (s->fw.icm_size - va) / ARBEL_ICM_PAGE) {
        arbel_unconfirmed(s, "UNMAP_ICM [0x%" PRIx64 ", %" PRIu64
                          " pages) beyond ICM size 0x%" PRIx64, va, n,
                          s->fw.icm_size);
    }
    for (i = 0; i < n; i++) {
        if (!arbel_icm_mapped(s, va + i * ARBEL_ICM_PAGE, 1)) {
            arbel_unconfirmed(s, "UNMAP_ICM [0x%" PRIx64 ", %" PRIu64
                              " pages) holds unmapped pages", va, n);
            break;
        }
    }
    for (i = 0; i < n; i++) {
        if (arbel_icm_mapped(s, va + i * ARBEL_ICM_PAGE, 1)) {
            arbel_icm_unmap_page(s, va + i * ARBEL_ICM_PAGE);
        }
    }
    return ARBEL_ST_OK;
}

