/*
 * arbel-stub: MAD_IFC, the firmware's subnet management agent.
 *
 * Answers SubnGet() for NodeDescription, NodeInfo, GUIDInfo, PortInfo and
 * P_KeyTable, and SubnSet(PortInfo) -- the LID and the SM LID a subnet
 * manager assigns; the rest of the attribute is not settable here --,
 * LID-routed (class 0x01) or directed-route (class 0x81), for port 1 ..
 * the "ports" property.  Other attributes get MAD status
 * 0x000c ("method / attribute combination not supported"), other methods
 * 0x0008 (method not supported), other management classes 0x0004 (bad
 * class/version).  The answer is a GetResp (method 0x81) in the 256-byte
 * outbox.
 *
 * Inbox: the 256-byte MAD (plus work-completion info when op_mod bit 2 is
 * set, ignored).  in_mod: port in bits 15:0 (1 .. ports), SLID in 31:16.
 *
 * The answers agree with QUERY_DEV_LIM (arbel-fw.c): ports, GUIDs per port
 * (GUIDCap = 2^ARBEL_LOG_NUM_GIDS), P_Keys (PartitionCap =
 * 2^ARBEL_LOG_NUM_PKEYS), MTU, widths and VLs.  Port n's GUID is the
 * port-guid property + n - 1, its LID the lid property + n - 1
 * (arbel-ib.c: the built-in subnet manager's numbering).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "arbel-state.h"
#include "arbel-trace.h"
#include "arbel-dma.h"
#include "arbel-objects.h"
#include "arbel-mad.h"

#define MAD_SIZE                256
#define MAD_DATA                64      /* SMP data offset */

#define MAD_CLASS_SMP_LID       0x01
#define MAD_CLASS_SMP_DR        0x81
#define MAD_METHOD_GET          0x01
#define MAD_METHOD_SET          0x02
#define MAD_METHOD_GET_RESP     0x81

#define MAD_ST_BAD_VERSION      0x0004
#define MAD_ST_UNSUP_METHOD     0x0008
#define MAD_ST_UNSUP_ATTR       0x000c
#define MAD_ST_INVALID_FIELD    0x001c
#define MAD_DR_DIRECTION        0x8000

#define ATTR_NODE_DESC          0x0010
#define ATTR_NODE_INFO          0x0011
#define ATTR_GUID_INFO          0x0014
#define ATTR_PORT_INFO          0x0015
#define ATTR_PKEY_TABLE         0x0016

#define ARBEL_VENDOR_OUI        0x0002c9

#define ARBEL_GUIDS_PER_BLOCK   8
#define ARBEL_PKEYS_PER_BLOCK   32

/**
 * arbel_mad_attr - the SMA's answer: attribute @attr of @port
 * @s: the device
 * @port: the port asked through, 1 .. ports
 * @attr: NodeDescription, NodeInfo, GUIDInfo, PortInfo or P_KeyTable
 * @mod: the attribute modifier (PortInfo: a port, 0 for @port; tables: a
 *       block)
 * @d: receives the attribute (the SMP's 64-byte data area, zeroed)
 *
 * Also the subnet administrator's source for its records (arbel-sa.c).
 *
 * Return: 0, or a MAD status.
 */
