/*
 * arbel-stub: the life cycle of an ICM object context, written once for
 * the object modules.
 *
 * An object's context lives in ICM at its table's base + num * the context
 * size (INIT_HCA gives the base and the log2 count; arbel_icm_slot()).
 * SW2HW_<obj> (op_mod 0) writes the mailbox there and hands the object to
 * the hardware; HW2SW_<obj> returns the context in its outbox and takes
 * the object back; QUERY_<obj> returns it.  The firmware keeps which
 * objects it owns (ArbelCtxs).  A number past the table gets 0x0a (bad
 * index), a context whose ICM is not mapped 0x05 (bad resource), an object
 * in the wrong ownership 0x09 (bad resource state), an op_mod other than 0
 * 0x02 (bad opcode).  EQs have their own SW2HW / HW2SW (arbel-eq.c keeps
 * their state) and use the lookup only.  Sources: mthca's cq, srq and eq
 * code and its cmd code; Documentation/arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-icm.h"
#include "arbel-ctx.h"

/* a kind of object whose contexts live in an ICM table */
typedef struct ArbelCtxDesc {
    const char *name;       /* "CQ", for the trace */
    ArbelTableId table;     /* the table INIT_HCA placed */
    uint32_t size;          /* bytes of one context, in ICM and mailbox */
    uint16_t sw2hw, hw2sw, query;   /* its commands (0: none here) */
    uint32_t num_at;        /* its number in the context (0: none) */
    bool wraps;             /* numbers carry bits above the table's size */
} ArbelCtxDesc;

static const ArbelCtxDesc arbel_ctx_kinds[ARBEL_CTX_KINDS] = {
    [ARBEL_CTX_EQ] = {
        .name = "EQ", .table = ARBEL_TBL_EQC, .size = ARBEL_EQC_SIZE,
    },
    [ARBEL_CTX_CQ] = {
        .name = "CQ", .table = ARBEL_TBL_CQC, .size = ARBEL_CQC_SIZE,
        .sw2hw = ARBEL_OP_SW2HW_CQ, .hw2sw = ARBEL_OP_HW2SW_CQ,
        .query = ARBEL_OP_QUERY_CQ, .num_at = ARBEL_CQC_CQN, .wraps = true,
    },
    [ARBEL_CTX_SRQ] = {
        .name = "SRQ", .table = ARBEL_TBL_SRQC, .size = ARBEL_SRQC_SIZE,
        .sw2hw = ARBEL_OP_SW2HW_SRQ, .hw2sw = ARBEL_OP_HW2SW_SRQ,
        .query = ARBEL_OP_QUERY_SRQ,
    },
};

/*
 * The slot of object @num: a CQ number's bits above log_num_cqs are not
 * the hardware's (mthca allocates CQ numbers up to 2^24 - 1 with a round
 * count above the table index, mthca_alloc_init in its cq code, and finds
 * them by the low bits, mthca_array_get).
 */
static uint32_t arbel_ctx_index(ArbelState *s, ArbelCtxKind kind,
                                uint32_t num)
{
    const ArbelCtxDesc *k = &arbel_ctx_kinds[kind];
    uint32_t log = arbel_icm_table(s, k->table)->log_num;

    return k->wraps && log < 32 ? num & ((1u << log) - 1) : num;
}

/**
 * arbel_ctx_reset - the hardware owns no object
 * @s: the device
 */
void arbel_ctx_reset(ArbelState *s)
{
    unsigned int k;

    for (k = 0; k < ARBEL_CTX_KINDS; k++) {
        if (!s->ctxs.hw[k]) {
            s->ctxs.hw[k] = g_hash_table_new(arbel_hash_direct, g_direct_equal);
        }
        g_hash_table_remove_all(s->ctxs.hw[k]);
    }
}

/**
 * arbel_ctx_fini - free what the context service holds
 * @s: the device
 */
void arbel_ctx_fini(ArbelState *s)
{
    unsigned int k;

    for (k = 0; k < ARBEL_CTX_KINDS; k++) {
        if (s->ctxs.hw[k]) {
            g_hash_table_destroy(s->ctxs.hw[k]);
            s->ctxs.hw[k] = NULL;
        }
    }
}

/**
 * arbel_ctx_find - where the context of object @num is, in ICM
 * @s: the device
 * @kind: its kind
 * @num: the object number
 * @want_hw: 1: the hardware must own it, 0: it must not, -1: either
 * @va: receives the ICM address of the context
 *
 * Return: a command status (bad index, bad resource, bad resource state).
 */
