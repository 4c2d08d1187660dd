/*
 * arbel-stub: the send doorbell -- send WQEs complete as CQEs.
 *
 * The stub has no wire: a send on a UD or MLX (special, the GSI's MADs) QP
 * leaves the port and, being unreliable, completes at once with success,
 * as it would on a port with nothing behind it.  Sends on connected QPs
 * (RC, UC, RD) would need a peer to complete; they are traced and not
 * executed.  No payload is read, no packet built, no receive completed.
 *
 * The doorbell (UAR offset 0x10, one 64-bit store): dword 0 holds the
 * number of WQEs (31:24), the index of the first (23:8), fence (5) and its
 * opcode (4:0); dword 1 the QP number (31:8) and the first WQE's size in
 * 16-byte units (5:0).  WQE i is at snd_wqe_base + (index + i mod SQ size)
 * << stride in the region of the QP's wqe_lkey; its first 16 bytes, the
 * next segment, give the next WQE's opcode (nda_op 4:0) and its flags (bit
 * 3: CQ update).  A WQE with CQ update, or any on a QP
 * whose context has SSC (params1 bit 3), completes as a CQE on cqn_snd:
 * my_qpn, the WQE's address, its opcode, is_send 0x80.  Sources: mthca's
 * qp code (mthca_arbel_post_send, struct mthca_qp_context, the QP service
 * types), mthca's wqe header (struct mthca_next_seg), mthca's cq code
 * (mthca_poll_one); Documentation/arbel-stub.rst "Send completions".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-objects.h"

/* one WQE's next segment, read through the QP's wqe_lkey */
static bool arbel_send_wqe(ArbelState *s, uint32_t lkey, uint64_t va,
                           uint8_t *seg)
{
    ArbelXlReq req = {
        .key = lkey, .access = ARBEL_XL_ACC_LOCAL_READ, .va = va,
        .len = ARBEL_NEXT_SEG_SIZE,
    };
    uint32_t r = arbel_xlate_rw(s, &req, seg);

    if (r != ARBEL_XL_OK) {
        trace_arbel_send_wqe_unreadable(arbel_trace_seq(s), va, r);
    }
    return r == ARBEL_XL_OK;
}

/**
 * arbel_send_doorbell - the send doorbell (UAR offset 0x10)
 * @s: the device
 * @head_op: the first dword: WQE count, first index, fence, opcode
 * @qpn_size: the second: QP number, first WQE's size
 */
void arbel_send_doorbell(ArbelState *s, uint32_t head_op, uint32_t qpn_size)
{
    unsigned int nreq = head_op >> ARBEL_DB_NREQ_SHIFT, i, done = 0;
    uint32_t head = head_op >> ARBEL_DB_HEAD_SHIFT & ARBEL_DB_HEAD_MASK;
    uint32_t qpn = qpn_size >> ARBEL_DB_QPN_SHIFT, lkey, cqn, mask, st;
    unsigned int state = arbel_qp_state_of(s, qpn), shift;
    uint8_t op = head_op & ARBEL_DB_OP_MASK;
    uint8_t ctx[ARBEL_QPC_SIZE];
    uint64_t va, base;
    bool ssc;

    if (state != ARBEL_QPS_RTS ||
        arbel_icm_slot(s, ARBEL_TBL_QPC, qpn, ARBEL_QPC_SIZE, &va) ||
        arbel_icm_read(s, va, ctx, sizeof(ctx))) {
        arbel_unconfirmed(s, "send doorbell for QP 0x%x in state %u: "
                          "not executed", qpn, state);
        return;
    }
    st = ldl_be_p(ctx + ARBEL_QPC_FLAGS) >> ARBEL_QPC_ST_SHIFT &
         ARBEL_QPC_ST_MASK;
    if (st != ARBEL_QP_ST_UD && st != ARBEL_QP_ST_MLX) {
        trace_arbel_send_not_executed(arbel_trace_seq(s), qpn, st);
        return;
    }
    mask = (1u << (ctx[ARBEL_QPC_SQ_SIZE_STRIDE] >>
                   ARBEL_QPC_SQ_LOG_SIZE_SHIFT)) - 1;
    shift = (ctx[ARBEL_QPC_SQ_SIZE_STRIDE] & ARBEL_QPC_SQ_STRIDE_MASK) +
            ARBEL_QPC_SQ_STRIDE_BASE;
    lkey = ldl_be_p(ctx + ARBEL_QPC_WQE_LKEY);
    cqn = ldl_be_p(ctx + ARBEL_QPC_CQN_SND) & ARBEL_QPN_MASK;
    base = ldl_be_p(ctx + ARBEL_QPC_SND_WQE_BASE);
    ssc = ldl_be_p(ctx + ARBEL_QPC_PARAMS1) & ARBEL_QPC_SSC;

    for (i = 0; i < nreq; i++) {
        uint64_t wqe = base + ((uint64_t)((head + i) & mask) << shift);
        uint8_t seg[ARBEL_NEXT_SEG_SIZE], cqe[ARBEL_CQE_SIZE] = { 0 };
        uint32_t flags;

        if (!arbel_send_wqe(s, lkey, wqe, seg)) {
            break;
        }
        flags = ldl_be_p(seg + ARBEL_NEXT_FLAGS);
        if (ssc || flags & ARBEL_NEXT_CQ_UPDATE) {
            stl_be_p(cqe + ARBEL_CQE_MY_QPN, qpn);
            stl_be_p(cqe + ARBEL_CQE_WQE, (uint32_t)wqe);
            cqe[ARBEL_CQE_OPCODE] = op;
            cqe[ARBEL_CQE_IS_SEND] = ARBEL_CQE_SEND;
            /* solicited: a receive of a message with SE, never a send */
            arbel_cq_complete(s, cqn, cqe, false);
            done++;
        }
        op = ldl_be_p(seg + ARBEL_NEXT_NDA_OP) & ARBEL_DB_OP_MASK;
    }
    trace_arbel_send(arbel_trace_seq(s), qpn, nreq, done);
}
