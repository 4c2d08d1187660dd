/*
 * arbel-stub: QP (and EE) contexts as firmware objects: the state
 * transitions, QUERY_QPEE and CONF_SPECIAL_QP, and the record the data
 * path keeps of each QP (ArbelQp).
 *
 * A QP's context (0x100 bytes) lives in ICM at the QPC base + qpn * 0x100,
 * an EE's at the EEC base (INIT_HCA gives the bases and log2 counts).  A
 * transition command's mailbox holds the optional-parameter mask (dword 0),
 * a reserved dword and the context; the firmware writes the context into
 * ICM with the new state in bits 31:28 of its first dword.  The firmware
 * keeps each QP's state itself (ArbelQps; a QP it never saw is in RST),
 * and refuses a transition whose source state is not the current one with
 * status 0x10 (bad QP/EE state).  RST2INIT takes the whole context; later
 * transitions only the fields they require or the mask names
 * (arbel-qpc.c).  Which transition runs from which state:
 * mthca's cmd code mthca_MODIFY_QP (its op[cur][next] table); ERR2RST and 2ERR
 * run from any state.  in_mod: qpn in bits 23:0, bit 24 set for an EE,
 * bit 31 the SQ-drained event request of RTS2SQD.  Documentation/
 * arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-objects.h"

#define QPS_ANY                 0x7f    /* every state, RST .. ERR */
#define QPS(x)                  (1u << ARBEL_QPS_##x)

typedef struct ArbelQpMove {
    uint16_t opcode;
    uint8_t from;           /* states it runs from, a mask */
    uint8_t to;
    bool inbox;             /* takes a context in its mailbox */
} ArbelQpMove;

static const ArbelQpMove arbel_qp_moves[] = {
    { ARBEL_OP_RST2INIT_QPEE, QPS(RST), ARBEL_QPS_INIT, true },
    { ARBEL_OP_INIT2INIT_QPEE, QPS(INIT), ARBEL_QPS_INIT, true },
    { ARBEL_OP_INIT2RTR_QPEE, QPS(INIT), ARBEL_QPS_RTR, true },
    { ARBEL_OP_RTR2RTS_QPEE, QPS(RTR), ARBEL_QPS_RTS, true },
    { ARBEL_OP_RTS2RTS_QPEE, QPS(RTS), ARBEL_QPS_RTS, true },
    { ARBEL_OP_SQERR2RTS_QPEE, QPS(SQE), ARBEL_QPS_RTS, true },
    { ARBEL_OP_2ERR_QPEE, QPS_ANY, ARBEL_QPS_ERR, false },
    { ARBEL_OP_RTS2SQD_QPEE, QPS(RTS), ARBEL_QPS_SQD, false },
    { ARBEL_OP_SQD2SQD_QPEE, QPS(SQD), ARBEL_QPS_SQD, true },
    { ARBEL_OP_SQD2RTS_QPEE, QPS(SQD), ARBEL_QPS_RTS, true },
    { ARBEL_OP_ERR2RST_QPEE, QPS_ANY, ARBEL_QPS_RST, false },
};

/**
 * arbel_qp_reset - every QP and EE back to RST, no special QPs
 * @s: the device
 */
void arbel_qp_reset(ArbelState *s)
{
    if (!s->qps.state) {
        s->qps.state = g_hash_table_new_full(arbel_hash_direct, g_direct_equal,
                                             NULL, g_free);
    }
    g_hash_table_remove_all(s->qps.state);
    memset(s->qps.special, 0, sizeof(s->qps.special));
}

/**
 * arbel_qp_fini - free what the QP module holds
 * @s: the device
 */
void arbel_qp_fini(ArbelState *s)
{
    if (s->qps.state) {
        g_hash_table_destroy(s->qps.state);
        s->qps.state = NULL;
    }
}

/*
 * The slot of QP @qpn: its bits above log_num_qps are not the hardware's
 * (mthca allocates QP numbers up to 2^24 - 1 with a round count above the
 * table index and finds them by the low bits: mthca_alloc_init and
 * mthca_array_get in its qp code).
 */
static uint32_t arbel_qp_index(ArbelState *s, uint32_t qpn)
{
    uint32_t log = arbel_icm_table(s, ARBEL_TBL_QPC)->log_num;

    qpn &= ARBEL_QP_NUM_MASK;
    return log < 24 ? qpn & ((1u << log) - 1) : qpn;
}

static unsigned int arbel_qp_state(ArbelState *s, uint32_t key)
{
    ArbelQp *qp = g_hash_table_lookup(s->qps.state, GUINT_TO_POINTER(key));

    return qp ? qp->state : ARBEL_QPS_RST;
}

/*
 * A QP leaving RST starts with empty work queues; one going back to RST is
 * forgotten.  Any other transition keeps the data path's positions.
 */
static void arbel_qp_set_state(ArbelState *s, uint32_t key, unsigned int st)
{
    ArbelQp *qp = g_hash_table_lookup(s->qps.state, GUINT_TO_POINTER(key));

    if (st == ARBEL_QPS_RST) {
        g_hash_table_remove(s->qps.state, GUINT_TO_POINTER(key));
        return;
    }
    if (!qp) {
        qp = g_new0(ArbelQp, 1);
        g_hash_table_insert(s->qps.state, GUINT_TO_POINTER(key), qp);
    }
    qp->state = st;
}

