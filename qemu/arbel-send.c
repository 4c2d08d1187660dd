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
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-objects.h"

/* the doorbell */
#define DB_NREQ_SHIFT           24
#define DB_HEAD_SHIFT           8
#define DB_HEAD_MASK            0xffffu
#define DB_OP_MASK              0x1fu
#define DB_QPN_SHIFT            8

/* QP context fields (byte offsets) */
#define QPC_FLAGS               0x00    /* state 31:28, service type 23:16 */
#define QPC_SQ_SIZE_STRIDE      0x0a    /* log SQ size 7:3, stride - 4 2:0 */
#define QPC_WQE_LKEY            0x6c
#define QPC_PARAMS1             0x70
#define QPC_CQN_SND             0x7c
#define QPC_SND_WQE_BASE        0x80
#define QPC_ST_SHIFT            16
#define QPC_ST_MASK             0xffu
#define QPC_SSC                 BIT(3)
#define QP_ST_UD                0x3
#define QP_ST_MLX               0x7

/* the next segment, the first 16 bytes of a WQE */
#define NEXT_SEG_SIZE           16
#define NEXT_NDA_OP             0x00
#define NEXT_FLAGS              0x08
#define NEXT_CQ_UPDATE          BIT(3)

/* one WQE's next segment, read through the QP's wqe_lkey */
static bool arbel_send_wqe(ArbelState *s, uint32_t lkey, uint64_t va,
                           uint8_t *seg)
{
    ArbelXlReq req = {
        .key = lkey, .access = ARBEL_XL_ACC_LOCAL_READ, .va = va,
        .len = NEXT_SEG_SIZE,
    };
    uint32_t r = arbel_xlate_rw(s, &req, seg);

    if (r != ARBEL_XL_OK) {
        arbel_trace_note(s, "SEND-WQE-UNREADABLE va=0x%" PRIx64 " result=%u",
                         va, r);
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
    unsigned int nreq = head_op >> DB_NREQ_SHIFT, i, done = 0;
    uint32_t head = head_op >> DB_HEAD_SHIFT & DB_HEAD_MASK;
    uint32_t qpn = qpn_size >> DB_QPN_SHIFT, lkey, cqn, mask, st;
    unsigned int state = arbel_qp_state_of(s, qpn), shift;
    uint8_t op = head_op & DB_OP_MASK;
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
    st = ldl_be_p(ctx + QPC_FLAGS) >> QPC_ST_SHIFT & QPC_ST_MASK;
    if (st != QP_ST_UD && st != QP_ST_MLX) {
        arbel_trace_note(s, "SEND-NOT-EXECUTED qp=0x%x st=%u (no peer)",
                         qpn, st);
        return;
    }
    mask = (1u << (ctx[QPC_SQ_SIZE_STRIDE] >> 3)) - 1;
    shift = (ctx[QPC_SQ_SIZE_STRIDE] & 7) + 4;
    lkey = ldl_be_p(ctx + QPC_WQE_LKEY);
    cqn = ldl_be_p(ctx + QPC_CQN_SND) & ARBEL_QPN_MASK;
    base = ldl_be_p(ctx + QPC_SND_WQE_BASE);
    ssc = ldl_be_p(ctx + QPC_PARAMS1) & QPC_SSC;

    for (i = 0; i < nreq; i++) {
        uint64_t wqe = base + ((uint64_t)((head + i) & mask) << shift);
        uint8_t seg[NEXT_SEG_SIZE], cqe[ARBEL_CQE_SIZE] = { 0 };
        uint32_t flags;

        if (!arbel_send_wqe(s, lkey, wqe, seg)) {
            break;
        }
        flags = ldl_be_p(seg + NEXT_FLAGS);
        if (ssc || flags & NEXT_CQ_UPDATE) {
            stl_be_p(cqe + ARBEL_CQE_MY_QPN, qpn);
            stl_be_p(cqe + ARBEL_CQE_WQE, (uint32_t)wqe);
            cqe[ARBEL_CQE_OPCODE] = op;
            cqe[ARBEL_CQE_IS_SEND] = 0x80;
            /* solicited: a receive of a message with SE, never a send */
            arbel_cq_complete(s, cqn, cqe, false);
            done++;
        }
        op = ldl_be_p(seg + NEXT_NDA_OP) & DB_OP_MASK;
    }
    arbel_trace_note(s, "SEND qp=0x%x wqes=%u cqes=%u", qpn, nreq, done);
}
