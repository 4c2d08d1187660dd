/*
 * arbel-stub: the receive side of the data path -- a message arrives at a
 * port and the responder QP executes it.
 *
 * The responder is the QP the message names, if it is in RTR, RTS, SQD or
 * SQE, of the message's service type and on the port it arrived at;
 * otherwise the message is dropped (an RC requester then exhausts its
 * retries), as it is when its P_Key does not match the QP's (IBTA 10.9.3)
 * or, on UD, its Q_Key.  Then, by opcode (IBTA vol. 1 ch. 9.7,
 * 10.6 and 11; the PRM's QP context fields RRE/RWE/RAE, the MPT's):
 *  - SEND (_IMM): the next receive WQE -- of the QP's SRQ, or of its
 *    receive queue, whose doorbell record counts the posted WQEs -- gets
 *    the payload scattered through its data segments (a segment with lkey
 *    0x100 ends the list), UD's 40-byte GRH area first, and a receive CQE;
 *    none posted: RNR (RC) or dropped (UC, UD);
 *  - RDMA WRITE (_IMM): the QP's RWE and the rkey's remote-write right, the
 *    range, the PD; _IMM also consumes a receive WQE;
 *  - RDMA READ: RRE and remote read; ATOMIC CS/FA: RAE, the atomic right,
 *    an 8-byte aligned address.
 * A refused RDMA or atomic gets a remote access NAK, a receive buffer too
 * small an invalid-request NAK (the receive WQE completes with a local
 * length error), a scatter the lkey refuses a remote operational NAK (the
 * WQE: local protection error); on RC the responder QP goes to ERR with
 * an affiliated event, on UC and UD the message is dropped.  Every key is
 * checked by the translation engine with the QP's PD.
 *
 * Receive WQE layout: mthca's qp code (mthca_arbel_post_receive: the next
 * segment, then data segments of struct mthca_data_seg, the list ended by
 * MTHCA_INVAL_LKEY) and libmthca's, which posts the same; the RQ's WQEs
 * are at wqe_base + index << stride in the region of the QP's wqe_lkey,
 * index = the WQEs taken mod the RQ size.  Documentation/arbel-stub.rst
 * "Data path".
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
#include "arbel-eq.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

#define ARBEL_RQ_MAX_SGE        64

typedef struct ArbelSge {
    uint32_t count;
    uint32_t lkey;
    uint64_t addr;
} ArbelSge;

/* the responder's view of its QP, from the context */
typedef struct ArbelRqQp {
    uint32_t qpn;
    uint32_t st;
    uint32_t pd;
    uint32_t cqn;
    uint32_t params2;
    uint32_t qkey;
    unsigned int port;
    uint16_t pkey_index;
    bool srq;
    uint32_t srqn;
    uint8_t rnr_timer;      /* min RNR NAK timer, IBTA's 5-bit code */
} ArbelRqQp;

/*
 * IBTA 10.9.3: P_Keys match when their low 15 bits do, at least one is a
 * full member (bit 15), and neither is invalid (0x0000, 0x8000)
 */
static bool arbel_pkey_match(uint16_t a, uint16_t b)
{
    return (a & 0x7fff) && (a & 0x7fff) == (b & 0x7fff) && ((a | b) & 0x8000);
}

static void arbel_rq_event(ArbelState *s, uint8_t type, uint32_t qpn)
{
    uint8_t data[24] = { 0 };

    stl_be_p(data, qpn);
    arbel_eq_post_event(s, type, 0, data);
}

/* the next receive WQE of the QP's receive queue, by its doorbell record */
static bool arbel_rq_take(ArbelState *s, ArbelQp *qp, const uint8_t *ctx,
                          ArbelRecvWqe *w)
{
    uint8_t ss = ctx[ARBEL_QPC_RQ_SIZE_STRIDE];
    unsigned int shift = (ss & ARBEL_QPC_SQ_STRIDE_MASK) +
                         ARBEL_QPC_SQ_STRIDE_BASE;
    uint32_t mask = (1u << (ss >> ARBEL_QPC_SQ_LOG_SIZE_SHIFT)) - 1;
    uint32_t counter, index;

    if (arbel_icm_db_read(s, ldl_be_p(ctx + ARBEL_QPC_USR_PAGE) &
                          ARBEL_QPN_MASK,
                          ldl_be_p(ctx + ARBEL_QPC_RCV_DB_INDEX), &counter)) {
        arbel_unconfirmed(s, "QP 0x%x: receive doorbell record unreadable",
                          ldl_be_p(ctx + ARBEL_QPC_LOCAL_QPN));
        return false;
    }
    if (!((counter - qp->rq_next) & ARBEL_DB_COUNTER_MASK)) {
        return false;
    }
    index = qp->rq_next & mask;
    qp->rq_next++;
    w->lkey = ldl_be_p(ctx + ARBEL_QPC_WQE_LKEY);
    w->va = ((uint64_t)ldl_be_p(ctx + ARBEL_QPC_WQE_BASE) << 32) +
            ((uint64_t)index << shift);
    w->size = 1u << shift;
    w->cqe_wqe = index << shift;
    w->pd = arbel_qpc_pd(ctx);
    return true;
}

