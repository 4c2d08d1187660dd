/*
 * arbel-stub: a special QP's send WQE -- the packet software built.
 *
 * QP0 and QP1 (CONF_SPECIAL_QP) run as MLX QPs: the driver writes the
 * packet's headers itself and the HCA sends them as they are.  The WQE
 * (mthca's qp code, mthca_arbel_post_send and build_mlx_header): the next
 * segment, whose flags dword holds VL15 (bit 17), SLR (16) and the SL
 * (11:8) and whose last dword the RLID (mthca's struct mthca_mlx_seg;
 * the PRM's arbelprm_wqe_segment_ctrl_mlx_st: SLR 0 "take slid from
 * port", 1 "take slid from given headers" -- mthca leaves only the path
 * bits in the header's SLID and sets SLR only for the permissive DLID);
 * then a data segment holding the headers -- LRH, a GRH if the LRH's LNH
 * says so, BTH, DETH and for SEND_ONLY with immediate the immediate
 * (IBTA 5.2; the kernel's ib_ud_header_pack) --, the data segments of the
 * payload and a 4-byte inline segment for the ICRC.  The stub gathers
 * them, reads the headers back (IBTA: LRH DLID at 2, SLID at 6, SL 7:4
 * of byte 1, LNH 1:0 of byte 1; BTH opcode, SE bit 7 and pad count 5:4
 * of byte 1, P_Key at 2, DestQP 23:0 at 4; DETH Q_Key, SrcQP 23:0 at 4)
 * and sends the payload as a UD message from the QP number DETH names.
 * A packet it cannot read (not UD SEND_ONLY, no BTH, shorter than its
 * headers) leaves the port and reaches nobody, an ``unconfirmed:`` note:
 * the HCA sends an MLX packet as software built it, and no source says it
 * refuses one.
 * Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "trace.h"
#include "arbel-trace.h"
#include "arbel-objects.h"
#include "arbel-dp.h"
#include "arbel-sq.h"

#define ARBEL_LRH_SIZE          8
#define ARBEL_LRH_LNH_MASK      3
#define ARBEL_LNH_LOCAL         2       /* BTH next */
#define ARBEL_LNH_GLOBAL        3       /* GRH next */
#define ARBEL_BTH_SIZE          12
#define ARBEL_DETH_SIZE         8
#define ARBEL_ICRC_SIZE         4
#define ARBEL_BTH_UD_SEND       0x64    /* UD SEND_ONLY */
#define ARBEL_BTH_UD_SEND_IMM   0x65    /* ... with immediate */
#define ARBEL_MLX_MAX_PKT       (ARBEL_UD_MTU + 128)
#define ARBEL_MLX_SLR           BIT(16)

/* @pkt's headers into @m; false: not a UD SEND_ONLY packet we can read */
static bool arbel_mlx_parse(uint8_t *pkt, uint32_t len, ArbelMsg *m)
{
    uint32_t off = ARBEL_LRH_SIZE, pad;
    uint8_t lnh, opcode;

    if (len < ARBEL_LRH_SIZE + ARBEL_BTH_SIZE + ARBEL_DETH_SIZE +
              ARBEL_ICRC_SIZE) {
        return false;
    }
    lnh = pkt[1] & ARBEL_LRH_LNH_MASK;
    m->sl = pkt[1] >> 4;
    m->dlid = lduw_be_p(pkt + 2);
    m->slid = lduw_be_p(pkt + 6);
    if (lnh == ARBEL_LNH_GLOBAL) {
        m->grh = true;
        memcpy(m->grh_bytes, pkt + off, ARBEL_GRH_SIZE);
        off += ARBEL_GRH_SIZE;
    } else if (lnh != ARBEL_LNH_LOCAL) {
        return false;
    }
    if (off + ARBEL_BTH_SIZE + ARBEL_DETH_SIZE + ARBEL_ICRC_SIZE > len) {
        return false;
    }
    opcode = pkt[off];
    m->solicited = pkt[off + 1] & 0x80;
    pad = pkt[off + 1] >> 4 & 3;
    m->pkey = lduw_be_p(pkt + off + 2);
    m->dqpn = ldl_be_p(pkt + off + 4) & ARBEL_QPN_MASK;
    off += ARBEL_BTH_SIZE;
    m->qkey = ldl_be_p(pkt + off);
    m->src_qpn = ldl_be_p(pkt + off + 4) & ARBEL_QPN_MASK;
    off += ARBEL_DETH_SIZE;
    if (opcode == ARBEL_BTH_UD_SEND_IMM) {
        m->has_imm = true;
        memcpy(&m->imm, pkt + off, 4);
        off += 4;
    } else if (opcode != ARBEL_BTH_UD_SEND) {
        return false;
    }
    if (off + pad + ARBEL_ICRC_SIZE > len) {
        return false;
    }
    m->op = m->has_imm ? ARBEL_WQE_SEND_IMM : ARBEL_WQE_SEND;
    m->st = ARBEL_QP_ST_UD;
    m->data = pkt + off;
    m->len = len - off - pad - ARBEL_ICRC_SIZE;
    return true;
}

/**
 * arbel_sq_mlx - execute send WQE @j of special QP @q
 * @s: the device
 * @q: the QP (MLX)
 * @j: the WQE's counter, for the trace
 * @w: the WQE
 * @len: its length
 * @syn: receives the syndrome of an error
 *
 * Return: done, or in error (@syn set).
 */
ArbelSqDone arbel_sq_mlx(ArbelState *s, const ArbelSqQp *q, uint16_t j,
                         const uint8_t *w, uint32_t len, uint8_t *syn)
{
    ArbelSge sge[ARBEL_SQ_MAX_SGE];
    g_autofree uint8_t *pkt = NULL;
    ArbelMsg m = { 0 };
    uint64_t total = 0;
    int n, i;

    *syn = ARBEL_SYN_LOCAL_QP_OP;
    n = arbel_sq_sges(w, ARBEL_NEXT_SEG_SIZE, len, sge);
    if (n < 0) {
        return ARBEL_SQ_ERROR;
    }
    for (i = 0; i < n; i++) {
        total += sge[i].count;
    }
    if (total > ARBEL_MLX_MAX_PKT) {
        *syn = ARBEL_SYN_LOCAL_LENGTH;
        return ARBEL_SQ_ERROR;
    }
    pkt = g_malloc0(total ?: 1);
    *syn = arbel_sq_local(s, q, sge, n, pkt, total, false);
    if (*syn) {
        return ARBEL_SQ_ERROR;
    }
    if (!arbel_mlx_parse(pkt, total, &m)) {
        arbel_unconfirmed(s, "QP 0x%x: MLX packet of %" PRIu64 " bytes the "
                          "stub cannot read: lost", q->qpn, total);
        s->dp.wqes++;
        return ARBEL_SQ_OK;
    }
    if (!(ldl_be_p(w + ARBEL_NEXT_FLAGS) & ARBEL_MLX_SLR)) {
        m.slid = arbel_ib_lid(s, q->port);  /* the port's LID */
    }
    arbel_fabric_send(s, q->port, &m, NULL);
    trace_arbel_wqe(arbel_trace_seq(s), q->qpn, j, m.op, m.len, m.dlid,
                    m.dqpn, 0);
    s->dp.wqes++;
    return ARBEL_SQ_OK;
}
