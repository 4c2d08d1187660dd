/*
 * arbel-stub: a send WQE's data segments -- read from the WQE (pointer or
 * inline: mthca's struct mthca_data_seg, libmthca's inline segment, byte
 * count bit 31) and gathered or scattered through the translation engine.
 * Shared by the send engine (arbel-sqwqe.c) and the special QPs'
 * packets (arbel-mlx.c).  Documentation/arbel-stub.rst "Data path".
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
#include "arbel-tpt.h"
#include "arbel-dp.h"
#include "arbel-sq.h"

/**
 * arbel_sq_sges - the data segments of a send WQE
 * @w: the WQE
 * @off: where its data segments start
 * @len: its length
 * @sge: receives up to ARBEL_SQ_MAX_SGE segments, pointer or inline
 *
 * Return: their number; -1 if malformed.
 */
int arbel_sq_sges(const uint8_t *w, uint32_t off, uint32_t len,
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

/**
 * arbel_sq_local - move bytes between a WQE's local segments and @buf
 * @s: the device
 * @q: the QP (its PD, its number for the trace)
 * @sge: the segments
 * @n: their number
 * @buf: the bytes
 * @len: how many
 * @to_region: true: @buf into the segments; false: gather into @buf
 *
 * Every pointer segment goes through the translation engine with the
 * QP's PD (IBTA 10.6.3: the L_Key checks).
 *
 * Return: 0 or a syndrome (local protection, local length).
 */
uint8_t arbel_sq_local(ArbelState *s, const ArbelSqQp *q,
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
