/*
 * arbel-stub: completion queues: their contexts as firmware objects, the
 * CQEs the send path writes and the arm doorbell.
 *
 * A CQ's context (0x40 bytes) lives in ICM at the CQC base + cqn * 0x40
 * (INIT_HCA gives the base and the log2 count).  SW2HW_CQ writes the
 * mailbox there and hands the CQ to the hardware; HW2SW_CQ takes it back
 * and returns the context in its outbox; QUERY_CQ reads it; RESIZE_CQ
 * (op_mod 1) puts a new log size and lkey into it.  The firmware keeps
 * which CQs it owns (arbel-ctx.c) and a count of context write-backs
 * (ArbelCqs, for arbel_cq_commit()); the producer index and the arm state
 * of a CQ live in its context.  A CQE (32 bytes) goes to start + 32 *
 * (producer mod 2^log size) through the buffer's lkey; on an armed CQ it
 * posts a completion event (type 0x00, the cqn) on the CQ's comp_eqn and
 * disarms it.  The arm doorbell (UAR offset 0x20) carries the command and
 * cqn, then the consumer index: CQEs past it fire the event at once.
 * Sources: mthca's cq code (mthca_init_cq, mthca_free_cq, mthca_resize_cq,
 * struct mthca_cqe, mthca_arbel_arm_cq), mthca's cmd code, see
 * Documentation/arbel-stub.rst "Queue objects" and "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-wqe.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-tpt.h"
#include "arbel-eq.h"
#include "arbel-ctx.h"
#include "arbel-objects.h"
#include "arbel-life.h"

/*
 * A CQE would overwrite one software has not consumed: the consumer index
 * is in the CQ's set-CI doorbell record (ci_db 0x34, in the UAR context of
 * the CQ's UAR, logsize_usrpage 23:0), which mthca and libmthca update as
 * they poll.  A record the stub cannot read checks nothing.
 */
static bool arbel_cq_full(ArbelState *s, const uint8_t *ctx, uint32_t pi,
                          uint32_t log)
{
    uint32_t ci;

    if (arbel_icm_db_read(s, ldl_be_p(ctx + ARBEL_CQC_USR_PAGE) &
                          ARBEL_QPN_MASK, ldl_be_p(ctx + ARBEL_CQC_CI_DB),
                          &ci)) {
        return false;
    }
    return pi - ci >= (1u << log);
}

/**
 * arbel_cmd_resize_cq - RESIZE_CQ: a new buffer (log size, lkey) for a CQ
 * @s: the device
 * @cmd: the command (op_mod 1; inbox: the log size in the byte at 0x0c,
 *       i.e. bits 28:24 of the be32 there, as in the CQ context; the lkey
 *       be32 at 0x1c)
 *
 * mthca's mthca_RESIZE_CQ stores its u8 log_size with MTHCA_PUT at 0x0c: one
 * byte, not a be32.  The log size may not exceed QUERY_DEV_LIM's log max
 * CQEs (0x19): mthca_resize_cq refuses more than limits.max_cqes, which
 * mthca's mthca_dev_lim derives from it, so 0x03 (bad parameter) above it.
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_resize_cq(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t ctx[ARBEL_CQC_SIZE];
    uint32_t logsize, v;
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod != 1) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_ctx_find(s, ARBEL_CTX_CQ, cmd->in_mod, true, &va);
    if (st) {
        return st;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_CQC_SIZE);
    if (st) {
        return st;
    }
    logsize = cmd->inbox[ARBEL_RESIZE_LOGSIZE];
    if (logsize > ARBEL_LOG_MAX_CQE) {
        return ARBEL_ST_BAD_PARAM;
    }
    st = arbel_icm_read(s, va, ctx, sizeof(ctx));
    if (st) {
        return st;
    }
    if (arbel_cq_full(s, ctx, ldl_be_p(ctx + ARBEL_CQC_PI) + 1, logsize)) {
        /*
         * the new buffer cannot hold the CQEs software has not polled:
         * rdma-core's test_resize_cq expects EINVAL here on every device,
         * and mthca_resize_cq checks nothing itself -- only a firmware
         * status (0x03 is -EINVAL in mthca's table) gives it
         */
        cmd->note = "cqes-outstanding";
        return ARBEL_ST_BAD_PARAM;
    }
    v = ldl_be_p(ctx + ARBEL_CQC_LOGSIZE);
    v &= ~(ARBEL_CQC_LOGSIZE_MASK << ARBEL_CQC_LOGSIZE_SHIFT);
    stl_be_p(ctx + ARBEL_CQC_LOGSIZE, v | logsize << ARBEL_CQC_LOGSIZE_SHIFT);
    stl_be_p(ctx + ARBEL_CQC_LKEY, ldl_be_p(cmd->inbox + ARBEL_RESIZE_LKEY));
    return arbel_icm_write(s, va, ctx, sizeof(ctx));
}

