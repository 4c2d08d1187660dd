/*
 * arbel-stub: the queue objects the firmware keeps: completion queues
 * (arbel-cq.c), shared receive queues (arbel-srq.c), QP and EE contexts
 * (arbel-qp.c), the send doorbell (arbel-send.c) and the IB ports
 * (arbel-ib.c).  Object modules: they sit
 * beside arbel-eq.c and call only services below them.
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
void arbel_cq_doorbell(ArbelState *s, uint32_t cmd_cqn, uint32_t ci);

/* arbel-srq.c */
uint8_t arbel_cmd_arm_srq(ArbelState *s, ArbelCmd *cmd);

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
unsigned int arbel_qp_state_of(ArbelState *s, uint32_t qpn);

/* arbel-send.c */
void arbel_send_doorbell(ArbelState *s, uint32_t head_op, uint32_t qpn_size);

/* arbel-ib.c */
void arbel_ib_reset(ArbelState *s);
bool arbel_ib_port_up(ArbelState *s, unsigned int port);
uint8_t arbel_cmd_init_ib(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_close_ib(ArbelState *s, ArbelCmd *cmd);
uint8_t arbel_cmd_set_ib(ArbelState *s, ArbelCmd *cmd);

#endif
