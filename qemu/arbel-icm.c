/*
 * arbel-stub: firmware area (MAP_FA), auxiliary ICM (MAP_ICM_AUX) and ICM
 * (MAP_ICM) mappings.
 *
 * ICM is the HCA's context memory, living in host (guest) RAM.  MAP_ICM
 * records ICM-virtual -> guest-physical translations for 4 KiB pages; all
 * context accesses (MPT entries, MTT entries) go through them with
 * pci_dma_read/pci_dma_write.
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
#include "arbel-stub.h"

#define ARBEL_MAX_PAIRS     (ARBEL_MBOX_SIZE / 16)
#define ARBEL_MAX_LOG_CHUNK 20      /* 4 GiB */

typedef struct ArbelIcmPage {
    uint64_t vpn;       /* must stay first: hashed with g_int64_hash */
    uint64_t pa;
} ArbelIcmPage;

void arbel_icm_init(ArbelState *s)
{
    s->fa = g_array_new(false, true, sizeof(ArbelChunk));
    s->aux = g_array_new(false, true, sizeof(ArbelChunk));
    s->icm = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
                                   NULL);
}

void arbel_icm_reset(ArbelState *s)
{
    g_array_set_size(s->fa, 0);
    g_array_set_size(s->aux, 0);
    g_hash_table_remove_all(s->icm);
    s->fa_pages = 0;
    s->aux_pages = 0;
    s->icm_size = 0;
    s->aux_needed = 0;
}

uint64_t arbel_icm_pages(ArbelState *s)
{
    return g_hash_table_size(s->icm);
}

/*
 * A rule no source states: the stub does not refuse, it leaves a line
 * "#N unconfirmed: ..." in the trace (Documentation/arbel-stub.rst).
 */
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    g_autofree char *line = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    line = g_strdup_printf("unconfirmed: %s", msg);
    arbel_trace_cmd(s, NULL, 0, line);
}

/* Decode and check the physical half of a pair. */
static bool arbel_pair_pa(const uint8_t *pair, uint64_t *pa, uint64_t *size)
{
    uint64_t raw = ldq_be_p(pair + 8);
    unsigned int log = raw & 0x3f;

    if (raw & 0xfc0) {
        return false;               /* reserved bits 11:6 */
    }
    if (log > ARBEL_MAX_LOG_CHUNK) {
        return false;
    }
    *size = ARBEL_ICM_PAGE << log;
    *pa = raw & ~0xfffULL;
    return !(*pa & (*size - 1));
}

/* the inbox of a MAP_* command: in_mod (1 .. ARBEL_MAX_PAIRS) 16-byte pairs */
static uint8_t arbel_pairs_read(ArbelState *s, ArbelCmd *cmd)
{
    if (cmd->in_mod == 0 || cmd->in_mod > ARBEL_MAX_PAIRS) {
        return ST_BAD_PARAM;
    }
    return arbel_inbox_read(s, cmd, cmd->in_mod * 16);
}

static uint8_t arbel_map_chunks(ArbelState *s, ArbelCmd *cmd, GArray *arr,
                                uint64_t *pages)
{
    uint32_t n = cmd->in_mod, i;
    uint8_t st;

    st = arbel_pairs_read(s, cmd);
    if (st) {
        return st;
    }
    for (i = 0; i < n; i++) {
        ArbelChunk c;

        if (!arbel_pair_pa(cmd->inbox + i * 16, &c.pa, &c.size)) {
            return ST_BAD_PARAM;
        }
    }
    for (i = 0; i < n; i++) {
        ArbelChunk c = { 0, 0 };

        arbel_pair_pa(cmd->inbox + i * 16, &c.pa, &c.size);
        g_array_append_val(arr, c);
        *pages += c.size / ARBEL_ICM_PAGE;
    }
    return ST_OK;
}

uint8_t arbel_cmd_map_fa(ArbelState *s, ArbelCmd *cmd)
{
    return arbel_map_chunks(s, cmd, s->fa, &s->fa_pages);
}

uint8_t arbel_cmd_unmap_fa(ArbelState *s, ArbelCmd *cmd)
{
    if (s->aux_pages || arbel_icm_pages(s)) {
        return ST_BAD_SYS_STATE;    /* unmap ICM and aux ICM first */
    }
    g_array_set_size(s->fa, 0);
    s->fa_pages = 0;
    s->icm_size = 0;
    s->aux_needed = 0;
    s->state = FW_RESET;            /* the firmware stops */
    return ST_OK;
}

uint8_t arbel_cmd_set_icm_size(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t size = cmd->in_param;

    if (s->aux_pages || arbel_icm_pages(s)) {
        return ST_BAD_SYS_STATE;    /* ICM already in use */
    }
    if (!size || (size & (ARBEL_ICM_PAGE - 1)) || size > ARBEL_MAX_ICM_SIZE) {
        return ST_BAD_PARAM;
    }
    s->icm_size = size;
    s->aux_needed = MAX(1, DIV_ROUND_UP(size, ARBEL_AUX_ICM_PER_PAGE));
    cmd->imm = s->aux_needed;
    cmd->out_imm = true;
    return ST_OK;
}

uint8_t arbel_cmd_map_icm_aux(ArbelState *s, ArbelCmd *cmd)
{
    if (!s->icm_size) {
        return ST_BAD_SYS_STATE;    /* SET_ICM_SIZE first */
    }
    return arbel_map_chunks(s, cmd, s->aux, &s->aux_pages);
}

