/*
 * arbel-stub: one send WQE executed -- read through the QP's wqe_lkey, made
 * into a message (arbel-dp.h), sent through the fabric, the response
 * taken: READ data and atomic results scattered, NAKs and RNR turned into
 * syndromes.  The queue around it is arbel-sq.c's; the layouts and their
 * sources are in its header comment and arbel-wqe.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-wqe.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-objects.h"
#include "arbel-dp.h"
#include "arbel-sq.h"

#define ARBEL_MAX_MSG           (1ull << 31)    /* IBTA: 2^31 bytes */




#define ARBEL_SQ_SYN_STALL      0xff    /* arbel_sq_answer: RNR, wait */

/**
 * arbel_sq_qp - the requester's view of QP @qpn, from its context
 * @ctx: the context (ARBEL_QPC_SIZE bytes)
 * @qpn: the QP
 * @q: filled in
 */
void arbel_sq_qp(const uint8_t *ctx, uint32_t qpn, ArbelSqQp *q)
{
    uint8_t ss = ctx[ARBEL_QPC_SQ_SIZE_STRIDE];
    const uint8_t *path = ctx + ARBEL_QPC_PRI_PATH;

    q->qpn = qpn;
    q->st = arbel_qpc_st(ctx);
    q->pd = arbel_qpc_pd(ctx);
    q->cqn = ldl_be_p(ctx + ARBEL_QPC_CQN_SND) & ARBEL_QPN_MASK;
    q->lkey = ldl_be_p(ctx + ARBEL_QPC_WQE_LKEY);
    q->base = ((uint64_t)ldl_be_p(ctx + ARBEL_QPC_WQE_BASE) << 32) +
              ldl_be_p(ctx + ARBEL_QPC_SND_WQE_BASE);
    q->mask = (1u << (ss >> ARBEL_QPC_SQ_LOG_SIZE_SHIFT)) - 1;
    q->shift = (ss & ARBEL_QPC_SQ_STRIDE_MASK) + ARBEL_QPC_SQ_STRIDE_BASE;
    q->ssc = ldl_be_p(ctx + ARBEL_QPC_PARAMS1) & ARBEL_QPC_SSC;
    q->port = path[ARBEL_PATH_PORT];
    q->rlid = lduw_be_p(path + ARBEL_PATH_RLID);
    q->rqpn = ldl_be_p(ctx + ARBEL_QPC_REMOTE_QPN) & ARBEL_QPN_MASK;
    q->sl = (uint32_t)ldl_be_p(path + ARBEL_AV_SL_TC_FL) >> 28;
    q->qkey = ldl_be_p(ctx + ARBEL_QPC_QKEY);
    q->rnr_retry = path[ARBEL_PATH_RNR_RETRY] >> 5;
    q->pkey_index = path[ARBEL_PATH_PORT + 3] & ARBEL_PATH_PKEY_MASK;
}

/**
 * arbel_sq_wqe_addr - send WQE @j's address, as a CQE reports it
 * @q: the QP
 * @j: the WQE's counter
 *
 * Return: the address (its low 32 bits).
 */
uint32_t arbel_sq_wqe_addr(const ArbelSqQp *q, uint16_t j)
{
    return (uint32_t)(q->base + ((uint64_t)(j & q->mask) << q->shift));
}

/* WQE j's opcode, size and fence: the doorbell's, or its predecessor's */
static bool arbel_sq_head(ArbelState *s, const ArbelSqQp *q, ArbelQp *qp,
                          uint16_t j, uint8_t *op, unsigned int *size)
{
    ArbelXlReq req = {
        .key = q->lkey, .access = ARBEL_XL_ACC_LOCAL_READ,
        .va = q->base + ((uint64_t)((uint16_t)(j - 1) & q->mask) << q->shift),
        .len = ARBEL_NEXT_SEG_SIZE,
    };
    uint8_t seg[ARBEL_NEXT_SEG_SIZE];

    if (j == qp->db_head) {
        *op = qp->db_op;
        *size = qp->db_size;
        return true;
    }
    if (arbel_xlate_rw(s, &req, seg) != ARBEL_XL_OK) {
        return false;
    }
    *op = ldl_be_p(seg + ARBEL_NEXT_NDA_OP) & ARBEL_DB_OP_MASK;
    *size = ldl_be_p(seg + ARBEL_NEXT_EE_NDS) & ARBEL_NEXT_SIZE_MASK;
    return true;
}