/* the scatter list of receive WQE @w; the number of entries, -1: unreadable */
static int arbel_rq_sges(ArbelState *s, const ArbelRecvWqe *w, ArbelSge *sge)
{
    ArbelXlReq req = {
        .key = w->lkey, .access = ARBEL_XL_ACC_LOCAL_READ, .va = w->va,
        .len = w->size,
    };
    g_autofree uint8_t *b = g_malloc(w->size);
    uint32_t off;
    int n = 0;

    if (w->size < ARBEL_NEXT_SEG_SIZE ||
        arbel_xlate_rw(s, &req, b) != ARBEL_XL_OK) {
        return -1;
    }
    for (off = ARBEL_NEXT_SEG_SIZE; off + ARBEL_DATA_SEG_SIZE <= w->size &&
         n < ARBEL_RQ_MAX_SGE; off += ARBEL_DATA_SEG_SIZE) {
        sge[n].lkey = ldl_be_p(b + off + ARBEL_DATA_LKEY);
        if (sge[n].lkey == ARBEL_INVAL_LKEY) {
            break;
        }
        sge[n].count = ldl_be_p(b + off + ARBEL_DATA_COUNT) &
                       ARBEL_DATA_COUNT_MASK;
        sge[n].addr = ldq_be_p(b + off + ARBEL_DATA_ADDR);
        n++;
    }
    return n;
}

/*
 * write @len bytes of @src at offset @skip of the scatter list; @src NULL:
 * leave those bytes as they are (UD's GRH area when no GRH came).
 * Return: 0 or a syndrome.
 */
static uint8_t arbel_rq_put(ArbelState *s, const ArbelSge *sge, int n,
                            uint32_t pd, uint64_t skip, const uint8_t *src,
                            uint64_t len)
{
    uint64_t done = 0;
    int i;

    for (i = 0; i < n && done < len; i++) {
        uint64_t at, chunk;

        if (skip >= sge[i].count) {
            skip -= sge[i].count;
            continue;
        }
        at = skip;
        skip = 0;
        while (at < sge[i].count && done < len) {
            ArbelXlReq req = {
                .key = sge[i].lkey, .access = ARBEL_XL_ACC_LOCAL_WRITE,
                .va = sge[i].addr + at, .to_region = true,
                .check_pd = true, .pd = pd, .check_only = !src,
            };

            chunk = MIN(MIN(sge[i].count - at, len - done), ARBEL_XL_MAX_LEN);
            req.len = chunk;
            if (arbel_xlate_rw(s, &req, src ? (void *)(src + done) : NULL) !=
                ARBEL_XL_OK) {
                return ARBEL_SYN_LOCAL_PROT;
            }
            at += chunk;
            done += chunk;
        }
    }
    return done == len ? 0 : ARBEL_SYN_LOCAL_LENGTH;
}

/* scatter a message into receive WQE @w; 0 or a syndrome */
static uint8_t arbel_rq_scatter(ArbelState *s, const ArbelRqQp *q,
                                const ArbelRecvWqe *w, const ArbelMsg *m,
                                uint32_t *byte_cnt)
{
    ArbelSge sge[ARBEL_RQ_MAX_SGE];
    uint32_t pre = q->st == ARBEL_QP_ST_UD || q->st == ARBEL_QP_ST_MLX ?
                   ARBEL_GRH_SIZE : 0;
    uint64_t room = 0;
    uint8_t syn;
    int n, i;

    n = arbel_rq_sges(s, w, sge);
    if (n < 0) {
        return ARBEL_SYN_LOCAL_QP_OP;
    }
    for (i = 0; i < n; i++) {
        room += sge[i].count;
    }
    *byte_cnt = pre + (m->op == ARBEL_WQE_RDMA_WRITE_IMM ? 0 : m->len);
    if (*byte_cnt > room) {
        return ARBEL_SYN_LOCAL_LENGTH;
    }
    if (pre) {
        syn = arbel_rq_put(s, sge, n, w->pd, 0,
                           m->grh ? m->grh_bytes : NULL, pre);
        if (syn) {
            return syn;
        }
    }
    if (m->op == ARBEL_WQE_RDMA_WRITE_IMM || !m->len) {
        return 0;
    }
    return arbel_rq_put(s, sge, n, w->pd, pre, m->data, m->len);
}

