#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The subnet administrator's answers, asked through ib_umad as any
management tool asks them: SubnAdm MADs to QP1 at the port's SM LID.

  sa_query.py DEV PORT PEER_GID     (in the mthca-fabric stage's guest)

Each query is one KTAP result, its expected answer computed by hand from
IBTA vol. 1 15.2.5 (PathRecord, MCMemberRecord) and the stub's fabric
(Documentation/arbel-stub.rst "Subnet administrator"): a path to a known
port and to the asking port itself, none to an unknown LID
(ERR_NO_RECORDS, status 0x0300), the NodeRecord and PortInfoRecord of a
LID (none of an unknown one, too many without a LID:
ERR_TOO_MANY_RECORDS, 0x0400), the IPoIB broadcast group (Q_Key 0x0b1b, MLID 0xc000), a join with a P_Key the
port lacks (ERR_REQ_INVALID, 0x0200), a create without the components it
needs (ERR_REQ_INSUFFICIENT_COMPONENTS, 0x0600), a join and a leave, an
attribute the SA lacks (MAD status 0x000c).

The encoders and decoders are pure (tests/pylib/tests/test_fabric_cases.py
tests them); the device part uses /dev/infiniband/umad* with the old
56-byte ib_user_mad_hdr (no P_Key index) and a send-only agent.
"""

import fcntl
import glob
import os
import struct
import sys

SA_CLASS = 0x03
M_GET, M_SET, M_GET_RESP, M_DELETE, M_DELETE_RESP = 0x01, 0x02, 0x81, \
    0x15, 0x95
ATTR_NODE, ATTR_PORT_INFO = 0x0011, 0x0012
ATTR_PATH, ATTR_MCMEMBER = 0x0035, 0x0038
QP1_QKEY = 0x80010000
MAD_SIZE = 256
SA_DATA = 56

# component mask bits (the kernel's ib_sa.h)
PR_DGID, PR_SGID, PR_DLID = 1 << 2, 1 << 3, 1 << 4
MC_MGID, MC_PORT_GID, MC_QKEY, MC_TCLASS, MC_PKEY = 1, 2, 4, 1 << 6, 1 << 7
MC_SL, MC_FLOW, MC_JOIN = 1 << 12, 1 << 13, 1 << 16
MC_CREATE = MC_QKEY | MC_PKEY | MC_SL | MC_FLOW | MC_TCLASS

IPOIB_BCAST = bytes.fromhex('ff12401bffff000000000000ffffffff')

# ib_user_mad_hdr_old: id, status, timeout_ms, retries, length (host
# order), then qpn, qkey, lid, sl, path_bits, grh_present, gid_index,
# hop_limit, traffic_class, gid[16], flow_label (network order): 56 bytes
UMAD_HOST = struct.Struct('<5I')
UMAD_NET = struct.Struct('>IIHBBBBBB16sI')
UMAD_HDR_SIZE = UMAD_HOST.size + UMAD_NET.size
# ib_user_mad_reg_req: id, method_mask[4] (u32 each), qpn, class, version,
# oui[3], rmpp_version; 28 bytes with its padding
REG_REQ = struct.Struct('<I4IBBB3sBx')
IB_USER_MAD_REGISTER_AGENT = 0xc01c1b01   # _IOWR(0x1b, 1, 28 bytes)


def sa_mad(method, attr, comp_mask, record, tid):
    """A SubnAdm MAD: common header, an empty RMPP header, SM_Key 0,
    attribute offset 0, the component mask, the record."""
    hdr = struct.pack('>BBBBHHQHHI', 1, SA_CLASS, 2, method, 0, 0, tid,
                      attr, 0, 0)
    sa = bytes(12) + bytes(8) + struct.pack('>HHQ', 0, 0, comp_mask)
    mad = hdr + sa + record
    return mad + bytes(MAD_SIZE - len(mad))


def path_query(sgid, dgid=None, dlid=None):
    """PathRecord Get from @sgid to @dgid or to LID @dlid."""
    rec = bytearray(64)
    rec[24:40] = sgid
    mask = PR_SGID
    if dgid is not None:
        rec[8:24] = dgid
        mask |= PR_DGID
    if dlid is not None:
        struct.pack_into('>H', rec, 40, dlid)
        mask |= PR_DLID
    return ATTR_PATH, mask, bytes(rec)


def lid_record(lid=None, port=None):
    """A NodeRecord or PortInfoRecord query by LID (and port number): the
    LID at 0 (component mask bit 0), PortInfoRecord's port at 2 (bit
    1)."""
    rec = bytearray(8)
    mask = 0
    if lid is not None:
        struct.pack_into('>H', rec, 0, lid)
        mask |= 1
    if port is not None:
        rec[2] = port
        mask |= 2
    return mask, bytes(rec)


def node_fields(rec):
    """LID, NodeType and PortGUID of a NodeRecord (NodeInfo at 4: type at
    2, port GUID at 20; IBTA 14.2.5.3, 15.2.5.2)."""
    return {'lid': struct.unpack_from('>H', rec, 0)[0], 'type': rec[4 + 2],
            'port_guid': struct.unpack_from('>Q', rec, 4 + 20)[0]}


def port_info_fields(rec):
    """EndportLID, PortNum and PortInfo's LID (PortInfo at 4, its LID at
    16; IBTA 14.2.5.6, 15.2.5.3) of a PortInfoRecord."""
    return {'lid': struct.unpack_from('>H', rec, 0)[0], 'port': rec[2],
            'pi_lid': struct.unpack_from('>H', rec, 4 + 16)[0]}


def mc_record(mgid, port_gid, join=1, pkey=0xffff, qkey=0, sl=0, flow=0,
              tclass=0):
    """An MCMemberRecord (52 bytes; the kernel's sa_query.c layout)."""
    rec = bytearray(52)
    rec[0:16] = mgid
    rec[16:32] = port_gid
    struct.pack_into('>I', rec, 32, qkey)
    rec[39] = tclass
    struct.pack_into('>H', rec, 40, pkey)
    struct.pack_into('>I', rec, 44, sl << 28 | flow << 8)
    rec[48] = join
    return bytes(rec)


def answer(mad):
    """(method, MAD status, record bytes) of an SA response."""
    method, status = mad[3], struct.unpack_from('>H', mad, 4)[0]
    return method, status, mad[SA_DATA:]


def path_fields(rec):
    """DLID, SLID, P_Key, MTU (6 bits), reversible bit of a PathRecord."""
    dlid, slid = struct.unpack_from('>HH', rec, 40)
    return {'dlid': dlid, 'slid': slid,
            'pkey': struct.unpack_from('>H', rec, 50)[0],
            'mtu': rec[54] & 0x3f, 'reversible': rec[49] >> 7}


def mc_fields(rec):
    """MGID, Q_Key, MLID, P_Key, JoinState of an MCMemberRecord."""
    return {'mgid': rec[0:16], 'qkey': struct.unpack_from('>I', rec, 32)[0],
            'mlid': struct.unpack_from('>H', rec, 36)[0],
            'pkey': struct.unpack_from('>H', rec, 40)[0],
            'join': rec[48] & 0xf}


def parse_gid(text):
    """A sysfs GID ("fe80:0000:...") as 16 bytes."""
    return bytes.fromhex(text.strip().replace(':', ''))


class Umad:
    """A send-only agent on QP1 of one port (/dev/infiniband/umadN)."""

    def __init__(self, dev, port):
        path = None
        for d in glob.glob('/sys/class/infiniband_mad/umad*'):
            with open(os.path.join(d, 'ibdev')) as f:
                ibdev = f.read().strip()
            with open(os.path.join(d, 'port')) as f:
                p = int(f.read())
            if ibdev == dev and p == port:
                path = '/dev/infiniband/' + os.path.basename(d)
        if not path:
            raise OSError(f'no umad device for {dev} port {port}')
        self.fd = os.open(path, os.O_RDWR)
        req = bytearray(REG_REQ.pack(0, 0, 0, 0, 0, 1, 0, 0, bytes(3), 0))
        fcntl.ioctl(self.fd, IB_USER_MAD_REGISTER_AGENT, req)
        self.agent = REG_REQ.unpack(req)[0]
        base = f'/sys/class/infiniband/{dev}/ports/{port}'
        with open(base + '/sm_lid') as f:
            self.sm_lid = int(f.read(), 0)
        self.tid = 0x1000

    def query(self, method, attr, mask, rec):
        """Send one SA MAD, wait for its answer: (umad status, MAD)."""
        self.tid += 1
        hdr = UMAD_HOST.pack(self.agent, 0, 2000, 1, 0) + \
            UMAD_NET.pack(1, QP1_QKEY, self.sm_lid, 0, 0, 0, 0, 0, 0,
                          bytes(16), 0)
        os.write(self.fd, hdr + sa_mad(method, attr, mask, rec, self.tid))
        out = os.read(self.fd, UMAD_HDR_SIZE + MAD_SIZE)
        return UMAD_HOST.unpack_from(out)[1], out[UMAD_HDR_SIZE:]


def main():
    from arbeltest import ktap
    dev, port, peer = sys.argv[1], int(sys.argv[2]), parse_gid(sys.argv[3])
    k = ktap.Ktap()
    base = f'/sys/class/infiniband/{dev}/ports/{port}'
    with open(base + '/gids/0') as f:
        gid = parse_gid(f.read())
    with open(base + '/lid') as f:
        lid = int(f.read(), 0)
    u = Umad(dev, port)

    def ask(name, method, attr, mask, rec, want_status, check=None):
        st, mad = u.query(method, attr, mask, rec)
        if st:
            k.fail(name, f'no answer: umad status {st}')
            return None
        m, status, data = answer(mad)
        ok = status == want_status and (check is None or check(m, data))
        k.check(ok, name, f'method 0x{m:02x} status 0x{status:04x} '
                f'record {data[:56].hex()}')
        return data if ok else None

    path = ask('PathRecord to the peer: its LID and ours, P_Key 0xffff, '
               'MTU 2048, reversible', M_GET, *path_query(gid, dgid=peer), 0,
               lambda m, d: path_fields(d)['slid'] == lid and
               path_fields(d)['pkey'] == 0xffff and
               path_fields(d)['mtu'] == 4 and
               path_fields(d)['reversible'] == 1 and
               path_fields(d)['dlid'] != 0)
    ask('PathRecord to ourselves (loopback): our LID both ways', M_GET,
        *path_query(gid, dgid=gid), 0,
        lambda m, d: (path_fields(d)['dlid'], path_fields(d)['slid']) ==
        (lid, lid))
    ask('PathRecord to LID 0x999, which no port has: ERR_NO_RECORDS',
        M_GET, *path_query(gid, dlid=0x999), 0x0300)
    peer_lid = path_fields(path)['dlid'] if path else 0
    peer_guid = struct.unpack_from('>Q', peer, 8)[0]
    ask('NodeRecord of the peer\'s LID: a CA, its port GUID', M_GET,
        ATTR_NODE, *lid_record(peer_lid), 0,
        lambda m, d: node_fields(d) == {'lid': peer_lid, 'type': 1,
                                        'port_guid': peer_guid})
    ask('NodeRecord without a LID: ERR_TOO_MANY_RECORDS', M_GET, ATTR_NODE,
        *lid_record(), 0x0400)
    ask(f'PortInfoRecord of our LID and port {port}: PortInfo with our LID',
        M_GET, ATTR_PORT_INFO, *lid_record(lid, port), 0,
        lambda m, d: port_info_fields(d) == {'lid': lid, 'port': port,
                                             'pi_lid': lid})
    ask('PortInfoRecord of LID 0x999: ERR_NO_RECORDS', M_GET,
        ATTR_PORT_INFO, *lid_record(0x999), 0x0300)
    ask('MCMemberRecord Get of the IPoIB broadcast group: Q_Key 0x0b1b, '
        'MLID 0xc000', M_GET, ATTR_MCMEMBER, MC_MGID,
        mc_record(IPOIB_BCAST, gid), 0,
        lambda m, d: mc_fields(d)['qkey'] == 0x0b1b and
        mc_fields(d)['mlid'] == 0xc000)
    ask('join with P_Key 0x8123, not the port\'s: ERR_REQ_INVALID', M_SET,
        ATTR_MCMEMBER, MC_MGID | MC_PORT_GID | MC_PKEY | MC_JOIN,
        mc_record(IPOIB_BCAST, gid, pkey=0x8123), 0x0200)
    new = bytes.fromhex('ff12601b000000000000000000abcdef')
    ask('create without Q_Key, SL, FlowLabel, TClass: '
        'ERR_REQ_INSUFFICIENT_COMPONENTS', M_SET, ATTR_MCMEMBER,
        MC_MGID | MC_PORT_GID | MC_PKEY | MC_JOIN, mc_record(new, gid),
        0x0600)
    full = MC_MGID | MC_PORT_GID | MC_JOIN | MC_CREATE
    ask('join creating a group: GetResp, Q_Key as asked, a multicast LID',
        M_SET, ATTR_MCMEMBER, full, mc_record(new, gid, qkey=0x1234), 0,
        lambda m, d: m == M_GET_RESP and mc_fields(d)['qkey'] == 0x1234 and
        mc_fields(d)['mlid'] >= 0xc000 and mc_fields(d)['join'] == 1)
    ask('leave it: DeleteResp', M_DELETE, ATTR_MCMEMBER,
        MC_MGID | MC_PORT_GID | MC_JOIN, mc_record(new, gid), 0,
        lambda m, d: m == M_DELETE_RESP)
    ask('the group is gone with its last member: ERR_NO_RECORDS', M_GET,
        ATTR_MCMEMBER, MC_MGID, mc_record(new, gid), 0x0300)
    ask('an attribute the SA lacks (0x00ff): MAD status 0x000c', M_GET,
        0x00ff, 0, bytes(8), 0x000c)
    return k.finish()


if __name__ == '__main__':
    sys.exit(main())
