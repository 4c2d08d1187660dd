/*
 * arbel-stub: the command trace, a leaf (calls nothing of the stub).
 *
 * With the "trace" property set, one line per command (and per reset,
 * translation and note), flushed at once.  Format (one line):
 *
 *   #<seq> <NAME> op=0x<opcode> op_mod=<n> in_mod=0x<8 hex>
 *     in_param=0x<16 hex> out_param=0x<16 hex> token=0x<4 hex>
 *     status=0x<2 hex>(<status name>) [out_imm=0x<16 hex>] [fault=<what>]
 *     [in[<len>]=<hex>] [out[<len>]=<hex>]
 *
 * <len> is the number of bytes moved; the hex is trimmed after the last
 * non-zero 32-bit word.  A note is "#<seq> <text>".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "arbel-state.h"
#include "arbel-trace.h"

/**
 * arbel_trace_open - open the file the "trace" property names, if any
 * @s: the device
 * @errp: error if it cannot be opened
 *
 * For appending: a device plugged again (device_add after device_del)
 * goes on with the same file.  scripts/vm/run.sh deletes it before a run.
 */
void arbel_trace_open(ArbelState *s, Error **errp)
{
    if (!s->props.trace_path || !*s->props.trace_path) {
        return;
    }
    s->trace.f = fopen(s->props.trace_path, "a");
    if (!s->trace.f) {
        error_setg_errno(errp, errno, "arbel-stub: cannot open trace file %s",
                         s->props.trace_path);
    }
}

/**
 * arbel_trace_close - close the trace file
 * @s: the device
 */
void arbel_trace_close(ArbelState *s)
{
    if (s->trace.f) {
        fclose(s->trace.f);
        s->trace.f = NULL;
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

/**
 * arbel_trace_cmd - one trace line for a command, or a note
 * @s: the device
 * @cmd: the command (NULL: the line is "#N @note")
 * @status: its status
 * @note: fault injection note, or the note's text
 */
void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note)
{
    FILE *f = s->trace.f;

    if (!f) {
        return;
    }
    s->trace.seq++;
    if (!cmd) {
        fprintf(f, "#%" PRIu64 " %s\n", s->trace.seq, note);
        fflush(f);
        return;
    }
    fprintf(f, "#%" PRIu64 " %s op=0x%03x op_mod=%u in_mod=0x%08x "
            "in_param=0x%016" PRIx64 " out_param=0x%016" PRIx64
            " token=0x%04x status=0x%02x(%s)",
            s->trace.seq, cmd->name ? cmd->name : "UNKNOWN", cmd->opcode,
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

/* "#N <prefix><text>" */
static void arbel_trace_vnote(ArbelState *s, const char *prefix,
                              const char *fmt, va_list ap)
{
    g_autofree char *msg = NULL;
    g_autofree char *line = NULL;

    if (!s->trace.f) {
        return;
    }
    msg = g_strdup_vprintf(fmt, ap);
    line = g_strconcat(prefix, msg, NULL);
    arbel_trace_cmd(s, NULL, 0, line);
}

/**
 * arbel_trace_note - a free-form trace line "#N <text>"
 * @s: the device
 * @fmt: printf format of the text
 */
void arbel_trace_note(ArbelState *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    arbel_trace_vnote(s, "", fmt, ap);
    va_end(ap);
}

/**
 * arbel_unconfirmed - a rule no source states: no refusal, a trace line
 * @s: the device
 * @fmt: printf format of what was not refused
 *
 * The stub does not refuse, it leaves a line "#N unconfirmed: ..." in the
 * trace (Documentation/arbel-stub.rst, "Checks and their sources").
 */
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    arbel_trace_vnote(s, "unconfirmed: ", fmt, ap);
    va_end(ap);
}