/* the responder's QP in error: CQEs flushed, the affiliated event */
static void arbel_rq_fail(ArbelState *s, const ArbelRqQp *q, uint8_t event)
{
    arbel_qp_to_error(s, q->qpn);
    arbel_rq_event(s, event, q->qpn);
    arbel_rq_flush(s, q->qpn, true);
}

/* a message that needs a receive WQE: SEND, SEND_IMM, RDMA WRITE_IMM */
static ArbelResp arbel_rq_consume(ArbelState *s, ArbelQp *qp,
                                  const uint8_t *ctx, const ArbelRqQp *q,
                                  ArbelMsg *m)
{
    ArbelRecvWqe w;
    uint32_t byte_cnt = 0;
    uint8_t syn;
    bool got;

    got = q->srq ? arbel_srq_take(s, q->srqn, &w) :
                   arbel_rq_take(s, qp, ctx, &w);
    if (!got) {
        m->rnr_timer = q->rnr_timer;
        return q->st == ARBEL_QP_ST_RC ? ARBEL_RESP_RNR : ARBEL_RESP_DROP;
    }
    if (q->srq) {
        w.pd = q->pd;   /* the scatter list's keys belong to the QP's PD */
    }
    syn = arbel_rq_scatter(s, q, &w, m, &byte_cnt);
    if (!syn) {
        arbel_cqe_recv(s, q->cqn, q->qpn, w.cqe_wqe, m, byte_cnt);
        s->dp.bytes += m->len;
        return ARBEL_RESP_ACK;
    }
    trace_arbel_recv_error(arbel_trace_seq(s), q->qpn, syn);
    arbel_cqe_error(s, q->cqn, q->qpn, w.cqe_wqe, false, syn);
    arbel_qp_to_error(s, q->qpn);
    arbel_rq_flush(s, q->qpn, true);
    if (q->st != ARBEL_QP_ST_RC) {
        return ARBEL_RESP_DROP;
    }
    return syn == ARBEL_SYN_LOCAL_LENGTH ? ARBEL_RESP_NAK_INVAL :
           ARBEL_RESP_NAK_OP;
}

/* RDMA and atomics: the QP's enable bit and the rkey's right */
static ArbelResp arbel_rq_remote(ArbelState *s, const ArbelRqQp *q,
                                 ArbelMsg *m, uint8_t *rdata)
{
    ArbelXlReq req = {
        .key = m->rkey, .va = m->raddr, .len = m->len,
        .check_pd = true, .pd = q->pd,
    };
    uint32_t enable, r;
    uint8_t old[ARBEL_ATOMIC_LEN];
    uint64_t v;

    switch (m->op) {
    case ARBEL_WQE_RDMA_WRITE:
    case ARBEL_WQE_RDMA_WRITE_IMM:
        enable = ARBEL_QPC_RWE;
        req.access = ARBEL_XL_ACC_REMOTE_WRITE;
        req.to_region = true;
        break;
    case ARBEL_WQE_RDMA_READ:
        enable = ARBEL_QPC_RRE;
        req.access = ARBEL_XL_ACC_REMOTE_READ;
        break;
    default:
        enable = ARBEL_QPC_RAE;
        req.access = ARBEL_XL_ACC_ATOMIC;
        req.len = ARBEL_ATOMIC_LEN;
        break;
    }
    if (!(q->params2 & enable)) {
        trace_arbel_remote_refused(arbel_trace_seq(s), q->qpn, m->op,
                                   m->rkey, ARBEL_XL_ACCESS);
        return ARBEL_RESP_NAK_ACCESS;
    }
    if (!req.len) {
        return ARBEL_RESP_ACK;  /* a zero-length RDMA checks no key */
    }
    if (req.access != ARBEL_XL_ACC_ATOMIC) {
        uint64_t off;

        for (off = 0; off < m->len; off += ARBEL_XL_MAX_LEN) {
            req.va = m->raddr + off;
            req.len = MIN(m->len - off, ARBEL_XL_MAX_LEN);
            req.check_only = true;
            r = arbel_xlate_rw(s, &req, NULL);
            if (r != ARBEL_XL_OK) {
                trace_arbel_remote_refused(arbel_trace_seq(s), q->qpn, m->op,
                                           m->rkey, r);
                return ARBEL_RESP_NAK_ACCESS;
            }
        }
        req.check_only = false;
        for (off = 0; off < m->len; off += ARBEL_XL_MAX_LEN) {
            req.va = m->raddr + off;
            req.len = MIN(m->len - off, ARBEL_XL_MAX_LEN);
            r = arbel_xlate_rw(s, &req, req.to_region ? m->data + off :
                               rdata + off);
            if (r != ARBEL_XL_OK) {
                return ARBEL_RESP_NAK_OP;
            }
        }
        s->dp.bytes += m->len;
        return ARBEL_RESP_ACK;
    }
    r = arbel_xlate_rw(s, &req, old);
    if (r != ARBEL_XL_OK) {
        trace_arbel_remote_refused(arbel_trace_seq(s), q->qpn, m->op, m->rkey,
                                   r);
        return ARBEL_RESP_NAK_ACCESS;
    }
    v = ldq_be_p(old);
    if (m->op == ARBEL_WQE_ATOMIC_FA) {
        v += m->swap_add;
    } else if (v == m->compare) {
        v = m->swap_add;
    }
    memcpy(rdata, old, sizeof(old));
    if (v != ldq_be_p(old)) {
        uint8_t nv[ARBEL_ATOMIC_LEN];

        stq_be_p(nv, v);
        req.to_region = true;
        if (arbel_xlate_rw(s, &req, nv) != ARBEL_XL_OK) {
            return ARBEL_RESP_NAK_OP;
        }
    }
    return ARBEL_RESP_ACK;
}

