/*
 * arbel-stub: the data path -- the send engine (arbel-sq.c, arbel-sqwqe.c),
 * the receive side (arbel-rq.c), the fabric between ports
 * (arbel-fabric.c) and the completions they write (arbel-cqe.c).  One
 * module, in the layer above the object modules (QP, CQ, SRQ, ports)
 * whose state it reads through their functions.
 * Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_DP_H
#define HW_ARBEL_DP_H

#include "arbel-state.h"
#include "arbel-objects.h"

/* One message on the wire: what a send WQE makes of itself */
typedef struct ArbelMsg {
    uint8_t op;             /* ARBEL_WQE_*: the requester's opcode */
    uint8_t st;             /* the requester QP's service type */
    uint32_t src_qpn;
    uint16_t slid;
    uint8_t sl;
    uint32_t dqpn;
    uint16_t dlid;
    uint32_t qkey;          /* UD: the Q_Key the packet carries */
    uint16_t pkey_index;
    bool solicited;
    bool has_imm;
    uint32_t imm;           /* as the WQE holds it (big-endian bytes) */
    uint64_t raddr;         /* RDMA and atomics */
    uint32_t rkey;
    uint64_t swap_add;      /* atomics */
    uint64_t compare;
    bool grh;               /* UD: a GRH travels, in grh[] */
    uint8_t grh_bytes[40];
    uint8_t *data;          /* SEND, RDMA WRITE: the gathered payload */
    uint32_t len;           /* its length; RDMA READ: the length to read */
    uint16_t pkey;          /* the P_Key it carries (its QP's index) */
    uint8_t rnr_timer;      /* out, an RNR NAK: the responder's timer */
} ArbelMsg;

/* What the responder answers */
typedef enum ArbelResp {
    ARBEL_RESP_ACK,         /* done (READ: rdata holds the bytes) */
    ARBEL_RESP_DROP,        /* silently dropped (no such QP, Q_Key, UC) */
    ARBEL_RESP_RNR,         /* receiver not ready: no receive WQE */
    ARBEL_RESP_NAK_INVAL,   /* NAK: invalid request */
    ARBEL_RESP_NAK_ACCESS,  /* NAK: remote access error */
    ARBEL_RESP_NAK_OP,      /* NAK: remote operational error */
} ArbelResp;

/* arbel-sq.c: the send doorbell and the engine's life cycle */
void arbel_dp_init(ArbelState *s);
void arbel_dp_fini(ArbelState *s);
void arbel_dp_reset(ArbelState *s);
void arbel_sq_doorbell(ArbelState *s, uint32_t head_op, uint32_t qpn_size);
uint8_t arbel_dp_cmd_modify_qp(ArbelState *s, ArbelCmd *cmd);
uint64_t arbel_dp_count(ArbelState *s, unsigned int which);

/* arbel-rq.c: a message arrives at a port */
ArbelResp arbel_rq_receive(ArbelState *s, unsigned int port, ArbelMsg *m,
                           uint8_t *rdata);
void arbel_rq_flush(ArbelState *s, uint32_t qpn, bool entered);

/* arbel-fabric.c: a message to the port its LID names */
ArbelResp arbel_fabric_send(ArbelState *s, unsigned int port, ArbelMsg *m,
                            uint8_t *rdata);
void arbel_fabric_plug(ArbelState *s, PCIDevice *peer);

/* arbel-sa.c: the fabric's subnet administrator */
bool arbel_sa_wants(ArbelState *s, unsigned int port, const ArbelMsg *m);
void arbel_sa_answer(ArbelState *s, unsigned int port, const ArbelMsg *m);

/* arbel-cqe.c: completions */
void arbel_cqe_send(ArbelState *s, ArbelCqSlot *slot, uint32_t qpn,
                    uint32_t wqe, uint8_t op, uint32_t byte_cnt);
void arbel_cqe_error(ArbelState *s, uint32_t cqn, uint32_t qpn, uint32_t wqe,
                     bool is_send, uint8_t syndrome);
void arbel_cqe_recv(ArbelState *s, uint32_t cqn, uint32_t qpn, uint32_t wqe,
                    const ArbelMsg *m, uint32_t byte_cnt);

#endif
