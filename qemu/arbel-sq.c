/*
 * arbel-stub: the send engine -- the send doorbell, the send queues it
 * runs (each WQE executed by arbel-sqwqe.c), the requester's completions
 * and errors.
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
#include "arbel-wqe.h"
#include "arbel-eq.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-objects.h"
#include "arbel-dp.h"
#include "arbel-sq.h"

#define ARBEL_RNR_SCALE         100     /* the RNR NAK timer, 100 x faster */

/*
 * The RNR NAK timer's 5-bit code in units of 10 us (IBTA vol. 1 table 45,
 * "Encoding for RNR NAK Timer Field": 0 is 655.36 ms, 1 is 0.01 ms, ...)
 */
static const uint32_t arbel_rnr_10us[32] = {
    65536, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192,
    256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288,
    16384, 24576, 32768, 49152,
};

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

/*
 * The SQ-drained event RTS2SQD asked for (in_mod bit 31, mthca's
 * sqd_event), once no message of the QP is in flight: at once, execution
 * being synchronous, or, if an RNR NAK stalls the head WQE, when that
 * message completes (it is retried in SQD: arbel_sq_run).  A QP that went
 * to ERR meanwhile never drains.
 */
static void arbel_sq_drain_check(ArbelState *s, uint32_t qpn, ArbelQp *qp)
{
    uint8_t data[24] = { 0 };

    if (!qp->sqd_event || qp->state != ARBEL_QPS_SQD || qp->stalled ||
        qp->rnr_naks) {
        return;
    }
    qp->sqd_event = false;
    stl_be_p(data, qpn);
    arbel_eq_post_event(s, ARBEL_EV_SQ_DRAINED, 0, data);
}

/*
 * execute what QP @qpn has posted, until done, stalled or in error: in
 * RTS every WQE, in SQD only a head WQE already in flight (RNR NAKed)
 */
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
    while ((qp->state == ARBEL_QPS_RTS ||
            (qp->state == ARBEL_QPS_SQD && qp->rnr_naks)) && !qp->stalled &&
           qp->sq_next != qp->sq_end) {
        uint16_t j = qp->sq_next;
        ArbelSqOut o = { .slot = { .cqn = q.cqn } };

        switch (arbel_sq_exec(s, &q, qp, j, &o)) {
        case ARBEL_SQ_STALL:
            arbel_sq_stall(s, qpn, qp, o.rnr_timer);
            return;
        case ARBEL_SQ_OK:
            qp->sq_next++;
            if (o.signaled) {
                arbel_cqe_send(s, &o.slot, qpn, arbel_sq_wqe_addr(&q, j),
                               o.op, o.byte_cnt);
            }
            break;
        case ARBEL_SQ_ERROR:
            qp->sq_next++;
            trace_arbel_wqe_error(arbel_trace_seq(s), qpn, j, o.op, o.syn);
            arbel_cqe_error(s, q.cqn, qpn, arbel_sq_wqe_addr(&q, j), true,
                            o.syn);
            arbel_qp_to_error(s, qpn);
            arbel_sq_flush(s, &q, qp);
            arbel_rq_flush(s, qpn, true);
            return;
        }
    }
    arbel_sq_drain_check(s, qpn, qp);
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

/* RTS2SQD: the SQ-drained event if @event asks for it, none else */
static void arbel_sq_sqd(ArbelState *s, uint32_t qpn, bool event)
{
    uint8_t ctx[ARBEL_QPC_SIZE];
    ArbelQp *qp = arbel_qp_find(s, qpn, ctx);

    if (qp) {
        qp->sqd_event = event;
        arbel_sq_drain_check(s, qpn, qp);
    }
}

/**
 * arbel_dp_cmd_modify_qp - a QP transition, as the data path sees it
 * @s: the device
 * @cmd: the command
 *
 * The QP module runs the transition; 2ERR flushes the QP's work queues,
 * also on a QP already in ERR: what was posted since is flushed then (a
 * mem-free receive rings no doorbell, so nothing else would; IBTA vol. 1
 * 10.3.1 has a work request posted in the error state complete flushed).
 * A QP that reaches RTS (from SQD or SQE) resumes its send queue; RTS2SQD
 * with in_mod bit 31 asks for the SQ-drained event, posted once no message
 * is in flight (arbel_sq_drain_check()); without it no event comes.
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
    if (cmd->opcode == ARBEL_OP_2ERR_QPEE) {
        arbel_sq_run(s, qpn);
        arbel_rq_flush(s, qpn, was != ARBEL_QPS_ERR);
    } else if (cmd->opcode == ARBEL_OP_SQD2RTS_QPEE ||
               cmd->opcode == ARBEL_OP_SQERR2RTS_QPEE) {
        arbel_sq_run(s, qpn);
    } else if (cmd->opcode == ARBEL_OP_RTS2SQD_QPEE) {
        arbel_sq_sqd(s, qpn, cmd->in_mod & ARBEL_QP_SQD_EVENT);
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