/**
 * arbel_qp_state_of - the state QP @qpn is in (an EE is never asked)
 * @s: the device
 * @qpn: the QP number (bits 23:0)
 *
 * Return: ARBEL_QPS_*; RST for a QP the firmware never saw.
 */
unsigned int arbel_qp_state_of(ArbelState *s, uint32_t qpn)
{
    return arbel_qp_state(s, arbel_qp_index(s, qpn));
}

/**
 * arbel_qp_find - the firmware's record of QP @qpn, with its context
 * @s: the device
 * @qpn: the QP number (bits 23:0)
 * @ctx: ARBEL_QPC_SIZE bytes: the context, read from ICM
 *
 * Return: the record, or NULL for a QP in RST or one whose context cannot
 * be read.
 */
ArbelQp *arbel_qp_find(ArbelState *s, uint32_t qpn, uint8_t *ctx)
{
    ArbelQp *qp;
    uint64_t va;

    qpn = arbel_qp_index(s, qpn);
    qp = g_hash_table_lookup(s->qps.state, GUINT_TO_POINTER(qpn));
    if (!qp || arbel_icm_slot(s, ARBEL_TBL_QPC, qpn, ARBEL_QPC_SIZE, &va) ||
        arbel_icm_read(s, va, ctx, ARBEL_QPC_SIZE)) {
        return NULL;
    }
    return qp;
}

/* the QP or EE of in_mod: its state key and ICM context address */
static uint8_t arbel_qp_slot(ArbelState *s, ArbelCmd *cmd, uint32_t *key,
                             uint64_t *va)
{
    bool ee = cmd->in_mod & ARBEL_QP_IS_EE;
    uint32_t num = ee ? cmd->in_mod & ARBEL_QP_NUM_MASK :
                        arbel_qp_index(s, cmd->in_mod);

    *key = num | (ee ? ARBEL_QP_IS_EE : 0);
    return arbel_icm_slot(s, ee ? ARBEL_TBL_EEC : ARBEL_TBL_QPC, num,
                          ARBEL_QPC_SIZE, va);
}

static void arbel_qpc_set_state(uint8_t *ctx, unsigned int st)
{
    uint32_t flags = ldl_be_p(ctx);

    flags &= ~(ARBEL_QPC_STATE_MASK << ARBEL_QPC_STATE_SHIFT);
    stl_be_p(ctx, flags | st << ARBEL_QPC_STATE_SHIFT);
}