/* UD with a GRH: the 40 bytes the receiver finds before the payload */
static void arbel_sq_grh(ArbelState *s, const uint8_t *av, unsigned int port,
                         uint32_t len, uint8_t *grh)
{
    uint32_t tc_fl = ldl_be_p(av + ARBEL_AV_SL_TC_FL) & 0x0fffffffu;

    stl_be_p(grh, 6u << 28 | tc_fl);                /* IPVer, class, flow */
    stw_be_p(grh + 4, len);                         /* payload length */
    grh[6] = 0x1b;                                  /* next header: BTH */
    grh[7] = av[ARBEL_AV_HOP_LIMIT];
    stq_be_p(grh + 8, 0xfe80000000000000ULL);       /* SGID: prefix, */
    stq_be_p(grh + 16, arbel_ib_port_guid(s, port)); /* the port's GUID */
    memcpy(grh + 24, av + ARBEL_AV_DGID, 16);
}

/* the message of WQE @w, up to its data segments; false: bad opcode */
static bool arbel_sq_msg(ArbelState *s, const ArbelSqQp *q, const uint8_t *w,
                         uint8_t op, uint32_t *off, ArbelMsg *m,
                         unsigned int *port)
{
    bool rdma = op == ARBEL_WQE_RDMA_WRITE || op == ARBEL_WQE_RDMA_WRITE_IMM ||
                op == ARBEL_WQE_RDMA_READ;
    bool atomic = op == ARBEL_WQE_ATOMIC_CS || op == ARBEL_WQE_ATOMIC_FA;
    bool send = op == ARBEL_WQE_SEND || op == ARBEL_WQE_SEND_IMM;

    m->op = op;
    m->st = q->st;
    m->src_qpn = q->qpn;
    m->sl = q->sl;
    m->dqpn = q->rqpn;
    m->dlid = q->rlid;
    m->solicited = ldl_be_p(w + ARBEL_NEXT_FLAGS) & ARBEL_NEXT_SOLICIT;
    m->has_imm = op == ARBEL_WQE_SEND_IMM || op == ARBEL_WQE_RDMA_WRITE_IMM;
    memcpy(&m->imm, w + ARBEL_NEXT_IMM, 4);
    *port = q->port;
    *off = ARBEL_NEXT_SEG_SIZE;
    switch (q->st) {
    case ARBEL_QP_ST_UD: {
        const uint8_t *ud = w + *off;

        if (!send) {
            return false;
        }
        *port = (uint32_t)ldl_be_p(ud + ARBEL_AV_PORT_PD) >> 24 ?: q->port;
        m->dlid = lduw_be_p(ud + ARBEL_AV_DLID);
        m->sl = (uint32_t)ldl_be_p(ud + ARBEL_AV_SL_TC_FL) >> 28;
        m->dqpn = ldl_be_p(ud + ARBEL_UD_DQPN) & ARBEL_QPN_MASK;
        m->qkey = ldl_be_p(ud + ARBEL_UD_QKEY);
        if (m->qkey & BIT(31)) {
            m->qkey = q->qkey;      /* IBTA 10.2.4: the QP's own Q_Key */
        }
        m->grh = ud[ARBEL_AV_G_SLID] & ARBEL_AV_GRH;
        *off += ARBEL_UD_SEG_SIZE;
        return true;
    }
    case ARBEL_QP_ST_UC:
        if (op == ARBEL_WQE_RDMA_READ || atomic) {
            return false;
        }
        /* fall through */
    case ARBEL_QP_ST_RC:
        if (!send && !rdma && !atomic) {
            return false;
        }
        if (rdma || atomic) {
            m->raddr = ldq_be_p(w + *off + ARBEL_RADDR_VA);
            m->rkey = ldl_be_p(w + *off + ARBEL_RADDR_RKEY);
            *off += ARBEL_RADDR_SEG_SIZE;
        }
        if (atomic) {
            m->swap_add = ldq_be_p(w + *off + ARBEL_ATOMIC_SWAP_ADD);
            m->compare = ldq_be_p(w + *off + ARBEL_ATOMIC_COMPARE);
            *off += ARBEL_ATOMIC_SEG_SIZE;
        }
        return true;
    default:
        return false;
    }
}

