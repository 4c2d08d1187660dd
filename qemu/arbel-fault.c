/*
 * arbel-stub: command trace and fault injection.
 *
 * Trace: with the "trace" property set, one line per command (and per
 * reset and translation), flushed at once.  Format (one line):
 *
 *   #<seq> <NAME> op=0x<opcode> op_mod=<n> in_mod=0x<8 hex>
 *     in_param=0x<16 hex> out_param=0x<16 hex> token=0x<4 hex>
 *     status=0x<2 hex>(<status name>) [out_imm=0x<16 hex>] [fault=<what>]
 *     [in[<len>]=<hex>] [out[<len>]=<hex>]
 *
 * <len> is the number of bytes moved; the hex is trimmed after the last
 * non-zero 32-bit word.
 *
 * Faults: fail an opcode with a status (next time, or every Nth time), hold
 * the go bit, corrupt an outbox (XOR 0xff over a byte range).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "arbel-stub.h"

void arbel_trace_open(ArbelState *s, Error **errp)
{
    if (!s->trace_path || !*s->trace_path) {
        return;
    }
    s->trace = fopen(s->trace_path, "w");
    if (!s->trace) {
        error_setg_errno(errp, errno, "arbel-stub: cannot open trace file %s",
                         s->trace_path);
    }
}

void arbel_trace_close(ArbelState *s)
{
    if (s->trace) {
        fclose(s->trace);
        s->trace = NULL;
    }
}

static const char *arbel_status_name(uint8_t st)
{
    switch (st) {
    case ST_OK:
        return "OK";
    case ST_INTERNAL_ERR:
        return "INTERNAL_ERR";
    case ST_BAD_OP:
        return "BAD_OP";
    case ST_BAD_PARAM:
        return "BAD_PARAM";
    case ST_BAD_SYS_STATE:
        return "BAD_SYS_STATE";
    case ST_BAD_RESOURCE:
        return "BAD_RESOURCE";
    case ST_RESOURCE_BUSY:
        return "RESOURCE_BUSY";
    case ST_EXCEED_LIM:
        return "EXCEED_LIM";
    case ST_BAD_RES_STATE:
        return "BAD_RES_STATE";
    case ST_BAD_INDEX:
        return "BAD_INDEX";
    case ST_BAD_NVMEM:
        return "BAD_NVMEM";
    case ST_BAD_SEG_PARAM:
        return "BAD_SEG_PARAM";
    case ST_REG_BOUND:
        return "REG_BOUND";
    case ST_LAM_NOT_PRE:
        return "LAM_NOT_PRE";
    case ST_BAD_PKT:
        return "BAD_PKT";
    case ST_BAD_SIZE:
        return "BAD_SIZE";
    default:
        return "?";
    }
}

static void arbel_trace_hex(FILE *f, const char *tag, const uint8_t *buf,
                            uint32_t len)
{
    uint32_t n = len, i;

    while (n && !buf[n - 1]) {
        n--;
    }
    n = ROUND_UP(n, 4);
    fprintf(f, " %s[%u]=", tag, len);
    for (i = 0; i < n; i++) {
        fprintf(f, "%02x", buf[i]);
    }
}

void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note)
{
    FILE *f = s->trace;

    if (!f) {
        return;
    }
    s->trace_seq++;
    if (!cmd) {
        fprintf(f, "#%" PRIu64 " %s\n", s->trace_seq, note);
        fflush(f);
        return;
    }
    fprintf(f, "#%" PRIu64 " %s op=0x%03x op_mod=%u in_mod=0x%08x "
            "in_param=0x%016" PRIx64 " out_param=0x%016" PRIx64
            " token=0x%04x status=0x%02x(%s)",
            s->trace_seq, arbel_opcode_name(cmd->opcode), cmd->opcode,
            cmd->op_mod, cmd->in_mod, cmd->in_param, cmd->out_param,
            cmd->token, status, arbel_status_name(status));
    if (cmd->e) {
        fprintf(f, " e=1");
    }
    if (cmd->out_imm && status == ST_OK) {
        fprintf(f, " out_imm=0x%016" PRIx64, cmd->imm);
    }
    if (note) {
        fprintf(f, " fault=%s", note);
    }
    if (cmd->inbox) {
        arbel_trace_hex(f, "in", cmd->inbox, cmd->inbox_len);
    }
    if (cmd->outbox) {
        arbel_trace_hex(f, "out", cmd->outbox, cmd->outbox_len);
    }
    fputc('\n', f);
    fflush(f);
}

void arbel_trace_xlate(ArbelState *s)
{
    FILE *f = s->trace;

    if (!f) {
        return;
    }
    s->trace_seq++;
    fprintf(f, "#%" PRIu64 " XLATE key=0x%08x access=%u va=0x%016" PRIx64
            " len=0x%x dir=%u buf=0x%016" PRIx64 " index=0x%x pa=0x%016"
            PRIx64 " result=%u\n", s->trace_seq, s->xl_key, s->xl_access,
            s->xl_va, s->xl_len, s->xl_dir, s->xl_buf, s->xl_index,
            s->xl_pa, s->xl_result);
    fflush(f);
}

/* one-shot when every == 0, else every Nth matching event */
static bool arbel_fault_trigger(uint32_t *opcode, uint32_t every,
                                uint32_t *seen)
{
    (*seen)++;
    if (!every) {
        *opcode = 0;    /* disarm */
        return true;
    }
    return (*seen % every) == 0;
}

bool arbel_fault_fail(ArbelState *s, uint16_t opcode, uint8_t *status)
{
    ArbelFaults *f = &s->faults;

    if (!f->fail_opcode || f->fail_opcode != opcode) {
        return false;
    }
    if (!arbel_fault_trigger(&f->fail_opcode, f->fail_every, &f->fail_seen)) {
        return false;
    }
    f->failed++;
    *status = f->fail_status;
    return true;
}

uint32_t arbel_fault_hold_ms(ArbelState *s, uint16_t opcode)
{
    ArbelFaults *f = &s->faults;

    if (!f->hold_ms || (f->hold_opcode && f->hold_opcode != opcode)) {
        return 0;
    }
    return f->hold_ms;
}

void arbel_fault_corrupt(ArbelState *s, ArbelCmd *cmd, uint8_t *buf,
                         uint32_t len)
{
    ArbelFaults *f = &s->faults;
    uint32_t i;

    if (!f->corrupt_opcode || f->corrupt_opcode != cmd->opcode) {
        return;
    }
    if (!arbel_fault_trigger(&f->corrupt_opcode, f->corrupt_every,
                             &f->corrupt_seen)) {
        return;
    }
    for (i = f->corrupt_offset;
         i < len && i - f->corrupt_offset < f->corrupt_len; i++) {
        buf[i] ^= 0xff;
    }
    f->corrupted++;
    cmd->note = "corrupted-outbox";
}
