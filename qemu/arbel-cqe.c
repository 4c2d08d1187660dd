/*
 * arbel-stub: the CQEs the data path writes -- a send completion, a
 * receive completion, a completion in error.
 *
 * Layouts: struct mthca_cqe and struct mthca_err_cqe in mthca's cq code
 * (the PRM's arbelprm_completion_queue_entry_st and _completion_with_
 * error_st): my_qpn 0x00, rqpn 0x08, SL 0x0c 7:4, GRH and path bits 0x0d,
 * rlid 0x0e, immediate or P_Key index 0x10, byte count 0x14, WQE address
 * 0x18, opcode 0x1c, is_send 0x1d bit 7; an error CQE has its syndrome at
 * 0x10, the vendor syndrome at 0x11 and opcode 0xff (send) or 0xfe
 * (receive).  A send CQE's opcode is the WQE's; a receive CQE's the low
 * five bits of the last packet's BTH opcode (mthca_poll_one decodes
 * SEND_ONLY_WITH_IMMEDIATE and RDMA_WRITE_ONLY_WITH_IMMEDIATE).
 * Mem-free HCAs write one CQE per WQE in error, flushed ones included
 * (mthca's handle_error_cqe).  Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

/**
 * arbel_cqe_send - a send WQE completed
 * @s: the device
 * @slot: the QP's send CQ, and the CQE's place if arbel_cq_prepare() found
 *        it before the message left (slot->ok)
 * @qpn: the QP
 * @wqe: the WQE's address (the QP's send WQE base + index << stride)
 * @op: the WQE's opcode
 * @byte_cnt: bytes an RDMA READ brought (0 otherwise)
 */
void arbel_cqe_send(ArbelState *s, ArbelCqSlot *slot, uint32_t qpn,
                    uint32_t wqe, uint8_t op, uint32_t byte_cnt)
{
    uint8_t cqe[ARBEL_CQE_SIZE] = { 0 };

    stl_be_p(cqe + ARBEL_CQE_MY_QPN, qpn);
    stl_be_p(cqe + ARBEL_CQE_BYTE_CNT, byte_cnt);
    stl_be_p(cqe + ARBEL_CQE_WQE, wqe);
    cqe[ARBEL_CQE_OPCODE] = op;
    cqe[ARBEL_CQE_IS_SEND] = ARBEL_CQE_SEND;
    s->dp.cqes++;
    arbel_cq_commit(s, slot, cqe, false);
}

/**
 * arbel_cqe_error - a WQE completed in error (or was flushed)
 * @s: the device
 * @cqn: the CQ of the queue it was on
 * @qpn: the QP
 * @wqe: the WQE's address, as a success CQE would report it
 * @is_send: a send WQE (else a receive WQE)
 * @syndrome: ARBEL_SYN_*
 */
void arbel_cqe_error(ArbelState *s, uint32_t cqn, uint32_t qpn, uint32_t wqe,
                     bool is_send, uint8_t syndrome)
{
    uint8_t cqe[ARBEL_CQE_SIZE] = { 0 };

    stl_be_p(cqe + ARBEL_CQE_MY_QPN, qpn);
    cqe[ARBEL_CQE_SYNDROME] = syndrome;
    stl_be_p(cqe + ARBEL_CQE_WQE, wqe);
    cqe[ARBEL_CQE_OPCODE] = is_send ? ARBEL_CQE_ERR_SEND : ARBEL_CQE_ERR_RECV;
    s->dp.errors++;
    s->dp.cqes++;
    arbel_cq_complete(s, cqn, cqe, false);
}

/**
 * arbel_cqe_recv - a message consumed a receive WQE
 * @s: the device
 * @cqn: the QP's receive CQ
 * @qpn: the receiving QP
 * @wqe: the receive WQE's address (its offset in the queue's buffer)
 * @m: the message
 * @byte_cnt: bytes written into the WQE's buffers (UD: the 40 GRH bytes
 *            included)
 */
void arbel_cqe_recv(ArbelState *s, uint32_t cqn, uint32_t qpn, uint32_t wqe,
                    const ArbelMsg *m, uint32_t byte_cnt)
{
    uint8_t cqe[ARBEL_CQE_SIZE] = { 0 };

    stl_be_p(cqe + ARBEL_CQE_MY_QPN, qpn);
    stl_be_p(cqe + ARBEL_CQE_RQPN, m->src_qpn);
    cqe[ARBEL_CQE_SL_IPOK] = m->sl << 4;
    /* the destination LID's path bits: 0, the ports have LMC 0 */
    cqe[ARBEL_CQE_G_MLPATH] = m->grh ? ARBEL_AV_GRH : 0;
    stw_be_p(cqe + ARBEL_CQE_RLID, m->slid);
    if (m->has_imm) {
        memcpy(cqe + ARBEL_CQE_IMM_PKEY, &m->imm, 4);
    } else {
        stl_be_p(cqe + ARBEL_CQE_IMM_PKEY, (uint32_t)m->pkey_index << 16);
    }
    stl_be_p(cqe + ARBEL_CQE_BYTE_CNT, byte_cnt);
    stl_be_p(cqe + ARBEL_CQE_WQE, wqe);
    if (m->op == ARBEL_WQE_RDMA_WRITE_IMM) {
        cqe[ARBEL_CQE_OPCODE] = ARBEL_IBOP_WRITE_ONLY_IMM;
    } else {
        cqe[ARBEL_CQE_OPCODE] = m->has_imm ? ARBEL_IBOP_SEND_ONLY_IMM :
                                ARBEL_IBOP_SEND_ONLY;
    }
    s->dp.recvs++;
    s->dp.cqes++;
    arbel_cq_complete(s, cqn, cqe, m->solicited);
}
