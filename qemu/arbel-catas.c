/*
 * arbel-stub: port state changes and the catastrophic-error buffer.
 *
 * Both are injected through the debug window (registers 0x300..0x3ff,
 * arbel-dbgwin.h):
 *
 * - a port going down or up posts the PRM's port-state-change EQE, type
 *   0x09, subtype 0x01 (down) or 0x04 (active), the port in bits 29:28 of
 *   the EQE's dword at 0x0c, on the EQ MAP_EQ routed type 9 to [mthca's eq code
 *   ``port_change``, ``struct mthca_eqe``];
 * - a catastrophic error fills the buffer QUERY_FW reports (catas_base
 *   0x30, catas_size 0x38: ARBEL_CATAS_BASE, ARBEL_CATAS_SIZE dwords in
 *   BAR0), big-endian, the error's type in bits 31:24 of dword 0
 *   [mthca's catas code: it polls the buffer and reports a fault when any dword
 *   is non-zero; types 0 internal, 3 uplink, 4 DDR, 5 parity].  The other
 *   dwords' syndrome layout has no source: the stub puts the injection
 *   count in dword 1 and notes it as unconfirmed.  A reset clears the
 *   buffer.
 *
 * Documentation/arbel-stub.rst, "Port and catastrophic-error events".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-hw.h"
#include "arbel-dbgwin.h"
#include "arbel-trace.h"
#include "trace.h"
#include "arbel-eq.h"
#include "arbel-catas.h"

/**
 * arbel_catas_reset - the HCA's reset clears the catastrophic-error buffer
 * @s: the device
 */
void arbel_catas_reset(ArbelState *s)
{
    memset(s->catas.buf, 0, sizeof(s->catas.buf));
}

/**
 * arbel_catas_read - a dword of the catastrophic-error buffer (BAR0)
 * @s: the device
 * @dw: the dword, 0 .. ARBEL_CATAS_SIZE - 1
 *
 * Return: its value, 0 while no error was injected.
 */
uint32_t arbel_catas_read(ArbelState *s, unsigned int dw)
{
    return dw < ARBEL_CATAS_SIZE ? s->catas.buf[dw] : 0;
}

/* Post the port-state-change EQE for @val (ARBEL_DBG_PORT_EVENT). */
static void arbel_port_event(ArbelState *s, uint32_t val)
{
    unsigned int port = val & ARBEL_DBG_PORT_EVENT_PORT;
    bool up = val & ARBEL_DBG_PORT_EVENT_UP;
    uint8_t d[24] = { 0 };
    uint8_t subtype = up ? ARBEL_PORT_SUB_ACTIVE : ARBEL_PORT_SUB_DOWN;

    if (port < 1 || port > s->props.num_ports) {
        /* a test's request, not the guest driver's: a note, no error */
        trace_arbel_port_event_ignored(arbel_trace_seq(s), port,
                                       s->props.num_ports);
        return;
    }
    s->catas.port_events++;
    stl_be_p(d + ARBEL_EV_PORT_DATA, (uint32_t)port << ARBEL_EV_PORT_SHIFT);
    trace_arbel_port_event(arbel_trace_seq(s), port, up ? "active" : "down");
    arbel_eq_post_event(s, ARBEL_EV_PORT_CHANGE, subtype, d);
}

/* Fill the buffer for ARBEL_DBG_CATAS_INJECT (type in bits 7:0). */
static void arbel_catas_inject(ArbelState *s, uint32_t val)
{
    uint8_t type = val & ARBEL_CATAS_TYPE_MASK;

    s->catas.injected++;
    s->catas.buf[0] = (uint32_t)type << ARBEL_CATAS_TYPE_SHIFT;
    s->catas.buf[1] = s->catas.injected;
    trace_arbel_catas(arbel_trace_seq(s), type);
    arbel_unconfirmed(s, "catastrophic-error buffer dword 1 (syndrome) "
                      "holds the injection count %u", s->catas.injected);
}

/**
 * arbel_catas_dbg_read - a debug window register of this module
 * @s: the device
 * @off: offset in the window, 0x300 .. 0x3ff
 *
 * Return: the register's value (0 for an unused offset).
 */
uint64_t arbel_catas_dbg_read(ArbelState *s, hwaddr off)
{
    switch (off) {
    case ARBEL_DBG_PORT_EVENTS:
        return s->catas.port_events;
    case ARBEL_DBG_CATAS_WORD0:
        return s->catas.buf[0];
    case ARBEL_DBG_CATAS_COUNT:
        return s->catas.injected;
    default:
        return 0;
    }
}

/**
 * arbel_catas_dbg_write - write a debug window register of this module
 * @s: the device
 * @off: offset in the window, 0x300 .. 0x3ff
 * @val: the value
 *
 * Return: false for a register this module does not write (the debug
 * window reports it).
 */
bool arbel_catas_dbg_write(ArbelState *s, hwaddr off, uint32_t val)
{
    switch (off) {
    case ARBEL_DBG_PORT_EVENT:
        arbel_port_event(s, val);
        break;
    case ARBEL_DBG_CATAS_INJECT:
        arbel_catas_inject(s, val);
        break;
    case ARBEL_DBG_CATAS_CLEAR:
        if (val & 1) {
            arbel_catas_reset(s);
        }
        break;
    default:
        return false;
    }
    return true;
}
