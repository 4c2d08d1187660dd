/*
 * arbel-stub: the IB ports: INIT_IB, CLOSE_IB, SET_IB.
 *
 * INIT_IB (in_mod: port 1 .. ports; inbox 56 bytes: VL cap 7:4, port width
 * 11:8, MTU cap 15:12 of dword 0, max GIDs be16 at 0x06, max P_Keys be16
 * at 0x0a) brings the port up; the firmware then reports a port state
 * change (event type 0x09, subtype 0x04 "active", the port in bits 29:28 of
 * EQE dword 3) on the EQ that MAP_EQ routed type 0x09 to, if any
 * (mthca's eq code port_change).  CLOSE_IB takes it down again (mthca closes
 * every port at removal, up or not).  SET_IB keeps the port's capability
 * mask.  Capabilities above QUERY_DEV_LIM's are logged, not refused: no
 * source states the refusal.  Documentation/arbel-stub.rst "Queue objects".
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-eq.h"
#include "arbel-objects.h"

/**
 * arbel_ib_reset - every port down
 * @s: the device
 */
void arbel_ib_reset(ArbelState *s)
{
    memset(&s->ports, 0, sizeof(s->ports));
}

/**
 * arbel_ib_port_up - whether INIT_IB brought @port up
 * @s: the device
 * @port: 1 .. ports
 *
 * Return: true between INIT_IB and CLOSE_IB.
 */
bool arbel_ib_port_up(ArbelState *s, unsigned int port)
{
    return port < ARRAY_SIZE(s->ports.up) && s->ports.up[port];
}

static bool arbel_ib_port_ok(ArbelState *s, uint32_t port)
{
    return port >= 1 && port <= s->props.num_ports;
}

/* capabilities the driver asks for above what QUERY_DEV_LIM reported */
static void arbel_ib_check_caps(ArbelState *s, const uint8_t *in)
{
    uint32_t flags = ldl_be_p(in);
    unsigned int vl = flags >> ARBEL_INIT_IB_VL_SHIFT & ARBEL_INIT_IB_CAP_MASK;
    unsigned int width = flags >> ARBEL_INIT_IB_WIDTH_SHIFT &
                         ARBEL_INIT_IB_CAP_MASK;
    unsigned int mtu = flags >> ARBEL_INIT_IB_MTU_SHIFT &
                       ARBEL_INIT_IB_CAP_MASK;

    if (vl > ARBEL_VL_CAP || width & ~ARBEL_PORT_WIDTH_CAP ||
        mtu > ARBEL_IB_MTU_2048 ||
        lduw_be_p(in + ARBEL_INIT_IB_MAX_GID) > (1u << ARBEL_LOG_NUM_GIDS) ||
        lduw_be_p(in + ARBEL_INIT_IB_MAX_PKEY) > (1u << ARBEL_LOG_NUM_PKEYS)) {
        arbel_unconfirmed(s, "INIT_IB caps above QUERY_DEV_LIM: vl %u "
                          "width 0x%x mtu %u gids %u pkeys %u", vl, width,
                          mtu, lduw_be_p(in + ARBEL_INIT_IB_MAX_GID),
                          lduw_be_p(in + ARBEL_INIT_IB_MAX_PKEY));
    }
}

/**
 * arbel_cmd_init_ib - INIT_IB: bring port in_mod up
 * @s: the device
 * @cmd: the command (inbox: the port's parameters)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_init_ib(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t d[24] = { 0 };
    uint32_t port = cmd->in_mod;
    uint8_t st;

    if (!arbel_ib_port_ok(s, port)) {
        return ARBEL_ST_BAD_PARAM;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_INIT_IB_IN_SIZE);
    if (st) {
        return st;
    }
    arbel_ib_check_caps(s, cmd->inbox);
    s->ports.inits++;
    if (s->ports.up[port]) {
        arbel_unconfirmed(s, "INIT_IB of port %u, already up", port);
        return ARBEL_ST_OK;
    }
    s->ports.up[port] = true;
    stl_be_p(d + ARBEL_EV_PORT_DATA, port << ARBEL_EV_PORT_SHIFT);
    arbel_eq_post_event(s, ARBEL_EV_PORT_CHANGE, ARBEL_PORT_SUB_ACTIVE, d);
    return ARBEL_ST_OK;
}

/**
 * arbel_cmd_close_ib - CLOSE_IB: take port in_mod down
 * @s: the device
 * @cmd: the command
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_close_ib(ArbelState *s, ArbelCmd *cmd)
{
    if (!arbel_ib_port_ok(s, cmd->in_mod)) {
        return ARBEL_ST_BAD_PARAM;
    }
    s->ports.up[cmd->in_mod] = false;
    return ARBEL_ST_OK;
}

/**
 * arbel_cmd_set_ib - SET_IB: the capability mask of port in_mod
 * @s: the device
 * @cmd: the command (inbox: flags, capability mask at 0x04)
 *
 * Return: a command status.
 */
