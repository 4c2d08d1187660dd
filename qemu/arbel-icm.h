/*
 * arbel-stub: ICM address translation and table layout (arbel-icm.c), a
 * shared service.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_ICM_H
#define HW_ARBEL_ICM_H

#include "arbel-state.h"

void arbel_icm_init(ArbelState *s);
void arbel_icm_fini(ArbelState *s);
void arbel_icm_reset(ArbelState *s);
uint64_t arbel_icm_pages(ArbelState *s);
bool arbel_icm_map_page(ArbelState *s, uint64_t va, uint64_t pa);
void arbel_icm_unmap_page(ArbelState *s, uint64_t va);
bool arbel_icm_mapped(ArbelState *s, uint64_t va, uint64_t len);
/*
 * 0 on success, ARBEL_ST_BAD_RESOURCE if unmapped, ARBEL_ST_INTERNAL_ERR on
 * DMA error
 */
uint8_t arbel_icm_read(ArbelState *s, uint64_t va, void *buf, uint64_t len);
uint8_t arbel_icm_write(ArbelState *s, uint64_t va, const void *buf,
                        uint64_t len);
void arbel_icm_set_tables(ArbelState *s, const ArbelTable *t);
const ArbelTable *arbel_icm_table(ArbelState *s, ArbelTableId id);
uint8_t arbel_icm_db_read(ArbelState *s, uint32_t uar, uint32_t index,
                          uint32_t *val);
uint8_t arbel_icm_slot(ArbelState *s, ArbelTableId id, uint32_t num,
                       uint32_t entry, uint64_t *va);

#endif