static bool arbel_rq_qp(ArbelState *s, uint32_t qpn, ArbelQp **qp,
                        uint8_t *ctx, ArbelRqQp *q)
{
    uint32_t srqn;

    *qp = arbel_qp_find(s, qpn, ctx);
    if (!*qp || (*qp)->state < ARBEL_QPS_RTR ||
        (*qp)->state == ARBEL_QPS_ERR ||
        (ldl_be_p(ctx + ARBEL_QPC_LOCAL_QPN) & ARBEL_QPN_MASK) != qpn) {
        return false;
    }
    q->qpn = qpn;
    q->st = arbel_qpc_st(ctx);
    q->pd = arbel_qpc_pd(ctx);
    q->cqn = ldl_be_p(ctx + ARBEL_QPC_CQN_RCV) & ARBEL_QPN_MASK;
    q->params2 = ldl_be_p(ctx + ARBEL_QPC_PARAMS2);
    q->qkey = ldl_be_p(ctx + ARBEL_QPC_QKEY);
    q->port = ctx[ARBEL_QPC_PRI_PATH + ARBEL_PATH_PORT];
    q->pkey_index = ctx[ARBEL_QPC_PRI_PATH + ARBEL_PATH_PORT + 3] &
                    ARBEL_PATH_PKEY_MASK;
    q->rnr_timer = ldl_be_p(ctx + ARBEL_QPC_RNR_PSN) >> 24 & 0x1f;
    srqn = ldl_be_p(ctx + ARBEL_QPC_SRQN);
    q->srq = srqn & ARBEL_QPC_HAS_SRQ;
    q->srqn = srqn & ARBEL_QPN_MASK;
    return true;
}

/**
 * arbel_rq_receive - message @m arrives at @port: the responder executes it
 * @s: the device it arrives at
 * @port: the port
 * @m: the message
 * @rdata: RDMA READ: receives m->len bytes; atomics: the original 8 bytes
 *
 * Return: the responder's answer.
 */