/* ERR2RST: the context before the reset to the outbox when op_mod says so */
static uint8_t arbel_qp_to_rst(ArbelState *s, ArbelCmd *cmd, uint8_t *ctx)
{
    uint8_t out[ARBEL_QP_PARAM_HDR + ARBEL_QPC_SIZE] = { 0 };

    if (cmd->op_mod > ARBEL_ERR2RST_NO_OUTBOX) {
        return ARBEL_ST_BAD_OP;
    }
    if (cmd->op_mod != ARBEL_ERR2RST_OUTBOX) {
        if (cmd->op_mod != ARBEL_ERR2RST_NO_OUTBOX) {
            arbel_unconfirmed(s, "ERR2RST op_mod %u taken as 3 (no outbox)",
                              cmd->op_mod);
        }
        return ARBEL_ST_OK;
    }
    memcpy(out + ARBEL_QP_PARAM_HDR, ctx, ARBEL_QPC_SIZE);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

/**
 * arbel_cmd_modify_qp - a QP/EE state transition (RST2INIT .. ERR2RST)
 * @s: the device
 * @cmd: the command (opcode: the transition)
 *
 * Return: a command status; 0x10 if the QP is not in a state the
 * transition runs from.
 */
uint8_t arbel_cmd_modify_qp(ArbelState *s, ArbelCmd *cmd)
{
    const ArbelQpMove *m = NULL;
    uint8_t ctx[ARBEL_QPC_SIZE];
    unsigned int cur;
    uint32_t key;
    uint64_t va;
    uint8_t st;
    size_t i;

    for (i = 0; i < ARRAY_SIZE(arbel_qp_moves); i++) {
        if (arbel_qp_moves[i].opcode == cmd->opcode) {
            m = &arbel_qp_moves[i];
        }
    }
    if (!m) {
        return ARBEL_ST_BAD_OP;
    }
    if (m->to != ARBEL_QPS_RST && cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    if (cmd->in_mod &
        ~(ARBEL_QP_NUM_MASK | ARBEL_QP_IS_EE | ARBEL_QP_SQD_EVENT)) {
        arbel_unconfirmed(s, "QP transition in_mod 0x%x: reserved bits",
                          cmd->in_mod);
    }
    st = arbel_qp_slot(s, cmd, &key, &va);
    if (st) {
        return st;
    }
    cur = arbel_qp_state(s, key);
    if (!(m->from & (1u << cur))) {
        cmd->note = "bad-qp-state";
        return ARBEL_ST_BAD_QPEE_STATE;
    }
    if (!m->inbox || cmd->opcode != ARBEL_OP_RST2INIT_QPEE) {
        st = arbel_icm_read(s, va, ctx, sizeof(ctx));
        if (st) {
            return st;
        }
    }
    if (m->inbox) {
        st = arbel_inbox_read(s, cmd, ARBEL_QP_PARAM_HDR + ARBEL_QPC_SIZE);
        if (st) {
            return st;
        }
        if (cmd->opcode == ARBEL_OP_RST2INIT_QPEE) {
            memcpy(ctx, cmd->inbox + ARBEL_QP_PARAM_HDR, sizeof(ctx));
        } else {
            arbel_qpc_merge(ctx, cmd->inbox + ARBEL_QP_PARAM_HDR,
                            ldl_be_p(cmd->inbox), cmd->opcode);
        }
    }
    if (m->to == ARBEL_QPS_RST) {
        arbel_qpc_set_state(ctx, cur);
        st = arbel_qp_to_rst(s, cmd, ctx);
        if (st) {
            return st;
        }
    }
    arbel_qpc_set_state(ctx, m->to);
    st = arbel_icm_write(s, va, ctx, sizeof(ctx));
    if (!st) {
        arbel_qp_set_state(s, key, m->to);
    }
    return st;
}

/**
 * arbel_qp_to_error - the data path moves QP @qpn to ERR (a completion in
 * error), its context in ICM with it
 * @s: the device
 * @qpn: the QP number (bits 23:0)
 */
void arbel_qp_to_error(ArbelState *s, uint32_t qpn)
{
    uint8_t ctx[ARBEL_QPC_SIZE];
    uint64_t va;

    qpn = arbel_qp_index(s, qpn);
    if (arbel_qp_state(s, qpn) == ARBEL_QPS_RST ||
        arbel_icm_slot(s, ARBEL_TBL_QPC, qpn, ARBEL_QPC_SIZE, &va) ||
        arbel_icm_read(s, va, ctx, sizeof(ctx))) {
        return;
    }
    arbel_qpc_set_state(ctx, ARBEL_QPS_ERR);
    if (!arbel_icm_write(s, va, ctx, sizeof(ctx))) {
        arbel_qp_set_state(s, qpn, ARBEL_QPS_ERR);
    }
}

/**
 * arbel_cmd_query_qp - QUERY_QPEE: the context of a QP or EE to the outbox
 * @s: the device
 * @cmd: the command (outbox: 8 bytes, then the context)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_query_qp(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[ARBEL_QP_PARAM_HDR + ARBEL_QPC_SIZE] = { 0 };
    uint8_t *ctx = out + ARBEL_QP_PARAM_HDR;
    uint32_t key;
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_qp_slot(s, cmd, &key, &va);
    if (st) {
        return st;
    }
    st = arbel_icm_read(s, va, ctx, ARBEL_QPC_SIZE);
    if (st) {
        return st;
    }
    arbel_qpc_set_state(ctx, arbel_qp_state(s, key));
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}

/**
 * arbel_cmd_conf_special_qp - CONF_SPECIAL_QP: where the special QPs start
 * @s: the device
 * @cmd: the command (op_mod: 0 SMI, 1 GSI, 2 raw IPv6, 3 raw ethertype;
 *       in_mod: the first of one QP per port, 0 to unset)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_conf_special_qp(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t base = cmd->in_mod;
    uint64_t va;

    if (cmd->op_mod >= ARRAY_SIZE(s->qps.special)) {
        return ARBEL_ST_BAD_OP;
    }
    if (!base) {
        s->qps.special[cmd->op_mod] = 0;
        return ARBEL_ST_OK;
    }
    if (base & 1) {
        /* mthca_init_qp_table: the port 1 special QP has to be even */
        return ARBEL_ST_BAD_PARAM;
    }
    if (base & ~ARBEL_QP_NUM_MASK ||
        arbel_icm_slot(s, ARBEL_TBL_QPC, base + s->props.num_ports - 1,
                       ARBEL_QPC_SIZE, &va) == ARBEL_ST_BAD_INDEX) {
        return ARBEL_ST_BAD_INDEX;
    }
    s->qps.special[cmd->op_mod] = base;
    return ARBEL_ST_OK;
}

/**
 * arbel_qp_special - the QP that plays QP @which on @port
 * @s: the device
 * @which: 0 (SMI, QP0) or 1 (GSI, QP1)
 * @port: 1 .. the "ports" property
 *
 * CONF_SPECIAL_QP gave one QP per port from its base (mthca's qp code
 * mthca_init_qp_table: port n's is base + n - 1).
 *
 * Return: its number, 0 if none is configured.
 */
uint32_t arbel_qp_special(ArbelState *s, unsigned int which,
                          unsigned int port)
{
    if (which > 1 || !s->qps.special[which] || port < 1 ||
        port > s->props.num_ports) {
        return 0;
    }
    return s->qps.special[which] + port - 1;
}
