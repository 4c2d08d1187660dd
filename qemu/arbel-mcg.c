/*
 * arbel-stub: multicast groups -- the MGM table and its commands.
 *
 * INIT_HCA places the multicast group table in ICM (base at 0xc0, log2
 * entry size be16 at 0xd2, hash table entries bits 16:0 of 0xd4, log2
 * entries bits 4:0 of 0xdb; the PRM's arbelprm_multicastparam_st,
 * mthca_INIT_HCA).  Its first hash_sz entries are the hash table (MGHT),
 * the rest the overflow entries (AMGM) software links behind them.  An
 * entry (arbelprm_mgm_entry_st): next_gid_index in bits 31:6 of dword 0
 * (0 ends the chain), the group's GID at 0x10 (zero: the entry is free),
 * then one be32 per member QP from 0x20 to the entry's end -- QPN 23:0,
 * bit 31 the QP is valid.
 *
 * READ_MGM (in_mod: index) returns entry in_mod in its outbox; WRITE_MGM
 * (in_mod: index) writes its inbox there; MGID_HASH (inbox: a GID) returns
 * the GID's hash table index as its immediate result (mthca's mcg code
 * find_mgm and iPXE's arbel_mcast_attach start there, then follow
 * next_gid_index).  No source gives the firmware's hash function (mthca
 * and iPXE treat it as opaque): the stub XORs the GID's four big-endian
 * dwords, folds the upper half onto the lower and takes that modulo
 * hash_sz.  Documentation/arbel-stub.rst "Multicast".
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

#define ARBEL_MGM_NEXT          0x00    /* be32: next index << 6 */
#define ARBEL_MGM_NEXT_SHIFT    6
#define ARBEL_MGM_GID           0x10
#define ARBEL_MGM_QP            0x20    /* be32 per member from here */
#define ARBEL_MGM_QP_VALID      0x80000000u
#define ARBEL_MGM_MIN_LOG       6       /* PRM: "greater than 5" */
#define ARBEL_MGM_MAX_LOG       12      /* one ICM page; larger: unconfirmed */
#define ARBEL_GID_SIZE          16

/**
 * arbel_mcg_init - the multicast table's shape, from INIT_HCA's inbox
 * @s: the device
 * @in: INIT_HCA's inbox
 *
 * The PRM asks for a power-of-2 hash table no larger than the table and an
 * entry of more than 2^5 bytes; what the firmware does otherwise no source
 * says, so those are logged, not refused.
 */
void arbel_mcg_init(ArbelState *s, const uint8_t *in)
{
    const ArbelTable *t = arbel_icm_table(s, ARBEL_TBL_MC);
    uint32_t hash = ldl_be_p(in + ARBEL_INIT_HCA_MC_HASH) &
                    ARBEL_INIT_HCA_MC_HASH_MASK;
    unsigned int log_entry = lduw_be_p(in + ARBEL_INIT_HCA_MC_ENTRY);
    unsigned int fn = in[ARBEL_INIT_HCA_MC_HASH_FN] & 7;

    s->mcg.hash_sz = hash;
    s->mcg.entry_size = 0;
    if (log_entry >= ARBEL_MGM_MIN_LOG && log_entry <= ARBEL_MGM_MAX_LOG) {
        s->mcg.entry_size = 1u << log_entry;
    } else if (log_entry || t->log_num) {
        arbel_unconfirmed(s, "INIT_HCA MC entry size 2^%u: multicast off",
                          log_entry);
    }
    if (hash & (hash - 1) ||
        (t->log_num < 32 && hash > (1ull << t->log_num))) {
        arbel_unconfirmed(s, "INIT_HCA MC hash size %u (table 2^%u): the "
                          "PRM wants a power of 2 within the table", hash,
                          t->log_num);
    }
    if (fn) {
        arbel_unconfirmed(s, "INIT_HCA MC hash function %u (PRM: 0 only)",
                          fn);
    }
}

/**
 * arbel_mcg_hash - the MGHT index of @gid
 * @s: the device
 * @gid: 16 bytes, network order
 *
 * Return: the XOR of its four big-endian dwords, upper 16 bits folded
 * onto the lower, modulo the hash table size (0 without one).
 */
uint32_t arbel_mcg_hash(ArbelState *s, const uint8_t *gid)
{
    uint32_t h = ldl_be_p(gid) ^ ldl_be_p(gid + 4) ^ ldl_be_p(gid + 8) ^
                 ldl_be_p(gid + 12);

    h = (h ^ h >> 16) & 0xffff;
    return s->mcg.hash_sz ? h % s->mcg.hash_sz : 0;
}

/* the ICM address of entry @index; a command status */
static uint8_t arbel_mcg_slot(ArbelState *s, uint32_t index, uint64_t *va)
{
    if (!s->mcg.entry_size) {
        return ARBEL_ST_BAD_RESOURCE;
    }
    return arbel_icm_slot(s, ARBEL_TBL_MC, index, s->mcg.entry_size, va);
}

