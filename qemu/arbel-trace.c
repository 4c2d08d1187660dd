/*
 * arbel-stub: the command trace, a leaf (calls nothing of the stub).
 *
 * QEMU trace events (qemu/trace-events, "trace_arbel_*"): enable them with
 * -trace 'arbel_*' (the log backend writes to the -D file).  Each event
 * starts with "#<seq>", the device's event counter; a command is one
 * arbel_cmd event followed by its details (arbel_cmd_event, _out_imm,
 * _fault, _inbox, _outbox) with the same number.  Mailbox hex is trimmed
 * after the last non-zero 32-bit word, and formatted only when its event
 * is enabled.  Documentation/arbel-stub.rst, "Command trace".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "trace.h"

/**
 * arbel_trace_seq - the sequence number of the next trace event
 * @s: the device
 *
 * Return: 1 for the device's first event, then one more each call.
 */
uint64_t arbel_trace_seq(ArbelState *s)
{
    return ++s->trace.seq;
}

static const char *arbel_status_name(uint8_t st)
{
    static const char *const names[] = {
        [ARBEL_ST_OK] = "OK",
        [ARBEL_ST_INTERNAL_ERR] = "INTERNAL_ERR",
        [ARBEL_ST_BAD_OP] = "BAD_OP",
        [ARBEL_ST_BAD_PARAM] = "BAD_PARAM",
        [ARBEL_ST_BAD_SYS_STATE] = "BAD_SYS_STATE",
        [ARBEL_ST_BAD_RESOURCE] = "BAD_RESOURCE",
        [ARBEL_ST_RESOURCE_BUSY] = "RESOURCE_BUSY",
        [ARBEL_ST_EXCEED_LIM] = "EXCEED_LIM",
        [ARBEL_ST_BAD_RES_STATE] = "BAD_RES_STATE",
        [ARBEL_ST_BAD_INDEX] = "BAD_INDEX",
        [ARBEL_ST_BAD_NVMEM] = "BAD_NVMEM",
        [ARBEL_ST_BAD_SEG_PARAM] = "BAD_SEG_PARAM",
        [ARBEL_ST_REG_BOUND] = "REG_BOUND",
        [ARBEL_ST_LAM_NOT_PRE] = "LAM_NOT_PRE",
        [ARBEL_ST_BAD_PKT] = "BAD_PKT",
        [ARBEL_ST_BAD_SIZE] = "BAD_SIZE",
    };

    if (st < ARRAY_SIZE(names) && names[st]) {
        return names[st];
    }
    return "?";
}

/* a mailbox as hex, cut after its last non-zero 32-bit word */
static char *arbel_trace_hex(const uint8_t *buf, uint32_t len)
{
    GString *hex = g_string_new(NULL);
    uint32_t n = len, i;

    while (n && !buf[n - 1]) {
        n--;
    }
    n = MIN(ROUND_UP(n, 4), len);
    for (i = 0; i < n; i++) {
        g_string_append_printf(hex, "%02x", buf[i]);
    }
    return g_string_free(hex, false);
}

/**
 * arbel_trace_cmd - the trace events of one command
 * @s: the device
 * @cmd: the command
 * @status: its status
 * @note: the fault injection note, or NULL
 */
void arbel_trace_cmd(ArbelState *s, ArbelCmd *cmd, uint8_t status,
                     const char *note)
{
    uint64_t seq = arbel_trace_seq(s);

    trace_arbel_cmd(seq, cmd->name ? cmd->name : "UNKNOWN", cmd->opcode,
                    cmd->op_mod, cmd->in_mod, cmd->in_param, cmd->out_param,
                    cmd->token, status, arbel_status_name(status));
    if (cmd->e) {
        trace_arbel_cmd_event(seq);
    }
    if (cmd->out_imm && status == ARBEL_ST_OK) {
        trace_arbel_cmd_out_imm(seq, cmd->imm);
    }
    if (note) {
        trace_arbel_cmd_fault(seq, note);
    }
    if (cmd->inbox && trace_event_get_state_backends(TRACE_ARBEL_CMD_INBOX)) {
        g_autofree char *hex = arbel_trace_hex(cmd->inbox, cmd->inbox_len);

        trace_arbel_cmd_inbox(seq, cmd->inbox_len, hex);
    }
    if (cmd->outbox &&
        trace_event_get_state_backends(TRACE_ARBEL_CMD_OUTBOX)) {
        g_autofree char *hex = arbel_trace_hex(cmd->outbox, cmd->outbox_len);

        trace_arbel_cmd_outbox(seq, cmd->outbox_len, hex);
    }
}

/**
 * arbel_unconfirmed - a rule no source states: no refusal, a trace event
 * @s: the device
 * @fmt: printf format of what was not refused
 *
 * The stub does not refuse, it leaves an event "#N unconfirmed: ..." in
 * the trace (Documentation/arbel-stub.rst, "Checks and their sources").
 */
void arbel_unconfirmed(ArbelState *s, const char *fmt, ...)
{
    uint64_t seq = arbel_trace_seq(s);
    g_autofree char *msg = NULL;
    va_list ap;

    if (!trace_event_get_state_backends(TRACE_ARBEL_UNCONFIRMED)) {
        return;
    }
    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    trace_arbel_unconfirmed(seq, msg);
}
