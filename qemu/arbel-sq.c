/*
 * arbel-stub: the send engine -- the send doorbell, the send WQEs it
 * executes, the requester's completions and errors.
 *
 * The doorbell (UAR offset 0x10): dword 0 holds the number of WQEs
 * (31:24), the counter of the first (23:8), fence (5) and its opcode
 * (4:0); dword 1 the QP number (31:8) and the first WQE's size in 16-byte
 * units (5:0).  The firmware keeps, per QP, the next WQE to execute and
 * one past the last posted; it executes in order while the QP is in RTS.
 * WQE j is at snd_wqe_base + (j mod the SQ size) << stride in the region
 * of the QP's wqe_lkey; its opcode and size are the doorbell's if it is
 * the doorbell's first, else those its predecessor's next segment holds
 * (nda_op 4:0, ee_nds 5:0), as mthca and libmthca link each WQE to the
 * one before it.  Layouts: mthca's wqe header (next, remote address,
 * atomic, Arbel UD, bind, data segments) and libmthca's inline segment (byte
 * count bit 31, the bytes, padded to 16); which segments follow the next
 * segment for each service type and opcode: mthca_arbel_post_send.
 *
 * A WQE becomes a message (arbel-dp.h) that the fabric carries to a port and
 * the responder (arbel-rq.c) executes; BIND_MW binds a type 1 window
 * (arbel-mw.c).  The requester completes the WQE with a CQE if it asked for
 * one (next segment flags bit 3) or its QP signals all (SSC); a WQE in error
 * always completes, with the syndrome (arbel-cqe.c): its own gather refused
 * (local protection), too long for UD (local length), an opcode its QP does
 * not do (local QP operation), a NAK (remote invalid request / access /
 * operation), no answer on RC (transport retry exceeded), RNR NAKs past the
 * retry count (RNR retry exceeded).  The QP then goes to ERR and every other
 * WQE it holds completes flushed.  An RNR NAK stalls the queue; it retries
 * after the responder's RNR NAK timer (its min_rnr_timer, IBTA's encoding)
 * runs 100 times faster in virtual time, forever with rnr_retry 7.  The
 * message carries its QP's P_Key.  Execution is synchronous: a WQE's response is there before
 * the next starts, so fences hold by construction.
 * Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/timer.h"
#include "arbel-state.h"
#include "arbel-dbgwin.h"
#include "arbel-wqe.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

#define ARBEL_SQ_MAX_SGE        64
#define ARBEL_RNR_SCALE         100     /* the RNR NAK timer, 100 x faster */
#define ARBEL_MAX_MSG           (1ull << 31)    /* IBTA: 2^31 bytes */

typedef struct ArbelSge {
    uint32_t count;
    uint32_t lkey;
    uint64_t addr;
    const uint8_t *inl;     /* inline data, or NULL */
} ArbelSge;

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

/*
 * The RNR NAK timer's 5-bit code in units of 10 us (IBTA vol. 1 table 45,
 * "Encoding for RNR NAK Timer Field": 0 is 655.36 ms, 1 is 0.01 ms, ...)
 */
static const uint32_t arbel_rnr_10us[32] = {
    65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
    16384, 24576, 32768, 49152,
};

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
} ArbelSqOut;

#define ARBEL_SQ_SYN_STALL      0xff    /* arbel_sq_answer: RNR, wait */

static void arbel_sq_qp(const uint8_t *ctx, uint32_t qpn, ArbelSqQp *q)
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
    q->sl = ldl_be_p(path + ARBEL_AV_SL_TC_FL) >> 28;
    q->qkey = ldl_be_p(ctx + ARBEL_QPC_QKEY);
    q->rnr_retry = path[ARBEL_PATH_RNR_RETRY] >> 5;
    q->pkey_index = path[ARBEL_PATH_PORT + 3] & ARBEL_PATH_PKEY_MASK;
}

static uint32_t arbel_sq_wqe_addr(const ArbelSqQp *q, uint16_t j)
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

