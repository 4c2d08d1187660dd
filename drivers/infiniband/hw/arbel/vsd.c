// SPDX-License-Identifier: GPL-2.0-only
/*
 * The board ID in QUERY_ADAPTER's vendor-specific data.  Pure code: runs
 * under UML KUnit.
 */

#include <linux/string.h>
#include <kunit/visibility.h>

#include <arbel/prm.h>
#include <arbel/vsd.h>
#include "compat.h"

/**
 * arbel_vsd_board_id() - the board ID in QUERY_ADAPTER's VSD
 * @vsd: the vendor-specific data (outbox + %ARBEL_QUERY_ADAPTER_VSD)
 * @board_id: receives the NUL-terminated ID
 * @len: size of @board_id, at least 1
 *
 * A Mellanox board keeps the ID at VSD + 0xd0, 16 bytes whose dwords the
 * firmware byte-swaps; a Topspin board, marked by both VSD signatures,
 * keeps a plain string at VSD + 0x20 (mthca's get_board_id()).
 *
 * Context: any.
 */
void arbel_vsd_board_id(const u8 *vsd, char *board_id, size_t len)
{
	char id[ARBEL_BOARD_ID_LEN + 1] = { };
	int i;

	if (get_unaligned_be16(vsd + ARBEL_VSD_SIG1) == ARBEL_VSD_SIG_TOPSPIN &&
	    get_unaligned_be16(vsd + ARBEL_VSD_SIG2) == ARBEL_VSD_SIG_TOPSPIN) {
		memcpy(id, vsd + ARBEL_VSD_TS_BOARD_ID, ARBEL_BOARD_ID_LEN);
	} else {
		for (i = 0; i < ARBEL_BOARD_ID_LEN; i += 4)
			put_unaligned_le32(get_unaligned_be32(vsd +
					   ARBEL_VSD_MLX_BOARD_ID + i),
					   id + i);
	}
	strscpy(board_id, id, len);
}
EXPORT_SYMBOL_IF_KUNIT(arbel_vsd_board_id);
