/*
 * arbel-stub: shared receive queues as firmware objects, and the data
 * path's walk through their WQEs.
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
 * The walk (arbel_srq_take): the SRQ's WQEs (2^log size, 16 << stride
 * bytes each, at wqe_base in the region of the context's lkey) form a
 * list: each WQE's next segment holds the next one's address with bit 0
 * set (nda_op), and the doorbell record (db_index in the UAR context of
 * the SRQ's UAR) counts the WQEs software posted.  The hardware starts at
 * WQE 0 and, after each WQE it takes, follows that WQE's link when it
 * takes the next -- read then, since software links a freed WQE behind the
 * last one.  When a take leaves fewer posted WQEs than the limit ARM_SRQ
 * set, the SRQ limit event (type 0x14, the srqn) fires and the limit goes
 * back to 0.  Sources: mthca's srq code (mthca_alloc_srq_buf,
 * mthca_arbel_post_srq_recv, mthca_free_srq_wqe, the context), mthca's eq
 * code (the SRQ events).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-ctx.h"
#include "arbel-tpt.h"
#include "arbel-eq.h"
#include "arbel-wqe.h"
#include "arbel-objects.h"

/**
 * arbel_srq_reset - the data path has taken no WQE of any SRQ
 * @s: the device
 */
void arbel_srq_reset(ArbelState *s)
{
    if (!s->srqs.rt) {
        s->srqs.rt = g_hash_table_new_full(g_direct_hash, g_direct_equal,
                                           NULL, g_free);
    }
    g_hash_table_remove_all(s->srqs.rt);
}

/**
 * arbel_srq_fini - free what the SRQ module holds
 * @s: the device
 */
void arbel_srq_fini(ArbelState *s)
{
    if (s->srqs.rt) {
        g_hash_table_destroy(s->srqs.rt);
        s->srqs.rt = NULL;
    }
}

/**
 * arbel_cmd_srq_ctx - SW2HW_SRQ / HW2SW_SRQ / QUERY_SRQ: the context
 * service's life cycle; an SRQ handed to the hardware starts at WQE 0
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_srq_ctx(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t st = arbel_cmd_ctx(s, cmd);

    if (!st && cmd->opcode != ARBEL_OP_QUERY_SRQ) {
        g_hash_table_remove(s->srqs.rt, GUINT_TO_POINTER(cmd->in_mod));
    }
    return st;
}

static ArbelSrqRt *arbel_srq_rt(ArbelState *s, uint32_t srqn)
{
    ArbelSrqRt *rt = g_hash_table_lookup(s->srqs.rt, GUINT_TO_POINTER(srqn));

    if (!rt) {
        rt = g_new0(ArbelSrqRt, 1);
        rt->last = -1;
        g_hash_table_insert(s->srqs.rt, GUINT_TO_POINTER(srqn), rt);
    }
    return rt;
}

/* the link in WQE @index's next segment: the next WQE's index, or -1 */
static int32_t arbel_srq_link(ArbelState *s, uint32_t lkey, uint64_t base,
                              unsigned int shift, uint32_t index)
{
    ArbelXlReq req = {
        .key = lkey, .access = ARBEL_XL_ACC_LOCAL_READ,
        .va = base + ((uint64_t)index << shift), .len = 4,
    };
    uint8_t nda[4];
    uint32_t v;

    if (arbel_xlate_rw(s, &req, nda) != ARBEL_XL_OK) {
        return -1;
    }
    v = ldl_be_p(nda);
    return v & ARBEL_SRQ_NDA_VALID ? (int32_t)(v >> shift) : -1;
}

/* the limit event, when fewer than the armed limit are left posted */
static void arbel_srq_limit(ArbelState *s, uint32_t srqn, uint64_t va,
                            const uint8_t *ctx, unsigned int left)
{
    unsigned int limit = lduw_be_p(ctx + ARBEL_SRQC_LIMIT);
    uint8_t data[24] = { 0 }, zero[2] = { 0 };

    if (!limit || left >= limit) {
        return;
    }
    arbel_icm_write(s, va + ARBEL_SRQC_LIMIT, zero, sizeof(zero));
    stl_be_p(data, srqn);
    arbel_eq_post_event(s, ARBEL_EV_SRQ_LIMIT, 0, data);
}

/**
 * arbel_srq_take - take the next posted WQE of SRQ @srqn
 * @s: the device
 * @srqn: the SRQ
 * @wqe: receives where it is: its lkey, address, size and PD, and the
 *       address a CQE reports (its offset in the SRQ's buffer)
 *
 * Return: true if a WQE was posted (and is now taken); false if none is,
 * or the SRQ is not in hardware.
 */
bool arbel_srq_take(ArbelState *s, uint32_t srqn, ArbelRecvWqe *wqe)
{
    uint8_t ctx[ARBEL_SRQC_SIZE];
    unsigned int shift, log;
    uint32_t counter, uar;
    ArbelSrqRt *rt;
    uint64_t va, base;
    int32_t index;

    if (!arbel_ctx_read_hw(s, ARBEL_CTX_SRQ, srqn, ctx, &va, "receive")) {
        return false;
    }
    uar = ldl_be_p(ctx + ARBEL_SRQC_STRIDE_UAR) & ARBEL_QPN_MASK;
    if (arbel_icm_db_read(s, uar, ldl_be_p(ctx + ARBEL_SRQC_DB_INDEX),
                          &counter)) {
        arbel_unconfirmed(s, "SRQ 0x%x: doorbell record unreadable", srqn);
        return false;
    }
    rt = arbel_srq_rt(s, srqn);
    if (!((counter - rt->consumed) & ARBEL_DB_COUNTER_MASK)) {
        return false;
    }
    /* ldl_be_p() is signed: a stride of 256 bytes or more sets bit 31 */
    shift = ((uint32_t)ldl_be_p(ctx + ARBEL_SRQC_STRIDE_UAR) >> 29) +
            ARBEL_QPC_SQ_STRIDE_BASE;
    log = ldl_be_p(ctx + ARBEL_SRQC_STATE_LOG) >> 24 & 0x1f;
    base = ldq_be_p(ctx + ARBEL_SRQC_WQE_BASE);
    wqe->lkey = ldl_be_p(ctx + ARBEL_SRQC_LKEY);
    index = rt->last < 0 ? 0 : arbel_srq_link(s, wqe->lkey, base, shift,
                                               rt->last);
    if (index < 0 || index >= (1 << log)) {
        arbel_unconfirmed(s, "SRQ 0x%x: WQE %d has no valid link", srqn,
                          rt->last);
        return false;
    }
    rt->last = index;
    rt->consumed++;
    wqe->va = base + ((uint64_t)index << shift);
    wqe->size = 1u << shift;
    wqe->cqe_wqe = (uint32_t)index << shift;
    wqe->pd = ldl_be_p(ctx + ARBEL_SRQC_EQ_PD) & ARBEL_QPC_PD_MASK;
    arbel_srq_limit(s, srqn, va, ctx,
                    (counter - rt->consumed) & ARBEL_DB_COUNTER_MASK);
    return true;
}

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
