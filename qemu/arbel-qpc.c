/*
 * arbel-stub: which fields of a QP context a transition takes (the QP
 * module's merge of a MODIFY_QP mailbox into the context in ICM).
 *
 * RST2INIT writes the whole context.  Every later transition that takes a
 * mailbox takes only the fields it requires and those the optional-
 * parameter mask (the mailbox's first dword) names; the rest of the
 * context stays as it was.  mthca relies on this: it builds each
 * transition's context from zero and fills, e.g., the remote QPN only at
 * INIT2RTR and the send PSN only at RTR2RTS.  Required fields: IBTA vol. 1
 * table 91 (the QP attributes each transition requires), as the kernel's
 * qp_state_table in drivers/infiniband/core/verbs.c lists them; the mask
 * bits and the fields they name: mthca's qp code (MTHCA_QP_OPTPAR_* and
 * __mthca_modify_qp).  Documentation/arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "arbel-objects.h"

#define REQ_RTR         BIT(0)  /* required at INIT2RTR */
#define REQ_RTS         BIT(1)  /* required at RTR2RTS */
#define NO_OPT          0xff

typedef struct ArbelQpcField {
    uint8_t off;            /* byte offset in the context (dword aligned) */
    uint8_t len;            /* bytes: 4, or a multiple with mask ~0 */
    uint32_t mask;          /* bits of the dword (len 4) */
    uint8_t opt;            /* optional-parameter mask bit, NO_OPT: none */
    uint8_t req;            /* REQ_*: transitions that always take it */
} ArbelQpcField;

static const ArbelQpcField arbel_qpc_fields[] = {
    /* primary path: port 31:24 (bit 11), P_Key index 6:0 (bit 4) */
    { 0x20, 4, 0xff000000u, 11, 0 },
    { 0x20, 4, 0x0000007fu, 4, 0 },
    /* rnr_retry 31:29 of dword 0x24 (bit 15); GRH/path bits, RLID (7) */
    { 0x24, 4, 0xff000000u, 15, REQ_RTS },
    { 0x24, 4, 0x00ffffffu, 7, REQ_RTR },
    /* ack timeout 31:27 of dword 0x28 (bit 14); GID index, rate, hops */
    { 0x28, 4, 0xff000000u, 14, REQ_RTS },
    { 0x28, 4, 0x00ffffffu, 7, REQ_RTR },
    { 0x2c, 20, ~0u, 7, REQ_RTR },          /* SL/class/flow, remote GID */
    { 0x40, 32, ~0u, 0, 0 },                /* alternate path (bit 0) */
    { 0x00, 4, 0x00001800u, 10, 0 },        /* path migration state */
    { 0x08, 4, 0xff000000u, NO_OPT, REQ_RTR },  /* MTU, message max */
    { 0x08, 4, 0x000000ffu, 16, 0 },        /* Arbel schedule queue */
    { 0x14, 4, ~0u, NO_OPT, REQ_RTR },      /* remote QPN */
    { 0x70, 4, 0x0000a000u | (7u << 21), 8, REQ_RTS }, /* SRE SAE, SRA */
    { 0x70, 4, 7u << 16, 12, REQ_RTS },     /* retry count */
    { 0x78, 4, ~0u, NO_OPT, REQ_RTS },      /* next send PSN */
    { 0x90, 4, 7u << 21, 9, REQ_RTR },      /* responder resources */
    { 0x90, 4, ARBEL_QPC_RRE, 1, 0 },
    { 0x90, 4, ARBEL_QPC_RAE, 2, 0 },
    { 0x90, 4, ARBEL_QPC_RWE, 3, 0 },
    { 0x94, 4, 0x1f000000u, 6, REQ_RTR },   /* min RNR NAK timer */
    { 0x94, 4, 0x00ffffffu, NO_OPT, REQ_RTR },  /* receive PSN */
    { 0xa8, 4, ~0u, 5, 0 },                 /* Q_Key */
};

/**
 * arbel_qpc_merge - a transition's mailbox context into the current one
 * @cur: the context in ICM (ARBEL_QPC_SIZE bytes), updated
 * @in: the mailbox's context
 * @optmask: the mailbox's optional-parameter mask
 * @opcode: the transition (INIT2INIT .. SQD2RTS; not RST2INIT)
 */
void arbel_qpc_merge(uint8_t *cur, const uint8_t *in, uint32_t optmask,
                     uint16_t opcode)
{
    uint8_t req = opcode == ARBEL_OP_INIT2RTR_QPEE ? REQ_RTR :
                  opcode == ARBEL_OP_RTR2RTS_QPEE ? REQ_RTS : 0;
    size_t i;

    for (i = 0; i < ARRAY_SIZE(arbel_qpc_fields); i++) {
        const ArbelQpcField *f = &arbel_qpc_fields[i];
        uint32_t v;

        if (!(f->req & req) &&
            (f->opt == NO_OPT || !(optmask & BIT(f->opt)))) {
            continue;
        }
        if (f->len != 4) {
            memcpy(cur + f->off, in + f->off, f->len);
            continue;
        }
        v = ldl_be_p(cur + f->off) & ~f->mask;
        stl_be_p(cur + f->off, v | (ldl_be_p(in + f->off) & f->mask));
    }
}