static uint8_t arbel_sq_nak(ArbelResp r)
{
    switch (r) {
    case ARBEL_RESP_NAK_INVAL:
        return ARBEL_SYN_REMOTE_INVAL_REQ;
    case ARBEL_RESP_NAK_ACCESS:
        return ARBEL_SYN_REMOTE_ACCESS;
    case ARBEL_RESP_NAK_OP:
        return ARBEL_SYN_REMOTE_OP;
    default:
        return ARBEL_SYN_RETRY_EXC;     /* RC: nothing answered */
    }
}

/* the response to the WQE's message, on the requester's side */
static uint8_t arbel_sq_answer(ArbelState *s, const ArbelSqQp *q,
                               ArbelQp *qp, ArbelMsg *m, ArbelResp r,
                               const ArbelSge *sge, int n, uint8_t *rdata)
{
    if (r == ARBEL_RESP_RNR) {
        if (q->rnr_retry != ARBEL_RNR_INFINITE &&
            qp->rnr_naks >= q->rnr_retry) {
            qp->rnr_naks = 0;
            return ARBEL_SYN_RNR_RETRY_EXC;
        }
        /* saturated, not wrapped: non-zero marks the WQE in flight */
        if (qp->rnr_naks < UINT8_MAX) {
            qp->rnr_naks++;
        }
        return ARBEL_SQ_SYN_STALL;
    }
    qp->rnr_naks = 0;
    if (r == ARBEL_RESP_DROP && q->st != ARBEL_QP_ST_RC) {
        return 0;       /* unreliable: gone is done */
    }
    if (r != ARBEL_RESP_ACK) {
        return arbel_sq_nak(r);
    }
    if (m->op == ARBEL_WQE_RDMA_READ) {
        return arbel_sq_local(s, q, sge, n, rdata, m->len, true);
    }
    if (m->op == ARBEL_WQE_ATOMIC_CS || m->op == ARBEL_WQE_ATOMIC_FA) {
        return arbel_sq_local(s, q, sge, n, rdata, ARBEL_ATOMIC_LEN, true);
    }
    return 0;
}

/**
 * arbel_sq_exec - execute send WQE @j of a QP in RTS
 * @s: the device
 * @q: the QP, as arbel_sq_qp() read it
 * @qp: its record (the doorbell's first WQE, the RNR count)
 * @j: the WQE's counter
 * @o: what it came to: its opcode, signaled, the syndrome of an error,
 *     the RNR timer of a stall, the bytes an RDMA READ brought
 *
 * Return: done, stalled by an RNR NAK, or in error.
 */