static unsigned int arbel_cqc_state(const uint8_t *ctx)
{
    return ldl_be_p(ctx + ARBEL_CQC_FLAGS) >> ARBEL_CQC_STATE_SHIFT &
           ARBEL_CQC_STATE_MASK;
}

static void arbel_cqc_set_state(uint8_t *ctx, unsigned int st)
{
    uint32_t f = ldl_be_p(ctx + ARBEL_CQC_FLAGS);

    f &= ~(ARBEL_CQC_STATE_MASK << ARBEL_CQC_STATE_SHIFT);
    stl_be_p(ctx + ARBEL_CQC_FLAGS, f | st << ARBEL_CQC_STATE_SHIFT);
}

/* the completion event of CQ @cqn on its comp_eqn; the CQ disarms */
static void arbel_cq_event(ArbelState *s, uint32_t cqn, uint8_t *ctx)
{
    uint8_t data[24] = { 0 };

    stl_be_p(data, cqn);
    arbel_cqc_set_state(ctx, ARBEL_CQC_DISARMED);
    arbel_eq_post_to(s, ldl_be_p(ctx + ARBEL_CQC_COMP_EQN) & ARBEL_CQC_EQN_MASK,
                     ARBEL_EV_COMP, 0, data);
}

/* the CQ error event: the cqn, the syndrome at data byte 11 */
static void arbel_cq_error(ArbelState *s, uint32_t cqn, uint8_t syndrome)
{
    uint8_t data[24] = { 0 };

    stl_be_p(data, cqn);
    data[ARBEL_EV_CQ_ERR_SYNDROME] = syndrome;
    arbel_eq_post_event(s, ARBEL_EV_CQ_ERROR, 0, data);
}

/* the CQ's log size, from its context */
static uint32_t arbel_cqc_log(const uint8_t *ctx)
{
    return ldl_be_p(ctx + ARBEL_CQC_LOGSIZE) >> ARBEL_CQC_LOGSIZE_SHIFT &
           ARBEL_CQC_LOGSIZE_MASK;
}

/* the CQE's translation request: the next slot, through the buffer's lkey */
static void arbel_cq_req(const uint8_t *ctx, ArbelXlReq *req)
{
    uint32_t pi = ldl_be_p(ctx + ARBEL_CQC_PI);

    memset(req, 0, sizeof(*req));
    req->key = ldl_be_p(ctx + ARBEL_CQC_LKEY);
    req->access = ARBEL_XL_ACC_LOCAL_WRITE;
    req->va = ldq_be_p(ctx + ARBEL_CQC_START) +
              (uint64_t)(pi & ((1u << arbel_cqc_log(ctx)) - 1)) *
              ARBEL_CQE_SIZE;
    req->len = ARBEL_CQE_SIZE;
    req->to_region = true;
}