/* the link of @e, checked against the table (unconfirmed only) */
static void arbel_mcg_check_link(ArbelState *s, uint32_t index,
                                 const uint8_t *e)
{
    const ArbelTable *t = arbel_icm_table(s, ARBEL_TBL_MC);
    uint32_t next = ldl_be_p(e + ARBEL_MGM_NEXT) >> ARBEL_MGM_NEXT_SHIFT;

    if (next && (next < s->mcg.hash_sz ||
                 (t->log_num < 32 && next >= (1ull << t->log_num)))) {
        arbel_unconfirmed(s, "WRITE_MGM %u: next_gid_index %u outside the "
                          "AMGM [%u, 2^%u)", index, next, s->mcg.hash_sz,
                          t->log_num);
    }
}

/**
 * arbel_cmd_read_mgm - READ_MGM: entry in_mod to the outbox
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status (0x0a past the table, 0x05 not mapped).
 */
uint8_t arbel_cmd_read_mgm(ArbelState *s, ArbelCmd *cmd)
{
    g_autofree uint8_t *e = NULL;
    uint64_t va;
    uint8_t st;

    st = arbel_mcg_slot(s, cmd->in_mod, &va);
    if (st) {
        return st;
    }
    e = g_malloc(s->mcg.entry_size);
    st = arbel_icm_read(s, va, e, s->mcg.entry_size);
    return st ? st : arbel_outbox_write(s, cmd, e, s->mcg.entry_size);
}

/**
 * arbel_cmd_write_mgm - WRITE_MGM: the inbox becomes entry in_mod
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status (0x0a past the table, 0x05 not mapped).
 */
uint8_t arbel_cmd_write_mgm(ArbelState *s, ArbelCmd *cmd)
{
    uint64_t va;
    uint8_t st;

    st = arbel_mcg_slot(s, cmd->in_mod, &va);
    if (!st) {
        st = arbel_inbox_read(s, cmd, s->mcg.entry_size);
    }
    if (st) {
        return st;
    }
    arbel_mcg_check_link(s, cmd->in_mod, cmd->inbox);
    return arbel_icm_write(s, va, cmd->inbox, s->mcg.entry_size);
}

/**
 * arbel_cmd_mgid_hash - MGID_HASH: the hash table index of the inbox's GID
 * @s: the device
 * @cmd: the command (the hash: immediate result, bits 15:0)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_mgid_hash(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t st = arbel_inbox_read(s, cmd, ARBEL_GID_SIZE);

    if (st) {
        return st;
    }
    if (!s->mcg.hash_sz) {
        arbel_unconfirmed(s, "MGID_HASH without a hash table: 0");
    }
    cmd->out_imm = true;
    cmd->imm = arbel_mcg_hash(s, cmd->inbox);
    return ARBEL_ST_OK;
}

/**
 * arbel_mcg_members - the QPs attached to group @gid
 * @s: the device
 * @gid: the group's GID (a packet's DGID), network order
 * @qpns: receives up to @max QP numbers
 * @max: room in @qpns
 *
 * The hardware's lookup: entry hash(@gid), then its next_gid_index chain,
 * to the entry holding @gid; its valid QPs.  An unreadable entry or a
 * chain longer than the table ends the search (``unconfirmed:``).
 *
 * Return: how many QPs @qpns holds (0: no such group).
 */
unsigned int arbel_mcg_members(ArbelState *s, const uint8_t *gid,
                               uint32_t *qpns, unsigned int max)
{
    const ArbelTable *t = arbel_icm_table(s, ARBEL_TBL_MC);
    uint32_t index = arbel_mcg_hash(s, gid);
    uint8_t e[1u << ARBEL_MGM_MAX_LOG];
    uint64_t hops, limit = t->log_num < 32 ? 1ull << t->log_num : 0;
    unsigned int n = 0;
    uint32_t off, qp;
    uint64_t va;

    if (!s->mcg.hash_sz || !s->mcg.entry_size) {
        return 0;
    }
    for (hops = 0; hops < limit; hops++) {
        if (arbel_mcg_slot(s, index, &va) ||
            arbel_icm_read(s, va, e, s->mcg.entry_size)) {
            arbel_unconfirmed(s, "multicast lookup: MGM %u unreadable",
                              index);
            return 0;
        }
        if (!memcmp(e + ARBEL_MGM_GID, gid, ARBEL_GID_SIZE)) {
            break;
        }
        index = ldl_be_p(e + ARBEL_MGM_NEXT) >> ARBEL_MGM_NEXT_SHIFT;
        if (!index) {
            return 0;
        }
    }
    if (hops == limit) {
        arbel_unconfirmed(s, "multicast lookup: MGM chain longer than the "
                          "table");
        return 0;
    }
    for (off = ARBEL_MGM_QP; off < s->mcg.entry_size && n < max; off += 4) {
        qp = ldl_be_p(e + off);
        if (qp & ARBEL_MGM_QP_VALID) {
            qpns[n++] = qp & ARBEL_QPN_MASK;
        }
    }
    return n;
}
