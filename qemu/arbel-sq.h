/*
 * arbel-stub: the send engine's two halves share this (the data path
 * module's own header, beside arbel-dp.h): arbel-sq.c runs the queues,
 * arbel-sqwqe.c executes one WQE.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_SQ_H
#define HW_ARBEL_SQ_H

#include "arbel-state.h"
#include "arbel-objects.h"

/* the requester's view of its QP, from the context */
typedef struct ArbelSqQp {
    uint32_t qpn;
    uint32_t st;
    uint32_t pd;
    uint32_t cqn;
    uint32_t lkey;
    uint64_t base;
    uint32_t mask;
    unsigned int shift;
    bool ssc;
    unsigned int port;
    uint16_t rlid;
    uint32_t rqpn;
    uint8_t sl;
    uint32_t qkey;
    uint8_t rnr_retry;
    uint16_t pkey_index;
} ArbelSqQp;

/* what one WQE came to */
typedef enum ArbelSqDone {
    ARBEL_SQ_OK,
    ARBEL_SQ_STALL,
    ARBEL_SQ_ERROR,
} ArbelSqDone;

typedef struct ArbelSqOut {
    uint8_t op;             /* the WQE's opcode */
    uint8_t syn;            /* ARBEL_SQ_ERROR: the syndrome */
    bool signaled;          /* it asked for a CQE, or the QP signals all */
    uint32_t byte_cnt;      /* RDMA READ: the bytes read */
    uint8_t rnr_timer;      /* ARBEL_SQ_STALL: the responder's RNR timer */
    ArbelCqSlot slot;       /* signaled: its CQE's place, found before the
                             * message left (arbel_cq_prepare()) */
} ArbelSqOut;

#define ARBEL_SQ_MAX_SGE        64

/* a send WQE's data segment */
typedef struct ArbelSge {
    uint32_t count;
    uint32_t lkey;
    uint64_t addr;
    const uint8_t *inl;     /* inline data, or NULL */
} ArbelSge;

void arbel_sq_qp(const uint8_t *ctx, uint32_t qpn, ArbelSqQp *q);
uint32_t arbel_sq_wqe_addr(const ArbelSqQp *q, uint16_t j);
ArbelSqDone arbel_sq_exec(ArbelState *s, const ArbelSqQp *q, ArbelQp *qp,
                          uint16_t j, ArbelSqOut *o);
int arbel_sq_sges(const uint8_t *w, uint32_t off, uint32_t len,
                  ArbelSge *sge);
uint8_t arbel_sq_local(ArbelState *s, const ArbelSqQp *q,
                       const ArbelSge *sge, int n, uint8_t *buf,
                       uint64_t len, bool to_region);

/* arbel-mlx.c: a special QP's WQE, whose packet headers software built */
ArbelSqDone arbel_sq_mlx(ArbelState *s, const ArbelSqQp *q, uint16_t j,
                         const uint8_t *w, uint32_t len, uint8_t *syn);

#endif