ArbelResp arbel_rq_receive(ArbelState *s, unsigned int port, ArbelMsg *m,
                           uint8_t *rdata)
{
    uint8_t ctx[ARBEL_QPC_SIZE];
    ArbelRqQp q;
    ArbelResp r;
    ArbelQp *qp;
    uint32_t dqpn = m->dqpn & ARBEL_QPN_MASK;
    uint32_t sqp = dqpn <= 1 ? arbel_qp_special(s, dqpn, port) : 0;
    bool smi = sqp && !dqpn;
    uint8_t st = m->st;

    if (sqp) {
        /* QP0, QP1: this port's special QP, an MLX QP taking UD */
        dqpn = sqp;
        st = ARBEL_QP_ST_MLX;
    }
    if (!arbel_rq_qp(s, dqpn, &qp, ctx, &q) || q.st != st ||
        (q.port && q.port != port)) {
        trace_arbel_recv_drop(arbel_trace_seq(s), m->dqpn, m->op);
        return ARBEL_RESP_DROP;
    }
    /* IBTA 10.2.4: QP0 takes any Q_Key, QP1 and UD QPs their own */
    if ((m->st == ARBEL_QP_ST_UD && !smi && m->qkey != q.qkey) ||
        !arbel_pkey_match(m->pkey, arbel_ib_pkey(s, port, q.pkey_index))) {
        /* IBTA 10.2.4 (Q_Key), 10.9.3 (P_Key): the packet is dropped */
        trace_arbel_recv_drop(arbel_trace_seq(s), m->dqpn, m->op);
        return ARBEL_RESP_DROP;
    }
    m->pkey_index = q.pkey_index;
    if (qp->state == ARBEL_QPS_RTR && q.st != ARBEL_QP_ST_UD &&
        !qp->comm_est) {
        qp->comm_est = true;    /* the first packet in RTR (IBTA 11.6.3) */
        arbel_rq_event(s, ARBEL_EV_COMM_EST, q.qpn);
    }
    switch (m->op) {
    case ARBEL_WQE_SEND:
    case ARBEL_WQE_SEND_IMM:
        return arbel_rq_consume(s, qp, ctx, &q, m);
    case ARBEL_WQE_RDMA_WRITE_IMM:
    case ARBEL_WQE_RDMA_WRITE:
    case ARBEL_WQE_RDMA_READ:
    case ARBEL_WQE_ATOMIC_CS:
    case ARBEL_WQE_ATOMIC_FA:
        if (q.st == ARBEL_QP_ST_UD ||
            (q.st == ARBEL_QP_ST_UC && m->op != ARBEL_WQE_RDMA_WRITE &&
             m->op != ARBEL_WQE_RDMA_WRITE_IMM)) {
            r = ARBEL_RESP_NAK_INVAL;
            break;
        }
        r = arbel_rq_remote(s, &q, m, rdata);
        if (r == ARBEL_RESP_ACK && m->op == ARBEL_WQE_RDMA_WRITE_IMM) {
            return arbel_rq_consume(s, qp, ctx, &q, m);
        }
        break;
    default:
        r = ARBEL_RESP_NAK_INVAL;
        break;
    }
    if (r != ARBEL_RESP_ACK && q.st != ARBEL_QP_ST_RC) {
        return ARBEL_RESP_DROP;     /* UC, UD: an error drops the message */
    }
    if (r == ARBEL_RESP_NAK_ACCESS || r == ARBEL_RESP_NAK_INVAL ||
        r == ARBEL_RESP_NAK_OP) {
        arbel_rq_fail(s, &q, r == ARBEL_RESP_NAK_INVAL ?
                      ARBEL_EV_WQ_INVAL_REQ : ARBEL_EV_WQ_ACCESS);
    }
    return r;
}

/**
 * arbel_rq_flush - a QP in ERR: its posted receive WQEs complete flushed
 * @s: the device
 * @qpn: the QP
 * @entered: the QP just entered ERR (not a 2ERR on a QP in ERR already)
 *
 * A QP on an SRQ flushes nothing of the shared queue; it reports the last
 * WQE reached event instead (IBTA 11.6.3.1, mthca's eq code), once: when
 * it enters ERR.
 */
void arbel_rq_flush(ArbelState *s, uint32_t qpn, bool entered)
{
    uint8_t ctx[ARBEL_QPC_SIZE];
    ArbelRecvWqe w;
    uint32_t cqn;
    ArbelQp *qp;

    qp = arbel_qp_find(s, qpn, ctx);
    if (!qp || qp->state != ARBEL_QPS_ERR) {
        return;
    }
    if (ldl_be_p(ctx + ARBEL_QPC_SRQN) & ARBEL_QPC_HAS_SRQ) {
        if (entered) {
            arbel_rq_event(s, ARBEL_EV_SRQ_LAST_WQE, qpn);
        }
        return;
    }
    cqn = ldl_be_p(ctx + ARBEL_QPC_CQN_RCV) & ARBEL_QPN_MASK;
    while (arbel_rq_take(s, qp, ctx, &w)) {
        arbel_cqe_error(s, cqn, qpn, w.cqe_wqe, false, ARBEL_SYN_WR_FLUSH);
    }
}
