/*
 * arbel-stub: the queue objects the firmware keeps: completion queues
 * (arbel-cq.c), shared receive queues (arbel-srq.c), QP and EE contexts
 * (arbel-qp.c, arbel-qpc.c) and the IB ports (arbel-ib.c).  Object
 * modules: they sit beside arbel-eq.c and call only services below them;
 * the data path (arbel-dp.h) sits above them.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_ARBEL_OBJECTS_H
#define HW_ARBEL_OBJECTS_H

#include "arbel-state.h"

/* arbel-cq.c */
uint8_t arbel_cmd_resize_cq(ArbelState *s, ArbelCmd *cmd);
void arbel_cq_complete(ArbelState *s, uint32_t cqn, const uint8_t *cqe,
                       bool solicited);

/* where a CQ's next CQE goes, found before the work it completes */
typedef struct ArbelCqSlot {
    bool ok;                /* found: arbel_cq_commit() may use it */
    uint32_t cqn;
    uint64_t gen;           /* ArbelCqs.gen when found */
    uint64_t va;            /* the context's ICM address */
    uint64_t pa;            /* the CQE's */
    uint8_t ctx[ARBEL_CQC_SIZE];
} ArbelCqSlot;

void arbel_cq_prepare(ArbelState *s, uint32_t cqn, ArbelCqSlot *slot);
void arbel_cq_commit(ArbelState *s, ArbelCqSlot *slot, const uint8_t *cqe,
                     bool solicited);
void arbel_cq_doorbell(ArbelState *s, uint32_t cmd_cqn, uint32_t ci);

/* a receive WQE the data path takes (arbel-srq.c, arbel-rq.c) */
typedef struct ArbelRecvWqe {
    uint32_t lkey;          /* of the queue's buffer */
    uint64_t va;            /* the WQE's address in that region */
    uint32_t size;          /* its stride in bytes */
    uint32_t cqe_wqe;       /* what its CQE reports in the wqe field */
    uint32_t pd;            /* the PD its scatter list's keys must have */
} ArbelRecvWqe;

/* arbel-srq.c */
void arbel_srq_reset(ArbelState *s);
void arbel_srq_fini(ArbelState *s);
uint8_t arbel_cmd_arm_srq(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_srq_ctx(ArbelState *s, ArbelCmd *cmd);
bool arbel_srq_take(ArbelState *s, uint32_t srqn, ArbelRecvWqe *wqe);

/* arbel-qp.c: QP states as the context's state field holds them */
enum {
    ARBEL_QPS_RST = 0, ARBEL_QPS_INIT = 1, ARBEL_QPS_RTR = 2,
    ARBEL_QPS_RTS = 3, ARBEL_QPS_SQE = 4, ARBEL_QPS_SQD = 5,
    ARBEL_QPS_ERR = 6,
};
void arbel_qp_reset(ArbelState *s);
void arbel_qp_fini(ArbelState *s);
uint8_t arbel_cmd_modify_qp(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_query_qp(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_conf_special_qp(ArbelState *s, ArbelCmd *cmd);
uint32_t arbel_qp_special(ArbelState *s, unsigned int which,
                          unsigned int port);
unsigned int arbel_qp_state_of(ArbelState *s, uint32_t qpn);
ArbelQp *arbel_qp_find(ArbelState *s, uint32_t qpn, uint8_t *ctx);
void arbel_qp_to_error(ArbelState *s, uint32_t qpn);

/* arbel-qpc.c */
void arbel_qpc_merge(uint8_t *cur, const uint8_t *in, uint32_t optmask,
                     uint16_t opcode);

/* arbel-ib.c */
void arbel_ib_reset(ArbelState *s);
bool arbel_ib_port_up(ArbelState *s, unsigned int port);
uint16_t arbel_ib_lid(ArbelState *s, unsigned int port);
uint16_t arbel_ib_sm_lid(ArbelState *s, unsigned int port);
uint16_t arbel_ib_pkey(ArbelState *s, unsigned int port, unsigned int index);
void arbel_ib_set_lids(ArbelState *s, unsigned int port, uint16_t lid,
                       uint16_t sm_lid);
uint64_t arbel_ib_port_guid(ArbelState *s, unsigned int port);
uint8_t arbel_cmd_init_ib(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_close_ib(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_set_ib(ArbelState *s, ArbelCmd *cmd);

/* arbel-mcg.c */
void arbel_mcg_init(ArbelState *s, const uint8_t *in);
uint32_t arbel_mcg_hash(ArbelState *s, const uint8_t *gid);
uint8_t arbel_cmd_read_mgm(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_write_mgm(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_mgid_hash(ArbelState *s, ArbelCmd *cmd);
unsigned int arbel_mcg_members(ArbelState *s, const uint8_t *gid,
                               uint32_t *qpns, unsigned int max);

#endif