/* a CQE was written: the producer index moves on, an armed CQ fires */
static void arbel_cq_advance(ArbelState *s, uint32_t cqn, uint8_t *ctx,
                             uint64_t va, const uint8_t *cqe, bool solicited)
{
    uint32_t pi = ldl_be_p(ctx + ARBEL_CQC_PI);
    unsigned int armed;

    trace_arbel_cqe(arbel_trace_seq(s), cqn, pi,
                    ldl_be_p(cqe + ARBEL_CQE_MY_QPN) & ARBEL_QPN_MASK,
                    cqe[ARBEL_CQE_OPCODE]);
    stl_be_p(ctx + ARBEL_CQC_PI, pi + 1);
    armed = arbel_cqc_state(ctx);
    if (armed == ARBEL_CQC_ARMED ||
        (armed == ARBEL_CQC_ARMED_SOL && solicited)) {
        arbel_cq_event(s, cqn, ctx);
    }
    arbel_icm_write(s, va, ctx, ARBEL_CQC_SIZE);
    s->cqs.gen++;
    s->cqs.last = cqn;
}

/**
 * arbel_cq_complete - write a CQE on CQ @cqn, with its completion event
 * @s: the device
 * @cqn: the CQ
 * @cqe: the 32-byte CQE (the owner byte is cleared here: software owns it)
 * @solicited: the CQE fires a CQ armed for solicited completions only
 *
 * A CQE that cannot be written posts a CQ error event (type 0x04, the cqn,
 * a syndrome at data byte 11: 1 overrun -- the CQ is full --, 2 access
 * violation -- the buffer's key refuses it; mthca's eq code decodes 1 as
 * overrun, anything else as an access violation) instead.
 */
void arbel_cq_complete(ArbelState *s, uint32_t cqn, const uint8_t *cqe,
                       bool solicited)
{
    uint8_t ctx[ARBEL_CQC_SIZE], e[ARBEL_CQE_SIZE];
    ArbelXlReq req;
    uint32_t pi, r;
    uint64_t va;

    if (!arbel_ctx_read_hw(s, ARBEL_CTX_CQ, cqn, ctx, &va, "CQE")) {
        return;
    }
    memcpy(e, cqe, sizeof(e));
    e[ARBEL_CQE_OWNER] = 0;
    pi = ldl_be_p(ctx + ARBEL_CQC_PI);
    if (arbel_cq_full(s, ctx, pi, arbel_cqc_log(ctx))) {
        trace_arbel_cq_overflow(arbel_trace_seq(s), cqn, pi);
        arbel_cq_error(s, cqn, ARBEL_CQ_ERR_OVERRUN);
        return;
    }
    arbel_cq_req(ctx, &req);
    r = arbel_xlate_rw(s, &req, e);
    if (r != ARBEL_XL_OK) {
        trace_arbel_cq_write_fail(arbel_trace_seq(s), cqn, r);
        arbel_cq_error(s, cqn, ARBEL_CQ_ERR_ACCESS);
        return;
    }
    arbel_cq_advance(s, cqn, ctx, va, cqe, solicited);
}

/**
 * arbel_cq_prepare - find where CQ @cqn's next CQE goes, before the work
 * it will complete is done
 * @s: the device
 * @cqn: the CQ
 * @slot: receives the CQ's context and the CQE's address; @slot->ok false
 *        when anything is amiss (arbel_cq_commit() then takes the whole
 *        path of arbel_cq_complete(), its errors and events included)
 *
 * The send engine asks before a signaled WQE's message leaves, so that
 * what is left once the responder has placed the data is the CQE and the
 * producer index alone (Documentation/benchmarks.rst, "The lock a doorbell
 * holds").  Nothing is written: the context is read, the consumer index
 * checked and the CQE's address translated as arbel_cq_complete() does.
 */
void arbel_cq_prepare(ArbelState *s, uint32_t cqn, ArbelCqSlot *slot)
{
    ArbelXlReq req;

    slot->ok = false;
    slot->cqn = cqn;
    slot->gen = s->cqs.gen;
    if (arbel_ctx_find(s, ARBEL_CTX_CQ, cqn, true, &slot->va) ||
        arbel_icm_read(s, slot->va, slot->ctx, sizeof(slot->ctx)) ||
        arbel_cq_full(s, slot->ctx, ldl_be_p(slot->ctx + ARBEL_CQC_PI),
                      arbel_cqc_log(slot->ctx))) {
        return;
    }
    arbel_cq_req(slot->ctx, &req);
    req.check_only = true;
    if (arbel_xlate_rw(s, &req, NULL) != ARBEL_XL_OK) {
        return;
    }
    slot->pa = req.pa;
    slot->ok = true;
}

