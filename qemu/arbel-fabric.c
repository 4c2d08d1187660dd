/*
 * arbel-stub: the fabric -- which port a LID reaches.
 *
 * The built-in subnet manager (arbel-ib.c) gives port n of a device the
 * LID lid + n - 1.  A packet leaves an active port (INIT_IB done) and
 * reaches the active port whose LID is its destination LID: the same port
 * (loopback), the device's other port, or a port of the device at the
 * other end of the cable (the "cable" property of one of the two), as if
 * all were cabled to one switch.  A LID no active port has or a port that
 * is down reaches nothing.
 *
 * A multicast LID (0xc000 .. 0xfffe, IBTA 4.1.1; 0xffff is the permissive
 * LID) reaches every active port, a switch that floods: a UD packet with a
 * GRH is delivered, on each device, to every QP its MGM table attaches to
 * the GRH's destination GID (arbel-mcg.c), the sender's own QP included --
 * the kernel's IPoIB receive path drops the copies "the HCA has
 * replicated" of its own sends, so real HCAs make them; no Arbel source
 * names a loopback block.  Without a GRH the HCA has no GID to look up:
 * dropped.
 * Documentation/arbel-stub.rst "Data path", "Multicast".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-objects.h"
#include "arbel-dp.h"

#define ARBEL_LID_MCAST_FIRST   0xc000
#define ARBEL_LID_PERMISSIVE    0xffff
#define ARBEL_QPN_MULTICAST     0xffffff    /* IBTA 9.6.1.2: DestQP */
#define ARBEL_GRH_DGID          24
#define ARBEL_MCG_MAX_QPS       1024

/* the members of @m's group on @s that its ports reach; true: any */
static bool arbel_fabric_mc_deliver(ArbelState *s, ArbelMsg *m,
                                    uint8_t *rdata)
{
    g_autofree uint32_t *qpns = g_new(uint32_t, ARBEL_MCG_MAX_QPS);
    unsigned int n, i, p;
    bool any = false;
    ArbelMsg copy;

    n = arbel_mcg_members(s, m->grh_bytes + ARBEL_GRH_DGID, qpns,
                          ARBEL_MCG_MAX_QPS);
    for (p = 1; p <= s->props.num_ports; p++) {
        if (!arbel_ib_port_up(s, p)) {
            continue;
        }
        for (i = 0; i < n; i++) {
            copy = *m;
            copy.dqpn = qpns[i];
            any |= arbel_rq_receive(s, p, &copy, rdata) == ARBEL_RESP_ACK;
        }
    }
    return any;
}

/* a multicast LID: every member of the GRH's group, on both devices */
static ArbelResp arbel_fabric_multicast(ArbelState *s, ArbelMsg *m,
                                        uint8_t *rdata)
{
    bool any;

    if (m->st != ARBEL_QP_ST_UD || !m->grh) {
        arbel_unconfirmed(s, "multicast LID 0x%x %s: dropped", m->dlid,
                          m->grh ? "on a connected QP" : "without a GRH");
        return ARBEL_RESP_DROP;
    }
    if (m->dqpn != ARBEL_QPN_MULTICAST) {
        arbel_unconfirmed(s, "multicast LID 0x%x with DestQP 0x%x (IBTA: "
                          "0xffffff)", m->dlid, m->dqpn);
    }
    any = arbel_fabric_mc_deliver(s, m, rdata);
    if (s->dp.peer) {
        any |= arbel_fabric_mc_deliver(ARBEL_STUB(s->dp.peer), m, rdata);
    }
    return any ? ARBEL_RESP_ACK : ARBEL_RESP_DROP;
}

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

    if (port < 1 || port > s->props.num_ports || !arbel_ib_port_up(s, port)) {
        return ARBEL_RESP_DROP;
    }
    if (m->dlid >= ARBEL_LID_MCAST_FIRST && m->dlid != ARBEL_LID_PERMISSIVE) {
        return arbel_fabric_multicast(s, m, rdata);
    }
    if (arbel_sa_wants(s, port, m)) {
        arbel_sa_answer(s, port, m);
        return ARBEL_RESP_ACK;
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