/* the data segments from @off: pointer, inline or not; -1 if malformed */
static int arbel_sq_sges(const uint8_t *w, uint32_t off, uint32_t len,
                         ArbelSge *sge)
{
    int n = 0;

    while (off + 4 <= len && n < ARBEL_SQ_MAX_SGE) {
        uint32_t count = ldl_be_p(w + off + ARBEL_DATA_COUNT);

        if (count & ARBEL_DATA_INLINE) {
            sge[n].count = count & ARBEL_DATA_COUNT_MASK;
            sge[n].inl = w + off + 4;
            if (off + 4 + sge[n].count > len) {
                return -1;
            }
            off = ROUND_UP(off + 4 + sge[n].count, ARBEL_WQE_UNIT);
        } else {
            if (off + ARBEL_DATA_SEG_SIZE > len) {
                return -1;
            }
            sge[n].count = count;
            sge[n].lkey = ldl_be_p(w + off + ARBEL_DATA_LKEY);
            sge[n].addr = ldq_be_p(w + off + ARBEL_DATA_ADDR);
            sge[n].inl = NULL;
            off += ARBEL_DATA_SEG_SIZE;
        }
        n++;
    }
    return n;
}

/* move bytes between the local SGEs and @buf; 0 or a syndrome */
static uint8_t arbel_sq_local(ArbelState *s, const ArbelSqQp *q,
                              const ArbelSge *sge, int n, uint8_t *buf,
                              uint64_t len, bool to_region)
{
    uint64_t done = 0;
    int i;

    for (i = 0; i < n && done < len; i++) {
        uint64_t at = 0;

        if (sge[i].inl) {
            memcpy(buf + done, sge[i].inl, MIN(sge[i].count, len - done));
            done += MIN(sge[i].count, len - done);
            continue;
        }
        while (at < sge[i].count && done < len) {
            ArbelXlReq req = {
                .key = sge[i].lkey, .va = sge[i].addr + at,
                .len = MIN(MIN(sge[i].count - at, len - done),
                           ARBEL_XL_MAX_LEN),
                .access = to_region ? ARBEL_XL_ACC_LOCAL_WRITE :
                                      ARBEL_XL_ACC_LOCAL_READ,
                .to_region = to_region, .check_pd = true, .pd = q->pd,
            };
            uint32_t r = arbel_xlate_rw(s, &req, buf + done);

            if (r != ARBEL_XL_OK) {
                trace_arbel_local_refused(arbel_trace_seq(s), q->qpn,
                                          sge[i].lkey, r);
                return ARBEL_SYN_LOCAL_PROT;
            }
            at += req.len;
            done += req.len;
        }
    }
    return done == len ? 0 : ARBEL_SYN_LOCAL_LENGTH;
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
        *port = ldl_be_p(ud + ARBEL_AV_PORT_PD) >> 24 ?: q->port;
        m->dlid = lduw_be_p(ud + ARBEL_AV_DLID);
        m->sl = ldl_be_p(ud + ARBEL_AV_SL_TC_FL) >> 28;
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
        qp->rnr_naks++;
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

/* execute send WQE j; *syn: the syndrome of an error */
static ArbelSqDone arbel_sq_exec(ArbelState *s, const ArbelSqQp *q,
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
    if (q->st == ARBEL_QP_ST_MLX || op == ARBEL_WQE_NOP) {
        return ARBEL_SQ_OK;     /* a MAD leaves the port; nothing answers */
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

/* every WQE the QP still holds completes flushed */
static void arbel_sq_flush(ArbelState *s, const ArbelSqQp *q, ArbelQp *qp)
{
    while (qp->sq_next != qp->sq_end) {
        arbel_cqe_error(s, q->cqn, q->qpn, arbel_sq_wqe_addr(q, qp->sq_next),
                        true, ARBEL_SYN_WR_FLUSH);
        qp->sq_next++;
    }
}

/* the earliest retry of a stalled QP, for the timer */
static void arbel_sq_arm(ArbelState *s)
{
    GHashTableIter it;
    gpointer key;
    int64_t due = INT64_MAX;

    g_hash_table_iter_init(&it, s->dp.stalled);
    while (g_hash_table_iter_next(&it, &key, NULL)) {
        uint8_t ctx[ARBEL_QPC_SIZE];
        ArbelQp *qp = arbel_qp_find(s, GPOINTER_TO_UINT(key), ctx);

        if (qp && qp->stalled) {
            due = MIN(due, qp->rnr_due);
        }
    }
    if (due != INT64_MAX) {
        timer_mod(s->dp.rnr_timer, due);
    }
}

/* an RNR NAK: wait the responder's RNR timer (scaled down), then retry */
static void arbel_sq_stall(ArbelState *s, uint32_t qpn, ArbelQp *qp,
                           uint8_t rnr_timer)
{
    qp->stalled = true;
    qp->rnr_due = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                  (int64_t)arbel_rnr_10us[rnr_timer & 31] * 10000 /
                  ARBEL_RNR_SCALE;
    g_hash_table_add(s->dp.stalled, GUINT_TO_POINTER(qpn));
    arbel_sq_arm(s);
}

/* execute what QP @qpn has posted, until done, stalled or in error */
static void arbel_sq_run(ArbelState *s, uint32_t qpn)
{
    uint8_t ctx[ARBEL_QPC_SIZE];
    ArbelQp *qp = arbel_qp_find(s, qpn, ctx);
    ArbelSqQp q;

    if (!qp) {
        return;
    }
    arbel_sq_qp(ctx, qpn, &q);
    if (qp->state == ARBEL_QPS_ERR) {
        arbel_sq_flush(s, &q, qp);
        return;
    }
    while (qp->state == ARBEL_QPS_RTS && !qp->stalled &&
           qp->sq_next != qp->sq_end) {
        uint16_t j = qp->sq_next;
        ArbelSqOut o = { 0 };

        switch (arbel_sq_exec(s, &q, qp, j, &o)) {
        case ARBEL_SQ_STALL:
            arbel_sq_stall(s, qpn, qp, o.rnr_timer);
            return;
        case ARBEL_SQ_OK:
            qp->sq_next++;
            if (o.signaled) {
                arbel_cqe_send(s, q.cqn, qpn, arbel_sq_wqe_addr(&q, j), o.op,
                               o.byte_cnt);
            }
            break;
        case ARBEL_SQ_ERROR:
            qp->sq_next++;
            trace_arbel_wqe_error(arbel_trace_seq(s), qpn, j, o.op, o.syn);
            arbel_cqe_error(s, q.cqn, qpn, arbel_sq_wqe_addr(&q, j), true,
                            o.syn);
            arbel_qp_to_error(s, qpn);
            arbel_sq_flush(s, &q, qp);
            arbel_rq_flush(s, qpn);
            return;
        }
    }
}

static void arbel_sq_rnr_tick(void *opaque)
{
    ArbelState *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    g_autofree gpointer *qpns = NULL;
    guint n, i;

    qpns = g_hash_table_get_keys_as_array(s->dp.stalled, &n);
    for (i = 0; i < n; i++) {
        uint32_t qpn = GPOINTER_TO_UINT(qpns[i]);
        uint8_t ctx[ARBEL_QPC_SIZE];
        ArbelQp *qp = arbel_qp_find(s, qpn, ctx);

        if (!qp || !qp->stalled) {
            g_hash_table_remove(s->dp.stalled, qpns[i]);
        } else if (qp->rnr_due <= now) {
            g_hash_table_remove(s->dp.stalled, qpns[i]);
            qp->stalled = false;
            arbel_sq_run(s, qpn);
        }
    }
    arbel_sq_arm(s);
}

/**
 * arbel_sq_doorbell - the send doorbell (UAR offset 0x10)
 * @s: the device
 * @head_op: the first dword: WQE count, first counter, fence, opcode
 * @qpn_size: the second: QP number, first WQE's size
 */
void arbel_sq_doorbell(ArbelState *s, uint32_t head_op, uint32_t qpn_size)
{
    uint32_t qpn = qpn_size >> ARBEL_DB_QPN_SHIFT;
    uint16_t head = head_op >> ARBEL_DB_HEAD_SHIFT & ARBEL_DB_HEAD_MASK;
    unsigned int nreq = head_op >> ARBEL_DB_NREQ_SHIFT;
    uint8_t ctx[ARBEL_QPC_SIZE];
    ArbelQp *qp = arbel_qp_find(s, qpn, ctx);
    uint64_t cqes;

    if (!qp) {
        arbel_unconfirmed(s, "send doorbell for QP 0x%x in RST: ignored",
                          qpn);
        return;
    }
    if (qp->sq_next == qp->sq_end && qp->sq_next != head) {
        arbel_unconfirmed(s, "send doorbell for QP 0x%x starts at WQE %u, "
                          "the queue is at %u: followed", qpn, head,
                          qp->sq_next);
        qp->sq_next = head;
    }
    qp->db_head = head;
    qp->db_op = head_op & ARBEL_DB_OP_MASK;
    qp->db_size = qpn_size & ARBEL_NEXT_SIZE_MASK;
    qp->sq_end = head + nreq;
    cqes = s->dp.cqes;
    arbel_sq_run(s, qpn);
    trace_arbel_send(arbel_trace_seq(s), qpn, nreq,
                     (uint32_t)(s->dp.cqes - cqes));
}

/**
 * arbel_dp_cmd_modify_qp - a QP transition, as the data path sees it
 * @s: the device
 * @cmd: the command
 *
 * The QP module runs the transition; a QP that reaches ERR (from another
 * state) flushes its work queues, one that reaches RTS (from SQD or SQE) resumes its send
 * queue.
 *
 * Return: a command status.
 */
uint8_t arbel_dp_cmd_modify_qp(ArbelState *s, ArbelCmd *cmd)
{
    uint32_t qpn = cmd->in_mod & ARBEL_QP_NUM_MASK;
    unsigned int was = arbel_qp_state_of(s, qpn);
    uint8_t st = arbel_cmd_modify_qp(s, cmd);

    if (st || cmd->in_mod & ARBEL_QP_IS_EE) {
        return st;
    }
    if (cmd->opcode == ARBEL_OP_2ERR_QPEE && was != ARBEL_QPS_ERR) {
        arbel_sq_run(s, qpn);
        arbel_rq_flush(s, qpn);
    } else if (cmd->opcode == ARBEL_OP_SQD2RTS_QPEE ||
               cmd->opcode == ARBEL_OP_SQERR2RTS_QPEE) {
        arbel_sq_run(s, qpn);
    }
    return st;
}

/**
 * arbel_dp_init - create the RNR timer
 * @s: the device
 */
void arbel_dp_init(ArbelState *s)
{
    s->dp.rnr_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, arbel_sq_rnr_tick, s);
    s->dp.stalled = g_hash_table_new(g_direct_hash, g_direct_equal);
}

/**
 * arbel_dp_fini - free the RNR timer
 * @s: the device
 */
void arbel_dp_fini(ArbelState *s)
{
    timer_free(s->dp.rnr_timer);
    s->dp.rnr_timer = NULL;
    g_hash_table_destroy(s->dp.stalled);
    s->dp.stalled = NULL;
}

/**
 * arbel_dp_reset - no QP is stalled (the QP module forgets them all)
 * @s: the device
 */
void arbel_dp_reset(ArbelState *s)
{
    if (s->dp.rnr_timer) {
        timer_del(s->dp.rnr_timer);
        g_hash_table_remove_all(s->dp.stalled);
    }
}

/**
 * arbel_dp_count - the data path's counters, for the debug window
 * @s: the device
 * @which: 0 send WQEs executed, 1 error CQEs written, 2 receive WQEs
 *         completed, 3 payload bytes moved
 *
 * Return: the count.
 */
uint64_t arbel_dp_count(ArbelState *s, unsigned int which)
{
    const uint64_t c[] = { s->dp.wqes, s->dp.errors, s->dp.recvs,
                           s->dp.bytes };

    return which < ARRAY_SIZE(c) ? c[which] : 0;
}
