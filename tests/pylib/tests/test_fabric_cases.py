# SPDX-License-Identifier: GPL-2.0
"""The mthca-fabric stage's host-side Python: its case table and verdicts
(tests/fabric/fabric_cases.py) and the SA MAD encoders and decoders of
tests/fabric/sa_query.py, on hand-made output and bytes laid out by hand
from IBTA vol. 1 13.4 and 15.2.5 (the kernel's sa_query.c tables)."""

import importlib.util
import os
import struct
import unittest

TESTS = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
FABRIC = os.path.join(TESTS, 'fabric')


def load(path):
    name = os.path.splitext(os.path.basename(path))[0]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


here = unittest.skipUnless(
    os.path.isfile(os.path.join(FABRIC, 'fabric_cases.py')),
    'tests/fabric is not beside this copy (in the VM)')


@here
class Cases(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.fc = load(os.path.join(FABRIC, 'fabric_cases.py'))

    def test_every_judge_of_the_issue(self):
        names = [c.name for c in self.fc.cases()]
        self.assertEqual(len(set(names)), len(names))
        for mode in ('datagram', 'connected'):
            for pair in ('A -> B', 'B -> A', 'A -> C'):
                self.assertIn(f'{mode}: ping {pair}', names)
            self.assertIn(f'{mode}: TCP, 16 MiB from A to B, checksums '
                          'equal', names)
        for word in ('rping', 'ucmatose', 'udaddy', 'mckey', 'ib_write_bw -R',
                     'ib_send_lat -R'):
            self.assertTrue(any(word in n for n in names), word)

    def test_arbel_has_three_hosts(self):
        """arbel: two ports a device, as ib_mthca: A (arbel0 port 1), B
        (arbel0 port 2) and C (arbel1 port 1), so every case mthca-fabric
        runs; perftest names each side's own device and port."""
        drv = self.fc.DRIVERS['arbel']
        self.assertEqual(drv.ifaces, 4)
        self.assertEqual([c.name for c in self.fc.cases(drv)],
                         [c.name for c in self.fc.cases()])
        bw = next(c for c in self.fc.cases(drv) if 'ib_write_bw' in c.name)
        self.assertEqual(bw.servers[0][1][:6],
                         ['ib_write_bw', '-R', '-d', 'arbel0', '-i', '2'])
        self.assertEqual(bw.client[1][:6],
                         ['ib_write_bw', '-R', '-d', 'arbel0', '-i', '1'])
        mckey = next(c for c in self.fc.cases(drv) if 'mckey' in c.name)
        self.assertEqual([h for h, _ in mckey.servers], ['B', 'C'])

    def test_perftest_waits_for_the_listener(self):
        """perftest -R's client starts once the server's rdma_cm ID
        listens on perftest's port (mthca-fabric once failed with a fixed
        second's settle under load); the others keep their settle."""
        for c in self.fc.cases():
            want = self.fc.PERFTEST_PORT if c.group == 'perftest' else None
            self.assertEqual(c.listen, want, c.name)
        # iproute2's `rdma resource show cm_id` lines
        text = ('link mthca0/2 lqpn 0 qp-type RC state LISTEN ps TCP pid 512 '
                'comm ib_send_lat src-addr 10.9.0.2:18515 dst-addr 0.0.0.0:0\n'
                'link mthca0/1 lqpn 1 qp-type RC state CONNECT ps TCP pid 9 '
                'comm x src-addr 10.9.0.1:18516 dst-addr 10.9.0.2:18515\n')
        self.assertTrue(self.fc.listening(text, 18515))
        self.assertFalse(self.fc.listening(text, 18516))    # not LISTEN
        self.assertFalse(self.fc.listening(text, 1851))
        self.assertFalse(self.fc.listening('', 18515))

    def test_reload_cycles(self):
        """Issue 28: arbel is reloaded 10 times with IPoIB up; ib_mthca's
        stage does not repeat the mthca stages' reloads."""
        self.assertEqual(self.fc.DRIVERS['arbel'].cycles, 10)
        self.assertEqual(self.fc.DRIVERS['mthca'].cycles, 0)

    def test_fast_registration(self):
        """Issue 29: the storage group expects NVMe over Fabrics and NFS
        over RDMA to work on arbel and to be refused on ib_mthca."""
        self.assertTrue(self.fc.DRIVERS['arbel'].frwr)
        self.assertFalse(self.fc.DRIVERS['mthca'].frwr)

    def test_one_ping(self):
        """A reload cycle's single ping: 1 of 1 passes, 0 of 1 does not."""
        ok = ('1 packets transmitted, 1 packets received, 0% packet loss')
        lost = ('1 packets transmitted, 0 packets received, 100% packet '
                'loss')
        self.assertTrue(self.fc.ping_ok(ok, 1)[0])
        self.assertFalse(self.fc.ping_ok(lost, 1)[0])
        self.assertFalse(self.fc.ping_ok(ok)[0])

    def test_modes_in_order(self):
        modes = [c.mode for c in self.fc.cases() if c.mode]
        self.assertEqual(modes, sorted(modes, key=('datagram',
                                                    'connected').index))

    def test_ping(self):
        out = ('PING 10.9.0.2 (10.9.0.2): 56 data bytes\n'
               '3 packets transmitted, 3 packets received, 0% packet loss\n')
        self.assertTrue(self.fc.ping_ok(out)[0])
        self.assertFalse(self.fc.ping_ok(out.replace('3 packets received',
                                                     '2 packets received'))[0])
        self.assertFalse(self.fc.ping_ok('')[0])

    def test_rping_counts_the_client_lines(self):
        line = 'ping data: rdma-ping-%d: ABCDEFGHIJKL\n'
        good = ''.join(line % i for i in range(100))
        self.assertTrue(self.fc.rping_verdict([(0, ''), (0, good)])[0])
        self.assertFalse(self.fc.rping_verdict([(0, ''),
                                                (0, good[:-40])])[0])
        self.assertFalse(self.fc.rping_verdict([(1, ''), (0, good)])[0])

    def test_cmatose_needs_every_status_line(self):
        end = 'test complete\nreturn status 0\n'
        self.assertTrue(self.fc.cmatose_verdict([(0, end), (0, end)])[0])
        self.assertFalse(self.fc.cmatose_verdict([(0, end), (0, '')])[0])
        self.assertFalse(self.fc.cmatose_verdict(
            [(0, end), (0, 'return status 1\n')])[0])
        self.assertFalse(self.fc.cmatose_verdict([(None, end), (0, end)])[0])

    def test_xfer(self):
        n = str(16 << 20)
        same = [(0, f'{n} ab12\n'), (0, f'{n} ab12\n')]
        self.assertTrue(self.fc.xfer_verdict(same)[0])
        self.assertFalse(self.fc.xfer_verdict([(0, f'{n} ab12'),
                                               (0, f'{n} ab13')])[0])
        self.assertFalse(self.fc.xfer_verdict([(0, '5 ab12'),
                                               (0, '5 ab12')])[0])

    def test_mode_argv(self):
        self.assertEqual(self.fc.mode_argv('ib1', 'connected'),
                         [['ip', 'link', 'set', 'dev', 'ib1', 'type', 'ipoib',
                           'mode', 'connected'],
                          ['ip', 'link', 'set', 'dev', 'ib1', 'mtu',
                           '65520']])

    def test_link_up(self):
        self.assertTrue(self.fc.link_up('ib1   UP   80:00:00:48:fe:80 <UP>'))
        self.assertFalse(self.fc.link_up('ib1   DOWN   80:00 <NO-CARRIER>'))
        self.assertFalse(self.fc.link_up(''))


@here
class SaMads(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cls.sq = load(os.path.join(FABRIC, 'sa_query.py'))

    def test_header(self):
        """IBTA 13.4.2: base version 1, class 3, class version 2, the
        method, status 0, TID at 8, attribute ID at 16; 15.2.1.1: the
        component mask at 48, the record at 56."""
        mad = self.sq.sa_mad(0x02, 0x0038, 0x10083, b'\xaa' * 52, 0x1234)
        self.assertEqual(len(mad), 256)
        self.assertEqual(mad[:4], bytes([1, 3, 2, 2]))
        self.assertEqual(mad[8:16], bytes.fromhex('0000000000001234'))
        self.assertEqual(mad[16:18], bytes.fromhex('0038'))
        self.assertEqual(mad[24:48], bytes(24))
        self.assertEqual(mad[48:56], bytes.fromhex('0000000000010083'))
        self.assertEqual(mad[56:108], b'\xaa' * 52)
        self.assertEqual(mad[108:], bytes(148))

    def test_path_query(self):
        sgid = bytes(range(16))
        attr, mask, rec = self.sq.path_query(sgid, dlid=0x999)
        self.assertEqual((attr, mask), (0x0035, (1 << 3) | (1 << 4)))
        self.assertEqual(rec[24:40], sgid)          # SGID: word 6
        self.assertEqual(rec[40:42], b'\x09\x99')   # DLID: word 10, high
        self.assertEqual(len(rec), 64)

    def test_mc_record(self):
        rec = self.sq.mc_record(b'\xff' * 16, b'\x01' * 16, join=1,
                                pkey=0x8123, qkey=0x1234, sl=5, flow=0xabcde,
                                tclass=7)
        self.assertEqual(len(rec), 52)
        self.assertEqual(rec[32:36], bytes.fromhex('00001234'))
        self.assertEqual(rec[39], 7)
        self.assertEqual(rec[40:42], bytes.fromhex('8123'))
        # SL 31:28, FlowLabel 27:8, HopLimit 7:0 of word 11
        self.assertEqual(rec[44:48], bytes.fromhex('5abcde00'))
        self.assertEqual(rec[48], 1)

    def test_decoders(self):
        mad = bytearray(256)
        mad[3] = 0x81
        struct.pack_into('>H', mad, 4, 0x0300)
        rec = bytearray(64)
        struct.pack_into('>HH', rec, 40, 2, 1)
        rec[49] = 0x81
        struct.pack_into('>H', rec, 50, 0xffff)
        rec[54] = 0x84
        mad[56:120] = rec
        method, status, data = self.sq.answer(bytes(mad))
        self.assertEqual((method, status), (0x81, 0x0300))
        self.assertEqual(self.sq.path_fields(data),
                         {'dlid': 2, 'slid': 1, 'pkey': 0xffff, 'mtu': 4,
                          'reversible': 1})
        mc = bytearray(56)
        struct.pack_into('>IH', mc, 32, 0x0b1b, 0xc000)
        mc[48] = 0x21
        f = self.sq.mc_fields(bytes(mc))
        self.assertEqual((f['qkey'], f['mlid'], f['join']),
                         (0x0b1b, 0xc000, 1))

    def test_lid_record(self):
        """NodeRecord/PortInfoRecord queries: the LID at 0 (mask bit 0),
        PortInfoRecord's port at 2 (bit 1)."""
        self.assertEqual(self.sq.lid_record(0x1234, 2),
                         (3, bytes.fromhex('1234020000000000')))
        self.assertEqual(self.sq.lid_record(), (0, bytes(8)))

    def test_record_decoders(self):
        """NodeRecord: NodeInfo at 4 (NodeType its byte 2, PortGUID at
        its 20); PortInfoRecord: PortInfo at 4 (LID at its 16)."""
        nr = bytearray(112)
        struct.pack_into('>H', nr, 0, 3)
        nr[6] = 1
        struct.pack_into('>Q', nr, 24, 0x0002c903000b2d01)
        self.assertEqual(self.sq.node_fields(bytes(nr)),
                         {'lid': 3, 'type': 1,
                          'port_guid': 0x0002c903000b2d01})
        pir = bytearray(72)
        struct.pack_into('>H', pir, 0, 1)
        pir[2] = 1
        struct.pack_into('>H', pir, 20, 1)
        self.assertEqual(self.sq.port_info_fields(bytes(pir)),
                         {'lid': 1, 'port': 1, 'pi_lid': 1})

    def test_ipoib_broadcast_mgid(self):
        """RFC 4391: ff12:401b:<P_Key>::ffff:ffff, P_Key 0xffff."""
        self.assertEqual(self.sq.IPOIB_BCAST.hex(),
                         'ff12401bffff000000000000ffffffff')

    def test_umad_header_sizes(self):
        """ib_user_mad_hdr_old is 56 bytes, ib_user_mad_reg_req 28."""
        self.assertEqual(self.sq.UMAD_HDR_SIZE, 56)
        self.assertEqual(self.sq.REG_REQ.size, 28)
        self.assertEqual(self.sq.IB_USER_MAD_REGISTER_AGENT,
                         3 << 30 | 28 << 16 | 0x1b << 8 | 1)

    def test_parse_gid(self):
        self.assertEqual(self.sq.parse_gid(
            'fe80:0000:0000:0000:0002:c903:000b:2c01\n').hex(),
            'fe800000000000000002c903000b2c01')


if __name__ == '__main__':
    unittest.main()