/**
 * arbel_cq_commit - write a CQE where arbel_cq_prepare() found its place
 * @s: the device
 * @slot: what arbel_cq_prepare() found
 * @cqe: the 32-byte CQE, as arbel_cq_complete() takes it
 * @solicited: as arbel_cq_complete()'s
 *
 * The place still holds if no CQ context was written back since, or one
 * only and of another CQ (the receive CQE of the same message): a doorbell
 * runs under QEMU's big lock, so no command comes between the two calls,
 * and only a context write-back moves a producer index or an arm state.
 * Otherwise, or if arbel_cq_prepare() found nothing, arbel_cq_complete().
 */
void arbel_cq_commit(ArbelState *s, ArbelCqSlot *slot, const uint8_t *cqe,
                     bool solicited)
{
    uint64_t since = s->cqs.gen - slot->gen;
    uint8_t e[ARBEL_CQE_SIZE];

    if (!slot->ok || since > 1 ||
        (since == 1 && s->cqs.last == slot->cqn)) {
        arbel_cq_complete(s, slot->cqn, cqe, solicited);
        return;
    }
    memcpy(e, cqe, sizeof(e));
    e[ARBEL_CQE_OWNER] = 0;
    arbel_life_check(s, slot->pa, sizeof(e), "a data write");
    if (arbel_dma_write(s, slot->pa, e, sizeof(e)) != MEMTX_OK) {
        trace_arbel_cq_write_fail(arbel_trace_seq(s), slot->cqn,
                                  ARBEL_XL_DMA_ERROR);
        arbel_cq_error(s, slot->cqn, ARBEL_CQ_ERR_ACCESS);
        return;
    }
    arbel_cq_advance(s, slot->cqn, slot->ctx, slot->va, cqe, solicited);
}

/**
 * arbel_cq_doorbell - the CQ doorbell (UAR offset 0x20): arm a CQ
 * @s: the device
 * @cmd_cqn: the first dword: sequence 29:28, command 26:24, cqn 23:0
 * @ci: the second: the consumer index
 *
 * Command 2 arms for the next completion, 1 for the next solicited one.
 * If the CQ holds CQEs past @ci, the event fires at once: mthca's
 * mthca_arbel_arm_cq sends its consumer index and never asks the core to
 * poll again for completions it might have missed.
 */
void arbel_cq_doorbell(ArbelState *s, uint32_t cmd_cqn, uint32_t ci)
{
    uint32_t cqn = cmd_cqn & ARBEL_QPN_MASK;
    unsigned int c = cmd_cqn >> ARBEL_CQ_DB_CMD_SHIFT & ARBEL_CQ_DB_CMD_MASK;
    uint8_t ctx[ARBEL_CQC_SIZE];
    uint64_t va;

    if (c != ARBEL_CQ_DB_REQ_NOT && c != ARBEL_CQ_DB_REQ_NOT_SOL) {
        arbel_unconfirmed(s, "CQ doorbell command %u for CQ 0x%x ignored",
                          c, cqn);
        return;
    }
    if (!arbel_ctx_read_hw(s, ARBEL_CTX_CQ, cqn, ctx, &va, "CQ arm")) {
        return;
    }
    if (ldl_be_p(ctx + ARBEL_CQC_PI) != ci) {
        arbel_cq_event(s, cqn, ctx);
    } else {
        arbel_cqc_set_state(ctx, c == ARBEL_CQ_DB_REQ_NOT ? ARBEL_CQC_ARMED :
                            ARBEL_CQC_ARMED_SOL);
    }
    arbel_icm_write(s, va, ctx, sizeof(ctx));
    s->cqs.gen++;
    s->cqs.last = cqn;
}
