/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The board ID in QUERY_ADAPTER's vendor-specific data (vsd.c).  Pure
 * code: UML-testable.
 */
#ifndef _ARBEL_VSD_H
#define _ARBEL_VSD_H

#include <linux/types.h>

void arbel_vsd_board_id(const u8 *vsd, char *board_id, size_t len);

#endif /* _ARBEL_VSD_H */