uint16_t arbel_mad_attr(ArbelState *s, unsigned int port, uint16_t attr,
                        uint32_t mod, uint8_t *d)
{
    uint64_t port_guid = arbel_ib_port_guid(s, port);

    switch (attr) {
    case ATTR_NODE_DESC:
        snprintf((char *)d, 64, "arbel-stub HCA-1");
        return 0;
    case ATTR_NODE_INFO:
        d[0] = 1;                                   /* base version */
        d[1] = 1;                                   /* class version */
        d[2] = 1;                                   /* node type: CA */
        d[3] = s->props.num_ports;                  /* ports */
        stq_be_p(d + 4, s->props.node_guid);        /* system image GUID */
        stq_be_p(d + 12, s->props.node_guid);
        stq_be_p(d + 20, port_guid);
        stw_be_p(d + 28, 1u << ARBEL_LOG_NUM_PKEYS); /* partition cap */
        stw_be_p(d + 30, ARBEL_DEVICE_ID);
        stl_be_p(d + 32, ARBEL_REVISION);
        stl_be_p(d + 36, (port << 24) | ARBEL_VENDOR_OUI); /* port, vendor */
        return 0;
    case ATTR_GUID_INFO:
        if (mod >= (1u << ARBEL_LOG_NUM_GIDS) / ARBEL_GUIDS_PER_BLOCK) {
            return MAD_ST_INVALID_FIELD;
        }
        if (mod == 0) {
            stq_be_p(d, port_guid);                 /* the rest are 0 */
        }
        return 0;
    case ATTR_PORT_INFO:
        if (mod > s->props.num_ports) {
            return MAD_ST_INVALID_FIELD;
        }
        stq_be_p(d + 8, 0xfe80000000000000ULL);     /* GID prefix */
        stw_be_p(d + 16, arbel_ib_lid(s, mod ? mod : port));
        stw_be_p(d + 18, arbel_ib_sm_lid(s, mod ? mod : port));
        stl_be_p(d + 20, 0x02510868);               /* capability mask */
        d[28] = mod ? mod : port;                   /* local port */
        d[29] = ARBEL_PORT_WIDTH_CAP;               /* width enabled 1x|4x */
        d[30] = ARBEL_PORT_WIDTH_CAP;               /* width supported */
        d[31] = 2;                                  /* width active 4x */
        d[32] = (3 << 4) | 4;                       /* SDR|DDR, ACTIVE */
        d[33] = (5 << 4) | 2;                       /* LinkUp, default poll */
        d[34] = 0;                                  /* LMC 0 */
        d[35] = (2 << 4) | 3;                       /* DDR active, enabled */
        d[36] = ARBEL_IB_MTU_2048 << 4;             /* neighbour MTU 2048 */
        d[37] = ARBEL_VL_CAP << 4;                  /* VL cap VL0-7 */
        d[41] = ARBEL_IB_MTU_2048;                  /* MTU cap 2048 */
        d[43] = ARBEL_VL_CAP << 4;                  /* operational VLs */
        d[50] = 1u << ARBEL_LOG_NUM_GIDS;           /* GUID cap */
        return 0;
    case ATTR_PKEY_TABLE:
        if (mod >= (1u << ARBEL_LOG_NUM_PKEYS) / ARBEL_PKEYS_PER_BLOCK) {
            return MAD_ST_INVALID_FIELD;
        }
        if (mod == 0) {
            stw_be_p(d, 0xffff);                    /* default full key */
        }
        return 0;
    default:
        return MAD_ST_UNSUP_ATTR;
    }
}

uint8_t arbel_cmd_mad_ifc(ArbelState *s, ArbelCmd *cmd)
{
    uint8_t out[MAD_SIZE];
    unsigned int port = cmd->in_mod & 0xffff;
    uint16_t status, attr;
    uint8_t *in, cls;
    uint8_t st;

    /* the port: QUERY_DEV_LIM 0x37 */
    if (port < 1 || port > s->props.num_ports) {
        return ARBEL_ST_BAD_PARAM;
    }
    /*
     * op_mod bits 2:0 (ignore M_Key, ignore B_Key, WC info valid) are
     * mthca's; bit 3 no source gives: noted, not refused
     */
    if (cmd->op_mod > 7) {
        arbel_unconfirmed(s, "MAD_IFC op_mod 0x%x (sources give bits 2:0)",
                          cmd->op_mod);
    }
    st = arbel_inbox_read(s, cmd, MAD_SIZE);
    if (st) {
        return st;
    }
    in = cmd->inbox;
    cls = in[1];
    attr = lduw_be_p(in + 16);

    memcpy(out, in, MAD_SIZE);
    memset(out + MAD_DATA, 0, 64);
    out[3] = MAD_METHOD_GET_RESP;
    if (in[0] != 1 || in[2] != 1 ||
        (cls != MAD_CLASS_SMP_LID && cls != MAD_CLASS_SMP_DR)) {
        status = MAD_ST_BAD_VERSION;
    } else if (in[3] == MAD_METHOD_SET && attr == ATTR_PORT_INFO &&
               ldl_be_p(in + 20) <= s->props.num_ports) {
        /* a subnet manager assigns the port's LID and its own */
        unsigned int p = ldl_be_p(in + 20) ?: port;

        arbel_ib_set_lids(s, p, lduw_be_p(in + MAD_DATA + 16),
                          lduw_be_p(in + MAD_DATA + 18));
        status = arbel_mad_attr(s, port, attr, ldl_be_p(in + 20),
                                out + MAD_DATA);
    } else if (in[3] == MAD_METHOD_SET) {
        status = MAD_ST_UNSUP_ATTR;
    } else if (in[3] != MAD_METHOD_GET) {
        status = MAD_ST_UNSUP_METHOD;
    } else {
        status = arbel_mad_attr(s, port, attr, ldl_be_p(in + 20),
                                out + MAD_DATA);
    }
    if (cls == MAD_CLASS_SMP_DR) {
        status |= MAD_DR_DIRECTION;
    }
    stw_be_p(out + 4, status);
    return arbel_outbox_write(s, cmd, out, sizeof(out));
}
