/*
 * arbel-stub: the fabric -- which port a LID reaches.
 *
 * The built-in subnet manager (arbel-ib.c) gives port n of a device the
 * LID lid + n - 1.  A packet leaves an active port (INIT_IB done) and
 * reaches the active port whose LID is its destination LID: the same port
 * (loopback), the device's other port, or a port of the device at the
 * other end of the cable (the "cable" property of one of the two), as if
 * all were cabled to one switch.  A LID no active port has, a multicast
 * LID (0xc000 and up: the MGM tables are not modelled) or a port that is
 * down reaches nothing.
 * Documentation/arbel-stub.rst "Data path".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

#define ARBEL_LID_MCAST_FIRST   0xc000

/* the port of @s whose LID is m->dlid executes @m; false: none has it */
static bool arbel_fabric_deliver(ArbelState *s, ArbelMsg *m, uint8_t *rdata,
                                 ArbelResp *r)
{
    unsigned int p;

    for (p = 1; p <= s->props.num_ports; p++) {
        if (arbel_ib_port_up(s, p) && arbel_ib_lid(s, p) == m->dlid) {
            *r = arbel_rq_receive(s, p, m, rdata);
            return true;
        }
    }
    return false;
}

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
    ArbelResp r = ARBEL_RESP_DROP;

    if (port < 1 || port > s->props.num_ports || !arbel_ib_port_up(s, port) ||
        m->dlid >= ARBEL_LID_MCAST_FIRST) {
        return ARBEL_RESP_DROP;
    }
    if (!arbel_fabric_deliver(s, m, rdata, &r) && s->dp.peer) {
        arbel_fabric_deliver(ARBEL_STUB(s->dp.peer), m, rdata, &r);
    }
    return r;
}

/**
 * arbel_fabric_plug - plug the cable's end into @s
 * @s: the device
 * @peer: the device at the other end, NULL to unplug
 */
void arbel_fabric_plug(ArbelState *s, PCIDevice *peer)
{
    s->dp.peer = peer;
}
