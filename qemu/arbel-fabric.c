/*
 * arbel-stub: the fabric -- which port a LID reaches.
 *
 * The built-in subnet manager (arbel-ib.c) gives port n of a device the
 * LID lid + n - 1.  A packet leaves an active port (INIT_IB done) and
 * reaches the active port whose LID is its destination LID: the same port
 * (loopback) or the device's other port, as if both were cabled to one
 * switch.  A LID no active port has, a multicast LID (0xc000 and up: the
 * MGM tables are not modelled) or a port that is down reaches nothing.
 * Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

#define ARBEL_LID_MCAST_FIRST   0xc000

/**
 * arbel_fabric_send - message @m leaves by @port; the port it reaches
 * executes it
 * @s: the sending device
 * @port: the port it leaves by
 * @m: the message (m->dlid: where to)
 * @rdata: the responder's data, as arbel_rq_receive() gives it
 *
 * Return: the responder's answer; ARBEL_RESP_DROP if the LID reaches no
 * port.
 */
ArbelResp arbel_fabric_send(ArbelState *s, unsigned int port, ArbelMsg *m,
                            uint8_t *rdata)
{
    unsigned int p;

    if (port < 1 || port > s->props.num_ports || !arbel_ib_port_up(s, port) ||
        m->dlid >= ARBEL_LID_MCAST_FIRST) {
        return ARBEL_RESP_DROP;
    }
    for (p = 1; p <= s->props.num_ports; p++) {
        if (arbel_ib_port_up(s, p) && arbel_ib_lid(s, p) == m->dlid) {
            return arbel_rq_receive(s, p, m, rdata);
        }
    }
    return ARBEL_RESP_DROP;
}