uint8_t arbel_cmd_set_ib(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t st;

    if (!arbel_ib_port_ok(s, cmd->in_mod)) {
        return ARBEL_ST_BAD_PARAM;
    }
    st = arbel_inbox_read(s, cmd, ARBEL_SET_IB_IN_SIZE);
    if (st) {
        return st;
    }
    s->ports.cap_mask[cmd->in_mod] = ldl_be_p(cmd->inbox +
                                              ARBEL_SET_IB_CAP_MASK);
    return ARBEL_ST_OK;
}

/**
 * arbel_ib_lid - the LID of @port, as the built-in subnet manager gave it
 * @s: the device
 * @port: 1 .. the "ports" property
 *
 * The fabric's SM numbers ports in order from the "lid" property: port n
 * has LID lid + n - 1 (the SM is at LID 1, see arbel-mad.c), until a
 * SubnSet(PortInfo) gives it another.
 *
 * Return: the LID.
 */
uint16_t arbel_ib_lid(ArbelState *s, unsigned int port)
{
    if (port < ARRAY_SIZE(s->ports.lid) && s->ports.lid[port]) {
        return s->ports.lid[port];
    }
    return s->props.lid + port - 1;
}

/**
 * arbel_ib_sm_lid - the LID of @port's subnet manager
 * @s: the device
 * @port: 1 .. the "ports" property
 *
 * Return: the SM LID a SubnSet(PortInfo) gave, else 1 (the built-in SM).
 */
uint16_t arbel_ib_sm_lid(ArbelState *s, unsigned int port)
{
    if (port < ARRAY_SIZE(s->ports.sm_lid) && s->ports.sm_lid[port]) {
        return s->ports.sm_lid[port];
    }
    return 1;
}

/**
 * arbel_ib_set_lids - a SubnSet(PortInfo) through MAD_IFC: @port's LID and
 * its SM's, as a subnet manager assigns them (IBTA 14.2.5.6, PortInfo)
 * @s: the device
 * @port: 1 .. the "ports" property
 * @lid: the port's new LID
 * @sm_lid: its SM's LID
 */
void arbel_ib_set_lids(ArbelState *s, unsigned int port, uint16_t lid,
                       uint16_t sm_lid)
{
    if (port < ARRAY_SIZE(s->ports.lid)) {
        s->ports.lid[port] = lid;
        s->ports.sm_lid[port] = sm_lid;
    }
}

/**
 * arbel_ib_port_guid - the GUID of @port: the port-guid property + n - 1
 * @s: the device
 * @port: 1 .. the "ports" property
 *
 * Return: the GUID.
 */
uint64_t arbel_ib_port_guid(ArbelState *s, unsigned int port)
{
    return s->props.port_guid + port - 1;
}

/**
 * arbel_ib_pkey - entry @index of @port's P_Key table
 * @s: the device
 * @port: 1 .. the "ports" property
 * @index: the index
 *
 * The table MAD_IFC reports (arbel-mad.c): entry 0 is the default full
 * member key 0xffff, the others are empty (0x0000, invalid).
 *
 * Return: the P_Key.
 */
uint16_t arbel_ib_pkey(ArbelState *s, unsigned int port, unsigned int index)
{
    return index == 0 ? 0xffff : 0;
}
