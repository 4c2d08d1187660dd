/*
 * arbel-stub: the translation and protection tables (arbel-tpt.c), the
 * checks of an MPT entry (arbel-mptchk.c) and the translation engine over
 * them (arbel-xlate.c), a shared service.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_TPT_H
#define HW_ARBEL_TPT_H

#include "arbel-state.h"

/* arbel-tpt.c: where the tables are, which MPT slots hardware owns */
void arbel_tpt_init(ArbelState *s, uint64_t mpt_base, uint32_t log_mpt_sz,
                    uint64_t mtt_base, uint64_t mtt_end);
void arbel_tpt_reset(ArbelState *s);
bool arbel_tpt_active(ArbelState *s);
uint32_t arbel_tpt_log_mpt(ArbelState *s);
uint64_t arbel_tpt_mpt_base(ArbelState *s);
uint64_t arbel_tpt_mtt_base(ArbelState *s);
uint64_t arbel_tpt_mtt_end(ArbelState *s);
uint64_t arbel_mpt_addr(ArbelState *s, uint32_t index);
uint64_t arbel_mtt_rsvd_end(ArbelState *s);
bool arbel_mtt_range_ok(ArbelState *s, uint64_t va, uint64_t len);
bool arbel_mpt_hw_owned(ArbelState *s, uint32_t index, uint32_t dword0);
void arbel_mpt_set_hw(ArbelState *s, uint32_t index, bool hw);
uint32_t arbel_mpt_hw_count(ArbelState *s);
void arbel_mpt_drop_all(ArbelState *s);
uint8_t arbel_tpt_cached_read(ArbelState *s, bool mpt, uint64_t key,
                              uint64_t va, void *buf, uint64_t len);
void arbel_tpt_cache_drop_mpt(ArbelState *s, uint32_t index, bool mtts);
void arbel_tpt_cache_drop_mtt(ArbelState *s, uint64_t va, uint64_t n);
void arbel_tpt_sync(ArbelState *s);
void arbel_tpt_cache_stats(ArbelState *s, uint64_t *hits, uint64_t *misses,
                           uint64_t *syncs);

/* arbel-mptchk.c: the checks of an MPT entry */
bool arbel_mpt_entry_check(ArbelState *s, uint32_t index, const uint32_t *d,
                           bool cpu);
void arbel_mpt_fw_image(ArbelState *s, uint32_t index, const uint8_t *img);
void arbel_mpt_cpu_check(ArbelState *s, uint32_t index, const uint8_t *img);

/* arbel-xlate.c: the walk key -> MPT -> MTT -> guest memory */
uint32_t arbel_xlate_rw(ArbelState *s, ArbelXlReq *req, void *buf);

/* arbel-mw.c: memory windows */
bool arbel_tpt_bind_mw(ArbelState *s, uint32_t pd, const uint8_t *seg);
uint32_t arbel_tpt_window(ArbelState *s, ArbelXlReq *req, const uint32_t *d);

#endif
