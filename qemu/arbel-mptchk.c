/*
 * arbel-stub: the checks of an MPT entry, part of the TPT service: an
 * entry SW2HW_MPT hands over (arbel-mpt.c refuses what a source states),
 * and an entry the CPU rewrote in ICM -- as mthca's FMRs did
 * (mthca_arbel_map_phys_fmr) and arbel's fast registration does -- found
 * the first time the translation engine reads it (arbel-xlate.c): the same
 * rules, each only noted, since no source says what the HCA does with
 * such an entry.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-tpt.h"

/*
 * Which SW2HW_MPT rules refuse and which only leave an "unconfirmed:" line
 * (Documentation/arbel-stub.rst, "Checks and their sources").  Refused
 * with 0x03, because a source states them: page_size < 20 and lkey 0 and
 * mtt_adr 8-byte aligned and type 0 for regions (the PRM's arbelprm_mpt_st
 * and arbel-prm-notes.md section 5), a region's length at most 2^36
 * (QUERY_DEV_LIM 0x21, max MR size).  Unconfirmed, the entry is taken: the
 * PRM's reserved fields (mthca sets MIO, dword 0 bit 17, inside them on
 * real firmware: reserved bits are not refused there), mem_key's index bits
 * (mthca derives in_mod from the key; no source says the firmware compares
 * them), win_cnt, a window's eb and a region's qpn (the PRM: "valid for"
 * regions / type-2 windows, no "must"), a start + length that wraps, the
 * MTT range outside the MTT area or in its reserved entries (the
 * translation engine checks each MTT entry it reads instead).
 */
/* the bits of dwords 0 and 3 that are no reserved field */
#define ARBEL_MPT_D0_ALLOWED    (0xf000ff00u | ARBEL_MPT_D0_MIO)
#define ARBEL_MPT_D3_RSVD       ((1u << 24) | (7u << 29))
/* page sizes the PRM allows: 4 KiB << 0..19 ("should be < 20") */
#define ARBEL_MPT_PAGE_SIZE_LIMIT 20

/* a rule no source states for this entry: noted, the entry is taken */
static void arbel_mpt_note(ArbelState *s, uint32_t index, bool cpu,
                           const char *what)
{
    if (cpu) {
        arbel_unconfirmed(s, "MPT 0x%x written by the CPU: %s", index, what);
    } else {
        arbel_unconfirmed(s, "SW2HW_MPT 0x%x: %s", index, what);
    }
}

/* a rule a source states for SW2HW_MPT, broken: noted for a CPU's entry */
static bool arbel_mpt_hard(ArbelState *s, uint32_t index, bool cpu,
                           const char *what)
{
    if (cpu) {
        arbel_mpt_note(s, index, cpu, what);
    }
    return false;
}

/* The MTT range of a translated region: noted if outside the MTT area. */
static void arbel_mpt_mtt_note(ArbelState *s, uint32_t index, bool cpu,
                               const uint32_t *d)
{
    unsigned int shift = ARBEL_MPT_PAGE_SHIFT +
                         (d[ARBEL_MPT_DW_PAGE] & ARBEL_MPT_D1_PAGE_SIZE_MASK);
    bool zb = d[ARBEL_MPT_DW_PD] & ARBEL_MPT_D3_ZB;
    uint64_t first = zb ? 0 : arbel_mpt_start(d) & ((1ULL << shift) - 1);
    uint64_t mtt_adr = arbel_mpt_mtt_adr(d);
    uint64_t npages;

    npages = (first + arbel_mpt_len(d) + (1ULL << shift) - 1) >> shift;
    if (!arbel_mtt_range_ok(s, mtt_adr, npages * ARBEL_MTT_ENTRY_SIZE)) {
        arbel_mpt_note(s, index, cpu, "MTT range outside the MTT area");
    } else if (mtt_adr < arbel_mtt_rsvd_end(s)) {
        arbel_mpt_note(s, index, cpu, "MTT range in the reserved MTTs");
    }
}

/**
 * arbel_mpt_entry_check - the checks of an MPT entry
 * @s: the device
 * @index: its slot
 * @d: its 16 dwords
 * @cpu: false: handed over by SW2HW_MPT -- what a source states refuses
 *       it (false at the first such rule), the rest is noted; true: the
 *       CPU rewrote it in ICM (arbel_mpt_cpu_check()) -- every rule is
 *       only noted, none applies to such an entry by a source
 *
 * Return: false if a rule a source states for SW2HW_MPT is broken.
 */
