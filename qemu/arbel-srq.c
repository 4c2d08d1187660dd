/*
 * arbel-stub: shared receive queues as firmware objects (no data path).
 *
 * An SRQ's context lives in ICM at the SRQC base + srqn * 0x20, the entry
 * size QUERY_DEV_LIM reports (INIT_HCA gives the base and the log2 count).
 * SW2HW_SRQ writes the first 0x20 bytes of the mailbox there (mthca's
 * Arbel context has nothing but reserved fields and the WQE counter past
 * them); HW2SW_SRQ and QUERY_SRQ return it; ARM_SRQ (in_param: the limit)
 * sets its limit watermark, be16 at 0x1c.  Sources: mthca's srq code
 * (mthca_alloc_srq, mthca_free_srq, mthca_modify_srq, mthca_query_srq),
 * mthca's cmd code; Documentation/arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-ctx.h"
#include "arbel-objects.h"

/**
 * arbel_cmd_arm_srq - ARM_SRQ: set the limit watermark of SRQ in_mod
 * @s: the device
 * @cmd: the command (in_param: the limit)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_arm_srq(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t lim[2];
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_ctx_find(s, ARBEL_CTX_SRQ, cmd->in_mod, true, &va);
    if (st) {
        return st;
    }
    if (cmd->in_param > ARBEL_SRQ_MAX_LIMIT) {
        return ARBEL_ST_BAD_PARAM;
    }
    stw_be_p(lim, cmd->in_param);
    return arbel_icm_write(s, va + ARBEL_SRQC_LIMIT, lim, sizeof(lim));
}