uint8_t arbel_ctx_find(ArbelState *s, ArbelCtxKind kind, uint32_t num,
                       int want_hw, uint64_t *va)
{
    const ArbelCtxDesc *k = &arbel_ctx_kinds[kind];
    uint8_t st;
    bool hw;

    num = arbel_ctx_index(s, kind, num);
    st = arbel_icm_slot(s, k->table, num, k->size, va);
    if (st || want_hw < 0) {
        return st;
    }
    hw = g_hash_table_contains(s->ctxs.hw[kind], GUINT_TO_POINTER(num));
    return hw == want_hw ? ARBEL_ST_OK : ARBEL_ST_BAD_RES_STATE;
}

/**
 * arbel_ctx_read_hw - the context of hardware-owned object @num, from ICM
 * @s: the device
 * @kind: its kind
 * @num: the object number
 * @ctx: receives the context
 * @va: receives the context's ICM address
 * @what: what needs it, for the trace
 *
 * The hardware's own use (a CQE, an arm doorbell): an object it does not
 * own leaves an "unconfirmed:" event and nothing else.
 *
 * Return: true if @ctx holds the context.
 */
bool arbel_ctx_read_hw(ArbelState *s, ArbelCtxKind kind, uint32_t num,
                       uint8_t *ctx, uint64_t *va, const char *what)
{
    const ArbelCtxDesc *k = &arbel_ctx_kinds[kind];

    if (arbel_ctx_find(s, kind, num, true, va) ||
        arbel_icm_read(s, *va, ctx, k->size)) {
        arbel_unconfirmed(s, "%s for %s 0x%x, not in hardware: dropped",
                          what, k->name, num);
        return false;
    }
    return true;
}

/* the kind whose SW2HW, HW2SW or QUERY command @cmd is */
static ArbelCtxKind arbel_ctx_kind_of(ArbelCmd *cmd)
{
    unsigned int k;

    for (k = 0; k < ARBEL_CTX_KINDS; k++) {
        const ArbelCtxDesc *d = &arbel_ctx_kinds[k];

        if (d->sw2hw && (cmd->opcode == d->sw2hw || cmd->opcode == d->hw2sw ||
                         cmd->opcode == d->query)) {
            return k;
        }
    }
    g_assert_not_reached();
}

/**
 * arbel_cmd_ctx - SW2HW, HW2SW and QUERY of a CQ or an SRQ
 * @s: the device
 * @cmd: the command (op_mod 0; SW2HW's inbox: the context)
 *
 * SW2HW: the inbox becomes the context of object in_mod, which the
 * hardware then owns.  HW2SW: the context of hardware-owned object in_mod
 * to the outbox, the hardware owns it no more.  QUERY: the context of
 * hardware-owned object in_mod to the outbox.
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_ctx(ArbelState *s, ArbelCmd *cmd)
{
    ArbelCtxKind kind = arbel_ctx_kind_of(cmd);
    const ArbelCtxDesc *k = &arbel_ctx_kinds[kind];
    GHashTable *hw = s->ctxs.hw[kind];
    bool sw2hw = cmd->opcode == k->sw2hw;
    g_autofree uint8_t *ctx = NULL;
    gpointer key;
    uint64_t va;
    uint8_t st;

    if (cmd->op_mod) {
        return ARBEL_ST_BAD_OP;
    }
    st = arbel_ctx_find(s, kind, cmd->in_mod, !sw2hw, &va);
    if (st) {
        return st;
    }
    if (sw2hw) {
        st = arbel_inbox_read(s, cmd, k->size);
        if (st) {
            return st;
        }
        if (k->num_at && ldl_be_p(cmd->inbox + k->num_at) != cmd->in_mod) {
            arbel_unconfirmed(s, "SW2HW_%s %u: context number 0x%x",
                              k->name, cmd->in_mod,
                              ldl_be_p(cmd->inbox + k->num_at));
        }
        st = arbel_icm_write(s, va, cmd->inbox, k->size);
    } else {
        ctx = g_malloc(k->size);
        st = arbel_icm_read(s, va, ctx, k->size);
        if (!st) {
            st = arbel_outbox_write(s, cmd, ctx, k->size);
        }
    }
    if (st || cmd->opcode == k->query) {
        return st;
    }
    key = GUINT_TO_POINTER(arbel_ctx_index(s, kind, cmd->in_mod));
    if (sw2hw) {
        g_hash_table_add(hw, key);
    } else {
        g_hash_table_remove(hw, key);
    }
    return ARBEL_ST_OK;
}