ArbelSqDone arbel_sq_exec(ArbelState *s, const ArbelSqQp *q,
                                 ArbelQp *qp, uint16_t j, ArbelSqOut *o)
{
    ArbelXlReq req = {
        .key = q->lkey, .access = ARBEL_XL_ACC_LOCAL_READ,
        .va = q->base + ((uint64_t)(j & q->mask) << q->shift),
    };
    g_autofree uint8_t *w = NULL, *rdata = NULL, *data = NULL;
    ArbelSge sge[ARBEL_SQ_MAX_SGE];
    ArbelMsg m = { 0 };
    unsigned int size, port;
    uint64_t total = 0;
    uint32_t off;
    uint8_t op;
    int n, i;

    uint8_t *syn = &o->syn;

    o->signaled = q->ssc;
    *syn = ARBEL_SYN_LOCAL_QP_OP;
    if (!arbel_sq_head(s, q, qp, j, &op, &size) || !size ||
        size * ARBEL_WQE_UNIT > (1u << q->shift)) {
        return ARBEL_SQ_ERROR;
    }
    o->op = op;
    req.len = size * ARBEL_WQE_UNIT;
    w = g_malloc(req.len);
    if (arbel_xlate_rw(s, &req, w) != ARBEL_XL_OK) {
        return ARBEL_SQ_ERROR;
    }
    o->signaled |= ldl_be_p(w + ARBEL_NEXT_FLAGS) & ARBEL_NEXT_CQ_UPDATE;
    if (q->st == ARBEL_QP_ST_MLX) {
        return arbel_sq_mlx(s, q, j, w, req.len, syn);
    }
    if (op == ARBEL_WQE_NOP) {
        return ARBEL_SQ_OK;
    }
    if (op == ARBEL_WQE_BIND) {
        /* type 1 windows, on RC and UC QPs (IBTA 10.6.7.2) */
        *syn = ARBEL_SYN_MW_BIND;
        if ((q->st != ARBEL_QP_ST_RC && q->st != ARBEL_QP_ST_UC) ||
            req.len < ARBEL_NEXT_SEG_SIZE + ARBEL_BIND_SEG_SIZE ||
            !arbel_tpt_bind_mw(s, q->pd, w + ARBEL_NEXT_SEG_SIZE)) {
            return ARBEL_SQ_ERROR;
        }
        trace_arbel_wqe(arbel_trace_seq(s), q->qpn, j, op, 0, 0, 0, 0);
        s->dp.wqes++;
        return ARBEL_SQ_OK;
    }
    if (!arbel_sq_msg(s, q, w, op, &off, &m, &port)) {
        return ARBEL_SQ_ERROR;
    }
    n = arbel_sq_sges(w, off, req.len, sge);
    if (n < 0) {
        return ARBEL_SQ_ERROR;
    }
    for (i = 0; i < n; i++) {
        total += sge[i].count;
    }
    *syn = ARBEL_SYN_LOCAL_LENGTH;
    if (total > ARBEL_MAX_MSG ||
        (q->st == ARBEL_QP_ST_UD && total > ARBEL_UD_MTU)) {
        return ARBEL_SQ_ERROR;
    }
    if (op == ARBEL_WQE_ATOMIC_CS || op == ARBEL_WQE_ATOMIC_FA) {
        if (total < ARBEL_ATOMIC_LEN) {
            return ARBEL_SQ_ERROR;
        }
        m.len = ARBEL_ATOMIC_LEN;
        rdata = g_malloc0(ARBEL_ATOMIC_LEN);
    } else if (op == ARBEL_WQE_RDMA_READ) {
        m.len = total;
        rdata = g_malloc0(total ?: 1);
    } else {
        m.len = total;
        data = g_malloc(total ?: 1);
        *syn = arbel_sq_local(s, q, sge, n, data, total, false);
        if (*syn) {
            return ARBEL_SQ_ERROR;
        }
        m.data = data;
    }
    m.slid = arbel_ib_lid(s, port);
    m.pkey = arbel_ib_pkey(s, port, q->pkey_index);
    if (m.grh) {
        arbel_sq_grh(s, w + ARBEL_NEXT_SEG_SIZE, port, m.len, m.grh_bytes);
    }
    if (o->signaled) {
        arbel_cq_prepare(s, q->cqn, &o->slot);
    }
    *syn = arbel_sq_answer(s, q, qp, &m,
                           arbel_fabric_send(s, port, &m, rdata), sge, n,
                           rdata);
    trace_arbel_wqe(arbel_trace_seq(s), q->qpn, j, op, m.len, m.dlid, m.dqpn,
                    *syn == ARBEL_SQ_SYN_STALL ? 0 : *syn);
    if (*syn == ARBEL_SQ_SYN_STALL) {
        o->rnr_timer = m.rnr_timer;
        return ARBEL_SQ_STALL;
    }
    if (*syn) {
        return ARBEL_SQ_ERROR;
    }
    o->byte_cnt = op == ARBEL_WQE_RDMA_READ ? m.len : 0;
    s->dp.wqes++;
    return ARBEL_SQ_OK;
}