uint8_t arbel_cmd_unmap_icm_aux(ArbelState *s, ArbelCmd *cmd)
{
    if (arbel_icm_pages(s)) {
        return ST_BAD_SYS_STATE;    /* unmap ICM first */
    }
    g_array_set_size(s->aux, 0);
    s->aux_pages = 0;
    return ST_OK;
}

static ArbelIcmPage *arbel_icm_lookup(ArbelState *s, uint64_t va)
{
    uint64_t vpn = va / ARBEL_ICM_PAGE;

    return g_hash_table_lookup(s->icm, &vpn);
}

uint8_t arbel_cmd_map_icm(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t n = cmd->in_mod, i;
    uint64_t p;
    uint8_t st;

    if (!s->icm_size) {
        return ST_BAD_SYS_STATE;    /* SET_ICM_SIZE first */
    }
    st = arbel_pairs_read(s, cmd);
    if (st) {
        return st;
    }
    /* check everything first: a refused command maps nothing */
    for (i = 0; i < n; i++) {
        const uint8_t *pair = cmd->inbox + i * 16;
        uint64_t va = ldq_be_p(pair), pa, size;

        if (!arbel_pair_pa(pair, &pa, &size) || (va & (size - 1)) ||
            va > ARBEL_MAX_ICM_SIZE - size) {
            return ST_BAD_PARAM;
        }
    }
    for (i = 0; i < n; i++) {
        const uint8_t *pair = cmd->inbox + i * 16;
        uint64_t va = ldq_be_p(pair), pa = 0, size = 0;
        bool again = false;

        arbel_pair_pa(pair, &pa, &size);
        if (va >= s->icm_size || size > s->icm_size - va) {
            /* iPXE maps its doorbell page above the ICM it sized */
            arbel_unconfirmed(s, "MAP_ICM [0x%" PRIx64 ", +0x%" PRIx64
                              ") beyond ICM size 0x%" PRIx64, va, size,
                              s->icm_size);
        }
        for (p = 0; p < size; p += ARBEL_ICM_PAGE) {
            ArbelIcmPage *pg = g_new(ArbelIcmPage, 1);

            pg->vpn = (va + p) / ARBEL_ICM_PAGE;
            pg->pa = pa + p;
            again |= g_hash_table_contains(s->icm, pg);
            g_hash_table_replace(s->icm, pg, pg);
        }
        if (again) {
            /* the new translation replaces the old one */
            arbel_unconfirmed(s, "MAP_ICM [0x%" PRIx64 ", +0x%" PRIx64
                              ") maps a mapped page again", va, size);
        }
    }
    return ST_OK;
}

uint8_t arbel_cmd_unmap_icm(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va = cmd->in_param, n = cmd->in_mod, i;

    if (!s->icm_size) {
        return ST_BAD_SYS_STATE;
    }
    if ((va & (ARBEL_ICM_PAGE - 1)) || n == 0 || va >= ARBEL_MAX_ICM_SIZE ||
        n > (ARBEL_MAX_ICM_SIZE - va) / ARBEL_ICM_PAGE) {
        return ST_BAD_PARAM;
    }
    if (va >= s->icm_size || n > (s->icm_size - va) / ARBEL_ICM_PAGE) {
        arbel_unconfirmed(s, "UNMAP_ICM [0x%" PRIx64 ", %" PRIu64
                          " pages) beyond ICM size 0x%" PRIx64, va, n,
                          s->icm_size);
    }
    for (i = 0; i < n; i++) {
        if (!arbel_icm_lookup(s, va + i * ARBEL_ICM_PAGE)) {
            return ST_BAD_PARAM;        /* not mapped */
        }
    }
    for (i = 0; i < n; i++) {
        uint64_t vpn = va / ARBEL_ICM_PAGE + i;

        g_hash_table_remove(s->icm, &vpn);
    }
    return ST_OK;
}

bool arbel_icm_mapped(ArbelState *s, uint64_t va, uint64_t len)
{
    uint64_t p;

    if (!len) {
        return true;
    }
    for (p = va & ~(ARBEL_ICM_PAGE - 1); p < va + len; p += ARBEL_ICM_PAGE) {
        if (!arbel_icm_lookup(s, p)) {
            return false;
        }
    }
    return true;
}

static uint8_t arbel_icm_rw(ArbelState *s, uint64_t va, void *buf,
                            uint64_t len, bool write)
{
    uint8_t *b = buf;

    if (!arbel_icm_mapped(s, va, len)) {
        return ST_BAD_RESOURCE;
    }
    while (len) {
        ArbelIcmPage *pg = arbel_icm_lookup(s, va);
        uint64_t off = va & (ARBEL_ICM_PAGE - 1);
        uint64_t chunk = MIN(len, ARBEL_ICM_PAGE - off);
        MemTxResult r;

        if (write) {
            r = arbel_dma_write(s, pg->pa + off, b, chunk);
        } else {
            r = arbel_dma_read(s, pg->pa + off, b, chunk);
        }
        if (r != MEMTX_OK) {
            return ST_INTERNAL_ERR;
        }
        va += chunk;
        b += chunk;
        len -= chunk;
    }
    return ST_OK;
}

uint8_t arbel_icm_read(ArbelState *s, uint64_t va, void *buf, uint64_t len)
{
    return arbel_icm_rw(s, va, buf, len, false);
}

uint8_t arbel_icm_write(ArbelState *s, uint64_t va, const void *buf,
                        uint64_t len)
{
    return arbel_icm_rw(s, va, (void *)buf, len, true);
}