bool arbel_mpt_entry_check(ArbelState *s, uint32_t index, const uint32_t *d,
                           bool cpu)
{
    uint32_t flags = d[ARBEL_MPT_DW_FLAGS], page = d[ARBEL_MPT_DW_PAGE];
    uint32_t pd = d[ARBEL_MPT_DW_PD];
    bool region = flags & ARBEL_MPT_D0_RW;
    bool phys = flags & ARBEL_MPT_D0_PA;
    bool zb = pd & ARBEL_MPT_D3_ZB;
    uint32_t page_size = page & ARBEL_MPT_D1_PAGE_SIZE_MASK;
    uint64_t start = arbel_mpt_start(d);
    uint64_t len = arbel_mpt_len(d);
    uint32_t mask = (1u << arbel_tpt_log_mpt(s)) - 1;
    bool ok = true;

    /* PRM: page_size "should be < 20"; lkey "Must be 0 for SW2HW_MPT" */
    if (page_size >= ARBEL_MPT_PAGE_SIZE_LIMIT || d[ARBEL_MPT_DW_LKEY]) {
        ok = arbel_mpt_hard(s, index, cpu, "page_size 20 or more, or lkey");
    }
    /* PRM: mtt_adr_l "Must be aligned on 8 bytes" */
    if ((ok || cpu) && (d[ARBEL_MPT_DW_MTT_L] & ARBEL_MPT_D12_RSVD7)) {
        ok = arbel_mpt_hard(s, index, cpu, "mtt_adr not 8-byte aligned");
    }
    /* PRM: type "must be zero for regions" */
    if ((ok || cpu) && region && (page & ARBEL_MPT_D1_TYPE)) {
        ok = arbel_mpt_hard(s, index, cpu, "type not 0 on a region");
    }
    /* QUERY_DEV_LIM 0x21: the largest region the device translates */
    if ((ok || cpu) && region && !phys &&
        len > (1ULL << ARBEL_LOG_MAX_MR_SIZE)) {
        ok = arbel_mpt_hard(s, index, cpu, "length above 2^36");
    }
    if (!ok && !cpu) {
        return false;
    }

    if ((flags & ~ARBEL_MPT_D0_ALLOWED) || (page & ARBEL_MPT_D1_RSVD2) ||
        (pd & ARBEL_MPT_D3_RSVD) || d[ARBEL_MPT_DW_RSVD5] ||
        (d[ARBEL_MPT_DW_MTT_H] & ~ARBEL_MPT_D11_MTT_H_MASK) ||
        d[ARBEL_MPT_DW_RSVD8] || d[ARBEL_MPT_DW_RSVD8 + 1]) {
        arbel_mpt_note(s, index, cpu, "reserved bits set");
    }
    if ((d[ARBEL_MPT_DW_KEY] & mask) != index) {
        arbel_mpt_note(s, index, cpu, "mem_key does not name the slot");
    }
    if (d[ARBEL_MPT_DW_WIN_CNT]) {
        arbel_mpt_note(s, index, cpu, "win_cnt not 0");
    }
    if (!region) {
        if (flags & ARBEL_MPT_D0_EB) {
            arbel_mpt_note(s, index, cpu, "bind enable on a window");
        }
        return ok;
    }
    if (page >> ARBEL_MPT_D1_QPN_SHIFT) {
        arbel_mpt_note(s, index, cpu, "qpn on a region");
    }
    if (!zb && len > UINT64_MAX - start) {
        arbel_mpt_note(s, index, cpu, "start + length wraps");
    }
    if (!phys) {
        arbel_mpt_mtt_note(s, index, cpu, d);
    }
    return ok;
}

/**
 * arbel_mpt_fw_image - what the firmware stored in MPT slot @index
 * @s: the device
 * @index: the slot
 * @img: its 64 bytes (SW2HW_MPT), or NULL: the slot went back to software
 *       (HW2SW_MPT)
 */
void arbel_mpt_fw_image(ArbelState *s, uint32_t index, const uint8_t *img)
{
    if (!s->tpt.mpt_fw) {
        return;
    }
    if (img) {
        g_hash_table_insert(s->tpt.mpt_fw, GUINT_TO_POINTER(index),
                            g_memdup2(img, ARBEL_MPT_ENTRY_SIZE));
    } else {
        g_hash_table_remove(s->tpt.mpt_fw, GUINT_TO_POINTER(index));
    }
}

/**
 * arbel_mpt_cpu_check - an MPT entry the translation engine read from ICM:
 * if the CPU changed it since the firmware (or this check) last saw it
 * and made it hardware-owned, the entry's checks, each only noted
 * @s: the device
 * @index: its slot
 * @img: the 64 bytes read
 */
void arbel_mpt_cpu_check(ArbelState *s, uint32_t index, const uint8_t *img)
{
    uint32_t d[ARBEL_MPT_DWORDS];
    gpointer seen;
    int i;

    if (!s->tpt.mpt_fw) {
        return;
    }
    seen = g_hash_table_lookup(s->tpt.mpt_fw, GUINT_TO_POINTER(index));
    if (!seen || !memcmp(seen, img, ARBEL_MPT_ENTRY_SIZE) ||
        ((uint32_t)ldl_be_p(img) >> ARBEL_MPT_D0_STATUS_SHIFT) ==
        ARBEL_MPT_STATUS_SW) {
        return;
    }
    for (i = 0; i < ARBEL_MPT_DWORDS; i++) {
        d[i] = ldl_be_p(img + 4 * i);
    }
    arbel_mpt_entry_check(s, index, d, true);
    arbel_mpt_fw_image(s, index, img);
}
